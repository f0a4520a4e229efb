"""Run directory state: one writer at a time, damaged or conflicting records
found (and optionally repaired) before any model call, safe run names, and
duplicate grid entries refused before anything is created."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from typer.testing import CliRunner

import optimize.root as cli
from experiments.errors import ExperimentError
from experiments.runner.lock import RunLock
from experiments.runner.run import run_experiment
from experiments.runner.solve import AssistantSolver
from experiments.runner.spec import ExperimentSpec
from experiments.runner.state import QUARANTINE

SUITE = Path(__file__).resolve().parents[1] / "symbolic" / "fixtures" / "penalty_suite.jsonl"
runner = CliRunner()


def spec(name="t", **kw):
    base = dict(name=name, suites=[str(SUITE)], configurations=["b1"], backbones=[{"model": "scripted/null"}],
                concurrency=1, limit=3)
    return ExperimentSpec(**{**base, **kw})


class CountingSolver:
    """The scripted assistant, counting the cases it is asked to solve."""

    def __init__(self):
        self.real, self.calls = AssistantSolver(), 0

    def __call__(self, task):
        self.calls += 1
        return self.real(task)


@pytest.fixture()
def finished(tmp_path):
    """A finished 3-case run and its result log."""
    run_experiment(spec(), workdir=tmp_path, track=False)
    return tmp_path, tmp_path / "runs" / "t" / "results.jsonl"


def lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


def resume_fails_before_any_call(workdir, *words):
    solver = CountingSolver()
    with pytest.raises(ExperimentError) as info:
        run_experiment(spec(), workdir=workdir, resume=True, track=False, solver=solver)
    assert solver.calls == 0
    for word in words:
        assert word in str(info.value), str(info.value)
    return str(info.value)


def test_a_duplicated_last_line_is_found_before_any_call_and_repaired(finished):
    workdir, log = finished
    rows = lines(log)
    log.write_text("\n".join(rows + [rows[-1]]) + "\n", encoding="utf-8")
    message = resume_fails_before_any_call(workdir, "line 4: duplicate record", "first at line 3", "--repair")
    assert QUARANTINE in message
    solver = CountingSolver()
    result = run_experiment(spec(), workdir=workdir, resume=True, repair=True, track=False, solver=solver)
    assert solver.calls == 0 and result.summary.skipped == 3
    assert lines(log) == rows
    moved = [json.loads(x) for x in lines(log.parent / QUARANTINE)]
    assert [(m["line"], m["text"]) for m in moved] == [(4, rows[-1])]


def test_a_conflicting_record_is_explained_and_repair_keeps_the_first(finished):
    workdir, log = finished
    rows = lines(log)
    other = json.loads(rows[0])
    other["output"]["common"]["final_status"] = "both"
    log.write_text("\n".join(rows + [json.dumps(other)]) + "\n", encoding="utf-8")
    resume_fails_before_any_call(workdir, "line 4: conflicting record", "with another output")
    run_experiment(spec(), workdir=workdir, resume=True, repair=True, track=False, solver=CountingSolver())
    assert lines(log) == rows


@pytest.mark.parametrize("damage, words", [
    (lambda r: {**r, "key": {**r["key"], "repeat": "0"}}, ("line 2", "key.repeat", "'0'")),
    (lambda r: {**r, "output": {"x": 1}}, ("line 2", "field output.")),
    (lambda r: {**r, "outcome": "great"}, ("line 2", "field outcome")),
    (lambda r: {**r, "key": {**r["key"], "case": "no-such-case"},
                "output": {**r["output"], "case_id": "no-such-case"}}, ("line 2", "does not plan")),
    (lambda r: {**r, "key": {**r["key"], "case": "no-such-case"}}, ("line 2", "does not match the key")),
])
def test_a_damaged_record_is_found_before_any_call_and_its_case_runs_again(finished, damage, words):
    workdir, log = finished
    rows = lines(log)
    rows[1] = json.dumps(damage(json.loads(rows[1])))
    log.write_text("\n".join(rows) + "\n", encoding="utf-8")
    resume_fails_before_any_call(workdir, *words)
    solver = CountingSolver()
    result = run_experiment(spec(), workdir=workdir, resume=True, repair=True, track=False, solver=solver)
    assert solver.calls == 1 and result.summary.skipped == 2 and len(lines(log)) == 3


def test_bad_utf8_in_the_last_line(finished):
    workdir, log = finished
    good = log.read_bytes()
    log.write_bytes(good + b'{"key": "\xff\xfe"}\n')
    resume_fails_before_any_call(workdir, "line 4", "not valid UTF-8")
    # Without a newline it is a torn write: moved aside (and reported) on the next resume.
    log.write_bytes(good + b'{"key": "\xff\xfe')
    solver = CountingSolver()
    run_experiment(spec(), workdir=workdir, resume=True, track=False, solver=solver)
    assert solver.calls == 0 and log.read_bytes() == good
    moved = json.loads(lines(log.parent / QUARANTINE)[-1])
    assert moved["line"] == 4 and "torn" in moved["reason"] and "base64" in moved


@pytest.mark.parametrize("name", ["spec.json", "manifest.json"])
def test_a_truncated_state_file_is_a_typed_error_naming_the_repair(tmp_path, name):
    args = ["run", "--suite", str(SUITE), "--config", "b1", "--model", "scripted/null", "--name", "t", "--limit",
            "2", "--workdir", str(tmp_path), "--no-track"]
    assert runner.invoke(cli.app, args).exit_code == 0
    path = tmp_path / "runs" / "t" / name
    path.write_bytes(path.read_bytes()[:40])
    result = runner.invoke(cli.app, args + ["--resume"])
    assert result.exit_code == 2, result.output
    assert name in result.stderr and "damaged" in result.stderr and "Traceback" not in result.output
    assert ("restore it" if name == "spec.json" else "to have it written again") in result.stderr


def test_a_second_writer_is_refused_and_a_killed_holder_leaves_no_stale_lock(tmp_path):
    root = tmp_path / "runs" / "t"
    holder = subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(f"""
            import sys
            from experiments.runner.lock import RunLock
            RunLock({str(root)!r}).acquire()
            print("locked", flush=True)
            sys.stdin.read()
        """)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "locked"
        result = runner.invoke(cli.app, ["run", "--suite", str(SUITE), "--config", "b1", "--model",
                                         "scripted/null", "--name", "t", "--limit", "2", "--workdir",
                                         str(tmp_path), "--no-track"])
        assert result.exit_code == 2, result.output
        assert f"pid {holder.pid}" in result.stderr and "in use by another paratrace process" in result.stderr
        assert not (root / "spec.json").exists()
    finally:
        os.kill(holder.pid, signal.SIGKILL)
        holder.wait()
    with RunLock(root):  # the kernel released the lock of the killed process
        pass


def test_two_resumes_at_once_cannot_both_write(finished):
    workdir, log = finished
    with RunLock(workdir / "runs" / "t"):
        resume_fails_before_any_call(workdir, "in use by another paratrace process")
    assert len(lines(log)) == 3


@pytest.mark.parametrize("name", ["../../x", "/tmp/abs", "..", ".", "a\x00b", "a/b", ""])
def test_unsafe_run_names_are_refused_before_anything_is_created(tmp_path, name):
    workdir = tmp_path / "w"
    workdir.mkdir()
    result = runner.invoke(cli.app, ["run", "--suite", str(SUITE), "--config", "b1", "--model", "scripted/null",
                                     "--name", name, "--workdir", str(workdir), "--no-track"])
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output and "internal error" not in result.output
    assert list(workdir.iterdir()) == [] and sorted(p.name for p in tmp_path.iterdir()) == ["w"]


def test_a_spec_file_with_an_unsafe_name_is_refused(tmp_path):
    toml = tmp_path / "s.toml"
    toml.write_text(f'name = "../../escape"\nsuites = ["{SUITE}"]\nconfigurations = ["b1"]\n'
                    '[[backbones]]\nmodel = "scripted/null"\n', encoding="utf-8")
    result = runner.invoke(cli.app, ["run", str(toml), "--workdir", str(tmp_path), "--no-track"])
    assert result.exit_code == 2 and "field name" in result.stderr and "single safe path component" in result.stderr
    assert not (tmp_path / "runs").exists()


@pytest.mark.parametrize("field, body", [
    ("backbones", 'configurations = ["b1"]\n[[backbones]]\nmodel = "scripted/null"\n[[backbones]]\nmodel = "scripted/null"\n'),
    ("configurations", 'configurations = ["b1", "B1"]\n[[backbones]]\nmodel = "scripted/null"\n'),
])
def test_duplicate_grid_entries_are_refused_before_the_run_directory_exists(tmp_path, field, body):
    toml = tmp_path / "dup.toml"
    toml.write_text(f'suites = ["{SUITE}"]\n' + body, encoding="utf-8")
    result = runner.invoke(cli.app, ["run", str(toml), "--workdir", str(tmp_path), "--no-track"])
    assert result.exit_code == 2, result.output
    assert f"{field} lists" in result.stderr and "twice" in result.stderr
    assert not (tmp_path / "runs").exists()
    assert runner.invoke(cli.app, ["run", str(toml), "--workdir", str(tmp_path), "--no-track"]).exit_code == 2


def test_run_reports_share_one_file_mode(finished):
    workdir, _ = finished
    umask = os.umask(0)
    os.umask(umask)
    files = [p for p in (workdir / "runs" / "t").rglob("*") if p.is_file() and p.name != ".lock"]
    modes = {p.name: p.stat().st_mode & 0o777 for p in files}
    assert "operations.md" in modes and "cases.csv" in modes
    assert set(modes.values()) == {0o666 & ~umask}, modes
