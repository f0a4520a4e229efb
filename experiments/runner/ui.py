"""``paratrace ui``: the MLflow UI on 127.0.0.1 for a local tracking store.

Started lean: MLflow's job execution is off (two processes, about 0.5 GiB
instead of ten and 2 GiB), one worker, loopback only, in its own process
group, which :func:`stop_ui` ends whole.  :func:`serve_ui` is the command:
it refuses a port that is taken (a UI left running would otherwise answer in
place of the new one), prints the runs table of each paratrace experiment
once the UI answers, and stops the UI on ``SIGINT``, ``SIGTERM`` or
``SIGHUP``, in the foreground or the background
(:mod:`experiments.runner.signals`).
"""

from __future__ import annotations

import errno
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Callable

from ..errors import ExperimentError
from .signals import ending_signals
from .tracking import SHARED_VIEW_KEY, default_tracking_uri, runs_table_url

__all__ = ["SHARED_VIEW_TAG", "check_port", "free_port", "serve_ui", "start_ui", "stop_ui", "ui_links",
           "wait_until_up"]

#: The experiment tag holding paratrace's shared runs-table view.
SHARED_VIEW_TAG = f"mlflow.sharedViewState.{SHARED_VIEW_KEY}"


def free_port() -> int:
    """A TCP port on 127.0.0.1 that is free right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def check_port(port: int) -> None:
    """Refuse a port on 127.0.0.1 that something already listens on.

    Raises
    ------
    ExperimentError
        Naming the port and what to do.
    """
    with socket.socket() as sock:
        try:
            sock.bind(("127.0.0.1", port))
        except OSError as exc:
            if exc.errno != errno.EADDRINUSE:
                raise
            raise ExperimentError(f"port {port} on 127.0.0.1 is in use (an MLflow UI left running?); stop "
                                  "that process, or pass --port 0 for a free port") from None


def _local_store(workdir: str | Path, tracking_uri: str | None) -> str:
    """The local store to serve, checked to exist."""
    uri = default_tracking_uri(workdir, tracking_uri)
    if uri.startswith(("http://", "https://", "databricks")):
        raise ExperimentError(f"the tracking URI {uri} is a server already; open it in a browser")
    if uri.startswith("sqlite:///"):
        path = Path(uri[len("sqlite:///"):].partition("?")[0])
        if not path.is_file():
            raise ExperimentError(f"no tracking store at {path}; run `paratrace demo` first, or give "
                                  "--workdir / --tracking-uri")
    return uri


def start_ui(workdir: str | Path = ".", *, port: int | None = None, log_file: str | Path | None = None,
             tracking_uri: str | None = None) -> tuple[subprocess.Popen, str]:
    """Start ``mlflow ui`` on a local store in its own process group.

    Parameters
    ----------
    workdir : str or Path
        Where ``mlflow.db`` lives (ignored when a tracking URI is given or set
        in ``MLFLOW_TRACKING_URI``); the UI runs there.
    port : int, optional
        Defaults to a free port (also ``0``).
    log_file : path, optional
        Where the server's output goes (default: discarded).
    tracking_uri : str, optional
        A local store other than ``<workdir>/mlflow.db`` (``sqlite:///PATH``).

    Returns
    -------
    (Popen, str)
        The process and the UI's base URL.

    Raises
    ------
    ExperimentError
        If the tracking store is remote (there is nothing local to serve) or
        the SQLite file does not exist.
    """
    uri = _local_store(workdir, tracking_uri)
    port = port or free_port()
    env = {**os.environ, "MLFLOW_SERVER_ENABLE_JOB_EXECUTION": "false",
           "MLFLOW_DISABLE_TELEMETRY": os.environ.get("MLFLOW_DISABLE_TELEMETRY", "true"),
           "LITELLM_LOCAL_MODEL_COST_MAP": os.environ.get("LITELLM_LOCAL_MODEL_COST_MAP", "true")}
    cmd = [sys.executable, "-m", "mlflow", "ui", "--backend-store-uri", uri,
           "--host", "127.0.0.1", "--port", str(port), "--workers", "1"]
    out = open(log_file, "ab") if log_file else subprocess.DEVNULL
    try:
        proc = subprocess.Popen(cmd, cwd=str(workdir), env=env, stdout=out, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, start_new_session=True)
    finally:
        if log_file:
            out.close()
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


def stop_ui(proc: subprocess.Popen, *, grace_s: float = 15.0) -> None:
    """Stop the UI and every process of its group (its uvicorn server too, even if the UI itself is gone).

    ``SIGTERM`` to the group, ``SIGKILL`` to what is left after ``grace_s``;
    the ending signals are held back meanwhile, so a second Ctrl-C cannot cut
    the clean-up short.
    """
    held = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
    old = signal.pthread_sigmask(signal.SIG_BLOCK, held)
    try:
        try:
            os.killpg(proc.pid, signal.SIGTERM)
        except ProcessLookupError:
            proc.poll()
            return
        deadline = time.monotonic() + grace_s
        while time.monotonic() < deadline:
            proc.poll()
            try:
                os.killpg(proc.pid, 0)
            except ProcessLookupError:
                return
            time.sleep(0.1)
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.wait()
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def ui_links(base_url: str, tracking_uri: str) -> list[str]:
    """The runs table of every paratrace experiment in the store (newest first), else the experiment list.

    A run experiment opens in paratrace's shared view (:data:`~experiments.runner.tracking.SHARED_VIEW`);
    one without it (``paratrace-optimize``) on MLflow's own table.
    """
    from mlflow import MlflowClient

    experiments = [e for e in MlflowClient(tracking_uri=tracking_uri).search_experiments(
        filter_string="name LIKE 'paratrace%'", order_by=["last_update_time DESC"])]
    if not experiments:
        return [f"{base_url}/#/experiments"]
    return [f"{e.name}: {runs_table_url(base_url, e.experiment_id, shared_view=SHARED_VIEW_TAG in e.tags)}"
            for e in experiments]


def _log_tail(path: Path, lines: int = 5) -> str:
    from symbolic.support.fsio import PathError, read_tail

    try:  # bounded and never blocking: a pipe or a device in the log's place is no tail
        text = read_tail(path).decode("utf-8", "replace").strip().splitlines()
    except (OSError, PathError):
        return ""
    return " | ".join(line.strip() for line in text[-lines:] if line.strip())[-600:]


def serve_ui(workdir: str | Path = ".", *, port: int = 5000, tracking_uri: str | None = None,
             echo: Callable[[str], None] = print) -> None:
    """``paratrace ui``: start the UI, print its runs tables, stop it and its children when told to.

    Returns when the UI is stopped by ``SIGINT``; ``SIGTERM`` and ``SIGHUP``
    stop it too and raise :class:`SystemExit` (``128 + signal``).

    Parameters
    ----------
    workdir : str or Path
    port : int
        ``0`` for a free port.
    tracking_uri : str, optional
        A local store other than ``<workdir>/mlflow.db``.
    echo : callable
        Prints one line.

    Raises
    ------
    ExperimentError
        If the store is remote or missing, the port is in use, or the UI
        exits (naming its exit code and the tail of its log).
    """
    uri = _local_store(workdir, tracking_uri)
    if port:
        check_port(port)
    log = Path(tempfile.mkstemp(prefix="paratrace-ui-", suffix=".log")[1])
    proc = None
    try:
        with ending_signals(interrupt=True):
            try:
                proc, url = start_ui(workdir, port=port, log_file=log, tracking_uri=uri)
                try:
                    wait_until_up(url, proc)
                except ExperimentError as exc:
                    raise ExperimentError(f"{exc}; {_log_tail(log)}") from None
                if proc.poll() is not None:  # another server answered the health check
                    raise ExperimentError(f"the MLflow UI exited with code {proc.returncode} on port {port}: "
                                          f"{_log_tail(log)}")
                for line in ui_links(url, uri):
                    echo(f"MLflow UI: {line}")
                echo(f"MLflow UI at {url} (pid {proc.pid}); Ctrl-C or SIGTERM stops it")
                code = proc.wait()
                raise ExperimentError(f"the MLflow UI exited with code {code}: {_log_tail(log)}")
            except KeyboardInterrupt:
                return
            finally:
                if proc is not None:
                    stop_ui(proc)
    finally:
        log.unlink(missing_ok=True)
