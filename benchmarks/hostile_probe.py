"""A probe of hostile inputs and faults against paratrace's commands and service (issue 32).

Every check runs ``paratrace`` as users run it (a process; the service on
127.0.0.1) and passes when the outcome is the documented one: exit 0 or 2 (a
typed refusal: exactly one ``paratrace: error:`` line naming the file or field,
no traceback, no ``internal error``, printable UTF-8 with no raw control or
bidi character), HTTP 4xx rather than 500 from the service, no raw bidi
control in an HTML page, and no hang (a process still running after a
safety-net timeout fails, its pipes opened for writing so it can end).

Classes (issue 32's list): ``docx``, ``pdf``, ``eml`` (hostile documents),
``fifo`` (every command reading a named pipe), ``symlink``, ``surrogate``
(lone surrogates), ``bidi``, ``bad-utf8-name`` (file names that are not
UTF-8), ``huge`` (huge nodes, lines, numbers, nesting), ``bom`` (UTF-8 byte
order marks) and ``endpoint`` (dying, failing and closing model endpoints).

Prints one JSON object: per class the count of checks passed and failed, and
each failure (class, check, why).  Run: ``python benchmarks/hostile_probe.py
[--only docx,pdf] [--no-bombs]``; exit status 1 when a check failed.
"""

from __future__ import annotations

import argparse
import base64
import importlib.util
import io
import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import threading
import time
import zipfile
from collections import defaultdict
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path



def _load(path: Path, name: str):
    """A module of this folder by its file (the folder is not put on ``sys.path``: its ``assistant.py``
    would hide the ``assistant`` package)."""
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_GEN = _load(Path(__file__).with_name("ingest.py"), "_ingest_generators")  # the generators of benchmarks/ingest.py
MB, _W, _docx, _one_char_xml = _GEN.MB, _GEN._W, _GEN._docx, _GEN._one_char_xml
_huge_node_xml, _many_big_paragraphs_xml = _GEN._huge_node_xml, _GEN._many_big_paragraphs_xml
_pdf_bomb, _pdf_pages_bomb = _GEN._pdf_bomb, _GEN._pdf_pages_bomb

__all__ = ["CLASSES", "Probe", "main"]

ROOT = Path(__file__).resolve().parents[1]
SUITE = ROOT / "tests" / "symbolic" / "fixtures" / "penalty_suite.jsonl"
PARATRACE = [sys.executable, "-c", "from optimize.console import main; main()"]
SAFETY_NET_S = 240
CLASSES = ("docx", "pdf", "eml", "fifo", "symlink", "surrogate", "bidi", "bad-utf8-name", "huge", "bom",
           "endpoint")
BIDI = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f"
_RAW_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f\x9b" + BIDI + "]")
EVIDENCE = [{"id": "E-01", "text": "The supplier pays a penalty for late delivery.", "source": "Contract"}]


def _env(home: Path) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("MLFLOW_TRACKING", "PARATRACE_"))}
    env.update(PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
               HOME=str(home), MLFLOW_DISABLE_TELEMETRY="true", LITELLM_LOCAL_MODEL_COST_MAP="true",
               OPENBLAS_NUM_THREADS="1")
    return env


