"""Dying model endpoints and the service of ``benchmarks/hostile_probe.py``.

Class ``endpoint``: an OpenAI-compatible stub on 127.0.0.1 that answers 500,
closes the connection, answers garbage or dies after two answers, through
``ask`` and ``run`` (the circuit breaker, then ``--resume``), and
``paratrace serve`` with a failing backbone.  :func:`check_service` sends lone
surrogates and bidi controls in every field and a broken DOCX to a running
``paratrace serve``.
"""

from __future__ import annotations

import base64
import json
import socket
import subprocess
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from hostile_harness import BIDI, EVIDENCE, PARATRACE, SAFETY_NET_S, SUITE, Probe, free_port, paratrace_env

__all__ = ["check_endpoints", "check_service"]


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
                                                     f"http://127.0.0.1:{free_port()}/v1", "--config", "b1",
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
        p.cli("endpoint", "serve: refuses to start on a failing backbone (its preflight), naming it",
              ["serve", "--model", "openai/stub", "--api-base", url, "--port", free_port()], says=("openai/stub",))
        server.mode = "ok"  # up, then failing: what a running service answers
        port = free_port()
        serve = subprocess.Popen([*PARATRACE, "serve", "--model", "openai/stub", "--api-base", url, "--port", str(port),
                                  "--log-level", "warning", "--lm-timeout", "10", "--timeout", "60"], cwd=p.work,
                                 env=paratrace_env(p.work), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        check_service(p, serve, f"http://127.0.0.1:{port}", dead_backbone=True,
                      on_ready=lambda: setattr(server, "mode", "500"))
    finally:
        server.shutdown()
        server.server_close()


def check_service(p: Probe, serve: subprocess.Popen, url: str, dead_backbone: bool = False, on_ready=None) -> None:
    """Lone surrogates and bidi controls in every field, and a dead backbone, through ``paratrace serve``
    (``on_ready()`` is called once it answers ``/health``)."""
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
        if on_ready is not None:
            on_ready()
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
