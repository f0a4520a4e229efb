"""A team's shared tracking server: an ``mlflow server`` with a PostgreSQL
store and ``--serve-artifacts`` (started by ``.ci/run``; its URI in
``PARATRACE_TEST_TRACKING_URI``).  Two experiment runs and an optimization,
as three concurrent CLI processes with ``--tracking-uri``, all arrive: every
run, metric, trace and artifact, none twice.  Skipped without the server."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

URI = os.environ.get("PARATRACE_TEST_TRACKING_URI")
pytestmark = pytest.mark.skipif(not URI, reason="PARATRACE_TEST_TRACKING_URI is not set (no shared tracking server)")
SUITE = Path(__file__).resolve().parents[1] / "symbolic" / "fixtures" / "penalty_suite.jsonl"
BENCHMARK = {"ASA", "TGC", "CLA", "DLA", "NER", "PHA", "BRA", "NCR"}
INTERVALS = {f"{m}_ci_{side}" for m in BENCHMARK for side in ("low", "high")}  # the metrics' 95 % intervals


def _cli(*args: str, cwd: Path) -> subprocess.Popen:
    env = {k: v for k, v in os.environ.items() if k not in ("MLFLOW_TRACKING_URI", "MLFLOW_REGISTRY_URI")}
    env.update(LITELLM_LOCAL_MODEL_COST_MAP="true", MLFLOW_DISABLE_TELEMETRY="true")
    cwd.mkdir(parents=True, exist_ok=True)
    return subprocess.Popen([sys.executable, "-c", "from optimize.root import main; main()", *args], cwd=cwd, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def test_concurrent_runs_on_the_shared_server_arrive_complete_and_once(tmp_path):
    from mlflow import MlflowClient

    tag = f"{tmp_path.parents[1].name}-{os.getpid()}"  # unique on a server that outlives the test
    names = {"b1": f"team-b1-{tag}", "b4": f"team-b4-{tag}"}
    suite = tmp_path / f"team_{tag.replace('-', '_')}.jsonl"  # a new experiment: both processes create it
    suite.write_text(SUITE.read_text(encoding="utf-8"), encoding="utf-8")
    procs = [_cli("run", "--suite", str(suite), "--config", config, "--model", "scripted/null", "--name", name,
                  "--workdir", str(tmp_path / config), "--tracking-uri", URI, cwd=tmp_path / config)
             for config, name in names.items()]
    procs.append(_cli("optimize", "--select", "bank-", "--model", "scripted/tutor", "--optimizer", "labeled",
                      "--out", str(tmp_path / "opt" / "program"), "--tracking-uri", URI, cwd=tmp_path / "opt"))
    outputs = [p.communicate(timeout=900)[0] for p in procs]
    failed = [o[-3000:] for p, o in zip(procs, outputs) if p.returncode != 0]
    assert not failed, "\n---\n".join(failed)

    client = MlflowClient(tracking_uri=URI, registry_uri=URI)
    experiment = client.get_experiment_by_name(f"paratrace/{suite.stem}")
    for config, name in names.items():
        parents = client.search_runs([experiment.experiment_id], filter_string=f"attributes.run_name = '{name}'")
        assert len(parents) == 1 and parents[0].info.status == "FINISHED"
        parent = parents[0]
        children = client.search_runs([experiment.experiment_id],
                                      filter_string=f"tags.`mlflow.parentRunId` = '{parent.info.run_id}'")
        assert len(children) == 1 and children[0].info.status == "FINISHED"
        child = children[0]
        assert child.data.params["configuration"] == config
        assert "ASA" in child.data.metrics and "ASA_ci_low" in child.data.metrics
        assert set(child.data.metrics) <= BENCHMARK | INTERVALS
        for metric in child.data.metrics:
            assert len(client.get_metric_history(child.info.run_id, metric)) == 1
        traces = client.search_traces(locations=[experiment.experiment_id], run_id=child.info.run_id,
                                      max_results=100)
        cases = [t.info.tags["paratrace.case_id"] for t in traces]
        assert len(cases) == 7 and len(set(cases)) == 7
        assert all({"gold_status", "outcome"} <= {a.name for a in t.info.assessments} for t in traces)
        child_files = {a.path for a in client.list_artifacts(child.info.run_id)}
        assert {"cases.json", "metrics.json", "case_results.jsonl", "cases.csv", "confusion_matrix.png"} <= child_files
        parent_files = {a.path for a in client.list_artifacts(parent.info.run_id)}
        assert {"cells.json", "report"} <= parent_files
        local = client.download_artifacts(child.info.run_id, "case_results.jsonl", str(tmp_path / "dl" / config))
        assert len(Path(local).read_text().splitlines()) == 7  # served by the server, complete
        assert parent.info.artifact_uri.startswith("mlflow-artifacts:")

    from optimize.programs import load_program

    found = re.search(r"registered models:/([\w.-]+)/(\d+) \(run (\w+)\)", outputs[2])
    assert found, outputs[2][-2000:]
    name, version, run_id = found.groups()
    assert client.get_model_version(name, version).run_id == run_id
    assert client.get_run(run_id).info.status == "FINISHED"
    loaded = load_program(f"models:/{name}/{version}", tracking_uri=URI)  # artifacts served by the server
    assert loaded.config == "b4" and loaded.manifest.optimizer == "labeled"


def test_processes_creating_one_experiment_at_once_all_get_it_tagged(tmp_path):
    """Six processes open one new experiment at the same moment: each gets the
    same experiment, tagged once, and none fails on a duplicate tag insert."""
    from mlflow import MlflowClient

    name = f"race_{tmp_path.parents[1].name}_{os.getpid()}".replace("-", "_")
    script = ("import sys, os, time; from pathlib import Path; "
              "from experiments.runner.tracking import setup_mlflow, _experiment; "
              "m = setup_mlflow(tracking_uri=sys.argv[1], autolog_dspy=False); "
              "Path(f'ready-{os.getpid()}').touch(); "  # a barrier: all six start their requests together
              "[time.sleep(0.01) for _ in iter(lambda: len(list(Path('.').glob('ready-*'))) < 6, False)]; "
              "print(_experiment(m, sys.argv[2]))")
    root = str(Path(__file__).resolve().parents[2])
    env = {**os.environ, "PYTHONPATH": root, "MLFLOW_DISABLE_TELEMETRY": "true"}
    procs = [subprocess.Popen([sys.executable, "-c", script, URI, name], cwd=tmp_path, env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True) for _ in range(6)]
    outputs = [p.communicate(timeout=600)[0] for p in procs]
    assert all(p.returncode == 0 for p in procs), "\n---\n".join(o[-2000:] for o in outputs)
    ids = {o.strip().splitlines()[-1] for o in outputs}
    assert len(ids) == 1
    experiment = MlflowClient(tracking_uri=URI).get_experiment(ids.pop())
    assert experiment.name == f"paratrace/{name}"
    assert experiment.tags["mlflow.experimentKind"] == "custom_model_development"