class Probe:
    """Runs the checks and counts them per class.

    Parameters
    ----------
    work : Path
        The scratch directory (every command runs there).
    """

    def __init__(self, work: Path):
        self.work = work
        self.counts: dict[str, dict[str, int]] = defaultdict(lambda: {"pass": 0, "fail": 0})
        self.failures: list[dict] = []

    def record(self, cls: str, name: str, ok: bool, why: str = "") -> bool:
        """Count one check of class ``cls``."""
        self.counts[cls]["pass" if ok else "fail"] += 1
        if not ok:
            self.failures.append({"class": cls, "check": name, "why": why[:600]})
        print(f"{'pass' if ok else 'FAIL'} {cls}: {name}" + ("" if ok else f": {why[:300]}"), file=sys.stderr)
        return ok

    def run(self, args, *, stdin: bytes | None = None) -> tuple[int | None, bytes, bytes]:
        """``paratrace ARGS`` in the scratch directory; ``None`` as the code when it hung (then unblocked)."""
        argv = [a if isinstance(a, bytes) else str(a) for a in args]
        child = subprocess.Popen([*PARATRACE, *argv], cwd=self.work, env=_env(self.work), stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, stdin=subprocess.PIPE if stdin is not None else
                                 subprocess.DEVNULL)
        try:
            out, err = child.communicate(stdin, timeout=SAFETY_NET_S)
            return child.returncode, out, err
        except subprocess.TimeoutExpired:
            for fifo in self.work.rglob("*"):
                if fifo.is_fifo():
                    try:
                        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
                    except OSError:
                        pass
            child.kill()
            out, err = child.communicate()
            return None, out, err

    def cli(self, cls: str, name: str, args, *, codes=(2,), says: tuple[str, ...] = (), stdin: bytes | None = None,
            quiet_out: bool = False) -> bool:
        """A command's outcome: an exit code in ``codes``; a refusal is one clean line holding each of ``says``."""
        code, out, err = self.run(args, stdin=stdin)
        if code is None:
            return self.record(cls, name, False, "hung (killed after the safety net)")
        text = err.decode("utf-8", "replace")
        try:
            err.decode("utf-8")
        except UnicodeDecodeError:
            return self.record(cls, name, False, f"stderr is not UTF-8: {err[-200:]!r}")
        if code not in codes:
            return self.record(cls, name, False, f"exit {code} (expected {codes}): {text[-400:]}")
        if "Traceback" in text or "internal error" in text:
            return self.record(cls, name, False, f"traceback or internal error: {text[-400:]}")
        if code == 2:
            lines = [line for line in text.splitlines() if line.strip() and not line.startswith("t ━")]
            if len(lines) != 1 or not lines[0].startswith("paratrace: error: "):
                return self.record(cls, name, False, f"not one error line: {lines[:5]}")
            if _RAW_CONTROL.search(lines[0]):
                return self.record(cls, name, False, f"raw control or bidi character in {lines[0]!r}")
            missing = [s for s in says if s not in lines[0]]
            if missing:
                return self.record(cls, name, False, f"{missing} not in {lines[0]!r}")
        elif says:
            missing = [s for s in says if s not in text + out.decode("utf-8", "replace")]
            if missing:
                return self.record(cls, name, False, f"{missing} not in the output")
        if quiet_out and _RAW_CONTROL.search(out.decode("utf-8", "replace").replace("\n", "").replace("\t", "")):
            return self.record(cls, name, False, "raw control or bidi character in stdout")
        return self.record(cls, name, True)

    def write(self, name: str | bytes, data: bytes | str) -> Path | bytes:
        """A file in the scratch directory (a bytes name for one that is not UTF-8)."""
        if isinstance(name, bytes):
            path = os.fsencode(self.work) + b"/" + name
            with open(path, "wb") as handle:
                handle.write(data.encode() if isinstance(data, str) else data)
            return path
        path = self.work / name
        path.write_bytes(data.encode() if isinstance(data, str) else data)
        return path


