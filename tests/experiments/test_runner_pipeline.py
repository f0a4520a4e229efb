"""The runner end to end on the scripted LM: plan, run, resume, score, report,
track; transient LM errors retried; infrastructure errors recorded, never scored."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from assistant.backends import Backbone as Resolved
from assistant.scripted import Script, scripted_lm
from experiments.errors import ExperimentError
from experiments.runner.run import run_experiment
from experiments.runner.solve import AssistantSolver
from experiments.runner.spec import ExperimentSpec

SUITE = Path(__file__).resolve().parents[1] / "symbolic" / "fixtures" / "penalty_suite.jsonl"


def spec(name="t", **kw):
    base = dict(name=name, suites=[str(SUITE)], configurations=["b1", "b4"],
                backbones=[{"model": "scripted/null"}], concurrency=2)
    return ExperimentSpec(**{**base, **kw})


def cases_in(log_path: Path) -> list[tuple]:
    rows = [json.loads(x) for x in log_path.read_text().splitlines()]
    return [(r["key"]["case"], r["key"]["configuration"]) for r in rows]


def test_run_scores_reports_and_refuses_to_overwrite(tmp_path):
    result = run_experiment(spec(), workdir=tmp_path, track=False)
    assert result.summary.done == 14 and result.summary.scored == 14
    assert len(set(cases_in(result.paths.results))) == 14
    suite = result.scores[0]
    assert suite.suite == "penalty_suite"
    assert {Path(f).name for f in suite.files} >= {"summary.md", "cases.csv", "cases.jsonl", "operations.md"}
    ops = next(c for c in suite.cells if c.configuration == "b1").operations
    assert ops.n == 7 and ops.hard_failure_rate == 0 and ops.calls_mean == 1 and ops.latency_median_ms > 0
    b4 = next(c for c in suite.cells if c.configuration == "b4")
    asa = b4.metrics()["ASA"]
    # scripted/null answers "undecidable": right only on the no-facts row of the penalty table
    assert asa[0] == pytest.approx(1 / 7) and asa[3] == 7
    manifest = json.loads(result.paths.manifest.read_text())
    assert manifest["suites"]["penalty_suite"].startswith("sha256:")
    assert set(manifest["packages"]) >= {"dspy", "litellm", "mlflow"}
    with pytest.raises(ExperimentError, match="--resume"):
        run_experiment(spec(), workdir=tmp_path, track=False)
    with pytest.raises(ExperimentError, match="another spec"):
        run_experiment(spec(limit=2), workdir=tmp_path, resume=True, track=False)


def test_killed_run_resumes_with_every_case_exactly_once(tmp_path):
    seen = []

    class Killed(BaseException):
        pass

    real = AssistantSolver()

    def dying(task):
        if len(seen) == 5:
            raise Killed()
        seen.append(task.key)
        return real(task)

    with pytest.raises(Killed):
        run_experiment(spec(concurrency=1), workdir=tmp_path, solver=dying, track=False)
    log = tmp_path / "runs" / "t" / "results.jsonl"
    assert len(cases_in(log)) == 5
    with open(log, "a") as fh:  # a kill in the middle of a write
        fh.write('{"key": {"suite": "penalty_suite", "case": "pen')
    result = run_experiment(spec(concurrency=1), workdir=tmp_path, resume=True, track=False)
    assert result.summary.skipped == 5 and result.summary.done == 9
    keys = cases_in(log)
    assert len(keys) == 14 and len(set(keys)) == 14


def test_dry_run_estimates_without_calls_or_files(tmp_path):
    result = run_experiment(spec(), workdir=tmp_path, dry_run=True)
    assert result.estimate.tasks == 14 and result.estimate.calls == 14
    assert result.estimate.prompt_tokens > 0 and not (tmp_path / "runs").exists()


def test_budget_leaves_cases_pending_for_resume(tmp_path):
    result = run_experiment(spec(max_calls=4, concurrency=1), workdir=tmp_path, track=False)
    assert result.summary.stopped_by_budget and result.summary.pending == 10


class RateLimitError(Exception):
    status_code = 429


class InternalServerError(Exception):
    status_code = 500


def raising(exc):
    def reply(messages):
        raise exc
    return reply


def test_lm_faults_are_retried_then_recorded_and_never_scored(tmp_path):
    # per case, in order: timeout, 429, 500, then an answer -> recovered by retries;
    # malformed JSON is re-asked by Instructor and then answered.
    script = Script([raising(TimeoutError("read timed out")), raising(RateLimitError("429 slow down")),
                     raising(InternalServerError("500 upstream")), "{not json", ], fallback="null")
    flaky = Resolved("scripted/flaky", scripted_lm("scripted/flaky", script), "scripted", True)
    dead = Resolved("scripted/dead", scripted_lm("scripted/dead", Script(
        [raising(TimeoutError("read timed out"))] * 10, fallback="null")), "scripted", True)
    solver = AssistantSolver(resolved={"flaky": flaky, "dead": dead}, max_retries=1)
    s = spec(configurations=["b1"], concurrency=1, max_retries=3, backoff_s=0, cases=["penalty-as-given"],
             backbones=[{"model": "scripted/null", "alias": "flaky"}, {"model": "scripted/null", "alias": "dead"}])
    result = run_experiment(s, workdir=tmp_path, track=False, solver=solver)
    records = [json.loads(x) for x in (tmp_path / "runs" / "t" / "results.jsonl").read_text().splitlines()]
    by_backbone = {r["key"]["backbone"]: r for r in records}
    assert by_backbone["flaky"]["outcome"] == "scored" and by_backbone["flaky"]["attempts"] == 4
    assert by_backbone["dead"]["outcome"] == "infra_error" and by_backbone["dead"]["attempts"] == 4
    assert by_backbone["dead"]["output"]["meta"]["hard_failure"] is True
    cell = {c.backbone: c for c in result.scores[0].cells}
    # an infrastructure error is no model answer: counted, in no metric
    assert cell["dead"].results == () and cell["dead"].metrics() == {}
    assert cell["dead"].not_scored_text() == "not scored (1 infrastructure errors)"
    assert cell["flaky"].results[0].case_id == "penalty-as-given"
    assert result.summary.infra_errors == 1 and result.summary.retries == 6


def test_tracked_run_logs_nested_runs_traces_and_compares(tmp_path, monkeypatch):
    monkeypatch.delenv("MLFLOW_TRACKING_URI", raising=False)
    monkeypatch.chdir(tmp_path)  # the sqlite store's default artifact root is ./mlruns
    monkeypatch.setenv("OPENAI_API_KEY", "sk-never-logged-0123456789")
    result = run_experiment(spec(name="tracked"), workdir=tmp_path, track=True)
    import mlflow

    from experiments.runner.compare import compare_runs, load_run_results, to_markdown

    client = mlflow.MlflowClient()
    exp = client.get_experiment_by_name("paratrace/penalty_suite")
    runs = client.search_runs([exp.experiment_id])
    children = [r for r in runs if r.data.tags.get("mlflow.parentRunId") == result.mlflow_runs[0]]
    assert sorted(r.data.params["configuration"] for r in children) == ["b1", "b4"]
    assert all(r.data.params["prompt_hash"].startswith("sha256:") for r in children)
    # the metrics are the benchmark metrics and their intervals; counts and operations are tags
    benchmark = {"ASA", "TGC", "CLA", "DLA", "NER", "PHA", "BRA", "NCR"}
    intervals = {f"{m}_ci_{end}" for m in benchmark for end in ("low", "high")}
    assert all({"ASA", "ASA_ci_low", "ASA_ci_high"} <= set(r.data.metrics) <= benchmark | intervals
               for r in children)
    assert all(r.data.metrics["ASA_ci_low"] <= r.data.metrics["ASA"] <= r.data.metrics["ASA_ci_high"]
               for r in children)
    assert all(r.data.tags["ci.ASA"].startswith("[") and r.data.tags["n.ASA"] == "7" for r in children)
    assert sorted(r.info.run_name for r in children) == ["b1·scripted/null", "b4·scripted/null"]
    assert all(r.data.tags["paratrace.run"] == "tracked" for r in children)
    assert all("ops.latency_p95_ms" in r.data.tags and "ops.valid_rate" in r.data.tags for r in children)
    files = {a.path for a in client.list_artifacts(children[0].info.run_id)}
    assert {"cases.json", "cases.csv", "cases.txt", "metrics.json", "confusion_matrix.png", "metrics.png"} <= files
    for child in children:  # one trace per case, linked to its run, with the gold and the metrics
        traces = mlflow.search_traces(locations=[exp.experiment_id], run_id=child.info.run_id, return_type="list")
        assert len(traces) == 7
        names = {a.name for t in traces for a in t.info.assessments}
        assert {"gold_status", "status", "outcome", "ASA"} <= names
    assert len(mlflow.search_traces(locations=[exp.experiment_id], return_type="list")) == 14
    parent_files = {a.path for a in client.list_artifacts(result.mlflow_runs[0])}
    assert {"cells.json", "paired_tests.json"} <= parent_files
    cells = mlflow.load_table("cells.json", run_ids=[result.mlflow_runs[0]])
    assert sorted(cells["configuration"]) == ["b1", "b4"] and set(cells["scored"]) == {7}
    by_config = {r.data.params["configuration"]: r.data.metrics["ASA"] for r in children}
    assert {c: a for c, a in zip(cells["configuration"], cells["ASA"])} == pytest.approx(by_config)
    assert all(cells["ASA_ci_low"] <= cells["ASA"]) and set(cells["ASA_n"]) == {7}
    paired = mlflow.load_table("paired_tests.json", run_ids=[result.mlflow_runs[0]])
    assert "ASA" in set(paired["metric"]) and ((paired["q_bh"] >= paired["p"]) & (paired["q_bh"] <= 1)).all()
    assert not any("sk-never-logged" in json.dumps(r.data.params) for r in runs)
    runs = [load_run_results(client, r.info.run_id, tmp_path / r.info.run_id) for r in children]
    assert sorted(len(results) for _, results in runs) == [7, 7]
    rows = compare_runs(runs)
    assert {r.metric for r in rows} >= {"ASA"} and all(0 <= r.qvalue <= 1 for r in rows)
    assert "| ASA |" in to_markdown(rows)


def test_a_setup_error_stops_the_run_instead_of_failing_every_case(tmp_path):
    from assistant.errors import ConfigurationError

    with pytest.raises(ConfigurationError, match="nonesuch"):
        run_experiment(spec(configurations=["nonesuch"], concurrency=1), workdir=tmp_path, track=False)
    log = tmp_path / "runs" / "t" / "results.jsonl"
    assert not log.exists() or log.read_text() == ""


def test_interrupted_logging_is_marked_killed_and_resume_continues_the_same_parent(tmp_path, monkeypatch):
    import mlflow

    import experiments.runner.case_traces as case_traces

    monkeypatch.delenv("MLFLOW_TRACKING_URI", raising=False)
    monkeypatch.chdir(tmp_path)  # the sqlite store's default artifact root is ./mlruns
    real, logged = case_traces.log_case_trace, []

    def dying(*args, **kwargs):
        if len(logged) == 9:  # the first cell done, the second one partly: killed mid-logging
            raise KeyboardInterrupt
        logged.append(real(*args, **kwargs))
        return logged[-1]

    monkeypatch.setattr("experiments.runner.experiment_log.log_case_trace", dying)
    with pytest.raises(KeyboardInterrupt):
        run_experiment(spec(name="killed"), workdir=tmp_path, track=True)
    client = mlflow.MlflowClient()
    exp = client.get_experiment_by_name("paratrace/penalty_suite")
    runs = client.search_runs([exp.experiment_id])
    assert len(runs) == 3 and {r.info.status for r in runs} == {"KILLED", "FINISHED"}
    assert [r.info.status for r in runs if "mlflow.parentRunId" not in r.data.tags] == ["KILLED"]
    monkeypatch.setattr("experiments.runner.experiment_log.log_case_trace", real)
    result = run_experiment(spec(name="killed"), workdir=tmp_path, resume=True, track=True)
    runs = client.search_runs([exp.experiment_id])
    parents = [r for r in runs if "mlflow.parentRunId" not in r.data.tags]
    assert [p.info.run_id for p in parents] == list(result.mlflow_runs)  # the same parent, continued
    assert len(runs) == 3 and {r.info.status for r in runs} == {"FINISHED"}
    traces = mlflow.search_traces(locations=[exp.experiment_id], return_type="list")
    keys = [(t.info.request_metadata["mlflow.sourceRun"], t.info.tags["paratrace.case_id"]) for t in traces]
    assert len(keys) == 14 and len(set(keys)) == 14  # every case once, none twice
