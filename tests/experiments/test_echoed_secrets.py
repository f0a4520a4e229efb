"""One redaction at the boundary of everything stored or returned (issue 32, item 1).

An OpenAI-compatible stub on 127.0.0.1 puts the request's ``Authorization``
header (and the bare key) into its *replies*: the first reply of a call is not
JSON, the re-ask gets a valid answer whose text quotes the key, and a request
marked ``ALWAYS-INVALID`` (or sent to ``/invalid/``) never gets a valid one.
The key then reaches the raw text, the re-ask log, the payload and the failure
reason.  ``ask`` (text, json, html; evidence and documents), ``serve`` (JSON
and HTML) and ``run`` (results, reports, MLflow) are driven as processes, and
every response, every file written and the MLflow store are searched for the
key: none holds it.
"""

from __future__ import annotations

import json
import os
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import httpx
import pytest

ROOT = Path(__file__).resolve().parents[2]
SUITE = ROOT / "tests" / "symbolic" / "fixtures" / "penalty_suite.jsonl"
KEY = "sk-test-SECRET123"  # shorter than the sk- key shape: only the environment names it a secret
EVIDENCE = [{"id": "E-01", "text": "The supplier pays a penalty for late delivery.", "source": "Contract"}]


class _EchoAuthorization(BaseHTTPRequestHandler):
    """Chat completions whose content quotes the request's Authorization header."""

    def do_POST(self):  # noqa: N802 - http.server's naming
        request = json.loads(self.rfile.read(int(self.headers.get("content-length") or 0)) or b"{}")
        header = self.headers.get("authorization", "")
        bare = header.removeprefix("Bearer ")
        messages = request.get("messages") or []
        text = json.dumps(messages)
        reask = any(m.get("role") == "assistant" for m in messages)
        if 1 in (request.get("max_tokens"), request.get("max_completion_tokens")):
            content, finish = "OK", "length"  # the runner's one-token probe
        elif reask and "ALWAYS-INVALID" not in text and "/invalid/" not in self.path:
            result = {"answer": f"The key is {bare} (header {header}).", "cited": [],
                      "conflict": False, "priority_applied": False, "status": "accepted"}
            content, finish = json.dumps({"result": result}), "stop"
        else:
            content, finish = f"You sent Authorization: {header}; the key {bare} works.", "stop"
        self._send({"id": "echo", "object": "chat.completion", "created": 0, "model": request.get("model", ""),
                    "choices": [{"index": 0, "finish_reason": finish,
                                 "message": {"role": "assistant", "content": content}}],
                    "usage": {"prompt_tokens": 10, "completion_tokens": 1 if content == "OK" else 10,
                              "total_tokens": 11 if content == "OK" else 20}})

    def _send(self, payload):
        body = json.dumps(payload).encode()
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.fixture()
def endpoint():
    server = ThreadingHTTPServer(("127.0.0.1", 0), _EchoAuthorization)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()
    thread.join()


