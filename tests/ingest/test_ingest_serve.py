"""``POST /v1/ask`` with documents on the real server (uvicorn on 127.0.0.1):
the JSON answer carries the record and the evidence read, ``Accept:
text/html`` gives the reviewer's page, and a scan is a 422 naming the file."""

from __future__ import annotations

import base64
import json

import httpx
import pytest

from ingest_fixtures import DOCUMENTS
from ingest_fixtures import QUERY, TARGET, walkthrough_replies


def _app(replies):
    from assistant.api import Assistant
    from assistant.backends import Backbone
    from assistant.scripted import Script, scripted_lm
    from optimize.serve.app import create_app

    def factory(config):
        script = Script([json.dumps(r) for r in replies] * 4, fallback="null")
        return Assistant(config, backbone=Backbone("scripted/test", scripted_lm("scripted/test", script),
                                                   "scripted", json_schema=True))

    return create_app(factory, workers=1, max_body_bytes=4_000_000)


def _documents(fixture_files, roles=DOCUMENTS):
    out = []
    for role in roles:
        path = fixture_files[role]
        if path.suffix in (".html", ".txt"):
            out.append({"name": path.name, "text": path.read_text(encoding="utf-8")})
        else:
            out.append({"name": path.name, "content_base64": base64.b64encode(path.read_bytes()).decode()})
    return out


@pytest.fixture(scope="module")
def server(package):
    from optimize.serve.server import BackgroundServer

    with BackgroundServer(_app(walkthrough_replies(package))) as running:
        yield running


def test_documents_in_json_out_with_the_evidence_read(server, fixture_files):
    body = {"query": QUERY, "target": TARGET, "documents": _documents(fixture_files)}
    with httpx.Client(base_url=server.url, timeout=120) as client:
        answer = client.post("/v1/ask", json=body)
    assert answer.status_code == 200, answer.text
    data = answer.json()
    assert data["record"]["common"]["final_status"] == "rejected"
    assert len(data["evidence"]["fragments"]) == 28 and data["evidence"]["selection"]["left_out"] == []
    assert data["evidence"]["documents"][1]["renumbering"][0]["new"] == "Appendix 4"


def test_documents_in_html_out(server, fixture_files):
    body = {"query": QUERY, "target": TARGET, "documents": _documents(fixture_files), "budget": 5000}
    with httpx.Client(base_url=server.url, timeout=120) as client:
        page = client.post("/v1/ask", json=body, headers={"Accept": "text/html"})
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert '<div class="status rejected" id="status">rejected</div>' in page.text and "<svg" in page.text


@pytest.mark.parametrize("document, field, reason", [
    ("scan", "documents", "scanned-page.pdf: the PDF has no text layer"),
    ("bad64", "documents.0.content_base64", "x.pdf: content_base64 is not valid base64"),
])
def test_bad_documents_are_422_naming_the_file(server, fixture_files, document, field, reason):
    docs = _documents(fixture_files, ["scan"]) if document == "scan" else [{"name": "x.pdf", "content_base64": "%%"}]
    with httpx.Client(base_url=server.url, timeout=120) as client:
        answer = client.post("/v1/ask", json={"query": QUERY, "documents": docs})
    assert answer.status_code == 422
    error = answer.json()["error"]
    assert error["kind"] == "invalid_document" and error["field"] == field and error["reason"].startswith(reason)


def test_neither_evidence_nor_documents_is_refused(server):
    with httpx.Client(base_url=server.url, timeout=30) as client:
        answer = client.post("/v1/ask", json={"query": QUERY, "evidence": []})
        both = client.post("/v1/ask", json={"query": QUERY, "documents": [{"name": "a.txt"}]})
    assert answer.status_code == 422 and answer.json()["error"]["field"] == "evidence"
    assert both.status_code == 422 and "exactly one of 'content_base64' and 'text'" in both.json()["error"]["reason"]
