"""The hostile inputs of ``benchmarks/hostile_probe.py``, through ``paratrace`` as processes.

Classes: ``docx``, ``pdf``, ``eml`` (hostile documents through ``ingest`` and
``ask --doc``), ``fifo`` (every command reading a named pipe), ``symlink``,
``bad-utf8-name`` (file names that are not UTF-8), ``surrogate`` (lone
surrogates), ``bidi`` (bidi controls and terminal escapes), ``huge`` (huge
nodes, lines, numbers, nesting) and ``bom`` (UTF-8 byte order marks).  The
documents are built by ``tests/ingest/hostile_documents.py``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from hostile_harness import BIDI, EVIDENCE, ROOT, SUITE, Probe, load

__all__ = ["check_documents", "check_paths", "check_text"]

#: The builders of hostile documents, shared with the ingestion tests.
H = load(ROOT / "tests" / "ingest" / "hostile_documents.py", "hostile_documents")


def check_documents(p: Probe, bombs: bool) -> None:
    """Hostile DOCX, PDF and EML through ``ingest`` (and ``ask --doc`` for a few)."""
    ok_or_refused = (0, 2)
    xxe = ('<!DOCTYPE w:document [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
           f'<w:document {H.W}><w:body><w:p><w:r><w:t>1.1 &x;</w:t></w:r></w:p></w:body></w:document>')
    laughs = ('<!DOCTYPE w:document [<!ENTITY a "aaaaaaaaaa">' + "".join(
        f'<!ENTITY {chr(98 + i)} "{("&" + chr(97 + i) + ";") * 10}">' for i in range(9))
        + f']><w:document {H.W}><w:body><w:p><w:r><w:t>&j;</w:t></w:r></w:p></w:body></w:document>')
    docx = {
        "XXE (external entity to /etc/passwd)": (H.zip_archive({"word/document.xml": xxe.encode()}), ok_or_refused),
        "billion laughs": (H.zip_archive({"word/document.xml": laughs.encode()}), ok_or_refused),
        "not a zip archive": (b"PK\x03\x04 this is not a zip", (2,)),
        "zip without word/document.xml": (H.zip_archive({"other.xml": b"<x/>"}), (2,)),
        "truncated archive": (H.docx_xml("<w:p><w:r><w:t>1.1 A.</w:t></w:r></w:p>")[:200], (2,)),
        "61,680 one-character paragraphs": (H.docx(H.one_char_xml()), (0,)),
        "elements nested 100,000 deep": (H.zip_archive({"word/document.xml": f"<w:document {H.W}><w:body>".encode()
                                               + b"<w:sdt>" * 100_000 + b"</w:sdt>" * 100_000
                                               + b"</w:body></w:document>"}), ok_or_refused),
        "text node over libxml2's 10 MB bound": (H.docx_xml("<w:p><w:r><w:t>" + "A" * (11 * H.MB) + "</w:t></w:r></w:p>"),
                                                 ok_or_refused),
        "malformed XML": (H.zip_archive({"word/document.xml": b"<w:document><w:body><w:p>"}), (2,)),
    }
    if bombs:
        docx["one 1 GiB text node"] = (H.docx(H.huge_node_xml()), (2,))
        docx["200 paragraphs x 5 MiB"] = (H.docx(H.many_big_paragraphs_xml()), (2,))
    for name, (data, codes) in docx.items():
        path = p.write("hostile.docx", data)
        p.cli("docx", name, ["ingest", path.name, "-o", "out.json"], codes=codes)
        if "passwd" in name and (p.work / "out.json").exists():
            p.record("docx", "XXE reads no local file", "root:" not in (p.work / "out.json").read_text("utf-8",
                                                                                                   "replace"))
        (p.work / "out.json").unlink(missing_ok=True)
    pdfs = {
        "garbage after the header": (b"%PDF-1.4\n" + os.urandom(2000), (2,)),
        "truncated text PDF": (H.text_pdf()[:300], (2,)),
        "encrypted (said once)": (H.encrypted_pdf(), (2,)),
        "cyclic page tree": (H.pdf([b"<< /Type /Catalog /Pages 2 0 R >>",
                                   b"<< /Type /Pages /Kids [2 0 R] /Count 1 >>"]), (2,)),
        "no text layer": (H.pdf([b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                                b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>"]), (2,)),
        "a text PDF (control)": (H.text_pdf(), (0,)),
        "arrays nested 100,000 deep": (H.pdf([b"<< /Type /Catalog /Pages 2 0 R >>",
                                             b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                                             b"<< /Type /Page /Parent 2 0 R /MediaBox " + b"[" * 100_000
                                             + b"]" * 100_000 + b" >>"]), (2,)),
    }
    if bombs:
        pdfs["a stream inflating to 1 GiB"] = (H.pdf_bomb(), (2,))
        pdfs["16 pages inflating to 60 MiB each"] = (H.pdf_pages_bomb(), (2,))
    for name, (data, codes) in pdfs.items():
        path = p.write("hostile.pdf", data)
        done = p.cli("pdf", name, ["ingest", path.name, "-o", "out.json"], codes=codes)
        if done and "said once" in name:
            _, _, err = p.run(["ingest", path.name])
            line = err.decode("utf-8", "replace")
            p.record("pdf", "encrypted: the reason appears once", line.count("encrypted") == 1, line)
    emls = {
        "unknown charset": (H.eml("From: a@b.example\r\nSubject: x\r\nContent-Type: text/plain; charset=x-nonesuch",
                                 b"1.1 The supplier pays."), (2,)),
        "no text body (attachment only)": (
            H.eml("From: a@b.example\r\nContent-Type: multipart/mixed; boundary=B",
                 b"--B\r\nContent-Type: application/octet-stream\r\n\r\nxx\r\n--B--\r\n"), (2,)),
        "binary body": (H.eml("From: a@b.example\r\nContent-Type: image/png", b"\x89PNG\r\n"), (2,)),
        "bad base64 body": (H.eml("From: a@b.example\r\nContent-Type: text/plain\r\nContent-Transfer-Encoding: base64",
                                 b"!!!not base64!!!"), (0, 2)),
        "HTML body with a script": (H.eml("From: a@b.example\r\nContent-Type: text/html",
                                         b"<p>1.1 The supplier pays.</p><script>alert(1)</script>"), (0,)),
        "multipart nested 2,000 deep": (H.eml("From: a@b.example\r\nContent-Type: multipart/mixed; boundary=B0",
                                             b"".join(b"--B%d\r\nContent-Type: multipart/mixed; boundary=B%d\r\n\r\n"
                                                      % (i, i + 1) for i in range(2000))), (0, 2)),
        "a 5 MB header line": (H.eml("From: a@b.example\r\nSubject: " + "x" * (5 * H.MB), b"1.1 The supplier pays."),
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
    p.write("long-line.jsonl", SUITE.read_text("utf-8").splitlines()[0][:-1] + ', "pad": "' + "x" * (20 * H.MB) + '"}\n')
    p.cli("huge", "validate: a 20 MB line", ["validate", "long-line.jsonl"], says=("long-line.jsonl",))
    package("huge-text.json", [{**EVIDENCE[0], "text": "x" * (10 * H.MB)}])
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
    p.write("one-line.txt", "1.1 " + "word " * (3 * H.MB))
    p.cli("huge", "ingest: one 15 MB paragraph", ["ingest", "one-line.txt", "-o", "out.json"], codes=(0, 2))
    for name, data in (("deep.md", b"> " * 100_000 + b"x"), ("deep.html", b"<div>" * 200_000 + b"x")):
        p.write(name, data)
        p.cli("huge", f"ingest: {name} nested 100,000 deep", ["ingest", name, "-o", "out.json"], codes=(0, 2))
    p.write("too-big.txt", b"x" * (17 * H.MB))
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
