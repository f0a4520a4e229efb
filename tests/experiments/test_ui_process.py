"""``paratrace ui`` as a real process: it prints the runs table of each
paratrace experiment once its own MLflow UI answers, and SIGINT (also when
started in the background of a script, where SIGINT is inherited as
ignored), SIGTERM and SIGHUP stop it together with every process it started.
A port that something else answers on is refused before anything starts, so
the URL of another server is never printed."""

from __future__ import annotations

import re
import signal
import subprocess
import threading
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from cli_process import PARATRACE, alive, cli_env, default_signals, descendants


@pytest.fixture(scope="module")
def store(tmp_path_factory) -> tuple[Path, str]:
    """A workdir whose store holds one paratrace experiment (its id returned)."""
    from experiments.runner.tracking import GroupLog, log_group, parent_run, setup_mlflow

    import mlflow

    work = tmp_path_factory.mktemp("ui-store")
    setup_mlflow(work, autolog_dspy=False, tracking_uri=f"sqlite:///{work / 'mlflow.db'}")
    with parent_run(mlflow, "normative-en", "ui-signals", {"model": "m"}) as parent:
        log_group(mlflow, GroupLog(name="b4-cell", params={"configuration": "b4"},
                                   metrics={"ASA": (0.5, 0.1, 0.9, 4)}))
    return work, parent.info.experiment_id


def _ignore_sigint() -> None:
    """What a non-interactive shell does to a command started with ``&``."""
    default_signals()
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@pytest.mark.parametrize("sig, background, code", [
    (signal.SIGINT, True, 0),
    (signal.SIGTERM, True, 128 + signal.SIGTERM),
    (signal.SIGHUP, False, 128 + signal.SIGHUP),
])
def test_a_signal_stops_the_ui_and_every_process_it_started(store, tmp_path, sig, background, code):
    work, experiment_id = store
    proc = subprocess.Popen([*PARATRACE, "ui", "--workdir", str(work), "--port", "0"], cwd=tmp_path,
                            env=cli_env(tmp_path), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=_ignore_sigint if background else default_signals)
    try:
        lines = []
        for line in proc.stdout:
            lines.append(line)
            if "Ctrl-C" in line:
                break
        printed = "".join(lines)
        link = re.search(r"paratrace/normative-en: (http://127\.0\.0\.1:(\d+)/#/experiments/(\w+)/runs"
                         r"\?workflowType=machine_learning)", printed)
        assert link, printed
        assert link.group(3) == experiment_id
        with urllib.request.urlopen(f"http://127.0.0.1:{link.group(2)}/health", timeout=30) as resp:
            assert resp.status == 200
        started = descendants(proc.pid)
        assert started  # the UI and its server
        proc.send_signal(sig)
        assert proc.wait(timeout=120) == code, proc.stderr.read()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert [pid for pid in started if alive(pid)] == []


class _Healthy(BaseHTTPRequestHandler):
    def do_GET(self):  # noqa: N802 - http.server's naming
        self.send_response(200)
        self.send_header("content-length", "2")
        self.end_headers()
        self.wfile.write(b"OK")

    def log_message(self, *args):
        pass


def test_a_port_in_use_is_refused_and_no_url_is_printed(store, tmp_path):
    work, _ = store
    other = ThreadingHTTPServer(("127.0.0.1", 0), _Healthy)  # a UI left running answers /health
    thread = threading.Thread(target=other.serve_forever, daemon=True)
    thread.start()
    try:
        port = other.server_address[1]
        done = subprocess.run([*PARATRACE, "ui", "--workdir", str(work), "--port", str(port)], cwd=tmp_path,
                              env=cli_env(tmp_path), capture_output=True, text=True, timeout=300)
    finally:
        other.shutdown()
        other.server_close()
    assert done.returncode == 2
    assert f"port {port} on 127.0.0.1 is in use" in done.stderr and "--port 0" in done.stderr
    assert "http://" not in done.stdout and "Traceback" not in done.stderr


def test_a_missing_store_is_named(tmp_path):
    done = subprocess.run([*PARATRACE, "ui", "--workdir", str(tmp_path), "--port", "0"], cwd=tmp_path,
                          env=cli_env(tmp_path), capture_output=True, text=True, timeout=300)
    assert done.returncode == 2
    assert f"no tracking store at {tmp_path.resolve() / 'mlflow.db'}" in done.stderr
