"""Shortcut theories: an extraction that asserts the answer instead of analysing the evidence.

A theory whose facts include the proposition asked about (or its complement)
reaches its status without a single rule: the engine only echoes what the
model decided.  No gold trace of the shipped suites does this (a fact states
what the evidence says; the status is derived through rules and priorities),
so such an output is a shortcut, not a grounded answer: the scorer counts it
as incorrect and reports it apart (:attr:`scorer.records.CaseResult.shortcut`),
and ``paratrace ask`` says so instead of showing the status as derived.
"""

from __future__ import annotations

from typing import Iterable

from symbolic.scenario.literals import complement, normalize_literal

__all__ = ["shortcut_facts", "shortcut_reason"]


def shortcut_facts(facts: Iterable, target: str | None) -> tuple[str, ...]:
    """The ids of the facts that assert ``target`` or its complement, sorted.

    Parameters
    ----------
    facts : iterable
        Objects with ``id`` and ``literal`` (:class:`symbolic.scenario.model.Fact`, the extraction's facts).
    target : str or None
        The proposition asked about; ``None`` finds nothing.

    Examples
    --------
    >>> from symbolic.scenario.model import Fact
    >>> facts = [Fact(id="f1", literal="Delay(x)", evidence=["E1"]),
    ...          Fact(id="f2", literal="¬Penalty(x)", evidence=["E2"])]
    >>> shortcut_facts(facts, "Penalty(x)"), shortcut_facts(facts, "Refund(x)")
    (('f2',), ())
    """
    if not target:
        return ()
    goal = normalize_literal(target)
    both = {goal, complement(goal)}
    found = []
    for fact in facts:
        try:
            literal = normalize_literal(fact.literal)
        except ValueError:
            continue
        if literal in both:
            found.append(fact.id)
    return tuple(sorted(found))


def shortcut_reason(fact_ids: Iterable[str], target: str) -> str:
    """One line naming the shortcut.

    >>> shortcut_reason(["f2"], "Penalty(x)")
    'shortcut: fact f2 asserts the proposition asked about (Penalty(x)) or its complement instead of deriving it'
    """
    ids = ", ".join(fact_ids)
    noun = "fact" if "," not in ids else "facts"
    return (f"shortcut: {noun} {ids} asserts the proposition asked about ({target}) or its complement "
            "instead of deriving it")
