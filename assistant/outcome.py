"""From engine results and LM answers to the output contract's payloads.

Pure functions: an :class:`~symbolic.engine.results.Evaluation` or a
:class:`~assistant.schemas.CitedAnswer` in, :class:`~scorer.contract.CommonV1`
and :class:`~scorer.contract.TraceV2` out.  The B4 answer text is written from
the engine's result, never by the LM.
"""

from __future__ import annotations

from symbolic.engine.grounding import Dropped, ground
from symbolic.scenario.literals import complement
from symbolic.scenario.model import Analysis
from symbolic.engine.results import Evaluation
from symbolic.traces.trace import build_trace
from symbolic.traces.trace_graph import graph_to_trace
from scorer.contract import CommonV1, Diagnostics, Rejected, TraceV2

from .schemas import CitedAnswer

__all__ = [
    "common_from_answer",
    "common_from_evaluation",
    "emitted_literals",
    "explain",
    "rejected_of",
    "trace_from_analysis",
    "trace_from_evaluation",
]


def emitted_literals(analysis: Analysis) -> tuple[str, ...]:
    """Every literal the LM asserted or derived (fact literals, rule consequents), grounded or not.

    >>> from symbolic.scenario.model import Fact, Rule
    >>> emitted_literals(Analysis(facts=[Fact(id="f1", literal="b")],
    ...                           rules=[Rule(id="r1", antecedents=["b"], consequent="a")]))
    ('a', 'b')
    """
    return tuple(sorted({f.literal for f in analysis.facts} | {r.consequent for r in analysis.rules}))


def rejected_of(dropped: tuple[Dropped, ...]) -> tuple[Rejected, ...]:
    """The parser-validator's dropped objects as contract records."""
    return tuple(Rejected(kind=d.kind, id=d.id, reason=d.reason) for d in dropped)


def common_from_answer(answer: CitedAnswer, conclusions: tuple[str, ...] | None = None) -> CommonV1:
    """``common-v1`` from an LM's own answer (B1-B3)."""
    return CommonV1(final_status=answer.status, evidence_ids=tuple(dict.fromkeys(answer.cited)),
                    conflict_detected=answer.conflict, priority_applied=answer.priority_applied,
                    answer=answer.answer, emitted_conclusions=conclusions)


def _relevant(evaluation: Evaluation):
    goal = {evaluation.target, complement(evaluation.target)}
    relevant = {a.id for a in evaluation.arguments if a.conclusion in goal}
    attacks = [x for x in evaluation.attacks if x.target in relevant]
    relevant |= {x.attacker for x in attacks}
    return relevant, attacks


def common_from_evaluation(evaluation: Evaluation, analysis: Analysis) -> CommonV1:
    """``common-v1`` computed by the engine (B4): status, cited fragments, conflict and priority use.

    Cited fragments are those of the grounded facts, rules and priorities that the
    arguments for the target or its complement, and their attackers, rest on.
    """
    theory = evaluation.theory
    relevant, attacks = _relevant(evaluation)
    by_id = {a.id: a for a in evaluation.arguments}
    rules = set().union(*(by_id[a].rules for a in relevant)) if relevant else set()
    facts = set().union(*(by_id[a].premises for a in relevant)) if relevant else set()
    pairs = {x.defeated_by for x in attacks if x.defeated_by is not None}
    cited: list[str] = []
    for obj in [*theory.facts, *theory.rules]:
        if obj.id in facts or obj.id in rules:
            cited.extend(obj.evidence)
    order = evaluation.priorities

    def reaches(a: str, b: str) -> bool:
        return a == b or order.stronger(a, b)

    for p in theory.priorities:
        if any(reaches(s, p.stronger) and reaches(p.weaker, w) for s, w in pairs):
            cited.extend(p.evidence)
    return CommonV1(final_status=evaluation.status, evidence_ids=tuple(sorted(set(cited))),
                    conflict_detected=bool(attacks), priority_applied=bool(pairs),
                    answer=explain(evaluation), emitted_conclusions=emitted_literals(analysis))


def explain(evaluation: Evaluation) -> str:
    """A short deterministic answer text from the engine's result.

    Examples
    --------
    >>> from symbolic.scenario.model import Fact, Rule
    >>> from symbolic.engine.status import evaluate_analysis
    >>> a = Analysis(facts=[Fact(id="f1", literal="Delay(x)", evidence=["E-01"])],
    ...              rules=[Rule(id="r1", antecedents=["Delay(x)"], consequent="Penalty(x)", evidence=["E-02"])])
    >>> explain(evaluate_analysis(["E-01", "E-02"], a, "Penalty(x)"))
    'Penalty(x) is accepted. For: r1 (IN). Against: nothing.'
    """
    labels = evaluation.labelling.labels
    target = evaluation.target

    def side(literal: str) -> str:
        args = [a for a in evaluation.arguments if a.conclusion == literal]
        if not args:
            return "nothing"
        return ", ".join(f"{a.top_rule or a.fact} ({labels.get(a.id)})" for a in args)

    text = f"{target} is {evaluation.status}. For: {side(target)}. Against: {side(complement(target))}."
    _, attacks = _relevant(evaluation)
    defeated = sorted({f"{s}>{w}" for s, w in (x.defeated_by for x in attacks if x.defeated_by)})
    if defeated:
        text += " Decided by priority " + ", ".join(defeated) + "."
    if evaluation.theory.dropped:
        text += f" {len(evaluation.theory.dropped)} ungrounded object(s) rejected."
    return text


def trace_from_evaluation(evaluation: Evaluation, analysis: Analysis, query: str,
                          diagnostics: Diagnostics | None = None, unresolved: tuple[str, ...] = ()) -> TraceV2:
    """``trace-v2`` from the engine: the emitted objects, the typed trace and the rejected objects.

    ``unresolved`` are references of a by-fragment extraction to fragments that state no
    rule (:mod:`assistant.by_fragment`); they are listed among the rejected objects.
    """
    trace = graph_to_trace(build_trace(evaluation, query=query))
    unresolved_refs = tuple(Rejected(kind="priority", id=f"ref{i + 1}", reason=why)
                            for i, why in enumerate(unresolved))
    return TraceV2(facts=analysis.facts, rules=analysis.rules, attacks=analysis.attacks,
                   priorities=analysis.priorities, nodes=trace.nodes, edges=trace.edges,
                   rejected=rejected_of(evaluation.theory.dropped) + unresolved_refs,
                   emitted_conclusions=emitted_literals(analysis), diagnostics=diagnostics)


def trace_from_analysis(evidence_ids, analysis: Analysis, diagnostics: Diagnostics | None = None) -> TraceV2:
    """``trace-v2`` of an extraction without an engine run (B3): objects and rejected ones, no graph."""
    theory = ground(evidence_ids, analysis)
    return TraceV2(facts=analysis.facts, rules=analysis.rules, rejected=rejected_of(theory.dropped),
                   emitted_conclusions=emitted_literals(analysis), diagnostics=diagnostics)
