"""``paratrace run --workdir DIR`` as a process started elsewhere: DIR holds
everything the run writes (the run directory, the cache, the MLflow store and
the MLflow artifacts), the directory it was started from holds nothing, and
the run says where the store and the artifacts are and how to open them."""

from __future__ import annotations

import subprocess
from pathlib import Path

from cli_process import PARATRACE, ROOT, cli_env

SUITE = ROOT / "tests" / "symbolic" / "fixtures" / "penalty_suite.jsonl"


def _run(cwd: Path, home: Path, *args: str, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run([*PARATRACE, "run", "--suite", str(SUITE), "--config", "b4", "--model", "scripted/null",
                           *args], cwd=cwd, env=cli_env(home, **env), capture_output=True, text=True, timeout=900)


def test_the_workdir_holds_the_store_and_the_artifacts(tmp_path):
    import mlflow

    start, work, home = tmp_path / "start", tmp_path / "work", tmp_path / "home"
    for d in (start, work, home):
        d.mkdir()
    done = _run(start, home, "--workdir", str(work))
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert list(start.iterdir()) == []  # nothing where the command was started
    assert {p.name for p in work.iterdir()} >= {"mlflow.db", "mlruns", "runs"}

    store = f"sqlite:///{work.resolve() / 'mlflow.db'}"
    client = mlflow.MlflowClient(tracking_uri=store)
    experiment = client.get_experiment_by_name("paratrace/penalty_suite")
    mlruns = (work / "mlruns").resolve()
    assert experiment.artifact_location == (mlruns / "paratrace_penalty_suite").as_uri()
    runs = client.search_runs([experiment.experiment_id])
    assert len(runs) == 2  # the parent and one nested run
    for run in runs:
        assert run.info.artifact_uri.startswith(mlruns.as_uri())
        assert client.list_artifacts(run.info.run_id)  # and the files are there
    assert any(p.name == "case_results.jsonl" for p in mlruns.rglob("*"))

    out = done.stdout
    assert f"MLflow store: {store}" in out
    assert f"MLflow artifacts: {experiment.artifact_location}" in out
    assert f"paratrace ui --workdir {work}" in out


def test_a_store_named_elsewhere_is_named_in_the_hint(tmp_path):
    start, work, home, other = (tmp_path / n for n in ("start", "work", "home", "other"))
    for d in (start, work, home, other):
        d.mkdir()
    store = f"sqlite:///{other / 'team.db'}"
    done = _run(start, home, "--workdir", str(work), MLFLOW_TRACKING_URI=store)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert f"paratrace ui --tracking-uri {store}" in done.stdout
    assert "paratrace ui --workdir" not in done.stdout  # the workdir has no store
    assert not (work / "mlflow.db").exists() and (other / "mlruns").is_dir()
