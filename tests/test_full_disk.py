"""A disk that fills while paratrace writes (issue 32: "full disk" keeps holding).

Each test mounts a small tmpfs (``mount -t tmpfs -o size=4m``), fills it with a
filler file to leave a given number of bytes, and runs the command as a
process with its output there: ``run`` writing ``results.jsonl`` and its
reports, and its MLflow store; ``ask`` writing its answer (standard output
redirected to a file on the disk) and opening its response cache; ``ingest
-o`` writing its package; in the process, the optimizer's saved program, the
run's ``tracking.json`` and the local server's record.

What must hold: exit code 2 and exactly one line ``paratrace: error: FILE:
cannot write: No space left on device; ...`` naming the file (``standard
output`` for redirected output), no traceback; nothing written before is lost
or torn (every line of ``results.jsonl`` parses, an older output file is
untouched, no temporary file is left); once the filler is removed,
``--resume`` finishes the run with each case exactly once.

Mounting needs root (CAP_SYS_ADMIN): elsewhere every test here skips, saying
why.  CI runs as root (``.ci/run``).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SUITE = ROOT / "tests" / "symbolic" / "fixtures" / "penalty_suite.jsonl"
PARATRACE = [sys.executable, "-c", "from optimize.console import main; main()"]
EVIDENCE = [{"id": "E-01", "text": "The supplier pays a penalty for late delivery.", "source": "Contract"}]
NO_SPACE = "cannot write: No space left on device"


class Disk:
    """A mounted tmpfs that can be filled to a given number of free bytes and emptied again."""

    def __init__(self, root: Path):
        self.root = root
        self.filler = root / ".filler"

    def fill(self, leave: int = 0) -> None:
        """Write the filler until the disk refuses, then give back ``leave`` bytes (whole pages)."""
        fd = os.open(self.filler, os.O_WRONLY | os.O_CREAT | os.O_APPEND)
        try:
            block = b"\0" * 65536
            while True:
                try:
                    os.write(fd, block)
                except OSError:
                    break
        finally:
            os.close(fd)
        os.truncate(self.filler, max(0, self.filler.stat().st_size - leave))

    def free(self) -> None:
        """Room again: the filler removed."""
        self.filler.unlink(missing_ok=True)


@pytest.fixture
def disk(tmp_path):
    """A 4 MiB tmpfs under ``tmp_path`` (unmounted after the test); skips where mounting is not permitted."""
    if not sys.platform.startswith("linux") or os.geteuid() != 0 or shutil.which("mount") is None:
        pytest.skip("mounting a small tmpfs needs Linux, root and mount(8); CI runs as root")
    root = tmp_path / "disk"
    root.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m,mode=0755", "tmpfs", str(root)],
                          capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip(f"a small tmpfs cannot be mounted here (needs CAP_SYS_ADMIN): {done.stderr.strip()[:200]}")
    try:
        yield Disk(root)
    finally:
        subprocess.run(["umount", "-l", str(root)], capture_output=True)


def _env(home: Path) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("MLFLOW_TRACKING", "PARATRACE_"))}
    env.update(PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
               HOME=str(home), MLFLOW_DISABLE_TELEMETRY="true", LITELLM_LOCAL_MODEL_COST_MAP="true")
    return env


def _run(args, *, cwd: Path, stdout=subprocess.PIPE) -> tuple[int, str]:
    """``paratrace ARGS`` as a process: its exit code and stderr."""
    done = subprocess.run([*PARATRACE, *map(str, args)], cwd=cwd, env=_env(cwd), stdout=stdout,
                          stderr=subprocess.PIPE, timeout=300)
    return done.returncode, done.stderr.decode("utf-8", "replace")


def _refusal(code: int, err: str) -> str:
    """The one error line of a refused command (exit 2, no traceback, no other error or Python message)."""
    assert code == 2, (code, err)
    assert "Traceback" not in err and "Exception ignored" not in err and "internal error" not in err, err
    errors = [line for line in err.splitlines() if line.startswith("paratrace:")]
    assert len(errors) == 1 and errors[0].startswith("paratrace: error: "), err
    return errors[0]


def _spec(tmp_path: Path, concurrency: int = 2) -> Path:
    spec = tmp_path / "t.toml"
    spec.write_text(f'name = "t"\nsuites = ["{SUITE}"]\nconfigurations = ["b1", "b2"]\nconcurrency = {concurrency}\n'
                    '[[backbones]]\nmodel = "scripted/null"\n', encoding="utf-8")
    return spec


def _records(log: Path) -> list[dict]:
    """Every line of ``results.jsonl``, parsed (a torn or damaged line fails the test)."""
    data = log.read_bytes()
    assert not data or data.endswith(b"\n"), data[-200:]
    return [json.loads(line) for line in data.splitlines()]


def _leftovers(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.rglob("*.tmp"))


def test_a_run_stopped_by_a_full_disk_keeps_its_records_and_resumes(disk, tmp_path):
    spec = _spec(tmp_path)
    work = disk.root / "w"
    disk.fill(leave=24 * 1024)  # room for the run's small files and a few records
    line = _refusal(*_run(["run", spec, "--no-track", "--no-cache", "--workdir", work], cwd=tmp_path))
    log = work / "runs" / "t" / "results.jsonl"
    assert f"{log}: {NO_SPACE}" in line and "--resume" in line, line
    kept = _records(log)
    assert 0 < len(kept) < 14 and len({json.dumps(r["key"], sort_keys=True) for r in kept}) == len(kept)
    assert _leftovers(work) == []
    disk.free()
    code, err = _run(["run", spec, "--no-track", "--no-cache", "--workdir", work, "--resume"], cwd=tmp_path)
    assert code == 0, err
    records = _records(log)
    assert len(records) == 14 and len({json.dumps(r["key"], sort_keys=True) for r in records}) == 14
    assert records[:len(kept)] == kept  # what was written before is kept as it was
    assert not (log.parent / "results.quarantine.jsonl").exists()
    assert (work / "runs" / "t" / "reports" / "penalty_suite" / "summary.md").is_file()


def test_a_full_disk_while_the_reports_are_written_leaves_the_results_and_resumes(disk, tmp_path):
    spec = _spec(tmp_path)
    work = disk.root / "w"
    code, err = _run(["run", spec, "--no-track", "--no-cache", "--workdir", work], cwd=tmp_path)
    assert code == 0, err
    run = work / "runs" / "t"
    before = (run / "results.jsonl").read_bytes()
    shutil.rmtree(run / "reports")
    disk.fill()
    line = _refusal(*_run(["run", spec, "--no-track", "--no-cache", "--workdir", work, "--resume"], cwd=tmp_path))
    assert str(run / "reports") in line and "No space left on device" in line, line
    assert (run / "results.jsonl").read_bytes() == before
    assert _leftovers(work) == []
    disk.free()
    code, err = _run(["run", spec, "--no-track", "--no-cache", "--workdir", work, "--resume"], cwd=tmp_path)
    assert code == 0, err
    assert (run / "results.jsonl").read_bytes() == before
    assert "scripted/null" in (run / "reports" / "penalty_suite" / "summary.md").read_text(encoding="utf-8")


def test_a_tracked_run_on_a_full_disk_stops_before_the_first_case_and_leaves_no_half_made_store(disk, tmp_path):
    spec = _spec(tmp_path)
    work = disk.root / "w"
    disk.fill(leave=400 * 1024)  # room for the run's files, not for MLflow's tables
    line = _refusal(*_run(["run", spec, "--no-cache", "--workdir", work], cwd=tmp_path))
    assert f"sqlite:///{work}/mlflow.db: cannot write the MLflow store: database or disk is full" in line, line
    assert not (work / "mlflow.db").exists() and _leftovers(work) == []
    assert not (work / "runs" / "t" / "results.jsonl").exists()  # stopped before the first case
    disk.free()
    code, err = _run(["run", spec, "--no-cache", "--workdir", work, "--resume"], cwd=tmp_path)
    assert code == 0, err
    assert len(_records(work / "runs" / "t" / "results.jsonl")) == 14 and (work / "mlflow.db").is_file()


def test_the_response_cache_on_a_full_disk_is_named_with_the_way_around_it(disk, tmp_path):
    package = disk.root / "pkg.json"
    package.write_text(json.dumps({"query": "Is a penalty due?", "evidence": EVIDENCE}), encoding="utf-8")
    disk.fill()
    line = _refusal(*_run(["ask", "-e", package, "--model", "scripted/null", "--config", "b1"], cwd=disk.root))
    assert f"{disk.root}/.paratrace-cache: cannot open the response cache:" in line and "--no-cache" in line, line
    code, err = _run(["ask", "-e", package, "--model", "scripted/null", "--config", "b1", "--no-cache"],
                     cwd=disk.root)
    assert code == 0, err


@pytest.mark.parametrize("fmt", ["html", "json", "text"])
def test_ask_s_answer_redirected_to_a_full_disk_is_one_error_line(disk, tmp_path, fmt):
    package = tmp_path / "pkg.json"
    package.write_text(json.dumps({"query": "Is a penalty due?", "evidence": EVIDENCE}), encoding="utf-8")
    disk.fill()
    with open(disk.root / "answer", "wb") as answer:
        line = _refusal(*_run(["ask", "-e", package, "--model", "scripted/null", "--config", "b1", "--no-cache",
                               "--format", fmt], cwd=tmp_path, stdout=answer))
    assert line.startswith(f"paratrace: error: standard output: {NO_SPACE}; the output is incomplete"), line


def test_ingest_to_a_full_disk_names_the_package_and_keeps_the_old_one(disk, tmp_path):
    document = tmp_path / "terms.txt"
    document.write_text("".join(f"{n}. The supplier delivers lot {n}, subject to clause {max(n - 1, 1)}.\n\n"
                                for n in range(1, 400)), encoding="utf-8")
    out = disk.root / "pkg.json"
    out.write_text('{"old": true}\n', encoding="utf-8")
    disk.fill()
    line = _refusal(*_run(["ingest", document, "-o", out], cwd=tmp_path))
    assert line.startswith(f"paratrace: error: {out}: {NO_SPACE}; the file was left as it was"), line
    assert out.read_text(encoding="utf-8") == '{"old": true}\n'
    assert _leftovers(disk.root) == []
    with open(disk.root / "stdout.json", "wb") as stdout:
        line = _refusal(*_run(["ingest", document], cwd=tmp_path, stdout=stdout))
    assert f"standard output: {NO_SPACE}" in line, line
    disk.free()
    code, err = _run(["ingest", document, "-o", out], cwd=tmp_path)
    assert code == 0, err
    assert len(json.loads(out.read_text(encoding="utf-8"))["fragments"]) == 399


def test_state_files_on_a_full_disk_are_typed_errors_and_leave_nothing_half_written(disk, monkeypatch):
    from assistant.configs import build
    from assistant.errors import LocalModelError
    from assistant.local_llm import ServerInfo, _read_state, _write_state
    from experiments.errors import ExperimentError
    from experiments.runner.experiment_log import run_uid
    from optimize.errors import OptimizeError
    from optimize.programs import Manifest, load_program, save_program

    saved = save_program(build("b1"), disk.root / "program", Manifest("b1", "scripted/null", "none", 0))
    program = (saved / "program.json").read_bytes()
    run = disk.root / "run"
    run.mkdir()
    state = disk.root / "server.json"
    _write_state(state, ServerInfo(pid=1, port=2, model="m", log="l"))
    disk.fill()
    with pytest.raises(OptimizeError, match=f"program.json: {NO_SPACE}"):
        save_program(build("b1"), saved, Manifest("b1", "scripted/null", "none", 1))
    assert (saved / "program.json").read_bytes() == program and load_program(saved).manifest.seed == 0
    with pytest.raises(ExperimentError, match=f"tracking.json: {NO_SPACE}"):
        run_uid(run)
    assert not (run / "tracking.json").exists()
    with pytest.raises(LocalModelError, match=f"server.json: {NO_SPACE}"):
        _write_state(state, ServerInfo(pid=3, port=4, model="m", log="l"))
    assert _read_state(state).pid == 1
    assert _leftovers(disk.root) == []
    disk.free()
    uid = run_uid(run)
    assert run_uid(run) == uid