def _env(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("MLFLOW_TRACKING", "PARATRACE_", "OPENAI"))}
    env.update(PARATRACE_API_KEY=KEY, MLFLOW_DISABLE_TELEMETRY="true", LITELLM_LOCAL_MODEL_COST_MAP="true",
               HOME=str(home), PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
    return env


def _command(*args) -> list[str]:
    return [sys.executable, "-c", "from optimize.console import main; main()", *map(str, args)]


def _cli(args, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(_command(*args), cwd=cwd, env=_env(cwd), capture_output=True, timeout=600)


def _files_with_key(root: Path) -> list[str]:
    return sorted(str(p.relative_to(root)) for p in root.rglob("*")
                  if p.is_file() and not p.is_symlink() and KEY.encode() in p.read_bytes())


def test_ask_in_every_format_shows_and_stores_no_echoed_key(tmp_path, endpoint):
    package = tmp_path / "pkg.json"
    package.write_text(json.dumps({"query": "Is a penalty due?", "target": "Penalty(supplier)",
                                   "evidence": EVIDENCE}), encoding="utf-8")
    invalid = tmp_path / "invalid.json"
    invalid.write_text(json.dumps({"query": "ALWAYS-INVALID: is a penalty due?", "target": "Penalty(supplier)",
                                   "evidence": EVIDENCE}), encoding="utf-8")
    document = tmp_path / "terms.txt"
    document.write_text("1. Delivery\n\n1.1 The supplier pays a penalty for late delivery.\n", encoding="utf-8")
    common = ["--config", "b1", "--model", "openai/echo", "--api-base", f"{endpoint}/v1"]
    outputs, answered, failed = [], 0, 0
    for fmt in ("text", "json", "html"):
        for source, retries in ((["-e", package], 1), (["-e", invalid], 0), (["-e", invalid], 1),
                                (["--doc", document, "-q", "Is a penalty due?"], 1)):
            done = _cli(["ask", *source, *common, "--max-retries", retries, "--format", fmt], tmp_path)
            out = (done.stdout + done.stderr).decode("utf-8")
            assert b"Traceback" not in done.stderr, out
            answered += done.returncode == 0
            failed += done.returncode == 1
            outputs.append(out)
    assert answered == 6 and failed == 6, outputs
    assert any("***" in out for out in outputs)  # the echo arrived, masked
    assert not [out for out in outputs if KEY in out]
    assert _files_with_key(tmp_path) == []  # the response cache included


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_serve_answers_json_and_html_without_the_echoed_key(tmp_path, endpoint):
    port = _free_port()
    log = open(tmp_path / "serve.log", "wb")
    server = subprocess.Popen(_command("serve", "--config", "b1", "--model", "openai/echo", "--api-base",
                                       f"{endpoint}/v1", "--port", port, "--workers", 2),
                              cwd=tmp_path, env=_env(tmp_path), stdout=log, stderr=subprocess.STDOUT)
    try:
        url = f"http://127.0.0.1:{port}"
        for _ in range(600):  # start-up: imports and the assistant
            try:
                if httpx.get(url + "/health", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert server.poll() is None, (tmp_path / "serve.log").read_text()
            time.sleep(0.2)
        bodies = []
        for query in ("Is a penalty due?", "ALWAYS-INVALID: is a penalty due?"):
            request = {"query": query, "target": "Penalty(supplier)", "evidence": EVIDENCE}
            for accept in ("application/json", "text/html"):
                answer = httpx.post(url + "/v1/ask", json=request, headers={"accept": accept}, timeout=120)
                assert answer.status_code == 200, answer.text
                bodies.append(answer.text)
            docs = {"query": query, "target": "Penalty(supplier)",
                    "documents": [{"name": "terms.txt", "text": "1.1 The supplier pays a penalty for delay.\n"}]}
            bodies.append(httpx.post(url + "/v1/ask", json=docs, timeout=120).text)
            bodies.append(httpx.post(url + "/invocations", json={"inputs": request}, timeout=120).text)
        records = [json.loads(b) for b in bodies if b.startswith("{")]
        assert any(r.get("meta", {}).get("hard_failure") for r in records)
        assert any(not r.get("meta", {"hard_failure": True}).get("hard_failure") for r in records)
        assert all("***" in b for b in bodies), bodies
        assert not [b for b in bodies if KEY in b]
    finally:
        server.terminate()
        server.wait(timeout=60)
        log.close()
    assert KEY not in (tmp_path / "serve.log").read_text(encoding="utf-8", errors="replace")
    assert _files_with_key(tmp_path) == []


def test_a_run_stores_no_echoed_key_in_results_reports_or_mlflow(tmp_path, endpoint):
    spec = tmp_path / "echo.toml"
    spec.write_text(f'name = "echo"\nsuites = ["{SUITE}"]\nconfigurations = ["b1"]\nlimit = 3\nmax_retries = 1\n'
                    f'concurrency = 1\n'
                    f'[[backbones]]\nalias = "reasks"\nmodel = "openai/echo"\napi_base = "{endpoint}/v1"\n'
                    f'[[backbones]]\nalias = "fails"\nmodel = "openai/echo"\napi_base = "{endpoint}/invalid/v1"\n',
                    encoding="utf-8")
    done = _cli(["run", spec, "--workdir", tmp_path], tmp_path)
    out = (done.stdout + done.stderr).decode("utf-8")
    assert done.returncode == 0 and "Traceback" not in out, out
    assert KEY not in out
    lines = [json.loads(x) for x in (tmp_path / "runs" / "echo" / "results.jsonl").read_text().splitlines()]
    assert {r["outcome"] for r in lines} == {"scored", "parse_failure"}
    assert any("***" in json.dumps(r) for r in lines)
    reports = list((tmp_path / "runs" / "echo" / "reports").rglob("*"))
    assert {"summary.md", "cases.csv", "cases.jsonl"} <= {p.name for p in reports}
    with sqlite3.connect(tmp_path / "mlflow.db") as db:
        tables = [row[0] for row in db.execute("select name from sqlite_master where type = 'table'")]
        rationales = [row[0] for row in db.execute("select rationale from assessments")]
        for table in tables:
            for row in db.execute(f'select * from "{table}"'):
                assert not any(isinstance(v, (str, bytes)) and KEY in (v if isinstance(v, str) else
                                                                       v.decode("utf-8", "replace"))
                               for v in row), (table, row)
    assert any(r and "hard failure" in r for r in rationales), rationales
    assert _files_with_key(tmp_path) == []
