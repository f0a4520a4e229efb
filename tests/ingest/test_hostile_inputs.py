"""Hostile inputs and faults (issue 32, items 4, 5, 7, 8 and 9), through the
commands as subprocesses and the service on 127.0.0.1: special files are
refused wherever a path is read, every input fault is exit 2 / HTTP 400 with
one line naming the file or field, ``--repair`` never writes through a link,
the HTML page shows bidi controls as visible marks and terminal lines escape
control sequences."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zlib
from pathlib import Path

import pytest
from hostile_documents import pdf_with_stream

ROOT = Path(__file__).resolve().parents[2]
SUITE = ROOT / "tests" / "symbolic" / "fixtures" / "penalty_suite.jsonl"
PARATRACE = [sys.executable, "-c", "from optimize.console import main; main()"]
EVIDENCE = [{"id": "E-01", "text": "The supplier pays a penalty for late delivery.", "source": "Contract"}]


def _run(*args, cwd=None, env=None) -> subprocess.CompletedProcess:
    """The command as a process; ``args`` may hold bytes (a file name that is not UTF-8)."""
    environ = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
               **(env or {})}
    argv = [a if isinstance(a, bytes) else str(a) for a in args]
    return subprocess.run([*PARATRACE, *argv], capture_output=True, cwd=cwd, env=environ, timeout=300)


def _one_error_line(done: subprocess.CompletedProcess) -> str:
    """The refusal: exit 2, no traceback, exactly one line on stderr."""
    err = done.stderr.decode("utf-8", "replace")
    assert done.returncode == 2, (done.returncode, err, done.stdout[-500:])
    assert "Traceback" not in err
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, lines
    return lines[0]


@pytest.fixture()
def fifo(tmp_path):
    path = tmp_path / "pipe.txt"
    os.mkfifo(path)
    link = tmp_path / "link.txt"
    link.symlink_to(path)
    return path, link


def test_a_fifo_is_refused_by_ingest_and_ask_doc_also_through_a_link(fifo, tmp_path):
    for path in fifo:
        for args in (("ingest", path), ("ask", "--doc", path, "-q", "Is a penalty due?", "--model", "scripted/null")):
            line = _one_error_line(_run(*args, cwd=tmp_path))
            assert "named pipe (FIFO)" in line and ("pipe.txt" in line or "link.txt" in line), line


def _eml(charset: str) -> bytes:
    return (f"From: a@example.com\nSubject: notice\nContent-Type: text/plain; charset={charset}\n\n"
            "The port is closed.\n").encode()


def test_input_faults_are_exit_2_with_one_line_naming_the_file(tmp_path):
    (tmp_path / "notice.eml").write_bytes(_eml("x-no-such-charset"))
    line = _one_error_line(_run("ingest", "notice.eml", cwd=tmp_path))
    assert "notice.eml" in line and "unknown charset" in line
    (tmp_path / "bomb.pdf").write_bytes(pdf_with_stream(zlib.compress(b"0" * 120_000_000, 9)))
    line = _one_error_line(_run("ingest", "bomb.pdf", cwd=tmp_path))  # pypdf stops inflating at its bound
    assert line.startswith("paratrace: error: bomb.pdf:"), line
    bad_name = os.fsencode(tmp_path) + b"/caf\xe9.txt"
    Path(os.fsdecode(bad_name)).write_text("1.1 A penalty applies.\n", encoding="utf-8")
    line = _one_error_line(_run("ingest", bad_name, cwd=tmp_path))
    assert "caf\\xe9.txt" in line and "not valid UTF-8" in line
    package = tmp_path / "pkg.json"
    package.write_text(json.dumps({"evidence": EVIDENCE}), encoding="utf-8")
    line = _one_error_line(_run("ask", "-e", package, "-q", b"penalty \xff?", "--model", "scripted/null",
                                cwd=tmp_path))
    assert "field query" in line and "surrogate" in line


def test_a_package_with_a_bom_is_read_by_ask_as_by_validate(tmp_path):
    package = tmp_path / "bom.json"
    package.write_bytes(b"\xef\xbb\xbf" + json.dumps({"query": "Is a penalty due?", "evidence": EVIDENCE}).encode())
    done = _run("ask", "-e", package, "--model", "scripted/null", "--config", "b1", cwd=tmp_path)
    assert done.returncode == 0, done.stderr.decode()
    assert b"status:" in done.stdout


def test_pdf_errors_are_one_line_said_once_and_names_escape_control_sequences(tmp_path):
    from pypdf import PdfWriter

    writer = PdfWriter()
    writer.add_blank_page(100, 100)
    writer.encrypt("secret-password")
    name = "x\x1b]0;pwned\x07.pdf"
    with open(tmp_path / name, "wb") as handle:
        writer.write(handle)
    line = _one_error_line(_run("ingest", name, cwd=tmp_path))
    assert line.count("encrypted") == 1 and "not a readable PDF" not in line, line
    assert "\x1b" not in line and "\x07" not in line and "x\\x1b]0;pwned\\x07.pdf" in line
    (tmp_path / "broken.pdf").write_bytes(b"%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 9 0 R >> endobj\ntrailer\n")
    line = _one_error_line(_run("ingest", "broken.pdf", cwd=tmp_path))
    assert line.startswith("paratrace: error: broken.pdf") and "not a readable PDF" in line


def test_the_html_page_shows_bidi_controls_as_marks(tmp_path):
    package = tmp_path / "bidi.json"
    spoofed = [{"id": "E-01", "text": "Pay \u2066the\u2069 penalty \u202bnow\u202c.", "source": "fdp.\u202eexe"}]
    package.write_text(json.dumps({"query": "Is a \u2067penalty\u2069 due?", "evidence": spoofed}), encoding="utf-8")
    document = tmp_path / "report\u202efdp.txt"
    document.write_text("1.1 The supplier pays a \u2066penalty\u2069 for late delivery.\n", encoding="utf-8")
    pages = []
    for source in (["-e", package], ["--doc", document, "-q", "Is a \u2067penalty\u2069 due?"]):
        done = _run("ask", *source, "--model", "scripted/null", "--config", "b1", "--format", "html", cwd=tmp_path)
        pages.append(done.stdout.decode("utf-8"))
        assert "<html" in pages[-1], done.stderr.decode()
    for page in pages:
        assert not any(c in page for c in "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
        assert "Is a [U+2067]penalty[U+2069] due?" in page
    assert "report[U+202E]fdp.txt" in pages[1]  # the documents table


def test_repair_never_writes_through_a_linked_result_log(tmp_path):
    from experiments.runner.run import run_experiment
    from experiments.runner.spec import ExperimentSpec

    spec = ExperimentSpec(name="t", suites=[str(SUITE)], configurations=["b1"], backbones=[{"model": "scripted/null"}],
                          concurrency=1, limit=2)
    run_experiment(spec, workdir=tmp_path, track=False)
    log = tmp_path / "runs" / "t" / "results.jsonl"
    outside = tmp_path / "elsewhere.jsonl"
    outside.write_bytes(log.read_bytes() + b"not json\n")
    before = outside.read_bytes()
    log.unlink()
    log.symlink_to(outside)
    toml = tmp_path / "t.toml"
    toml.write_text(f'name = "t"\nsuites = ["{SUITE}"]\nconfigurations = ["b1"]\nlimit = 2\nconcurrency = 1\n'
                    '[[backbones]]\nmodel = "scripted/null"\n', encoding="utf-8")
    line = _one_error_line(_run("run", toml, "--workdir", tmp_path, "--resume", "--repair", "--no-track",
                                cwd=tmp_path))
    assert "results.jsonl: is a symbolic link" in line
    assert outside.read_bytes() == before and log.is_symlink()
    assert not (log.parent / "results.quarantine.jsonl").exists()


def test_the_service_answers_400_to_lone_surrogates_in_any_field():
    import httpx

    from optimize.serve.server import BackgroundServer

    sys.path.insert(0, str(ROOT / "tests" / "optimize"))
    from serve_cases import make_app

    app, _ = make_app([], workers=1)
    bodies = {"query": '{"query": "a\\ud800?", "evidence": %s}',
              "evidence.0.text": '{"query": "q?", "evidence": [{"id": "E", "source": "s", "text": "\\udfff"}]}',
              "documents.0.name": '{"query": "q?", "documents": [{"name": "\\ud800.txt", "text": "1.1 A."}]}',
              "documents.0.text": '{"query": "q?", "documents": [{"name": "a.txt", "text": "1.1 \\udc80"}]}'}
    with BackgroundServer(app) as server, httpx.Client(base_url=server.url, timeout=60) as client:
        for field, body in bodies.items():
            answer = client.post("/v1/ask", content=body.replace("%s", json.dumps(EVIDENCE)).encode(),
                                 headers={"content-type": "application/json"})
            assert answer.status_code == 400, (field, answer.text)
            error = answer.json()["error"]
            assert error["kind"] == "invalid_json" and f"field {field}:" in error["reason"], error
        fine = client.post("/v1/ask", json={"query": "Is a penalty due? \U0001f600", "evidence": EVIDENCE})
        assert fine.status_code == 200, fine.text


def test_text_answers_escape_control_sequences(tmp_path):
    package = tmp_path / "osc.json"
    hostile = [{"id": "E-01", "text": "Pay the \u202epenalty.", "source": "C"}]
    package.write_text(json.dumps({"query": "Is a penalty due?", "evidence": hostile}), encoding="utf-8")
    reply = json.dumps({"result": {"answer": "Pay\x1b]0;pwned\x07 now \u202eevil\x1b[2J", "cited": [],
                                   "conflict": False, "priority_applied": False, "status": "accepted"}})
    replies = tmp_path / "replies.jsonl"
    replies.write_text(json.dumps({"reply": reply}) + "\n", encoding="utf-8")
    document = tmp_path / "notice.txt"
    document.write_text("1.1 The supplier pays a penalty.\n", encoding="utf-8")
    for source in (["-e", package], ["--doc", document, "-q", "Is a penalty due?"]):
        done = _run("ask", *source, "--model", f"scripted/replay:{replies}", "--config", "b1", cwd=tmp_path)
        out = done.stdout.decode("utf-8") + done.stderr.decode("utf-8")
        assert done.returncode == 0, out
        assert "answer: Pay\\x1b]0;pwned\\x07 now \\u202eevil\\x1b[2J" in out, out
        assert "\x1b" not in out and "\x07" not in out and "\u202e" not in out, out


def test_a_fifo_swapped_in_after_the_check_is_refused_without_blocking(tmp_path, monkeypatch):
    import symbolic.support.fsio as fsio
    from assistant.ingest.errors import DocumentError
    from assistant.ingest.extract import read_document

    path = tmp_path / "late.txt"
    os.mkfifo(path)
    real, calls = fsio.input_problem, []

    def passes_once(p):  # the check sees a regular file; by the open, a pipe is there
        calls.append(p)
        return None if len(calls) == 1 else real(p)

    monkeypatch.setattr(fsio, "input_problem", passes_once)
    with pytest.raises(DocumentError, match="late.txt: is a named pipe"):
        read_document(path)
