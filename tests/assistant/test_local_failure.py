"""A dead embedded server is named, with its signal and log tail: a stand-in
server process (a real HTTP server on 127.0.0.1 that answers the health check
and dies from SIGILL on its first completion, as a llama.cpp build with CPU
features the OS does not grant did) is started through ``start_server``."""

from __future__ import annotations

import os
import signal
import sys
import time

import dspy
import pytest
from typer.testing import CliRunner

from assistant.backends import Backbone, probe
from assistant.errors import BackendError, LocalModelError
from assistant import local_llm
from assistant.llama_engine import LlamaServerEngine
from optimize.root import app

CRASHING = r'''
import json, os, signal, sys
from http.server import BaseHTTPRequestHandler, HTTPServer
port = int(sys.argv[sys.argv.index("--port") + 1])
class H(BaseHTTPRequestHandler):
    def log_message(self, *a): pass
    def do_GET(self):
        body = json.dumps({"data": [{"id": "qwen2.5-coder-0.5b"}]}).encode()
        self.send_response(200); self.send_header("Content-Length", str(len(body))); self.end_headers()
        self.wfile.write(body)
    def do_POST(self):
        print("ggml: executing tilezero", flush=True)
        os.kill(os.getpid(), signal.SIGILL)
print("model loaded", flush=True)
HTTPServer(("127.0.0.1", port), H).serve_forever()
'''


