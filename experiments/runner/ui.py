"""``paratrace ui``: the MLflow UI on 127.0.0.1 for the local tracking store.

Started lean: MLflow's job execution is off (two processes, about 0.5 GiB
instead of ten and 2 GiB), one worker, loopback only.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

from ..errors import ExperimentError
from .tracking import default_tracking_uri

__all__ = ["free_port", "start_ui", "stop_ui", "wait_until_up"]


def free_port() -> int:
    """A TCP port on 127.0.0.1 that is free right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_ui(workdir: str | Path = ".", *, port: int | None = None,
             log_file: str | Path | None = None) -> tuple[subprocess.Popen, str]:
    """Start ``mlflow ui`` on the local store in its own process group.

    Parameters
    ----------
    workdir : str or Path
        Where ``mlflow.db`` lives (ignored when ``MLFLOW_TRACKING_URI`` is set).
    port : int, optional
        Defaults to a free port.
    log_file : path, optional
        Where the server's output goes (default: discarded).

    Returns
    -------
    (Popen, str)
        The process and the UI's base URL.

    Raises
    ------
    ExperimentError
        If the tracking store is remote (there is nothing local to serve).
    """
    uri = default_tracking_uri(workdir)
    if uri.startswith(("http://", "https://", "databricks")):
        raise ExperimentError(f"MLFLOW_TRACKING_URI={uri} is a server already; open it in a browser")
    port = port or free_port()
    env = {**os.environ, "MLFLOW_SERVER_ENABLE_JOB_EXECUTION": "false",
           "MLFLOW_DISABLE_TELEMETRY": os.environ.get("MLFLOW_DISABLE_TELEMETRY", "true"),
           "LITELLM_LOCAL_MODEL_COST_MAP": os.environ.get("LITELLM_LOCAL_MODEL_COST_MAP", "true")}
    out = open(log_file, "ab") if log_file else subprocess.DEVNULL
    cmd = [sys.executable, "-m", "mlflow", "ui", "--backend-store-uri", uri,
           "--host", "127.0.0.1", "--port", str(port), "--workers", "1"]
    proc = subprocess.Popen(cmd, cwd=str(workdir), env=env, stdout=out, stderr=subprocess.STDOUT,
                            start_new_session=True)
    return proc, f"http://127.0.0.1:{port}"


def wait_until_up(url: str, proc: subprocess.Popen, *, timeout_s: float = 180.0) -> None:
    """Poll ``url/health`` until it answers 200.

    Raises
    ------
    ExperimentError
        If the process exits first or ``timeout_s`` passes.
    """
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise ExperimentError(f"the MLflow UI exited with code {proc.returncode} before it came up")
        try:
            with urllib.request.urlopen(url + "/health", timeout=2) as resp:
                if resp.status == 200:
                    return
        except (urllib.error.URLError, OSError):
            pass
        time.sleep(0.5)
    raise ExperimentError(f"the MLflow UI did not answer at {url} within {timeout_s:.0f} s")


def stop_ui(proc: subprocess.Popen) -> None:
    """Stop the UI and every process it forked."""
    if proc.poll() is not None:
        return
    try:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=15)
    except (ProcessLookupError, subprocess.TimeoutExpired):
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
