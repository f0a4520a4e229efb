"""Bounded ingestion (issue 32, items 2 and 3): the streaming DOCX reader gives
python-docx's text and headings, the indexed cross-reference pass gives the
scan's results, and every limit stops a document with a typed error naming the
file and the limit (exit 2 on the command line; 413 or 422 from the service,
504 when the request's own time runs out, with no work after it)."""

from __future__ import annotations

import io
import json
import os
import random
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from assistant.ingest.docx_xml import read_docx
from assistant.ingest.errors import DocumentError
from assistant.ingest.limits import Deadline, DocumentLimitError, DocumentLimits
from assistant.ingest.package import _ClauseIndex, _matches, _resolve, ingest_bytes
from hostile_documents import docx as _docx_with
from hostile_documents import pdf

ROOT = Path(__file__).resolve().parents[2]


def _python_docx_blocks(data: bytes) -> list[tuple[str, bool]]:
    """What extract.py read with python-docx before: body paragraphs and table rows, in order."""
    import docx
    from docx.table import Table
    from docx.text.paragraph import Paragraph

    document = docx.Document(io.BytesIO(data))
    out = []
    for child in document.element.body.iterchildren():
        tag = child.tag.rsplit("}", 1)[-1]
        if tag == "p":
            para = Paragraph(child, document)
            style = (para.style.name if para.style is not None else "") or ""
            out.append((para.text, style.startswith(("Heading", "Title"))))
        elif tag == "tbl":
            out += [(" | ".join(c.text.strip() for c in row.cells), False) for row in Table(child, document).rows]
    return out


def _rich_docx() -> bytes:
    import docx
    from docx.enum.text import WD_BREAK

    document = docx.Document()
    document.add_heading("Supply Agreement", 0)
    document.add_heading("1. Delivery", level=1)
    para = document.add_paragraph("1.1 The supplier delivers\tby 1 May")
    para.add_run().add_break()
    para.add_run("unless clause 2 applies.")
    para.add_run().add_break(WD_BREAK.PAGE)
    document.add_paragraph("Caption text", style="Caption")
    document.add_paragraph("")
    table = document.add_table(rows=3, cols=3)
    for r in range(3):
        for c in range(3):
            table.cell(r, c).text = f"r{r}c{c}"
    table.cell(0, 0).merge(table.cell(0, 1))  # a horizontal span
    table.cell(1, 2).merge(table.cell(2, 2))  # a vertical span
    table.cell(2, 0).add_paragraph("second line")
    table.cell(0, 2).add_table(rows=1, cols=2).cell(0, 1).text = "nested"
    document.add_heading("2. Penalties", level=2)
    document.add_paragraph("2.1 A penalty of 1% applies.", style="List Number")
    from docx.oxml import parse_xml

    w = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'
    document.element.body.append(parse_xml(
        f'<w:p {w}><w:pPr><w:pStyle w:val="Heading3"/></w:pPr><w:r><w:t xml:space="preserve">2.2 See </w:t></w:r>'
        '<w:hyperlink><w:r><w:t>clause 1</w:t></w:r></w:hyperlink><w:ins><w:r><w:t>inserted</w:t></w:r></w:ins>'
        '<w:r><w:noBreakHyphen/><w:ptab/><w:cr/><w:br w:type="column"/><w:t>end</w:t></w:r>'
        '<w:bookmarkStart w:id="1"/></w:p>'))
    document.element.body.append(parse_xml(f'<w:p {w}><w:pPr><w:pStyle w:val="NoSuchStyle"/></w:pPr>'
                                           '<w:r><w:t>unknown style</w:t></w:r></w:p>'))
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


def test_the_streaming_docx_reader_reads_what_python_docx_reads(fixture_files):
    for data in (_rich_docx(), Path(fixture_files["amendment"]).read_bytes()):
        assert list(read_docx("x.docx", data, DocumentLimits())) == _python_docx_blocks(data)


_BODY = (b'<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>'
         b'%s</w:body></w:document>')


