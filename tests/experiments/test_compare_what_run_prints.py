"""``paratrace compare`` and ``paratrace score`` take what ``paratrace run``
prints, as real processes: the parent run id, the run name or the run
directory (``compare``), and the run's own ``results.jsonl`` (``score``; a
case whose latest record has no model answer is not scored, and not counted
as a failure either)."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from cli_process import PARATRACE, ROOT, cli_env

SUITE = ROOT / "tests" / "symbolic" / "fixtures" / "penalty_suite.jsonl"


def _cli(cwd: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([*PARATRACE, *args], cwd=cwd, env=cli_env(cwd.parent / "home"), capture_output=True,
                          text=True, timeout=900)


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> tuple[Path, dict[str, tuple[str, str]]]:
    """Two tracked runs (B1 and B4 on the scripted backbone): name -> (printed name, printed parent id)."""
    work = tmp_path_factory.mktemp("compare") / "work"
    work.mkdir()
    (work.parent / "home").mkdir()
    printed = {}
    for config in ("b1", "b4"):
        done = _cli(work, "run", "--suite", str(SUITE), "--config", config, "--model", "scripted/null")
        assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
        name = re.search(r"^(\S+): 7 run, ", done.stdout, re.M).group(1)
        parent = re.search(r"parent run\(s\) (\w+)", done.stdout).group(1)
        printed[config] = (name, parent)
    return work, printed


def _compared(done: subprocess.CompletedProcess) -> str:
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    return done.stdout


@pytest.mark.parametrize("form", ["parent id", "run name", "run directory"])
def test_compare_takes_what_run_prints(runs, form):
    work, printed = runs
    refs = {"parent id": [printed[c][1] for c in ("b1", "b4")],
            "run name": [printed[c][0] for c in ("b1", "b4")],
            "run directory": [f"runs/{printed[c][0]}" for c in ("b1", "b4")]}[form]
    out = _compared(_cli(work, "compare", *refs, "-o", f"cmp-{form.replace(' ', '-')}"))
    assert "ASA" in out
    markdown = (work / f"cmp-{form.replace(' ', '-')}" / "compare.md").read_text()
    row = "| ASA | b1 \\| scripted/null \\| standard \\| r0 | b4 \\| scripted/null \\| standard \\| r0 | 7 |"
    assert row in markdown, markdown


def test_the_three_forms_give_the_same_table(runs):
    work, printed = runs
    tables = []
    for refs in ([printed[c][1] for c in ("b1", "b4")], [f"runs/{printed[c][0]}" for c in ("b1", "b4")]):
        _compared(_cli(work, "compare", *refs, "-o", "same"))
        tables.append((work / "same" / "compare.md").read_text())
    assert tables[0] == tables[1]


def test_one_run_with_one_cell_is_refused_in_one_line(runs):
    work, printed = runs
    done = _cli(work, "compare", printed["b4"][0])
    assert done.returncode == 2
    assert "at least two cells" in done.stderr and "Traceback" not in done.stderr


def test_an_unknown_reference_names_what_compare_takes(runs):
    work, _ = runs
    done = _cli(work, "compare", "no-such-run", "runs/no-such-run")
    assert done.returncode == 2
    assert "'no-such-run'" in done.stderr and "parent run id" in done.stderr


def test_score_reads_the_runs_own_log(runs, tmp_path):
    work, printed = runs
    log = work / "runs" / printed["b4"][0] / "results.jsonl"
    done = _cli(work, "score", "--suite", str(SUITE), "--outputs", str(log), "--report", str(tmp_path / "report"))
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("scored 7 outputs of 1 configuration(s) on 7 cases")


def test_score_leaves_out_a_case_without_a_model_answer(runs, tmp_path):
    work, printed = runs
    lines = (work / "runs" / printed["b4"][0] / "results.jsonl").read_text().splitlines()
    retried = json.loads(lines[0])
    failed = json.loads(lines[1])
    failed["outcome"] = "infra_error"  # the latest record of that case: no answer
    retried_first = dict(retried, outcome="infra_error")  # retried, then answered: it counts
    log = tmp_path / "results.jsonl"
    log.write_text("\n".join([json.dumps(retried_first), *lines, json.dumps(failed)]) + "\n")
    done = _cli(work, "score", "--suite", str(SUITE), "--outputs", str(log), "--report", str(tmp_path / "report"))
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("scored 6 outputs of 1 configuration(s) on 7 cases (")
    assert "1 not scored (infrastructure errors or token/time limits" in done.stdout


def test_a_dry_run_of_an_existing_run_estimates_what_is_left(runs):
    work, printed = runs
    done = _cli(work, "run", "--suite", str(SUITE), "--config", "b4", "--model", "scripted/null", "--dry-run")
    assert done.returncode == 0, done.stderr
    estimate = json.loads(done.stdout.strip().splitlines()[-1])
    assert estimate["tasks"] == 0 and estimate["calls"] == 0 and estimate["remaining_of_existing_run"] is True
