"""One MLflow trace per scored case, linked to its nested run, with the case's
gold status as an expectation and its metrics as feedback.

MLflow's evaluation view (``Evaluation runs``) lists these traces per run and,
with *compare to run*, puts two runs side by side case by case: traces of two
runs are matched on their request, which is the same for the same case (case
id, query, target and evidence, never the gold).

Assessments (all from the source ``CODE`` / ``paratrace.scorer``):

* expectation ``gold_status``: the gold status label;
* feedback ``status``: the predicted status (``None`` on a hard failure), its
  rationale says whether it matches the gold;
* feedback ``outcome``: ``scored``, ``parse_failure`` or ``infra_error``;
* one feedback per applicable metric (``ASA``, ``TGC``, ``CLA``, ``DLA``,
  ``NER``, ``PHA``, ``BRA``, ``NCR``; docs/metrics.md), with the scorer's
  explanation as rationale.  A case whose outcome is ``infra_error`` was not
  computed, so it gets no metric feedback (it is reported, never scored).

Traces are exported synchronously (:func:`synchronous_trace_export`), so none
is dropped by the asynchronous export queue.
"""

from __future__ import annotations

import os
import time
from typing import Any, Iterable, Mapping

from .manifest import redact

__all__ = ["CASE_TAG", "case_request", "case_response", "log_case_trace", "logged_case_ids",
           "synchronous_trace_export"]

CASE_TAG = "paratrace.case_id"
_SOURCE_ID = "paratrace.scorer"


def synchronous_trace_export() -> None:
    """Export traces in the calling thread (``MLFLOW_ENABLE_ASYNC_TRACE_LOGGING=false``).

    MLflow's asynchronous exporter drops traces when its queue is full; the
    runner logs hundreds of traces in a burst, so it writes each one before
    returning.  Call before the first trace of the process.
    """
    os.environ["MLFLOW_ENABLE_ASYNC_TRACE_LOGGING"] = "false"


def case_request(scenario: Any) -> dict[str, Any]:
    """The request of a case's trace: what the assistant was given (no gold).

    Examples
    --------
    >>> from types import SimpleNamespace as NS
    >>> case_request(NS(id="c1", query="q?", target="P(x)", candidate=None,
    ...                 evidence=[NS(id="E-01", text="t", source="s")]))
    {'case_id': 'c1', 'query': 'q?', 'target': 'P(x)', 'evidence': [{'id': 'E-01', 'source': 's', 'text': 't'}]}
    """
    request = {"case_id": scenario.id, "query": scenario.query, "target": scenario.target,
               "evidence": [{"id": f.id, "source": f.source, "text": f.text} for f in scenario.evidence]}
    if getattr(scenario, "candidate", None) is not None:
        request["audit"] = True
    return redact(request)


def _theory(trace: Mapping[str, Any]) -> dict[str, list]:
    """The output's facts, rules, attacks and priorities, one short line each (what the model extracted)."""
    def line(obj: Mapping[str, Any], *keys: str) -> str:
        return " ".join(str(obj.get(k)) for k in keys if obj.get(k) not in (None, "", [], ()))

    return {"facts": [line(f, "id", "literal") for f in trace.get("facts") or ()],
            "rules": [f"{r.get('id')}: {' & '.join(map(str, r.get('antecedents') or ()))} -> {r.get('consequent')}"
                      for r in trace.get("rules") or ()],
            "attacks": [f"{a.get('source')} {a.get('kind')} {a.get('target')}" for a in trace.get("attacks") or ()],
            "priorities": [f"{p.get('stronger')} > {p.get('weaker')} ({p.get('basis')})"
                           for p in trace.get("priorities") or ()]}


def case_response(output: Mapping[str, Any], result: Any | None = None, cell: Mapping[str, Any] | None = None,
                  metrics: Iterable[str] = ()) -> dict[str, Any]:
    """The outputs of a case's trace: what the compare view shows per case and run without a pop-up.

    The backbone and configuration, the gold status, the answer and whether it
    is correct, the case's metrics, then the model's facts, rules, attacks and
    priorities (when the output has a trace).

    Examples
    --------
    >>> from types import SimpleNamespace as NS
    >>> r = NS(status_gold="both", correct=False, metrics={"ASA": NS(value=0.0)})
    >>> case_response({"common": {"final_status": "accepted", "answer": "Due."}, "meta": {}}, r,
    ...               {"configuration": "b1", "backbone": "m"}, ["ASA", "TGC"])
    {'backbone': 'm', 'configuration': 'b1', 'gold_status': 'both', 'final_status': 'accepted', 'correct': False, 'ASA': 0.0, 'answer': 'Due.', 'hard_failure': False}
    """
    common = output.get("common") or {}
    meta = output.get("meta") or {}
    response: dict[str, Any] = {}
    if cell:
        response.update(backbone=cell.get("backbone"), configuration=cell.get("configuration"))
    if result is not None:
        response["gold_status"] = result.status_gold
    response["final_status"] = common.get("final_status")
    if result is not None:
        response["correct"] = bool(result.correct)
        for name in metrics:
            rec = result.metrics.get(name)
            if rec is not None and rec.value is not None:
                response[name] = round(float(rec.value), 4)
    response["answer"] = common.get("answer")
    if common.get("justification") is not None:
        response["justification"] = common["justification"]
    response["hard_failure"] = bool(meta.get("hard_failure"))
    if meta.get("failure_reason"):
        response["failure_reason"] = meta["failure_reason"]
    trace = output.get("trace")
    if isinstance(trace, Mapping):
        response.update({k: v for k, v in _theory(trace).items() if v})
    return redact(response)