def test_docx_bombs_are_refused_before_they_are_expanded():
    limits = DocumentLimits(max_expanded_bytes=1_000_000)
    bomb = _docx_with(_BODY % (b"<w:p><w:r><w:t>" + b"A" * 5_000_000 + b"</w:t></w:r></w:p>"))
    assert len(bomb) < 50_000
    with pytest.raises(DocumentLimitError) as info:
        list(read_docx("bomb.docx", bomb, limits))
    assert info.value.limit == "max_expanded_bytes" and "bomb.docx" in str(info.value)
    laughs = (b'<?xml version="1.0"?><!DOCTYPE w:document [<!ENTITY a "aaaaaaaaaa">'
              b'<!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]>'
              + _BODY % b"<w:p><w:r><w:t>&c;&c;&c;</w:t></w:r></w:p>")
    assert [len(t) for t, _ in read_docx("laughs.docx", _docx_with(laughs), DocumentLimits())] == [0]
    xxe = (b'<?xml version="1.0"?><!DOCTYPE w:document [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
           + _BODY % b"<w:p><w:r><w:t>&x;</w:t></w:r></w:p>")
    assert list(read_docx("xxe.docx", _docx_with(xxe), DocumentLimits())) == [("", False)]
    with pytest.raises(DocumentError, match="not a readable DOCX"):
        list(read_docx("cut.docx", _docx_with(_BODY[:-30]), DocumentLimits()))


def test_every_limit_is_a_typed_error_naming_file_and_limit():
    many = _docx_with(_BODY % (b"<w:p><w:r><w:t>x</w:t></w:r></w:p>" * 3_000))
    cases = [(DocumentLimits(max_blocks=1_000), [("many.docx", many)], "max_blocks"),
             (DocumentLimits(max_file_bytes=100), [("a.txt", b"1.1 A penalty." * 20)], "max_file_bytes"),
             (DocumentLimits(max_total_bytes=300), [("a.txt", b"a" * 200), ("b.txt", b"b" * 200)], "max_total_bytes"),
             (DocumentLimits(max_text_chars=50), [("a.txt", b"word " * 40)], "max_text_chars"),
             (DocumentLimits(max_fragments=10), [("a.txt", "".join(f"{i}. Clause.\n\n" for i in range(1, 30))
                                                  .encode())], "max_fragments"),
             (DocumentLimits(max_cross_refs=5), [("a.txt", "".join(f"{i}. See clause 1.\n\n" for i in range(1, 30))
                                                  .encode())], "max_cross_refs")]
    for limits, files, name in cases:
        with pytest.raises(DocumentLimitError) as info:
            ingest_bytes(files, limits=limits)
        assert info.value.limit == name and name in str(info.value), str(info.value)
        assert str(info.value).startswith(info.value.file + ":") and "PARATRACE_DOC_" in str(info.value)


def test_the_time_limit_stops_ingestion_between_units_of_work():
    now = [0.0]

    def clock():
        now[0] += 1.0  # every check is a second later
        return now[0]

    text = "".join(f"{i}. Clause {i} applies.\n\n" for i in range(1, 3_000)).encode()
    with pytest.raises(DocumentLimitError, match="took longer than 2 s") as info:
        ingest_bytes([("slow.txt", text)], deadline=Deadline(DocumentLimits(max_seconds=2), clock))
    assert info.value.limit == "max_seconds" and info.value.file == "slow.txt"
    cut = Deadline(DocumentLimits(), clock, until=now[0] + 2)
    with pytest.raises(DocumentLimitError, match="outlasted the request's timeout"):
        ingest_bytes([("slow.txt", text)], deadline=cut)


def test_limits_come_from_the_environment_and_bad_values_are_configuration_errors():
    from assistant.errors import ConfigurationError

    assert DocumentLimits.from_env({"PARATRACE_DOC_MAX_SECONDS": "2.5"}).max_seconds == 2.5
    for env in ({"PARATRACE_DOC_MAX_PAGES": "3"}, {"PARATRACE_DOC_MAX_BLOCKS": "lots"},
                {"PARATRACE_DOC_MAX_BLOCKS": "0"}):
        with pytest.raises(ConfigurationError, match="PARATRACE_DOC_MAX_"):
            DocumentLimits.from_env(env)


def _scan_resolve(fid, loc, by_doc, renamed):
    """The cross-reference pass before the index: every fragment scanned per reference."""
    own = by_doc[loc["sha256"]]
    others = [f for sha, frags in by_doc.items() if sha != loc["sha256"] for f in frags]
    appendix = loc["clause"].split(", para")[0] if ", para" in loc["clause"] else None
    found = []
    for target in loc["references"]:
        wanted = [target, renamed[target]] if target in renamed else [target]
        if appendix and target.isdigit() is False and not target.startswith(("Appendix", "Annex", "Schedule")):
            wanted.append(f"{appendix}, para {target}")
        for pool in ((others, own) if target in loc["external"] else (own, others)):
            hits = [f.id for f in pool if f.id != fid and any(_matches(f.clause or "", w) for w in wanted)]
            if hits:
                found += hits
                break
    return tuple(dict.fromkeys(found))


