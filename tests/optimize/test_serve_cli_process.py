"""``paratrace serve`` as a real process: ``--port 0`` prints the port it got
(and that port answers), a ``models:/`` program without any tracking URI
is refused at once, naming what to pass, without creating an empty
``mlflow.db``, and a backbone that cannot take what a request sends (a dead
endpoint, a server that ignores the token bound) is refused before listening,
exit 2."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PARATRACE = (sys.executable, "-c", "from optimize.console import main; main()")


def _env(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("MLFLOW_TRACKING", "MLFLOW_REGISTRY",
                                                                     "PARATRACE_"))}
    env.update(MLFLOW_DISABLE_TELEMETRY="true", LITELLM_LOCAL_MODEL_COST_MAP="true", HOME=str(home),
               PYTHONUNBUFFERED="1")
    env.setdefault("PYTHONPATH", str(ROOT))
    return env


def test_port_0_prints_the_port_it_got(tmp_path):
    proc = subprocess.Popen([*PARATRACE, "serve", "--config", "b1", "--model", "scripted/null", "--port", "0"],
                            cwd=tmp_path, env=_env(tmp_path), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            text=True)
    try:
        line = ""
        for line in proc.stderr:
            if "serving" in line:
                break
        found = re.search(r"on http://127\.0\.0\.1:(\d+) ", line)
        assert found and found.group(1) != "0", line
        with urllib.request.urlopen(f"http://127.0.0.1:{found.group(1)}/health", timeout=60) as resp:
            assert json.loads(resp.read())["status"] == "ok"
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.communicate(timeout=120)
    assert proc.returncode == 128 + signal.SIGTERM  # stopped gracefully by uvicorn, then the shell's convention


def test_a_registry_program_without_a_tracking_uri_fails_fast_and_creates_nothing(tmp_path):
    done = subprocess.run([*PARATRACE, "serve", "--program", "models:/paratrace-b4-openai-m/1", "--port", "0"],
                          cwd=tmp_path, env=_env(tmp_path), capture_output=True, text=True, timeout=300)
    assert done.returncode == 2, done.stderr
    assert "models:/paratrace-b4-openai-m/1: no MLflow tracking URI" in done.stderr
    assert "--tracking-uri" in done.stderr and "Traceback" not in done.stderr
    assert not (tmp_path / "mlflow.db").exists() and not (tmp_path / "mlruns").exists()


def test_a_dead_endpoint_is_refused_before_listening(tmp_path):
    """As `run` does: the backbone answers a probe sent as a request is sent, or serve does not start."""
    from assistant.scripted_http import dead_url

    url = dead_url()
    done = subprocess.run([*PARATRACE, "serve", "--config", "b1", "--model", "openai/m", "--api-base", url,
                           "--port", "0"], cwd=tmp_path, env={**_env(tmp_path), "PARATRACE_API_KEY": "unused"},
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 2, done.stdout + done.stderr
    assert f"backbone openai/m at {url}: connection refused" in done.stderr
    assert "serving" not in done.stderr and "Traceback" not in done.stderr


def test_a_server_that_ignores_the_token_bound_is_refused_before_listening(tmp_path):
    from assistant.scripted import Script
    from assistant.scripted_http import ScriptedServer

    with ScriptedServer(Script(responder=lambda messages, schema: json.dumps({"result": "long " * 40}))) as server:
        done = subprocess.run([*PARATRACE, "serve", "--config", "b1", "--model", "openai/m", "--api-base",
                               server.base_url, "--port", "0"], cwd=tmp_path, env=_env(tmp_path),
                              capture_output=True, text=True, timeout=300)
        assert len(server.bodies) == 1 and server.bodies[0]["max_completion_tokens"] == 1  # the probe alone
    assert done.returncode == 2, done.stdout + done.stderr
    assert "ignored the token bound" in done.stderr and "serving" not in done.stderr
