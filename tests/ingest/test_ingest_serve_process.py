"""``paratrace serve`` as a process under a flood of requests with documents (issue 32, item 2).

At most ``PARATRACE_DOC_MAX_CONCURRENT_INGESTIONS`` (2) requests with documents
are ingested at once, however many workers the service has; the others are
answered 503 ``busy`` with ``Retry-After`` at once, while ``/health`` and plain
requests keep being answered.  The served process imports a hook that holds
every ingestion until the test opens a gate (a file), so which requests run
together is decided by the test, not by timing; the HTTP timeouts and polling
bounds are only a safety net against a hang, never the assertion.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from pathlib import Path

import pytest

httpx = pytest.importorskip("httpx")

ROOT = Path(__file__).resolve().parents[2]
SAFETY_NET_S = 300
VALID = {"query": "Is a penalty due?", "target": "Penalty(supplier)",
         "evidence": [{"id": "E-01", "text": "The supplier pays a penalty for late delivery.", "source": "Contract"}]}
DOCUMENTS = {"query": "Is a penalty due?",
             "documents": [{"name": "contract.txt", "text": "1.1 The supplier pays a penalty for late delivery."}]}
HOOK = '''
import os, threading, time
import assistant.ingest.run as run

_real, _gate = run.prepare, os.environ["PARATRACE_TEST_GATE"]


def held(*args, **kwargs):
    open(os.path.join(_gate, "entered-%d" % threading.get_ident()), "w").close()
    while not os.path.exists(os.path.join(_gate, "open")):
        time.sleep(0.01)
    return _real(*args, **kwargs)


run.prepare = held
'''


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _until(condition, what: str):
    """Poll ``condition`` (the safety net: fail after SAFETY_NET_S rather than hang)."""
    deadline = time.monotonic() + SAFETY_NET_S
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.05)
    pytest.fail(f"never happened: {what}")


@pytest.fixture()
def served(tmp_path):
    """``paratrace serve --workers 16`` with the gate hook; yields (url, gate directory)."""
    (tmp_path / "hook").mkdir()
    (tmp_path / "hook" / "gate_hook.py").write_text(HOOK, encoding="utf-8")
    gate = tmp_path / "gate"
    gate.mkdir()
    port = _free_port()
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
           "PARATRACE_TEST_GATE": str(gate), "LITELLM_LOCAL_MODEL_COST_MAP": "true", "HOME": str(tmp_path)}
    env.pop("PARATRACE_DOC_MAX_CONCURRENT_INGESTIONS", None)
    code = (f"import sys; sys.path.insert(0, {str(tmp_path / 'hook')!r}); import gate_hook; "
            "from optimize.console import main; main()")
    server = subprocess.Popen([sys.executable, "-c", code, "serve", "--model", "scripted/null", "--workers", "16",
                               "--port", str(port), "--timeout", "120", "--log-level", "warning"],
                              env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=tmp_path)
    url = f"http://127.0.0.1:{port}"

    def up():
        if server.poll() is not None:
            pytest.fail(f"paratrace serve exited {server.returncode}: {server.stderr.read()[-2000:]!r}")
        try:
            return httpx.get(url + "/health", timeout=5).status_code == 200
        except httpx.TransportError:
            return False

    try:
        _until(up, "paratrace serve answering /health")
        yield url, gate
    finally:
        (gate / "open").touch()
        server.terminate()
        try:
            server.wait(timeout=60)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def test_a_flood_of_documents_is_ingested_two_at_a_time_and_health_keeps_answering(served):
    url, gate = served
    with httpx.Client(base_url=url, timeout=SAFETY_NET_S) as client, ThreadPoolExecutor(10) as pool:
        assert client.post("/v1/ask", json=VALID).status_code == 200  # warm: imports before the flood
        flood = [pool.submit(client.post, "/v1/ask", json=DOCUMENTS) for _ in range(10)]
        _until(lambda: len(list(gate.glob("entered-*"))) >= 2, "two ingestions started")
        pending = set(flood)
        answered = []
        while len(answered) < 8:  # everything but the two held ingestions is answered while they are held
            done, pending = wait(pending, timeout=SAFETY_NET_S, return_when=FIRST_COMPLETED)
            if not done:
                pytest.fail("a request with documents was neither ingested nor refused")
            answered += [f.result() for f in done]
        assert len(list(gate.glob("entered-*"))) == 2  # never a third ingestion at once
        for response in answered:
            assert response.status_code == 503, response.text
            assert response.json()["error"]["kind"] == "busy" and response.headers["retry-after"] == "1"
            assert "with documents" in response.json()["error"]["reason"]
        health = client.get("/health")
        assert health.status_code == 200 and health.json()["in_flight"] == 2, health.text
        assert client.post("/v1/ask", json=VALID).status_code == 200  # plain requests keep being served
        (gate / "open").touch()
        held = [f.result() for f in pending]
        assert [r.status_code for r in held] == [200, 200], [r.text for r in held]
        _until(lambda: client.get("/health").json()["in_flight"] == 0, "every slot free again")
        again = client.post("/v1/ask", json=DOCUMENTS)
        assert again.status_code == 200, again.text