def test_the_indexed_cross_reference_pass_finds_what_the_scan_finds():
    from types import SimpleNamespace as NS

    rng = random.Random(7)
    clauses = ["1", "1.1", "1.2", "1.2.1", "2", "2.1", "12", "12.1", "Appendix 2", "Appendix 2, para 1",
               "Appendix 2, para 1.1", "Appendix 3, para 4", "para 3", "preamble", "Scope. Terms", "1.1 (2)"]
    targets = ["1", "1.1", "1.2", "2", "12", "Appendix 2", "Appendix 2, para 1", "4", "3", "Scope", "9"]
    for _ in range(200):
        by_doc = {sha: [NS(id=f"{sha}-{i}", clause=rng.choice(clauses)) for i in range(rng.randint(1, 12))]
                  for sha in ("d1", "d2", "d3")[:rng.randint(1, 3)]}
        renamed = {"12": "1"} if rng.random() < 0.5 else {}
        index = _ClauseIndex(by_doc)
        for sha, frags in by_doc.items():
            for frag in frags:
                refs = tuple(rng.sample(targets, rng.randint(0, 4)))
                loc = {"sha256": sha, "clause": frag.clause, "references": refs,
                       "external": frozenset(t for t in refs if rng.random() < 0.3)}
                assert _resolve(frag.id, loc, index, renamed) == _scan_resolve(frag.id, loc, by_doc, renamed)


def _cli(*args, cwd, env=None):
    environ = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
               **(env or {})}
    return subprocess.run([sys.executable, "-c", "from optimize.console import main; main()", *map(str, args)],
                          capture_output=True, text=True, cwd=cwd, env=environ, timeout=300)


def test_the_command_line_refuses_a_document_over_a_limit_with_exit_2(tmp_path):
    (tmp_path / "many.docx").write_bytes(_docx_with(_BODY % (b"<w:p><w:r><w:t>x</w:t></w:r></w:p>" * 3_000)))
    done = _cli("ingest", "many.docx", cwd=tmp_path, env={"PARATRACE_DOC_MAX_BLOCKS": "1000"})
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert done.stderr.strip().splitlines() == [
        "paratrace: error: many.docx: more than 1000 paragraphs (blocks of text), over the limit max_blocks = 1000 "
        "(set PARATRACE_DOC_MAX_BLOCKS to change it)"]
    ok = _cli("ingest", "many.docx", cwd=tmp_path)
    assert ok.returncode == 0 and len(json.loads(ok.stdout)["fragments"]) == 3_000


def test_the_service_answers_413_422_and_504_and_stops_working_after_a_504(monkeypatch):
    import base64
    import time

    import httpx

    sys.path.insert(0, str(ROOT / "tests" / "optimize"))
    from serve_cases import make_app

    from optimize.serve.server import BackgroundServer

    monkeypatch.setenv("PARATRACE_DOC_MAX_EXPANDED_BYTES", "1000000")
    monkeypatch.setenv("PARATRACE_DOC_MAX_BLOCKS", "1000")
    bomb = _docx_with(_BODY % (b"<w:p><w:r><w:t>" + b"A" * 2_000_000 + b"</w:t></w:r></w:p>"))
    many = _docx_with(_BODY % (b"<w:p><w:r><w:t>x</w:t></w:r></w:p>" * 3_000))

    def doc(name, data):
        return {"query": "Is a penalty due?", "documents": [
            {"name": name, "content_base64": base64.b64encode(data).decode()}]}

    app, scripts = make_app([], workers=1, timeout_s=1.0)
    service = app.state.service
    import assistant.ingest.run as ingest_run

    real_prepare = ingest_run.prepare
    checks = []

    def slow_prepare(query, paths=(), *, files=(), deadline=None, **kw):
        if files and files[0][0] == "slow.txt":
            while True:  # an ingestion that never ends by itself: only its deadline stops it
                checks.append(time.monotonic())
                deadline.check("slow.txt", "reading its paragraphs")
                time.sleep(0.01)
        return real_prepare(query, paths, files=files, deadline=deadline, **kw)

    monkeypatch.setattr(ingest_run, "prepare", slow_prepare)
    with BackgroundServer(app) as server, httpx.Client(base_url=server.url, timeout=60) as client:
        too_big = client.post("/v1/ask", json=doc("bomb.docx", bomb))
        assert too_big.status_code == 413, too_big.text
        error = too_big.json()["error"]
        assert error["kind"] == "document_limit" and "bomb.docx" in error["reason"]
        assert "max_expanded_bytes" in error["reason"]
        too_many = client.post("/v1/ask", json=doc("many.docx", many))
        assert too_many.status_code == 422 and "max_blocks" in too_many.json()["error"]["reason"], too_many.text
        slow = client.post("/v1/ask", json={"query": "q?", "documents": [{"name": "slow.txt", "text": "1.1 A."}]})
        assert slow.status_code == 504, slow.text
        for _ in range(500):  # the worker stops at its next deadline check
            if service.in_flight == 0:
                break
            time.sleep(0.02)
        assert service.in_flight == 0 and service.abandoned == 0
        stopped_at = len(checks)
        time.sleep(0.2)
        assert len(checks) == stopped_at  # no work on the request after its 504
        health = client.get("/health")
        assert health.status_code == 200 and health.json()["abandoned"] == 0
    assert scripts["b4"].requests == []  # no model call for any of them


