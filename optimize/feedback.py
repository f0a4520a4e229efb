"""Feedback text for GEPA built from the trace alignment (Algorithm 4).

A generic metric only says *how much* is wrong; this one says *what*: which
mandatory gold edge is missing, which output edge no admissible gold set
supports, which attack should have been defeated by which priority, which
required priority is missing or inverted, which gold conflict was not located,
and which object the parser-validator rejected as ungrounded and why.  Edge
ids (:mod:`symbolic.traces.naming`) are content-based, so the sentences name rules,
facts and priorities by their content, never by an author's ``r1``.
"""

from __future__ import annotations

import re
from typing import Iterable

from scorer.contract import OutputRecord
from scorer.records import CaseResult
from symbolic.traces.naming import EDGE_ARROW

__all__ = ["describe_edge", "describe_node", "feedback_text"]

_ARG = re.compile(r"^arg:(.+)@[0-9a-f]+$")
MAX_ITEMS = 8


def describe_node(node: str) -> str:
    """A node id in words.

    Examples
    --------
    >>> describe_node("arg:¬Penalty(x)@670d8564257d")
    'an argument for ¬Penalty(x)'
    >>> describe_node("priority:(B(x)=>¬P(x))>(A(x)=>P(x))")
    'the priority (B(x)=>¬P(x)) > (A(x)=>P(x))'
    """
    m = _ARG.match(node)
    if m:
        return f"an argument for {m.group(1)}"
    kind, _, rest = node.partition(":")
    if kind == "priority":
        return "the priority " + rest.replace(")>(", ") > (")
    if kind == "evidence":
        return f"fragment {rest}"
    if kind in ("fact", "rule", "conclusion", "query"):
        return f"{kind} {rest}"
    if kind == "status":
        return f"status {rest}"
    return node


def _attack(edge: str) -> tuple[str, str, str]:
    body = edge[len("attack:"):]
    kind, _, ends = body.partition(":")
    source, _, target = ends.partition(EDGE_ARROW)
    return kind, source, target


def describe_edge(edge: str, *, missing: bool) -> str:
    """One sentence on a missing (``missing=True``) or unsupported edge.

    Examples
    --------
    >>> describe_edge("grounding:evidence:E-06→priority:(G(x)=>P(x))>(F(x)=>¬P(x))", missing=True)
    'the priority (G(x)=>P(x)) > (F(x)=>¬P(x)) grounded in fragment E-06 is missing'
    >>> describe_edge("defeat:priority:(G(x)=>P(x))>(F(x)=>¬P(x))→attack:rebut:arg:¬P(x)@67→arg:P(x)@9a",
    ...               missing=True)
    'the rebut of an argument for ¬P(x) on an argument for P(x) should have been defeated by the priority (G(x)=>P(x)) > (F(x)=>¬P(x))'
    >>> describe_edge("status:conclusion:P(x)→status:both", missing=False)
    'your trace gives P(x) the status both, which the evidence does not support'
    """
    etype, _, rest = edge.partition(":")
    if etype == "defeat":
        priority, _, attack = rest.partition(EDGE_ARROW)
        kind, source, target = _attack(attack)
        what = f"the {kind} of {describe_node(source)} on {describe_node(target)}"
        if missing:
            return f"{what} should have been defeated by {describe_node(priority)}"
        return f"your trace defeats {what} by {describe_node(priority)}, which the evidence does not support"
    if etype == "attack":
        kind, source, target = _attack(edge)
        what = f"the {kind} of {describe_node(source)} on {describe_node(target)}"
        return f"{what} is missing" if missing else f"{what} is unsupported by the evidence"
    source, _, target = rest.partition(EDGE_ARROW)
    if etype == "grounding":
        what = f"{describe_node(target)} grounded in {describe_node(source)}"
        return f"{what} is missing" if missing else f"{what} is not in the gold trace"
    if etype == "status":
        literal = source.partition(":")[2]
        status = target.partition(":")[2]
        if missing:
            return f"{literal} should have the status {status}"
        return f"your trace gives {literal} the status {status}, which the evidence does not support"
    if etype == "derivation":
        what = f"the derivation {describe_node(source)} -> {describe_node(target)}"
        return f"{what} is missing" if missing else f"{what} is unsupported"
    return f"edge {edge} is {'missing' if missing else 'unsupported'}"


