"""Plain-text and DOT renderings of an assistant run for ``paratrace ask``."""

from __future__ import annotations

from symbolic.traces.dot import to_dot
from symbolic.scenario.literals import complement

from .api import RunResult
from .local_models import quality_note

__all__ = ["render_dot", "render_text"]


def _arguments(evaluation) -> list[str]:
    labels = evaluation.labelling.labels
    goal = {evaluation.target, complement(evaluation.target)}
    lines = []
    for arg in evaluation.arguments:
        if arg.conclusion not in goal and not arg.conclusion.startswith(("¬applicable(", "applicable(")):
            continue
        via = f"rule {arg.top_rule}" if arg.top_rule else f"fact {arg.fact}"
        lines.append(f"  {arg.id} {labels.get(arg.id)}: {arg.conclusion} via {via}")
    return lines


def _attacks(evaluation) -> list[str]:
    by_id = {a.id: a for a in evaluation.arguments}
    lines = []
    for x in evaluation.attacks:
        src, dst = by_id[x.attacker], by_id[x.target]
        head = (f"  {x.attacker} ({src.conclusion}) -{x.kind.value}-> {x.target} ({dst.conclusion}) on {x.on}"
                + (f", licensed by {x.lic}" if x.lic else ""))
        state = "active" if x.active else f"defeated by priority {x.defeated_by[0]}>{x.defeated_by[1]}"
        lines.append(f"{head}: {state}")
    return lines


def render_text(result: RunResult) -> str:
    """Status, answer, cited fragments, the trace (arguments, active and defeated
    attacks with the priorities that decided them) and the rejected objects."""
    rec = result.record
    lines = [f"configuration {rec.configuration}, model {rec.model}, variant {rec.variant}"]
    note = quality_note(rec.model)
    if note:
        lines.append(f"note: {note}")
    if rec.meta.hard_failure:
        lines += [f"HARD FAILURE: {rec.meta.failure_reason}", "raw text:", rec.meta.raw_text or "(empty)"]
        return "\n".join(lines) + "\n"
    common = rec.common
    lines += [f"status: {common.final_status.value}", f"answer: {common.answer or ''}",
              "cited: " + (", ".join(common.evidence_ids or ()) or "none")]
    pred = result.prediction
    evaluation = pred.get("evaluation") if pred is not None else None
    if evaluation is not None:
        lines += ["arguments:", *(_arguments(evaluation) or ["  none"])]
        lines += ["attacks:", *(_attacks(evaluation) or ["  none"])]
        if evaluation.priorities.cycles:
            lines.append("unresolved priority cycles: " + "; ".join(" ".join(c) for c in evaluation.priorities.cycles))
    elif rec.trace is None:
        lines.append(f"trace: none (configuration {rec.configuration} gives no trace)")
    trace = rec.trace
    if trace is not None:
        if trace.diagnostics is not None:
            d = trace.diagnostics
            lines.append(f"audit: {d.defect_class.value}" + (f" at {d.location}" if d.location else "")
                         + (f" ({d.explanation})" if d.explanation else ""))
        lines.append("rejected as ungrounded:" + ("" if trace.rejected else " none"))
        lines += [f"  {r.kind} {r.id}: {r.reason}" for r in trace.rejected]
    m = rec.meta
    lines.append(f"calls {m.calls}, tokens {m.prompt_tokens} in / {m.completion_tokens} out, "
                 f"{m.latency_ms:.0f} ms" + (f", {len(m.repair_log)} re-ask(s)" if m.repair_log else ""))
    return "\n".join(lines) + "\n"


def render_dot(result: RunResult) -> str:
    """The trace as Graphviz DOT (an empty graph when the configuration has no trace)."""
    trace = result.record.trace
    from symbolic.scenario.model import Trace

    return to_dot(trace.trace() if trace is not None else Trace(), name=result.record.case_id)
