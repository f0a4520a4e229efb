"""Backbones that exist outside the test suite: the runner checks every backbone
with a real one-token completion before the first case (a dead one stops the
run naming backbone, endpoint and cause), refuses an unknown model string before
the run directory exists, never scores an infrastructure error, exits non-zero
when nothing was scored, and retries infrastructure errors on ``--resume``.
Endpoints are real OpenAI-compatible HTTP servers on 127.0.0.1."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from assistant.adapter import response_model_for
from assistant.backends import PROBE_MESSAGES
from assistant.errors import BackendError
from assistant.scripted import Script, minimal_instance
from assistant.scripted_http import ScriptedServer, dead_url
from assistant.signatures import AnswerWithCitations
from experiments.runner.run import run_experiment
from experiments.runner.spec import ExperimentSpec
from optimize.root import app

SUITE = Path(__file__).resolve().parents[1] / "symbolic" / "fixtures" / "penalty_suite.jsonl"
FAST = {"num_retries": 0}  # no client-side retries: the runner's own policy is under test
B1_MINIMAL = json.dumps(minimal_instance(response_model_for(AnswerWithCitations).model_json_schema()))


def healthy(messages):
    """A model that answers the preflight and every B1 case (minimally)."""
    return "OK" if messages[-1]["content"] == PROBE_MESSAGES[-1]["content"] else B1_MINIMAL


@pytest.fixture(autouse=True)
def no_keys(monkeypatch):
    for name in ("OPENAI_API_KEY", "PARATRACE_API_KEY"):
        monkeypatch.delenv(name, raising=False)


def spec(name, backbones, **kw):
    return ExperimentSpec(**{"name": name, "suites": [str(SUITE)], "configurations": ["b1"],
                             "backbones": backbones, "concurrency": 1, "max_retries": 1, "backoff_s": 0,
                             "limit": 3, **kw})


def test_same_model_two_endpoints_the_down_one_gets_zero_scored_cases(tmp_path):
    with ScriptedServer(Script([healthy] * 50)) as up:
        a = {"model": "openai/same", "alias": "up", "api_base": up.base_url, "decoding": FAST}
        first = run_experiment(spec("one", [a]), workdir=tmp_path, track=False)
        assert first.summary.scored == 3
        b = {"model": "openai/same", "alias": "down", "api_base": dead_url(), "decoding": FAST}
        # The preflight stops the run before anything is written.
        with pytest.raises(BackendError, match=r"backbone down at http://127\.0\.0\.1:\d+/v1: connection refused"):
            run_experiment(spec("two", [a, b]), workdir=tmp_path, track=False)
        assert not (tmp_path / "runs" / "two").exists()
        asked = len(up.bodies)
        # Without the preflight, the cases of the down endpoint fail; the up one's cache answers nothing for it.
        both = run_experiment(spec("two", [a, b]), workdir=tmp_path, track=False, preflight=False)
        assert len(up.bodies) == asked  # the up backbone's three cases replayed from its own cache entries
    cells = {c.backbone: c for c in both.scores[0].cells}
    assert len(cells["up"].results) == 3 and cells["up"].outcomes["scored"] == 3
    assert cells["down"].results == () and cells["down"].outcomes["infra_error"] == 3
    assert cells["down"].metrics() == {} and cells["down"].not_scored_text() == "not scored (3 infrastructure errors)"
    assert both.summary.scored == 3 and both.summary.infra_errors == 3


def test_unknown_model_string_is_refused_before_the_run_directory(tmp_path):
    result = CliRunner().invoke(app, ["run", "--suite", str(SUITE), "--config", "b1", "--model", "opnai/gpt-4o",
                                      "--workdir", str(tmp_path), "--no-track"])
    assert result.exit_code == 2, result.output
    assert "unknown provider 'opnai'" in result.output and "internal error" not in result.output
    assert not (tmp_path / "runs").exists()


def test_dead_backbone_stops_the_cli_run_with_one_line(tmp_path):
    url = dead_url()
    result = CliRunner().invoke(app, ["run", "--suite", str(SUITE), "--config", "b1", "--model", "openai/m",
                                      "--api-base", url, "--workdir", str(tmp_path), "--no-track"])
    assert result.exit_code == 2, result.output
    lines = [ln for ln in result.output.splitlines() if ln.strip()]
    assert lines == [f"paratrace: error: backbone openai/m at {url}: connection refused (is the server running?)"]
    assert not (tmp_path / "runs").exists()


def test_nothing_scored_exits_non_zero_and_resume_retries_the_infra_errors(tmp_path):
    script = Script(["OK"], fallback="error")  # answers the preflight, then 500 on every case
    with ScriptedServer(script) as server:
        toml = tmp_path / "flaky.toml"
        toml.write_text(f'suites = ["{SUITE}"]\nconfigurations = ["b1"]\nlimit = 2\nconcurrency = 1\n'
                        f'max_retries = 0\nbackoff_s = 0\n[[backbones]]\nmodel = "openai/m"\n'
                        f'api_base = "{server.base_url}"\ndecoding = {{ num_retries = 0 }}\n')
        args = ["run", str(toml), "--workdir", str(tmp_path), "--no-track"]
        failed = CliRunner().invoke(app, args)
        assert failed.exit_code == 1, failed.output
        assert "nothing was scored" in failed.output and "2 infrastructure errors" in failed.output
        assert "0.00 [" not in failed.output  # no interval is printed for cases nobody answered
        script.replies.extend([healthy] * 10)  # the server is fixed
        resumed = CliRunner().invoke(app, [*args, "--resume"])
        assert resumed.exit_code == 0, resumed.output
    records = [json.loads(x) for x in (tmp_path / "runs" / "flaky" / "results.jsonl").read_text().splitlines()]
    assert [r["outcome"] for r in records] == ["scored", "scored"]  # the superseded infra_error lines are compacted
    assert "2 run, 0 already done, 2 scored" in resumed.output
    assert "experiment paratrace/penalty_suite" not in resumed.output  # --no-track: no MLflow line


def test_infra_errors_are_in_no_mlflow_metric(tmp_path, monkeypatch):
    import mlflow

    from assistant.backends import Backbone as Resolved
    from assistant.scripted import scripted_lm
    from experiments.runner.solve import AssistantSolver

    def timeout(messages):
        raise TimeoutError("read timed out")

    monkeypatch.delenv("MLFLOW_TRACKING_URI", raising=False)
    monkeypatch.chdir(tmp_path)  # the sqlite store's default artifact root is ./mlruns
    dead = Resolved("scripted/null", scripted_lm("scripted/dead", Script([timeout] * 20)), "scripted", True)
    solver = AssistantSolver(resolved={"dead": dead})
    s = spec("tracked-dead", [{"model": "scripted/null", "alias": "ok"}, {"model": "scripted/null", "alias": "dead"}])
    result = run_experiment(s, workdir=tmp_path, track=True, solver=solver)
    client = mlflow.MlflowClient()
    children = {r.data.params["backbone"]: r for r in client.search_runs(
        [client.get_experiment_by_name("paratrace/penalty_suite").experiment_id])
        if r.data.tags.get("mlflow.parentRunId") == result.mlflow_runs[0]}
    # Counts are params and tags (the chart view holds the eight metrics only); no metric for the dead one.
    assert children["dead"].data.params["outcomes.infra_error"] == "3"
    assert not any(k.startswith(("ASA", "CLA", "TGC")) for k in children["dead"].data.metrics)
    assert children["ok"].data.params.get("outcomes.infra_error", "0") == "0" and "ASA" in children["ok"].data.metrics
    assert children["ok"].data.tags["n.ASA"] == "3"


def test_a_case_that_hits_the_token_bound_is_reported_as_a_limit_not_an_answer(tmp_path):
    import dspy

    from assistant.backends import Backbone as Resolved
    from assistant.scripted import ScriptedEngine
    from experiments.runner.solve import AssistantSolver

    long_reply = json.dumps(json.loads(B1_MINIMAL) | {"padding": "x" * 200})
    lm = dspy.LM("scripted/bounded", engine=ScriptedEngine(Script([long_reply] * 10)), cache=False, max_tokens=16)
    solver = AssistantSolver(resolved={"bounded": Resolved("scripted/null", lm, "scripted", True)})
    s = spec("bounded", [{"model": "scripted/null", "alias": "bounded"}], limit=1)
    result = run_experiment(s, workdir=tmp_path, track=False, solver=solver)
    record = json.loads((tmp_path / "runs" / "bounded" / "results.jsonl").read_text())
    assert record["outcome"] == "limit" and record["attempts"] == 1  # not retried: it would hit the bound again
    assert record["calls"] == 1 and record["tokens"] > 16
    assert "max_tokens=16" in record["output"]["meta"]["failure_reason"]
    cell = result.scores[0].cells[0]
    assert cell.results == () and cell.not_scored_text() == "not scored (1 token/time limits)"
    assert result.summary.limits == 1 and result.summary.scored == 0


def test_a_rerun_says_which_calls_the_response_cache_answered(tmp_path):
    """Replies from the cache spend no tokens: the summary says so instead of a bare "0 tokens"."""
    script = Script([healthy] * 20)
    with ScriptedServer(script) as server:
        base = ["run", "--suite", str(SUITE), "--config", "b1", "--model", "openai/m", "--api-base",
                server.base_url, "--workdir", str(tmp_path), "--no-track", "--limit", "2"]
        first = CliRunner().invoke(app, [*base, "--name", "first"])
        again = CliRunner().invoke(app, [*base, "--name", "again"])
    assert first.exit_code == 0 and again.exit_code == 0, first.output + again.output
    assert "response cache" not in first.output
    said = " ".join(again.output.split())
    assert "2/2 cases, 0 failures, 0 tokens (2 calls from the response cache)" in said
    assert "2 calls (2 answered from the response cache, which spends no tokens), 0 tokens" in said