@pytest.fixture
def crashing_server(tmp_path, monkeypatch):
    script = tmp_path / "fake_server.py"
    script.write_text(CRASHING)
    monkeypatch.setenv("PARATRACE_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(local_llm, "_require_model", lambda model: tmp_path / "model.gguf")
    monkeypatch.setattr(local_llm, "check_cpu", lambda: None)
    monkeypatch.setattr(local_llm, "server_command",
                        lambda gguf, port, **kw: [sys.executable, str(script), "--port", str(port)])
    info = local_llm.start_server(timeout=60)
    yield info
    local_llm.stop_server()


def test_a_server_that_dies_on_its_first_completion_is_named_with_signal_and_log(crashing_server):
    info = crashing_server
    engine = LlamaServerEngine(info.base_url, timeout=30)
    lm = dspy.LM(engine.model, engine=engine, cache=False, num_retries=0)
    backbone = Backbone(engine.model, lm, "local", json_schema=True, endpoint=engine.endpoint_id)
    with pytest.raises(BackendError) as err:
        probe(backbone)
    message = str(err.value)
    assert message.startswith("backbone local/qwen2.5-coder-0.5b at embedded llama.cpp server")
    assert f"(pid {info.pid}) died from SIGILL" in message
    assert "executing tilezero" in message and "pip cache remove llama_cpp_python" in message
    assert local_llm.status() is None  # and `paratrace local-llm status` says not running


def test_a_cpu_without_avx2_is_refused_before_any_start(tmp_path):
    cpuinfo = tmp_path / "cpuinfo"
    cpuinfo.write_text("processor\t: 0\nflags\t\t: fpu sse sse2 ssse3 sse4_1 sse4_2 avx\n")
    with pytest.raises(LocalModelError, match="no AVX2"):
        local_llm.check_cpu(cpuinfo)
    cpuinfo.write_text("flags\t\t: fpu sse2 avx avx2 fma f16c\n")
    local_llm.check_cpu(cpuinfo)


def test_local_llm_status_says_why_the_recorded_server_is_gone(crashing_server):
    info = crashing_server
    os.kill(info.pid, signal.SIGILL)
    while not _reaped(info.pid):
        time.sleep(0.05)
    result = CliRunner().invoke(app, ["local-llm", "status"])
    assert result.exit_code == 3
    assert f"not running (the recorded server (pid {info.pid}, port {info.port})" in result.output
    assert "model loaded" in result.output


def _reaped(pid: int) -> bool:
    try:
        return os.waitpid(pid, os.WNOHANG) != (0, 0)
    except ChildProcessError:
        return True


BUSY = r'''
import json, os, sys, time
from http.server import BaseHTTPRequestHandler, HTTPServer
port = int(sys.argv[sys.argv.index("--port") + 1]); release = sys.argv[sys.argv.index("--release") + 1]
started = release + ".started"
class H(BaseHTTPRequestHandler):
    def log_message(self, *a): pass
    def _send(self, payload):
        body = json.dumps(payload).encode()
        self.send_response(200); self.send_header("Content-Length", str(len(body))); self.end_headers()
        self.wfile.write(body)
    def do_GET(self):
        self._send({"data": [{"id": "qwen2.5-coder-0.5b"}]})
    def do_POST(self):  # one completion at a time, holding the server like llama.cpp's lock
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        open(started, "w").close()
        while not os.path.exists(release):
            time.sleep(0.05)
        self._send({"choices": [{"message": {"content": "{}"}}]})
HTTPServer(("127.0.0.1", port), H).serve_forever()
'''


def test_a_server_busy_with_a_completion_is_reused_not_started_twice(tmp_path, monkeypatch):
    """llama-cpp-python answers nothing else while it completes; another caller queues on it."""
    import threading
    import urllib.request

    script, release = tmp_path / "busy_server.py", tmp_path / "release"
    script.write_text(BUSY)
    monkeypatch.setenv("PARATRACE_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(local_llm, "_require_model", lambda model: tmp_path / "model.gguf")
    monkeypatch.setattr(local_llm, "check_cpu", lambda: None)
    monkeypatch.setattr(local_llm, "server_command", lambda gguf, port, **kw: [
        sys.executable, str(script), "--port", str(port), "--release", str(release)])
    info = local_llm.start_server(timeout=60)
    try:
        request = urllib.request.Request(f"{info.base_url}/chat/completions", data=b"{}", method="POST")
        busy = threading.Thread(target=lambda: urllib.request.urlopen(request, timeout=120).read())
        busy.start()
        while not (tmp_path / "release.started").exists():
            time.sleep(0.05)
        assert not local_llm._healthy(info.port, timeout=1.0)  # the model list waits behind the completion
        assert local_llm.status() == info
        assert local_llm.ensure_server() == info.base_url
        release.touch()
        busy.join()
    finally:
        release.touch()
        local_llm.stop_server()


SLOW = r'''
import json, os, sys, time
from http.server import BaseHTTPRequestHandler, HTTPServer
port = int(sys.argv[sys.argv.index("--port") + 1])
started = sys.argv[sys.argv.index("--started") + 1]
open(os.path.join(started, str(os.getpid())), "w").close()
time.sleep(1.5)  # loading the model
class H(BaseHTTPRequestHandler):
    def log_message(self, *a): pass
    def do_GET(self):
        body = json.dumps({"data": [{"id": "qwen2.5-coder-0.5b"}]}).encode()
        self.send_response(200); self.send_header("Content-Length", str(len(body))); self.end_headers()
        self.wfile.write(body)
HTTPServer(("127.0.0.1", port), H).serve_forever()
'''


def test_callers_starting_the_server_at_once_share_one_server(tmp_path, monkeypatch):
    """Four callers start the model while it loads: one server process, and all get it."""
    import threading

    script, started = tmp_path / "slow_server.py", tmp_path / "started"
    script.write_text(SLOW)
    started.mkdir()
    monkeypatch.setenv("PARATRACE_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(local_llm, "_require_model", lambda model: tmp_path / "model.gguf")
    monkeypatch.setattr(local_llm, "check_cpu", lambda: None)
    monkeypatch.setattr(local_llm, "server_command", lambda gguf, port, **kw: [
        sys.executable, str(script), "--port", str(port), "--started", str(started)])
    barrier, infos, errors = threading.Barrier(4), [], []

    def start():
        barrier.wait()
        try:
            infos.append(local_llm.start_server(timeout=60))
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=start) for _ in range(4)]
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert not errors
        assert len(os.listdir(started)) == 1  # one model loaded, not four
        assert len(set(infos)) == 1 and local_llm.status() == infos[0]
    finally:
        local_llm.stop_server()
        for pid in os.listdir(started):
            try:
                os.kill(int(pid), signal.SIGKILL)
            except ProcessLookupError:
                pass


ANSWERING = r'''
import json, os, sys
from http.server import BaseHTTPRequestHandler, HTTPServer
port = int(sys.argv[sys.argv.index("--port") + 1])
class H(BaseHTTPRequestHandler):
    def log_message(self, *a): pass
    def _send(self, payload):
        body = json.dumps(payload).encode()
        self.send_response(200); self.send_header("Content-Length", str(len(body))); self.end_headers()
        self.wfile.write(body)
    def do_GET(self):
        self._send({"data": [{"id": "qwen2.5-coder-0.5b"}]})
    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        self._send({"choices": [{"message": {"content": str(os.getpid())}, "finish_reason": "stop"}],
                    "usage": {"prompt_tokens": 3, "completion_tokens": 1}})
HTTPServer(("127.0.0.1", port), H).serve_forever()
'''


def test_a_server_its_owner_stopped_between_calls_is_started_again(tmp_path, monkeypatch, capfd):
    """Two runs share the embedded server; the one that started it ends and stops it: the other goes on."""
    script = tmp_path / "answering_server.py"
    script.write_text(ANSWERING)
    monkeypatch.setenv("PARATRACE_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(local_llm, "_require_model", lambda model: tmp_path / "model.gguf")
    monkeypatch.setattr(local_llm, "check_cpu", lambda: None)
    monkeypatch.setattr(local_llm, "server_command",
                        lambda gguf, port, **kw: [sys.executable, str(script), "--port", str(port)])
    first = local_llm.start_server(timeout=60)
    engine = LlamaServerEngine(first.base_url, timeout=30)
    lm = dspy.LM(engine.model, engine=engine, cache=False, num_retries=0)
    try:
        assert lm.forward(messages=[{"role": "user", "content": "hi"}]).choices[0].message.content == str(first.pid)
        assert local_llm.stop_server()  # the owner's exit
        reply = lm.forward(messages=[{"role": "user", "content": "hi"}]).choices[0].message.content
        second = local_llm.status()
        assert second is not None and second.pid != first.pid and reply == str(second.pid)
        assert engine.base_url == second.base_url
        assert f"the embedded llama.cpp server at {first.base_url} was gone" in capfd.readouterr().err
    finally:
        local_llm.stop_server()
