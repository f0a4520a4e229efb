"""The files paratrace writes for itself and reads back, damaged or replaced (issue 32).

``runs/<name>/tracking.json`` (the run's MLflow id) and the local server's
record (``$PARATRACE_CACHE_DIR/local-llm/<alias>.json``) were read with a plain
``read_text``: a named pipe in their place hung the command, and a truncated or
edited file was a traceback (``JSONDecodeError``, ``KeyError``, a ``TypeError``
from ``os.kill("x", 0)``).  Both are now read by the bounded, non-blocking
reader (``symbolic.support.fsio.read_bytes``) and checked: a damaged
``tracking.json`` is one line naming it and the repair (exit 2); a damaged
server record is a stale record (removed, as before), one that is not a regular
file is a typed error naming it.  ``spec.json``, ``manifest.json`` and
``results.jsonl`` are covered by tests/experiments/test_runner_state.py and
tests/test_special_files.py.

Every read runs under a safety net: should it block, the pipe is opened for
writing (the reader sees its end) and the test fails.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SUITE = ROOT / "tests" / "symbolic" / "fixtures" / "penalty_suite.jsonl"
PARATRACE = [sys.executable, "-c", "from optimize.console import main; main()"]
DAMAGED = {"empty": b"", "truncated": b'{"run_uid": "ab', "not JSON": b"{not json}\n", "a list": b"[1]\n",
           "not UTF-8": b"\xff\xfe{}", "NUL bytes": b"\0" * 64}


def _unblocked(call, fifo: Path | None = None, timeout: float = 60.0):
    """``call()``'s result or exception; fails (after unblocking ``fifo``) if it does not return in time."""
    box: dict = {}

    def target():
        try:
            box["value"] = call()
        except BaseException as exc:  # noqa: BLE001 - handed back to the test
            box["error"] = exc

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    thread.join(timeout)
    if thread.is_alive():
        if fifo is not None:
            os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        thread.join(10)
        pytest.fail(f"{call} blocked on {fifo}")
    if "error" in box:
        raise box["error"]
    return box.get("value")


@pytest.mark.parametrize("content", list(DAMAGED.values()) + [b'{"run_uid": 5}\n', b'{"run_uid": "x\' OR 1=1"}\n',
                                                                b'{"other": "abc"}\n'],
                         ids=list(DAMAGED) + ["a number", "a quote", "no run_uid"])
def test_a_damaged_tracking_json_is_a_typed_error_naming_it(tmp_path, content):
    from experiments.errors import ExperimentError
    from experiments.runner.experiment_log import run_uid

    (tmp_path / "tracking.json").write_bytes(content)
    with pytest.raises(ExperimentError, match=r"tracking\.json.*delete .*tracking\.json to have a new one written"):
        run_uid(tmp_path)


@pytest.mark.parametrize("kind", ["fifo", "directory", "link to /dev/zero"])
def test_a_tracking_json_that_is_no_regular_file_is_refused_without_blocking(tmp_path, kind):
    from experiments.errors import ExperimentError
    from experiments.runner.experiment_log import run_uid

    path = tmp_path / "tracking.json"
    {"fifo": lambda: os.mkfifo(path), "directory": path.mkdir,
     "link to /dev/zero": lambda: path.symlink_to("/dev/zero")}[kind]()
    words = {"fifo": "named pipe", "directory": "directory", "link to /dev/zero": "character device"}[kind]
    with pytest.raises(ExperimentError, match=f"tracking.json: is a {words}"):
        _unblocked(lambda: run_uid(tmp_path), path if kind == "fifo" else None)


def test_tracking_json_is_written_once_and_read_back(tmp_path):
    from experiments.runner.experiment_log import run_uid

    uid = run_uid(tmp_path)
    assert run_uid(tmp_path) == uid and json.loads((tmp_path / "tracking.json").read_text()) == {"run_uid": uid}
    assert [p.name for p in tmp_path.iterdir()] == ["tracking.json"]


def _env(home: Path, **extra) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("MLFLOW_TRACKING", "PARATRACE_"))}
    env.update(PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
               HOME=str(home), MLFLOW_DISABLE_TELEMETRY="true", LITELLM_LOCAL_MODEL_COST_MAP="true", **extra)
    return env