def logged_case_ids(mlflow, run_id: str, experiment_id: str) -> set[str]:
    """Case ids that already have a trace in run ``run_id`` (a resumed log adds only the others)."""
    traces = mlflow.search_traces(locations=[experiment_id], run_id=run_id, return_type="list",
                                  include_spans=False)
    return {t.info.tags.get(CASE_TAG) for t in traces} - {None}


def _feedback(mlflow, trace_id: str, name: str, value: Any, rationale: str, source) -> None:
    from symbolic.support.redact import redact_text

    mlflow.log_feedback(trace_id=trace_id, name=name, value=value, rationale=redact_text(rationale) or None,
                        source=source)


def log_case_trace(mlflow, *, scenario: Any, record: Mapping[str, Any], result: Any | None,
                   cell: Mapping[str, Any], metrics: Iterable[str]) -> str:
    """Log one case as a trace of the active run, with its assessments; return the trace id.

    Parameters
    ----------
    mlflow : module
    scenario : symbolic.scenario.model.Scenario
        The case (its request; the gold only through ``result``).
    record : mapping
        The case's line of ``results.jsonl`` (``outcome``, ``output``, ``calls``, ``tokens``).
    result : scorer.records.CaseResult or None
        The scored case; ``None`` when it was not scored.
    cell : mapping
        Configuration, backbone, variant and repeat, recorded as trace tags.
    metrics : iterable of str
        The metrics given as feedback, in order.
    """
    from mlflow.entities import AssessmentSource, AssessmentSourceType, SpanType

    source = AssessmentSource(source_type=AssessmentSourceType.CODE, source_id=_SOURCE_ID)
    metrics = tuple(metrics)
    output = record.get("output") or {}
    meta = output.get("meta") or {}
    outcome = str(record.get("outcome", "scored"))
    latency_ns = int(float(meta.get("latency_ms") or 0.0) * 1e6)
    end = time.time_ns()
    attributes = {**{f"paratrace.{k}": str(v) for k, v in cell.items()}, "paratrace.outcome": outcome,
                  "paratrace.calls": int(record.get("calls") or 0), "paratrace.tokens": int(record.get("tokens") or 0)}
    root = mlflow.start_span_no_context(name=f"case {scenario.id}", span_type=SpanType.CHAIN,
                                        inputs=case_request(scenario), attributes=attributes,
                                        start_time_ns=end - latency_ns,
                                        tags={CASE_TAG: scenario.id, **{f"paratrace.{k}": str(v)
                                                                        for k, v in cell.items()}})
    lm = mlflow.start_span_no_context(name="LM calls", span_type=SpanType.CHAT_MODEL, parent_span=root,
                                      start_time_ns=end - latency_ns,
                                      attributes={"calls": int(meta.get("calls") or record.get("calls") or 0),
                                                  "prompt_tokens": int(meta.get("prompt_tokens") or 0),
                                                  "completion_tokens": int(meta.get("completion_tokens") or 0)})
    lm.set_outputs(redact({"raw_text": meta.get("raw_text", ""), "repair_log": list(meta.get("repair_log") or [])}))
    lm.end(end_time_ns=end)
    computed = result if outcome != "infra_error" else None
    root.set_outputs(case_response(output, computed, cell, metrics if computed is not None else ()))
    root.end(status="ERROR" if outcome == "infra_error" else "OK", end_time_ns=end)
    trace_id = root.trace_id
    _feedback(mlflow, trace_id, "outcome", outcome, "", source)
    if result is None:
        return trace_id
    mlflow.log_expectation(trace_id=trace_id, name="gold_status", value=result.status_gold, source=source)
    _feedback(mlflow, trace_id, "status", result.status_pred,
              f"gold {result.status_gold}: " + ("correct" if result.correct else "incorrect"), source)
    if outcome == "infra_error":
        return trace_id  # not computed: reported as such, never as a score
    for name in metrics:
        rec = result.metrics.get(name)
        if rec is not None and rec.value is not None:
            _feedback(mlflow, trace_id, name, float(rec.value), rec.explanation, source)
    return trace_id
