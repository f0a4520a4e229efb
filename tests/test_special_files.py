"""Every command opens its input files the same way (issue 32, item 4): without
blocking, checked on the opened descriptor (``symbolic.support.fsio.open_input``).

A real named pipe (FIFO) that nobody writes is given to each command that reads
a file, as a process: each must refuse it with exit 2 and one line naming the
file, at once.  No command checks the path for a pipe before opening it any more,
so what these tests exercise is the check on the descriptor: the one that also
holds when a pipe is swapped in after a check of the path.  The subprocess
timeout is only a safety net against a hang (it unblocks the pipe and fails
the test); the assertion is the exit code and the line.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

import symbolic.support.fsio as fsio
from symbolic.support.fsio import PathError, open_input, read_bytes

ROOT = Path(__file__).resolve().parents[1]
SUITE = ROOT / "tests" / "symbolic" / "fixtures" / "penalty_suite.jsonl"
PARATRACE = [sys.executable, "-c", "from optimize.console import main; main()"]
SAFETY_NET_S = 300


def _run(args, cwd: Path, fifos) -> subprocess.CompletedProcess:
    """The command as a process; should it ever block on a pipe, the pipes are opened for writing (EOF)."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
           "HOME": str(cwd), "MLFLOW_TRACKING_URI": f"sqlite:///{cwd}/mlflow.db"}
    child = subprocess.Popen([*PARATRACE, *map(str, args)], cwd=cwd, env=env, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    try:
        out, err = child.communicate(timeout=SAFETY_NET_S)
    except subprocess.TimeoutExpired:
        for fifo in fifos:
            try:
                os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
            except OSError:
                pass
        child.kill()
        out, err = child.communicate()
        pytest.fail(f"hung on a named pipe: {args!r}")
    return subprocess.CompletedProcess(args, child.returncode, out, err)


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    """A FIFO under each name a command reads, valid companions, and a run directory whose log is a FIFO."""
    tmp = tmp_path_factory.mktemp("special")
    for name in ("suite.jsonl", "package.json", "contract.txt", "spec.toml", "peer.jsonl", "replies.jsonl"):
        os.mkfifo(tmp / name)
    (tmp / "link.jsonl").symlink_to(tmp / "suite.jsonl")
    package = {"query": "Is a penalty due?", "evidence": [
        {"id": "E-01", "text": "The supplier pays a penalty for late delivery.", "source": "Contract"}]}
    (tmp / "ok-package.json").write_text(json.dumps(package), encoding="utf-8")
    (tmp / "ok-spec.toml").write_text(f'name = "t"\nsuites = ["{SUITE}"]\nconfigurations = ["b1"]\nlimit = 1\n'
                                      '[[backbones]]\nmodel = "scripted/null"\n', encoding="utf-8")
    done = _run(["run", "ok-spec.toml", "--no-track"], tmp, [])
    assert done.returncode == 0, done.stderr[-2000:]
    log = tmp / "runs" / "t" / "results.jsonl"
    log.unlink()
    os.mkfifo(log)  # a finished run whose result log is now a pipe
    outputs = tmp / "outputs.jsonl"
    outputs.write_text(json.dumps({"case_id": "x", "configuration": "direct", "model": "m",
                                   "common": {"final_status": "accepted"}}) + "\n", encoding="utf-8")
    return tmp


COMMANDS = {
    "validate": ["validate", "suite.jsonl"],
    "validate through a link": ["validate", "link.jsonl"],
    "status": ["status", "suite.jsonl"],
    "import-peer": ["import-peer", "peer.jsonl", "-o", "imported.jsonl"],
    "score --suite": ["score", "--suite", "suite.jsonl", "--outputs", "outputs.jsonl", "--report", "r1"],
    "score --outputs": ["score", "--suite", SUITE, "--outputs", "suite.jsonl", "--report", "r2"],
    "ask -e": ["ask", "-e", "package.json", "--model", "scripted/null", "--config", "b1"],
    "ask --doc": ["ask", "--doc", "contract.txt", "-q", "Is a penalty due?", "--model", "scripted/null"],
    "ask replayed replies": ["ask", "-e", "ok-package.json", "--model", "scripted/replay:replies.jsonl",
                             "--config", "b1"],
    "ingest": ["ingest", "contract.txt"],
    "run spec": ["run", "spec.toml", "--dry-run", "--no-track"],
    "run --suite": ["run", "--suite", "suite.jsonl", "--config", "b1", "--model", "scripted/null", "--dry-run",
                    "--no-track"],
    "run --resume (result log)": ["run", "ok-spec.toml", "--resume", "--no-track"],
    "suite check --file": ["suite", "check", "normative-en", "--file", "suite.jsonl"],
    "suite stats --file": ["suite", "stats", "normative-en", "--file", "suite.jsonl"],
    "suite build --from": ["suite", "build", "peer", "--from", "peer.jsonl", "-o", "built.jsonl"],
    "oracle serve --suite": ["oracle", "serve", "--suite", "suite.jsonl"],
    "compare (run directory)": ["compare", "runs/t", "runs/t", "-o", "cmp"],
}


@pytest.mark.parametrize("name", list(COMMANDS))
def test_every_command_refuses_a_named_pipe_at_once_with_exit_2(world, name):
    fifos = [p for p in world.rglob("*") if p.is_fifo()]
    done = _run(COMMANDS[name], world, fifos)
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert done.returncode == 2, (done.returncode, done.stderr[-2000:], done.stdout[-1000:])
    assert "Traceback" not in done.stderr and "internal error" not in done.stderr
    assert len(lines) == 1, lines
    assert "named pipe (FIFO)" in lines[0], lines
    assert any(f.name in lines[0] for f in fifos) or "link.jsonl" in lines[0], lines


def test_open_input_checks_the_descriptor_not_the_path(tmp_path, monkeypatch):
    """A device or a pipe that a check of the path would have taken for a regular file is still refused."""
    pipe = tmp_path / "pipe.jsonl"
    os.mkfifo(pipe)
    regular = os.stat(__file__)
    real_stat = os.stat
    monkeypatch.setattr(fsio.os, "stat", lambda p, *a, **k: regular if str(p) in ("/dev/null", str(pipe))
                        else real_stat(p, *a, **k))
    for path, kind in (("/dev/null", "a character device"), (pipe, "a named pipe (FIFO)")):
        with pytest.raises(PathError, match=f"is {kind.replace('(', '[(]').replace(')', '[)]')}, expected"):
            open_input(path)


def test_open_input_never_blocks_and_reads_a_regular_file(tmp_path):
    pipe = tmp_path / "pipe.txt"
    os.mkfifo(pipe)
    result = {}
    worker = threading.Thread(target=lambda: result.setdefault("error", pytest.raises(PathError, open_input, pipe)))
    worker.start()
    worker.join(SAFETY_NET_S)
    if worker.is_alive():  # the safety net: unblock, then fail
        os.close(os.open(pipe, os.O_WRONLY | os.O_NONBLOCK))
        pytest.fail("open_input blocked on a named pipe")
    assert "named pipe" in str(result["error"].value)
    text = tmp_path / "a.txt"
    text.write_bytes(b"data")
    with open_input(text) as handle:
        assert handle.read() == b"data" and os.get_blocking(handle.fileno())
    assert read_bytes(text) == b"data"


def test_a_file_the_command_keeps_is_not_read_through_a_link(tmp_path):
    target = tmp_path / "target.jsonl"
    target.write_text("{}\n", encoding="utf-8")
    link = tmp_path / "results.jsonl"
    link.symlink_to(target)
    assert read_bytes(link) == b"{}\n"  # an input given by the user: the link is followed
    with pytest.raises(PathError, match="results.jsonl: is a symbolic link; refusing to follow it"):
        read_bytes(link, follow_links=False)


def test_refusals_name_a_file_that_is_not_utf8_with_its_bytes_escaped(tmp_path):
    name = os.fsencode(tmp_path) + b"/caf\xe9.jsonl"
    os.mkfifo(name)
    with pytest.raises(PathError) as info:
        open_input(os.fsdecode(name))
    assert "caf\\xe9.jsonl: is a named pipe (FIFO)" in str(info.value)
    str(info.value).encode("utf-8")  # printable