def _paratrace(args, cwd: Path, fifo: Path, **extra) -> subprocess.CompletedProcess:
    child = subprocess.Popen([*PARATRACE, *map(str, args)], cwd=cwd, env=_env(cwd, **extra),
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        out, err = child.communicate(timeout=300)
    except subprocess.TimeoutExpired:
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        child.kill()
        child.communicate()
        pytest.fail(f"paratrace {args} blocked on {fifo}")
    return subprocess.CompletedProcess(child.args, child.returncode, out, err)


def _one_line(done: subprocess.CompletedProcess) -> str:
    assert done.returncode == 2, (done.returncode, done.stderr)
    assert "Traceback" not in done.stderr
    lines = [line for line in done.stderr.splitlines() if line.startswith("paratrace")]
    assert len(lines) == 1, done.stderr
    return lines[0]


def test_a_tracked_resume_with_a_pipe_for_tracking_json_says_so_in_one_line(tmp_path):
    spec = tmp_path / "t.toml"
    spec.write_text(f'name = "t"\nsuites = ["{SUITE}"]\nconfigurations = ["b1"]\nlimit = 1\n'
                    '[[backbones]]\nmodel = "scripted/null"\n', encoding="utf-8")
    fifo = tmp_path / "runs" / "t" / "tracking.json"
    done = _paratrace(["run", spec, "--no-track", "--no-cache"], tmp_path, fifo)
    assert done.returncode == 0, done.stderr
    os.mkfifo(fifo)
    line = _one_line(_paratrace(["run", spec, "--resume", "--no-cache"], tmp_path, fifo))
    assert f"{fifo}: is a named pipe (FIFO)" in line, line


@pytest.fixture
def records(tmp_path, monkeypatch):
    """The local server's record of the default model, under a fresh cache directory."""
    from assistant.local_llm import _state_file

    monkeypatch.setenv("PARATRACE_CACHE_DIR", str(tmp_path / "cache"))
    path = _state_file()
    path.parent.mkdir(parents=True)
    return path


@pytest.mark.parametrize("content", list(DAMAGED.values()) + [
    b'{"pid": "x", "port": 1, "model": "m", "log": "l"}', b'{"pid": 1, "port": 1.5, "model": "m", "log": "l"}',
    b'{"pid": true, "port": 1, "model": "m", "log": "l"}', b'{"pid": 1, "port": 1, "model": "m"}',
    b'{"pid": 1, "port": 1, "model": "m", "log": "l", "extra": 1}'],
    ids=list(DAMAGED) + ["pid a string", "port a float", "pid a bool", "no log", "an extra field"])
def test_a_damaged_server_record_is_a_stale_record(records, content):
    from assistant import local_llm

    records.write_bytes(content)
    assert local_llm.stale_reason() is None
    assert local_llm.server_failure("http://127.0.0.1:1/v1") is None
    assert local_llm.status() is None and not records.exists()  # removed, as a stale record always was
    records.write_bytes(content)
    assert local_llm.stop_server() is False and not records.exists()


def test_a_server_record_that_is_a_pipe_is_refused_without_blocking(records):
    from assistant import local_llm
    from assistant.errors import LocalModelError

    os.mkfifo(records)
    assert _unblocked(local_llm.stale_reason, records) is None
    assert _unblocked(lambda: local_llm.server_failure("http://127.0.0.1:1/v1"), records) is None
    for call in (local_llm.status, local_llm.stop_server):
        with pytest.raises(LocalModelError, match=f"{records.name}: is a named pipe"):
            _unblocked(call, records)
    assert records.is_fifo()  # refused, not removed: paratrace did not write it


def test_local_llm_status_with_a_pipe_for_its_record_is_one_line(tmp_path):
    from assistant.local_models import DEFAULT_LOCAL_MODEL, local_model

    fifo = tmp_path / "cache" / "local-llm" / f"{local_model(DEFAULT_LOCAL_MODEL).alias}.json"
    fifo.parent.mkdir(parents=True)
    os.mkfifo(fifo)
    line = _one_line(_paratrace(["local-llm", "status"], tmp_path, fifo, PARATRACE_CACHE_DIR=str(tmp_path / "cache")))
    assert f"{fifo}: is a named pipe (FIFO)" in line, line
    fifo.unlink()
    fifo.write_text('{"pid": "x", "port": 1}')
    done = _paratrace(["local-llm", "status"], tmp_path, fifo, PARATRACE_CACHE_DIR=str(tmp_path / "cache"))
    assert done.returncode == 3 and done.stdout.strip() == "not running" and "Traceback" not in done.stderr, done


@pytest.mark.parametrize("log", ["fifo", "/dev/zero", "directory"])
def test_the_log_named_by_a_server_record_is_read_bounded_and_never_blocking(records, tmp_path, log):
    from assistant import local_llm

    path = {"fifo": tmp_path / "server.log", "/dev/zero": Path("/dev/zero"), "directory": tmp_path}[log]
    if log == "fifo":
        os.mkfifo(path)
    gone = 4_194_304 + 12_345  # above Linux's largest pid_max (2**22): no such process
    records.write_text(json.dumps({"pid": gone, "port": 1, "model": "m", "log": str(path)}))
    reason = _unblocked(local_llm.stale_reason, path if log == "fifo" else None)
    assert reason.startswith("the recorded server (pid") and f"log {path} is empty" in reason, reason