_ORDER = {"grounding": 0, "defeat": 1, "attack": 2, "status": 3, "derivation": 4}


def _bullets(title: str, sentences: Iterable[str]) -> list[str]:
    unique = list(dict.fromkeys(sentences))
    if not unique:
        return []
    shown = unique[:MAX_ITEMS]
    lines = [title] + [f"- {s}." for s in shown]
    if len(unique) > len(shown):
        lines.append(f"- and {len(unique) - len(shown)} more.")
    return lines


_WRONG_STATE = {"active": "is active in your trace but the gold trace defeats it",
                "defeated": "is defeated in your trace but active in the gold trace"}


def _edges(edges: Iterable[str], missing: bool, mismatched: frozenset[str] = frozenset(),
           states: dict[str, str | None] | None = None) -> list[str]:
    ordered = sorted(edges, key=lambda e: (_ORDER.get(e.partition(":")[0], 9), e))
    out = []
    for e in ordered:
        if e in mismatched and e.startswith("attack:"):
            kind, source, target = _attack(e)
            how = _WRONG_STATE.get((states or {}).get(e) or "", "is in your trace with the wrong state or "
                                                                  "licensing rule")
            out.append(f"the {kind} of {describe_node(source)} on {describe_node(target)} {how}")
        else:
            out.append(describe_edge(e, missing=missing))
    return out


def _states(output: OutputRecord) -> dict[str, str | None]:
    if output.trace is None:
        return {}
    from symbolic.traces.naming import edge_id

    return {edge_id(e): e.state for e in output.trace.edges}


def feedback_text(result: CaseResult, output: OutputRecord) -> str:
    """Feedback on one scored case: status, alignment defects, priorities, conflicts, rejections.

    Parameters
    ----------
    result : CaseResult
        The case scored by :mod:`scorer` (metrics and alignment).
    output : OutputRecord
        The output that was scored (for the rejected objects).

    Returns
    -------
    str
        Several lines; the first names the status verdict.

    Examples
    --------
    >>> from scorer.metrics._examples import penalty_output, penalty_scenario
    >>> from scorer.score import score_case
    >>> out = penalty_output("both", "no-r3>r2")
    >>> text = feedback_text(score_case(penalty_scenario(priority=True), out, ncr=False), out)
    >>> print(text.splitlines()[0])
    Status both is wrong: the gold status is accepted.
    >>> "should have been defeated by the priority (GrossNegligence(x)=>Penalty(x))" in text
    True
    """
    lines: list[str] = []
    if result.hard_failure:
        reason = output.meta.failure_reason or "invalid output"
        lines.append(f"The output failed validation ({reason}); the gold status is {result.status_gold}.")
    elif result.correct:
        lines.append(f"Status {result.status_pred} is correct.")
    else:
        lines.append(f"Status {result.status_pred} is wrong: the gold status is {result.status_gold}.")
    align = result.alignment
    if align is not None:
        total = len(align.matched) + len(align.missing)
        mismatched = frozenset(align.metadata.get("attribute_mismatch", ()))
        lines += _bullets(f"Missing gold trace edges ({len(align.missing)} of {total}):",
                          _edges(align.missing, True, mismatched, _states(output)))
        lines += _bullets(f"Unsupported edges ({len(align.unsupported)}):", _edges(align.unsupported, False))
    pha = result.metrics.get("PHA")
    if pha is not None and pha.applicable:
        lines += _bullets("Priorities:", [f"the required priority {p} is missing" for p in pha.metadata["missing"]]
                          + [f"the priority {p} is inverted against the gold order"
                             for p in pha.metadata["inverted"]])
    cla = result.metrics.get("CLA")
    if cla is not None and cla.applicable and cla.value < 1.0:
        lines += _bullets("Conflicts not located:", [f"{a} vs {b}" for a, b in cla.metadata.get("missed", ())])
    if output.trace is not None:
        lines += _bullets("Rejected by the parser-validator:",
                          [f"{r.kind} {r.id} was rejected: {r.reason}" for r in output.trace.rejected])
    if len(lines) == 1 and result.correct:
        lines.append("The trace matches the gold trace.")
    return "\n".join(lines)
