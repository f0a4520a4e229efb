"""MLflow logging to a temporary store: runs, metrics, params, artifacts; no secret."""

from __future__ import annotations

import json

import pytest

from experiments.runner.tracking import GroupLog, log_group, parent_run, setup_mlflow

SECRET = "sk-test-DO-NOT-LEAK-1234567890"


@pytest.fixture()
def mlflow_store(tmp_path, monkeypatch):
    monkeypatch.delenv("MLFLOW_TRACKING_URI", raising=False)
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    monkeypatch.chdir(tmp_path)
    return setup_mlflow(tmp_path, autolog_dspy=False), tmp_path


def test_nested_runs_hold_params_metrics_artifacts_and_no_secret(mlflow_store):
    mlflow, root = mlflow_store
    manifest = {"model": "openai/gpt-x", "api_key": SECRET, "decoding": {"temperature": 0},
                "note": f"called with key {SECRET}"}
    with parent_run(mlflow, "normative-en", "spec-a", manifest) as parent:
        report = root / "report.md"
        report.write_text(f"# report\nkey {SECRET}\n")
        run_id = log_group(mlflow, GroupLog(
            name="b4 | openai/gpt-x | standard | r0",
            params={"configuration": "b4", "OPENAI_API_KEY": SECRET},
            metrics={"ASA": (0.75, 0.4, 0.9, 4), "CLA": (None, None, None, 0)},
            table=[{"case": "c1", "correct": True, "raw": f"echo {SECRET}"}],
            texts={"summary.md": f"ASA 0.75 {SECRET}"},
            files=[report],
        ))
    client = mlflow.MlflowClient()
    assert (root / "mlflow.db").exists()
    exp = client.get_experiment_by_name("paratrace/normative-en")
    runs = client.search_runs([exp.experiment_id])
    assert {r.info.run_id for r in runs} == {parent.info.run_id, run_id}
    child = client.get_run(run_id)
    assert child.data.tags["mlflow.parentRunId"] == parent.info.run_id
    assert child.data.metrics == {"ASA": 0.75, "ASA_ci_low": 0.4, "ASA_ci_high": 0.9}  # counts are tags
    exp_tags = client.get_experiment(exp.experiment_id).tags  # the runs table's shared view (grouped, metric columns)
    view = json.loads(exp_tags["mlflow.sharedViewState.paratrace-runs"])
    assert view["groupBy"]["groupByKeys"] == [{"mode": "tag", "groupByData": "paratrace.run"}]
    assert "metrics.`ASA`" in view["selectedColumns"]
    assert client.get_run(parent.info.run_id).data.tags["paratrace.run"] == "spec-a"
    assert child.data.tags["ci.ASA"] == "[0.4000, 0.9000]" and child.data.tags["n.ASA"] == "4"
    assert "CLA" not in child.data.metrics
    artifacts = {a.path for a in client.list_artifacts(run_id)}
    assert {"cases.json", "metrics.json", "summary.md", "report.md"} <= artifacts
    everything = [json.dumps(r.data.params) + json.dumps(r.data.tags) for r in runs]
    for a in artifacts:
        everything.append(open(client.download_artifacts(run_id, a, str(root / "dl"))).read())
    assert not any(SECRET in text for text in everything)
    assert client.get_run(parent.info.run_id).data.params["model"] == "openai/gpt-x"
    assert "api_key" not in client.get_run(parent.info.run_id).data.params


def test_sigterm_while_logging_marks_the_open_runs_killed(mlflow_store):
    import os
    import signal

    from experiments.runner.experiment_log import _terminations

    mlflow, _ = mlflow_store
    started = []
    with pytest.raises(SystemExit):
        with _terminations(mlflow, started):
            with parent_run(mlflow, "normative-en", "spec-term", {"model": "m"}) as parent:
                started.append(parent.info.run_id)
                with mlflow.start_run(run_name="child", nested=True) as child:
                    started.append(child.info.run_id)
                    os.kill(os.getpid(), signal.SIGTERM)
    client = mlflow.MlflowClient()
    assert [client.get_run(r).info.status for r in started] == ["KILLED", "KILLED"]
    assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL  # the handler is put back


def test_paired_tests_leave_out_cases_that_were_not_computed():
    from types import SimpleNamespace

    from experiments.runner.experiment_log import paired_table
    from scorer.records import CaseResult, MetricRecord

    def cell(name, correct):
        return SimpleNamespace(name=name, results=[
            CaseResult(f"c{i}", name, "m", None, 0, "accepted", "accepted" if ok else "rejected", ok, False,
                       {"ASA": MetricRecord("ASA", float(ok), "")}) for i, ok in enumerate(correct)])

    cells = [cell("a", [True] * 6), cell("b", [False, False, False, True, True, True])]
    full = paired_table(cells)
    left_out = paired_table(cells, {"b": {"c0"}})  # c0 of b was an infrastructure error
    asa = lambda t: t["paired_cases"][t["metric"].index("ASA")]  # noqa: E731
    assert (asa(full), asa(left_out)) == (6, 5)
    assert paired_table(cells[:1]) is None
