"""What MLflow's compare view shows per case without a pop-up: the outputs of
each case's trace carry the backbone, the gold status, the answer, whether it
is correct, the case's metrics and the model's facts and rules (a tracked run
of B4 on a scripted backbone, read back from the SQLite store)."""

from __future__ import annotations

import json
from pathlib import Path

from assistant.backends import Backbone
from assistant.scripted import Script, scripted_lm
from experiments.runner.run import run_experiment
from experiments.runner.solve import AssistantSolver
from experiments.runner.spec import ExperimentSpec
from experiments.runner.tracking import setup_mlflow

SUITE = Path(__file__).resolve().parents[1] / "symbolic" / "fixtures" / "penalty_suite.jsonl"
THEORY = {"theory": {
    "facts": [{"id": "f1", "literal": "Delay(x)", "evidence": ["E-01"]}],
    "rules": [{"id": "r1", "antecedents": ["Delay(x)"], "consequent": "Penalty(x)", "evidence": ["E-02"]}],
    "attacks": [], "priorities": []}}


class Accepting(Script):
    """B4's theory step answers with a theory that accepts the penalty."""

    def next(self, messages, schema=None):
        if schema and "theory" in (schema.get("properties") or {}):
            self.requests.append(messages)
            return json.dumps(THEORY)
        return super().next(messages, schema)


def test_case_trace_outputs_show_gold_answer_correctness_metrics_and_theory(tmp_path, monkeypatch):
    monkeypatch.delenv("MLFLOW_TRACKING_URI", raising=False)
    monkeypatch.chdir(tmp_path)
    backbone = Backbone("scripted/accepting", scripted_lm("scripted/accepting", Accepting(fallback="null")),
                        "scripted", True)
    spec = ExperimentSpec(name="outputs", suites=[str(SUITE)], configurations=["b4"], concurrency=1,
                          backbones=[{"model": "scripted/null", "alias": "accepting"}])
    result = run_experiment(spec, workdir=tmp_path, track=True,
                            solver=AssistantSolver(resolved={"accepting": backbone}))
    mlflow = setup_mlflow(tmp_path, autolog_dspy=False)
    parent = mlflow.get_run(result.mlflow_runs[0])
    traces = mlflow.search_traces(locations=[parent.info.experiment_id], return_type="list")
    assert len(traces) == 7
    by_case = {t.info.tags["paratrace.case_id"]: t for t in traces}
    gold = {s["id"]: s["gold"]["status"] for s in map(json.loads, filter(str.strip, SUITE.read_text().splitlines()))}
    for case, trace in by_case.items():
        outputs = next(span.outputs for span in trace.data.spans if span.parent_id is None)
        assert outputs["backbone"] == "accepting" and outputs["configuration"] == "b4"
        assert outputs["gold_status"] == gold[case]
        assert outputs["correct"] == (outputs["final_status"] == gold[case])
        assert outputs["ASA"] == (1.0 if outputs["correct"] else 0.0)
        assert "TGC" in outputs and outputs["answer"]
        assert outputs["facts"] == ["f1 Delay(x)"] and outputs["rules"] == ["r1: Delay(x) -> Penalty(x)"]