def test_requests_with_documents_hold_at_most_half_the_workers(monkeypatch):
    import threading

    import httpx

    sys.path.insert(0, str(ROOT / "tests" / "optimize"))
    from serve_cases import REQUEST, make_app

    from optimize.serve.server import BackgroundServer

    import assistant.ingest.run as ingest_run

    gate, entered = threading.Event(), threading.Event()
    real_prepare = ingest_run.prepare

    def held_prepare(*args, **kw):
        entered.set()
        gate.wait(60)
        return real_prepare(*args, **kw)

    monkeypatch.setattr(ingest_run, "prepare", held_prepare)
    app, _ = make_app([], workers=2)
    documents = {"query": "Is a penalty due?", "documents": [{"name": "a.txt", "text": "1.1 A penalty applies."}]}
    with BackgroundServer(app) as server, httpx.Client(base_url=server.url, timeout=60) as client:
        with ThreadPoolExecutor(1) as pool:
            first = pool.submit(client.post, "/v1/ask", json=documents)
            assert entered.wait(60)
            second = client.post("/v1/ask", json=documents)
            assert second.status_code == 503 and "with documents" in second.json()["error"]["reason"]
            assert second.headers["retry-after"] == "1"
            plain = client.post("/v1/ask", json=REQUEST)
            assert plain.status_code == 200, plain.text
            assert client.get("/health").json()["status"] == "ok"
            gate.set()
            assert first.result().status_code == 200, first.result().text


def test_a_pdf_stream_over_pypdf_s_bound_is_a_limit_error(monkeypatch):
    import pypdf
    from pypdf.errors import LimitReachedError

    from assistant.ingest.extract import extract_bytes

    def refuse(*args, **kwargs):
        raise LimitReachedError("Limit reached while decompressing: 75000001 > 75000000")

    monkeypatch.setattr(pypdf, "PdfReader", refuse)
    with pytest.raises(DocumentLimitError) as info:
        extract_bytes("bomb.pdf", b"%PDF-1.4\n")
    assert info.value.limit == "max_expanded_bytes" and str(info.value).startswith("bomb.pdf: a PDF stream")


def test_selection_keeps_no_more_fragments_than_the_assistant_accepts():
    from assistant.evidence import Limits
    from assistant.ingest.run import prepare

    text = "".join(f"Paragraph {i} says nothing.\n\n" for i in range(600)).encode()
    prepared = prepare("Is a penalty due?", files=[("notes.txt", text)], budget=100_000)
    assert len(prepared.fragments) == Limits().max_fragments == len(prepared.selection["kept"])
    reasons = {x["reason"] for x in prepared.selection["left_out"]}
    assert reasons == {"over the fragment limit (200) (no query word)"}, reasons
    small = prepare("Is a penalty due?", files=[("notes.txt", text)], budget=100_000, max_fragments=1_000)
    assert len(small.fragments) == 600 and small.selection["kept"][0]["reason"] == "all fragments fit the budget"


def test_pdf_pages_count_against_the_expanded_bytes_limit():
    import zlib

    from assistant.ingest.extract import extract_bytes

    stream = zlib.compress(b"BT /F1 12 Tf 72 712 Td (penalty) Tj ET\n" + b"%" + b"0" * 600_000 + b"\n", 9)
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [3 0 R 5 0 R] /Count 2 >>"]
    for page in (3, 5):
        objects += [b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents %d 0 R >>" % (page + 1),
                    b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(stream) + stream + b"\nendstream"]
    with pytest.raises(DocumentLimitError, match="by page 2") as info:
        extract_bytes("pages.pdf", pdf(objects), limits=DocumentLimits(max_expanded_bytes=1_000_000))
    assert info.value.limit == "max_expanded_bytes"