def _zip(members: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return out.getvalue()


def _docx_xml(body: str) -> bytes:
    return _zip({"[Content_Types].xml": b"<Types/>",
                 "word/document.xml": f"<w:document {_W}><w:body>{body}</w:body></w:document>".encode()})


def _pdf(objects: list[bytes], root: int = 1, trailer_extra: bytes = b"") -> bytes:
    out, offsets = io.BytesIO(), []
    out.write(b"%PDF-1.4\n")
    for number, body in enumerate(objects, 1):
        offsets.append(out.tell())
        out.write(b"%d 0 obj\n" % number + body + b"\nendobj\n")
    xref = out.tell()
    out.write(b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
              + b"".join(b"%010d 00000 n \n" % o for o in offsets))
    out.write(b"trailer\n<< /Size %d /Root %d 0 R %s>>\nstartxref\n%d\n%%%%EOF\n"
              % (len(objects) + 1, root, trailer_extra, xref))
    return out.getvalue()


def _text_pdf(text: str = "1.1 The supplier pays a penalty.") -> bytes:
    stream = b"BT /F1 12 Tf 72 720 Td (" + text.encode() + b") Tj ET"
    return _pdf([b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                 b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
                 b"/Resources << /Font << /F1 5 0 R >> >> >>",
                 b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream",
                 b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"])


def _encrypted_pdf() -> bytes:
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(_text_pdf())))
    writer.encrypt("secret")
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def _eml(headers: str, body: bytes) -> bytes:
    return headers.encode() + b"\r\n\r\n" + body


def check_documents(p: Probe, bombs: bool) -> None:
    """Hostile DOCX, PDF and EML through ``ingest`` (and ``ask --doc`` for a few)."""
    ok_or_refused = (0, 2)
    xxe = ('<!DOCTYPE w:document [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
           f'<w:document {_W}><w:body><w:p><w:r><w:t>1.1 &x;</w:t></w:r></w:p></w:body></w:document>')
    laughs = ('<!DOCTYPE w:document [<!ENTITY a "aaaaaaaaaa">' + "".join(
        f'<!ENTITY {chr(98 + i)} "{("&" + chr(97 + i) + ";") * 10}">' for i in range(9))
        + f']><w:document {_W}><w:body><w:p><w:r><w:t>&j;</w:t></w:r></w:p></w:body></w:document>')
    docx = {
        "XXE (external entity to /etc/passwd)": (_zip({"word/document.xml": xxe.encode()}), ok_or_refused),
        "billion laughs": (_zip({"word/document.xml": laughs.encode()}), ok_or_refused),
        "not a zip archive": (b"PK\x03\x04 this is not a zip", (2,)),
        "zip without word/document.xml": (_zip({"other.xml": b"<x/>"}), (2,)),
        "truncated archive": (_docx_xml("<w:p><w:r><w:t>1.1 A.</w:t></w:r></w:p>")[:200], (2,)),
        "61,680 one-character paragraphs": (_docx(_one_char_xml()), (0,)),
        "elements nested 100,000 deep": (_zip({"word/document.xml": f"<w:document {_W}><w:body>".encode()
                                               + b"<w:sdt>" * 100_000 + b"</w:sdt>" * 100_000
                                               + b"</w:body></w:document>"}), ok_or_refused),
        "text node over libxml2's 10 MB bound": (_docx_xml("<w:p><w:r><w:t>" + "A" * (11 * MB) + "</w:t></w:r></w:p>"),
                                                 ok_or_refused),
        "malformed XML": (_zip({"word/document.xml": b"<w:document><w:body><w:p>"}), (2,)),
    }
    if bombs:
        docx["one 1 GiB text node"] = (_docx(_huge_node_xml()), (2,))
        docx["200 paragraphs x 5 MiB"] = (_docx(_many_big_paragraphs_xml()), (2,))
    for name, (data, codes) in docx.items():
        path = p.write("hostile.docx", data)
        p.cli("docx", name, ["ingest", path.name, "-o", "out.json"], codes=codes)
        if "passwd" in name and (p.work / "out.json").exists():
            p.record("docx", "XXE reads no local file", "root:" not in (p.work / "out.json").read_text("utf-8",
                                                                                                   "replace"))
        (p.work / "out.json").unlink(missing_ok=True)
    pdfs = {
        "garbage after the header": (b"%PDF-1.4\n" + os.urandom(2000), (2,)),
        "truncated text PDF": (_text_pdf()[:300], (2,)),
        "encrypted (said once)": (_encrypted_pdf(), (2,)),
        "cyclic page tree": (_pdf([b"<< /Type /Catalog /Pages 2 0 R >>",
                                   b"<< /Type /Pages /Kids [2 0 R] /Count 1 >>"]), (2,)),
        "no text layer": (_pdf([b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                                b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>"]), (2,)),
        "a text PDF (control)": (_text_pdf(), (0,)),
        "arrays nested 100,000 deep": (_pdf([b"<< /Type /Catalog /Pages 2 0 R >>",
                                             b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                                             b"<< /Type /Page /Parent 2 0 R /MediaBox " + b"[" * 100_000
                                             + b"]" * 100_000 + b" >>"]), (2,)),
    }
    if bombs:
        pdfs["a stream inflating to 1 GiB"] = (_pdf_bomb(), (2,))
        pdfs["16 pages inflating to 60 MiB each"] = (_pdf_pages_bomb(), (2,))
    for name, (data, codes) in pdfs.items():
        path = p.write("hostile.pdf", data)
        done = p.cli("pdf", name, ["ingest", path.name, "-o", "out.json"], codes=codes)
        if done and "said once" in name:
            _, _, err = p.run(["ingest", path.name])
            line = err.decode("utf-8", "replace")
            p.record("pdf", "encrypted: the reason appears once", line.count("encrypted") == 1, line)
    emls = {
        "unknown charset": (_eml("From: a@b.example\r\nSubject: x\r\nContent-Type: text/plain; charset=x-nonesuch",
                                 b"1.1 The supplier pays."), (2,)),
        "no text body (attachment only)": (
            _eml("From: a@b.example\r\nContent-Type: multipart/mixed; boundary=B",
                 b"--B\r\nContent-Type: application/octet-stream\r\n\r\nxx\r\n--B--\r\n"), (2,)),
        "binary body": (_eml("From: a@b.example\r\nContent-Type: image/png", b"\x89PNG\r\n"), (2,)),
        "bad base64 body": (_eml("From: a@b.example\r\nContent-Type: text/plain\r\nContent-Transfer-Encoding: base64",
                                 b"!!!not base64!!!"), (0, 2)),
        "HTML body with a script": (_eml("From: a@b.example\r\nContent-Type: text/html",
                                         b"<p>1.1 The supplier pays.</p><script>alert(1)</script>"), (0,)),
        "multipart nested 2,000 deep": (_eml("From: a@b.example\r\nContent-Type: multipart/mixed; boundary=B0",
                                             b"".join(b"--B%d\r\nContent-Type: multipart/mixed; boundary=B%d\r\n\r\n"
                                                      % (i, i + 1) for i in range(2000))), (0, 2)),
        "a 5 MB header line": (_eml("From: a@b.example\r\nSubject: " + "x" * (5 * MB), b"1.1 The supplier pays."),
                               (0, 2)),
    }
    for name, (data, codes) in emls.items():
        path = p.write("hostile.eml", data)
        p.cli("eml", name, ["ingest", path.name, "-o", "out.json"], codes=codes)
    path = p.write("hostile.eml", emls["unknown charset"][0])
    p.cli("eml", "unknown charset through ask --doc", ["ask", "--doc", path.name, "-q", "Is a penalty due?",
                                                        "--model", "scripted/null"], codes=(2,))


def check_paths(p: Probe) -> None:
    """Named pipes, symbolic links and file names that are not UTF-8, through every command that reads."""
    for name in ("pipe.jsonl", "pipe.json", "pipe.txt", "pipe.toml"):
        os.mkfifo(p.work / name)
    (p.work / "pkg.json").write_text(json.dumps({"query": "Is a penalty due?", "evidence": EVIDENCE}), "utf-8")
    (p.work / "outputs.jsonl").write_text(json.dumps({"case_id": "x", "configuration": "direct", "model": "m",
                                                      "common": {"final_status": "accepted"}}) + "\n", "utf-8")
    spec = (f'name = "t"\nsuites = ["{SUITE}"]\nconfigurations = ["b1"]\nlimit = 1\n'
            '[[backbones]]\nmodel = "scripted/null"\n')
    (p.work / "t.toml").write_text(spec, "utf-8")
    commands = {
        "validate": ["validate", "{jsonl}"], "status": ["status", "{jsonl}"],
        "import-peer": ["import-peer", "{jsonl}", "-o", "imported.jsonl"],
        "score --suite": ["score", "--suite", "{jsonl}", "--outputs", "outputs.jsonl", "--report", "r"],
        "score --outputs": ["score", "--suite", SUITE, "--outputs", "{jsonl}", "--report", "r"],
        "ask -e": ["ask", "-e", "{json}", "--model", "scripted/null", "--config", "b1"],
        "ask --doc": ["ask", "--doc", "{txt}", "-q", "Is a penalty due?", "--model", "scripted/null"],
        "ask scripted/replay": ["ask", "-e", "pkg.json", "--model", "scripted/replay:{jsonl}", "--config", "b1"],
        "ingest": ["ingest", "{txt}"],
        "run (spec)": ["run", "{toml}", "--dry-run", "--no-track"],
        "run --suite": ["run", "--suite", "{jsonl}", "--config", "b1", "--model", "scripted/null", "--dry-run",
                        "--no-track"],
        "suite check --file": ["suite", "check", "normative-en", "--file", "{jsonl}"],
        "suite stats --file": ["suite", "stats", "normative-en", "--file", "{jsonl}"],
        "suite build --from": ["suite", "build", "peer", "--from", "{jsonl}", "-o", "built.jsonl"],
        "oracle serve --suite": ["oracle", "serve", "--suite", "{jsonl}"],
    }

    def filled(args, **names):
        return [str(a).format(**names) if isinstance(a, str) else a for a in args]

    pipes = dict(jsonl="pipe.jsonl", json="pipe.json", txt="pipe.txt", toml="pipe.toml")
    for name, args in commands.items():
        p.cli("fifo", name, filled(args, **pipes), says=("named pipe (FIFO)",))
    done = p.run(["run", "t.toml", "--no-track"])
    if done[0] == 0:
        log = p.work / "runs" / "t" / "results.jsonl"
        kept = log.read_bytes()
        log.unlink()
        os.mkfifo(log)
        p.cli("fifo", "run --resume (result log)", ["run", "t.toml", "--resume", "--no-track"],
              says=("results.jsonl", "named pipe (FIFO)"))
        p.cli("fifo", "compare (run directory)", ["compare", "runs/t", "runs/t", "-o", "cmp"],
              says=("results.jsonl", "named pipe (FIFO)"))
        log.unlink()
        outside = p.work / "elsewhere.jsonl"
        outside.write_bytes(kept + b"not json\n")
        before = outside.read_bytes()
        log.symlink_to(outside)
        p.cli("symlink", "run --resume --repair with a linked result log", ["run", "t.toml", "--resume", "--repair",
                                                                            "--no-track"],
              says=("results.jsonl", "symbolic link"))
        p.record("symlink", "--repair left the link's target as it was", outside.read_bytes() == before)
    else:
        p.record("fifo", "a run to resume", False, done[2].decode("utf-8", "replace")[-300:])
    links = {"link-to-pipe": p.work / "pipe.jsonl", "link-to-zero": Path("/dev/zero"),
             "link-to-dir": p.work, "dangling": p.work / "nowhere", "loop-a": p.work / "loop-b"}
    for name, target in links.items():
        (p.work / name).symlink_to(target)
    (p.work / "loop-b").symlink_to(p.work / "loop-a")
    words = {"link-to-pipe": "named pipe (FIFO)", "link-to-zero": "character device", "link-to-dir": "directory",
             "dangling": "dangling symbolic link", "loop-a": "symbolic link loop"}
    for link, word in words.items():
        for name in ("validate", "ask -e", "ingest", "score --outputs", "run (spec)"):
            p.cli("symlink", f"{name} on {link}", filled(commands[name], jsonl=link, json=link, txt=link, toml=link),
                  says=(word,))
    p.write("doc.txt", "1.1 The supplier pays a penalty.\n")
    for name in ("schema -o", "ingest -o"):
        args = {"schema -o": ["schema", "-o", "link-to-zero"], "ingest -o": ["ingest", "doc.txt", "-o", "link-to-zero"]}
        p.cli("symlink", f"{name} a link to /dev/zero", args[name], says=("character device",))
        p.cli("symlink", f"{name} a link to a directory", [*args[name][:-1], "link-to-dir"], says=("directory",))
    bad = b"caf\xe9-\xff"
    p.write(bad + b".jsonl", SUITE.read_bytes())
    p.write(bad + b".json", json.dumps({"query": "Is a penalty due?", "evidence": EVIDENCE}))
    p.write(bad + b".txt", b"1.1 The supplier pays a penalty.\n")
    os.mkfifo(os.fsencode(p.work) + b"/" + bad + b"-pipe.txt")
    for name, args, codes in (("validate", ["validate", bad + b".jsonl"], (0, 2)),
                              ("status", ["status", bad + b".jsonl"], (0, 2)),
                              ("ask -e", ["ask", "-e", bad + b".json", "--model", "scripted/null", "--config", "b1"],
                               (0, 2)),
                              ("ingest", ["ingest", bad + b".txt"], (2,)),
                              ("ask --doc", ["ask", "--doc", bad + b".txt", "-q", "Q?", "--model", "scripted/null"],
                               (2,)),
                              ("ingest a pipe", ["ingest", bad + b"-pipe.txt"], (2,)),
                              ("score --outputs", ["score", "--suite", SUITE, "--outputs", bad + b".jsonl",
                                                   "--report", "r"], (0, 2))):
        p.cli("bad-utf8-name", name, args, codes=codes, quiet_out=True)


def check_text(p: Probe) -> None:
    """Lone surrogates, bidi controls, huge nodes and byte order marks on the command line."""
    def package(name, evidence, query="Is a penalty due?", raw: str | None = None):
        text = raw if raw is not None else json.dumps({"query": query, "evidence": evidence})
        return p.write(name, text)

    surrogate = {"evidence text": [{**EVIDENCE[0], "text": "Pay \ud800 now."}],
                 "evidence id": [{**EVIDENCE[0], "id": "E-\udc80"}],
                 "evidence source": [{**EVIDENCE[0], "source": "Contract \udfff"}]}
    for name, evidence in surrogate.items():
        path = package("surrogate.json", evidence)
        p.cli("surrogate", f"ask -e: {name}", ["ask", "-e", path.name, "--model", "scripted/null", "--config", "b1"],
              says=("surrogate",))
    path = package("surrogate.json", EVIDENCE, query="Is \ud800 due?")
    p.cli("surrogate", "ask -e: query", ["ask", "-e", path.name, "--model", "scripted/null", "--config", "b1"],
          says=("surrogate",))
    p.cli("surrogate", "ask -q from bytes that are a surrogate in CESU-8",
          ["ask", "-e", "pkg.json", "-q", b"Is \xed\xa0\x80 due?", "--model", "scripted/null", "--config", "b1"],
          codes=(0, 2))
    line = SUITE.read_text("utf-8").splitlines()[0].replace('"query":"', '"query":"\\ud800', 1)
    p.write("surrogate.jsonl", line + "\n")
    p.cli("surrogate", "validate: a suite line", ["validate", "surrogate.jsonl"], says=("surrogate",))
    p.write("surrogate.txt", "1.1 The supplier pays \\ud800.\n")
    p.cli("surrogate", "ingest: an escaped surrogate in a text document (kept as text)",
          ["ingest", "surrogate.txt", "-o", "out.json"], codes=(0,))
    evil = [{"id": "E-\u202e01", "text": "Pay \u202enow\u202c \u2066x\u2069 \u2067y\u2069.",
             "source": "Contract\u202e"}]
    path = package("bidi.json", evil)
    for fmt in ("html", "text", "json"):
        code, out, err = p.run(["ask", "-e", path.name, "--model", "scripted/null", "--config", "b1", "-f", fmt])
        shown = out.decode("utf-8", "replace")
        raw = [c for c in BIDI if c in shown] if fmt != "json" else []
        p.record("bidi", f"ask -e -f {fmt}: no raw bidi control", code == 0 and not raw,
                 f"exit {code}, raw {raw!r}: {err.decode('utf-8', 'replace')[-300:]}")
    p.write("evil\u202etxt.md", "1.1 The supplier pays.\n")
    p.cli("bidi", "ingest -o: the file name's bidi control escaped", ["ingest", "evil\u202etxt.md", "-o", "b.json"],
          codes=(0,), quiet_out=True)
    code, _, err = p.run(["ingest", "evil\u202etxt.md", "-o", "b.json"])
    p.record("bidi", "ingest -o: the line on stderr has no raw bidi control",
             code == 0 and not [c for c in BIDI if c in err.decode("utf-8", "replace")], err.decode()[-200:])
    p.write("osc\x1b]0;pwned\x07.txt", "1.1 The supplier pays.\n")
    p.cli("bidi", "ingest: a terminal escape in a file name", ["ingest", "osc\x1b]0;pwned\x07.txt", "-o", "c.json"],
          codes=(0,), quiet_out=True)
    p.write("long-line.jsonl", SUITE.read_text("utf-8").splitlines()[0][:-1] + ', "pad": "' + "x" * (20 * MB) + '"}\n')
    p.cli("huge", "validate: a 20 MB line", ["validate", "long-line.jsonl"], says=("long-line.jsonl",))
    package("huge-text.json", [{**EVIDENCE[0], "text": "x" * (10 * MB)}])
    p.cli("huge", "ask -e: a 10 MB fragment", ["ask", "-e", "huge-text.json", "--model", "scripted/null"])
    package("deep.json", None, raw='{"query": "Q?", "evidence": ' + "[" * 100_000 + "]" * 100_000 + "}")
    p.cli("huge", "ask -e: JSON nested 100,000 deep", ["ask", "-e", "deep.json", "--model", "scripted/null"])
    p.write("deep.jsonl", "[" * 100_000 + "]" * 100_000 + "\n")
    p.cli("huge", "validate: JSON nested 100,000 deep", ["validate", "deep.jsonl"])
    package("long-int.json", None, raw='{"query": "Q?", "seed": ' + "9" * 50_000 + ', "evidence": []}')
    p.cli("huge", "ask -e: a 50,000-digit number", ["ask", "-e", "long-int.json", "--model", "scripted/null"])
    many = [{"id": f"E-{i}", "text": "t", "source": "s"} for i in range(200_000)]
    package("many.json", many)
    p.cli("huge", "ask -e: 200,000 fragments", ["ask", "-e", "many.json", "--model", "scripted/null"])
    p.write("one-line.txt", "1.1 " + "word " * (3 * MB))
    p.cli("huge", "ingest: one 15 MB paragraph", ["ingest", "one-line.txt", "-o", "out.json"], codes=(0, 2))
    for name, data in (("deep.md", b"> " * 100_000 + b"x"), ("deep.html", b"<div>" * 200_000 + b"x")):
        p.write(name, data)
        p.cli("huge", f"ingest: {name} nested 100,000 deep", ["ingest", name, "-o", "out.json"], codes=(0, 2))
    p.write("too-big.txt", b"x" * (17 * MB))
    p.cli("huge", "ingest: a file over max_file_bytes", ["ingest", "too-big.txt"], says=("max_file_bytes",))
    p.write("q.txt", "1.1 The supplier pays.\n")
    p.cli("huge", "ask: a 100 KB query", ["ask", "--doc", "q.txt", "-q", "Q" * 100_000, "--model", "scripted/null"])
    bom = b"\xef\xbb\xbf"
    p.write("bom.json", bom + json.dumps({"query": "Is a penalty due?", "evidence": EVIDENCE}).encode())
    p.cli("bom", "ask -e: a package with a BOM", ["ask", "-e", "bom.json", "--model", "scripted/null", "--config",
                                                  "b1"], codes=(0,))
    p.write("bom.jsonl", bom + SUITE.read_bytes())
    p.cli("bom", "validate: a suite with a BOM", ["validate", "bom.jsonl"], codes=(0,))
    p.cli("bom", "status: a suite with a BOM", ["status", "bom.jsonl"], codes=(0,))
    p.write("bom-outputs.jsonl", bom + (p.work / "outputs.jsonl").read_bytes())
    p.cli("bom", "score: outputs with a BOM", ["score", "--suite", SUITE, "--outputs", "bom-outputs.jsonl",
                                              "--report", "rb", "--resamples", "20", "--no-audit", "--no-ncr"],
          codes=(0, 2), says=())
    p.write("bom.txt", bom + b"1.1 The supplier pays a penalty.\n")
    code, out, err = p.run(["ingest", "bom.txt"])
    first = json.loads(out)["fragments"][0]["text"] if code == 0 else ""
    p.record("bom", "ingest: a text document with a BOM (the mark is not text)",
             code == 0 and not first.startswith("\ufeff"), err.decode("utf-8", "replace")[-300:])
    if code == 0:
        p.write("bom-ingested.json", bom + out)
        p.cli("bom", "ask -e: an ingested package saved with a BOM", ["ask", "-e", "bom-ingested.json", "-q",
                                                                      "Is a penalty due?", "--model", "scripted/null",
                                                                      "--config", "b1"], codes=(0,))
    p.write("bom.toml", bom + (p.work / "t.toml").read_bytes())
    p.cli("bom", "run: a spec with a BOM", ["run", "bom.toml", "--dry-run", "--no-track"], codes=(0, 2))


class _Endpoint(BaseHTTPRequestHandler):
    """A model endpoint in one of the modes of ``server.mode``: ``500``, ``close``, ``garbage``, ``dies``."""

    def do_POST(self):  # noqa: N802 - http.server's naming
        request = json.loads(self.rfile.read(int(self.headers.get("content-length") or 0)) or b"{}")
        server, mode = self.server, self.server.mode
        probe = 1 in (request.get("max_tokens"), request.get("max_completion_tokens"))
        if mode == "dies":
            with server.lock:
                if not probe:
                    server.answered += 1
                mode = "ok" if probe or server.answered <= 2 else "500"
        if mode == "close":
            self.connection.shutdown(socket.SHUT_RDWR)
            return
        if mode == "garbage":
            body = b"\x00\xff not json"
        elif mode == "500":
            body = json.dumps({"error": {"message": "upstream is down", "type": "server_error"}}).encode()
        else:
            content = "OK" if probe else json.dumps({"result": {"answer": "A penalty is due.", "cited": [],
                                                                "conflict": False, "priority_applied": False,
                                                                "status": "accepted"}})
            body = json.dumps({"id": "x", "object": "chat.completion", "created": 0, "model": "stub",
                               "choices": [{"index": 0, "finish_reason": "length" if probe else "stop",
                                            "message": {"role": "assistant", "content": content}}],
                               "usage": {"prompt_tokens": 5, "completion_tokens": 1, "total_tokens": 6}}).encode()
        self.send_response(500 if mode == "500" else 200)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def check_endpoints(p: Probe) -> None:
    """Model endpoints that fail, close, answer garbage, refuse connections or die mid-run."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Endpoint)
    server.lock, server.answered, server.mode = threading.Lock(), 0, "500"
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/v1"
    try:
        for mode in ("500", "close", "garbage"):
            server.mode = mode
            p.cli("endpoint", f"ask: an endpoint that answers {mode}", ["ask", "-e", "pkg.json", "--model",
                                                                        "openai/stub", "--api-base", url, "--config",
                                                                        "b1", "--no-cache", "--max-retries", "0"],
                  codes=(2, 3))
        p.cli("endpoint", "ask: nothing listening", ["ask", "-e", "pkg.json", "--model", "openai/stub", "--api-base",
                                                     f"http://127.0.0.1:{_free_port()}/v1", "--config", "b1",
                                                     "--no-cache"], codes=(2, 3))
        server.mode, server.answered = "dies", 0
        spec = p.write("dies.toml", f'name = "dies"\nsuites = ["{SUITE}"]\nconfigurations = ["b1"]\nmax_retries = 1\n'
                                    f'backoff_s = 0\nconcurrency = 1\n[[backbones]]\nmodel = "openai/stub"\n'
                                    f'api_base = "{url}"\n')
        code, out, err = p.run(["run", spec.name, "--no-track", "--no-cache", "--stop-after-errors", "2"])
        text = err.decode("utf-8", "replace")
        errors = [line for line in text.splitlines() if line.startswith("paratrace: error:")]
        p.record("endpoint", "run: an endpoint dying mid-run stops the backbone (exit 3, one line)",
                 code == 3 and len(errors) == 1 and "consecutive infrastructure errors" in errors[0]
                 and "Traceback" not in text, f"exit {code}: {text[-400:]}")
        server.mode = "ok"
        code, out, err = p.run(["run", spec.name, "--no-track", "--no-cache", "--resume"])
        p.record("endpoint", "run --resume: finishes once the endpoint is back", code == 0,
                 err.decode("utf-8", "replace")[-300:])
        server.mode = "500"
        port = _free_port()
        serve = subprocess.Popen([*PARATRACE, "serve", "--model", "openai/stub", "--api-base", url, "--port", str(port),
                                  "--log-level", "warning", "--lm-timeout", "10", "--timeout", "60"], cwd=p.work,
                                 env=_env(p.work), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        check_service(p, serve, f"http://127.0.0.1:{port}", dead_backbone=True)
    finally:
        server.shutdown()
        server.server_close()


def check_service(p: Probe, serve: subprocess.Popen, url: str, dead_backbone: bool = False) -> None:
    """Lone surrogates and bidi controls in every field, and a dead backbone, through ``paratrace serve``."""
    import httpx

    try:
        for _ in range(600):
            if serve.poll() is not None:
                p.record("endpoint" if dead_backbone else "surrogate", "paratrace serve starts", False,
                         serve.stderr.read().decode("utf-8", "replace")[-400:])
                return
            try:
                if httpx.get(url + "/health", timeout=2).status_code in (200, 503):
                    break
            except httpx.TransportError:
                time.sleep(0.2)
        with httpx.Client(base_url=url, timeout=SAFETY_NET_S) as client:
            if dead_backbone:
                answer = client.post("/v1/ask", json={"query": "Is a penalty due?", "evidence": EVIDENCE})
                p.record("endpoint", "serve: a failing backbone is a 5xx naming it, not 500",
                         answer.status_code in (502, 503, 504) and "error" in answer.json(),
                         f"{answer.status_code}: {answer.text[:300]}")
                health = client.get("/health")
                p.record("endpoint", "serve: /health answers while the backbone fails", health.status_code == 200,
                         health.text[:200])
                return
            doc = {"name": "contract.txt", "text": "1.1 The supplier pays a penalty."}
            cases = {"query": {"query": "Is \ud800 due?", "evidence": EVIDENCE},
                     "evidence text": {"query": "Q?", "evidence": [{**EVIDENCE[0], "text": "Pay \ud800."}]},
                     "evidence id": {"query": "Q?", "evidence": [{**EVIDENCE[0], "id": "E\udc80"}]},
                     "document name": {"query": "Q?", "documents": [{**doc, "name": "c\ud800.txt"}]},
                     "document text": {"query": "Q?", "documents": [{**doc, "text": "1.1 Pay \ud800."}]},
                     "target": {"query": "Q?", "target": "P(\ud800)", "evidence": EVIDENCE}}
            for name, body in cases.items():
                text = json.dumps(body)  # \ud800 as an escape: valid JSON, a lone surrogate once decoded
                answer = client.post("/v1/ask", content=text, headers={"content-type": "application/json"})
                p.record("surrogate", f"serve: a lone surrogate in the {name}", answer.status_code == 400,
                         f"{answer.status_code}: {answer.text[:300]}")
            evil = {"query": "Is a penalty due?", "evidence": [{"id": "E-\u202e1", "text": "Pay \u202enow\u2066.",
                                                                 "source": "C\u2067"}],
                    "documents": [{"name": "x\u202e.txt", "text": "1.1 Pay \u2067now."}]}
            answer = client.post("/v1/ask", json=evil, headers={"accept": "text/html"})
            raw = [c for c in BIDI if c in answer.text]
            p.record("bidi", "serve: the HTML page shows no raw bidi control", answer.status_code == 200 and not raw,
                     f"{answer.status_code}, raw {raw!r}")
            blob = base64.b64encode(b"PK\x03\x04broken").decode()
            answer = client.post("/v1/ask", json={"query": "Q?", "documents": [{"name": "x.docx",
                                                                                 "content_base64": blob}]})
            p.record("docx", "serve: a broken DOCX is a 4xx naming it", 400 <= answer.status_code < 500
                     and "x.docx" in answer.text, f"{answer.status_code}: {answer.text[:300]}")
    finally:
        serve.terminate()
        try:
            serve.wait(timeout=60)
        except subprocess.TimeoutExpired:
            serve.kill()


def main(argv=None) -> dict:
    """Run the probe; print and return the JSON report."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default=",".join(CLASSES), help="Classes to probe (comma-separated).")
    parser.add_argument("--no-bombs", action="store_true", help="Skip the 1 GiB bombs (slow to build).")
    args = parser.parse_args(argv)
    only = set(args.only.split(","))
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="paratrace-probe-") as tmp:
        p = Probe(Path(tmp))
        if only & {"docx", "pdf", "eml"}:
            check_documents(p, bombs=not args.no_bombs)
        if only & {"fifo", "symlink", "bad-utf8-name"}:
            check_paths(p)
        if only & {"surrogate", "bidi", "huge", "bom"}:
            if not (p.work / "pkg.json").exists():
                (p.work / "pkg.json").write_text(json.dumps({"query": "Is a penalty due?", "evidence": EVIDENCE}))
                (p.work / "outputs.jsonl").write_text("\n")
                (p.work / "t.toml").write_text(f'name = "t"\nsuites = ["{SUITE}"]\nconfigurations = ["b1"]\n'
                                               'limit = 1\n[[backbones]]\nmodel = "scripted/null"\n')
            check_text(p)
            port = _free_port()
            serve = subprocess.Popen([*PARATRACE, "serve", "--model", "scripted/null", "--port", str(port),
                                      "--log-level", "warning"], cwd=p.work, env=_env(p.work),
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            check_service(p, serve, f"http://127.0.0.1:{port}")
        if "endpoint" in only:
            if not (p.work / "pkg.json").exists():
                (p.work / "pkg.json").write_text(json.dumps({"query": "Is a penalty due?", "evidence": EVIDENCE}))
            check_endpoints(p)
    report = {"seconds": round(time.monotonic() - started, 1),
              "classes": {c: dict(p.counts[c]) for c in CLASSES if c in p.counts},
              "total": {"pass": sum(c["pass"] for c in p.counts.values()),
                        "fail": sum(c["fail"] for c in p.counts.values())},
              "failures": p.failures}
    print(json.dumps(report, indent=2, ensure_ascii=False))
    return report


if __name__ == "__main__":
    sys.exit(1 if main()["total"]["fail"] else 0)
