"""The operation of each defect class on an analysis (paper Table 6; docs/metrics.md B6).

One function per class changes an :class:`~symbolic.scenario.model.Analysis` the way
the class says, plus the lists of places each class can apply to.  Both
injections use them (:mod:`scorer.defects.inject`): the controlled suite's,
into a candidate analysis with a seeded choice, and the scorer's
self-validation, into a gold trace with the first place in canonical order.

``missing_evidence``
    :func:`prune_fragment` -- the gold over a package without one fragment
    (the candidate keeps citing it); places: :func:`removable_fragments`;
``incomplete_coverage``
    :func:`without_target` -- every rule concluding the target's atom (or its
    complement) and every fact on that atom, with the priorities, attack
    edges and exceptions that name them;
``extraction_error``
    :func:`negate` -- a fact's literal or a rule's consequent replaced by its
    complement; places: :func:`negatable`;
``priority_inversion``
    :func:`invert` -- one priority ``a > b`` becomes ``b > a``; places:
    :func:`invertible`;
``attack_deletion``
    :func:`drop_attack` -- one explicit attack edge removed;
``invalid_proof_node``
    :func:`add_ungrounded` -- a fact or rule about the target that cites no
    fragment at all.
"""

from __future__ import annotations

import warnings

from symbolic.traces.trace_attacks import explicit_attack_edges
from symbolic.errors import PriorityCycleWarning
from symbolic.scenario.labels import RuleKind
from symbolic.scenario.literals import complement
from symbolic.scenario.model import Analysis, AttackEdge, Fact, Priority, Rule, Scenario
from symbolic.engine.status import evaluate_analysis

__all__ = [
    "add_ungrounded",
    "candidate_analysis",
    "drop_attack",
    "fresh_id",
    "invert",
    "invertible",
    "negatable",
    "negate",
    "prune_fragment",
    "removable_fragments",
    "target_rules",
    "without_target",
]


def candidate_analysis(scenario: Scenario) -> Analysis:
    """The clean candidate: the gold objects plus one explicit edge per derived attack.

    A rebut becomes ``attacker's top rule (or fact) -> conclusion of the attacked
    sub-argument``, an undercut ``-> the excepted rule``, an undermine ``-> the
    attacked premise fact`` (:func:`symbolic.traces.trace_attacks.explicit_attack_edges`);
    duplicates are merged and edges sorted.

    Examples
    --------
    >>> from symbolic.scenario.model import EvidenceFragment, Gold
    >>> e = ["E-01"]
    >>> s = Scenario(id="c1", query="q?", target="Penalty(x)",
    ...     evidence=[EvidenceFragment(id="E-01", text="t", source="doc")],
    ...     gold=Gold(status="rejected",
    ...         facts=[Fact(id="f1", literal="Delay(x)", evidence=e), Fact(id="f2", literal="Storm(x)", evidence=e)],
    ...         rules=[Rule(id="r1", antecedents=["Delay(x)"], consequent="Penalty(x)", evidence=e),
    ...                Rule(id="r2", antecedents=["Storm(x)"], consequent="¬Penalty(x)", evidence=e)],
    ...         priorities=[Priority(stronger="r2", weaker="r1", basis="exception", evidence=e)]))
    >>> [(a.source, a.kind.value, a.target) for a in candidate_analysis(s).attacks]
    [('r1', 'rebut', '¬Penalty(x)'), ('r2', 'rebut', 'Penalty(x)')]
    """
    gold = scenario.gold
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PriorityCycleWarning)
        evaluation = evaluate_analysis(scenario.evidence_ids(), gold, scenario.target)
    return Analysis(facts=gold.facts, rules=gold.rules, priorities=gold.priorities,
                    attacks=explicit_attack_edges(evaluation))


def _with_exceptions(analysis: Analysis, gone: set[str]) -> set[str]:
    """``gone`` plus the exceptions to its rules, then the exceptions to those (they are vacuous)."""
    while True:
        more = {r.id for r in analysis.rules if r.excepts in gone} - gone
        if not more:
            return gone
        gone |= more


def removable_fragments(scenario: Scenario) -> list[str]:
    """The package's fragments (in package order) that a gold fact or rule cites."""
    cited = {e for obj in (*scenario.gold.facts, *scenario.gold.rules) for e in obj.evidence}
    return [f.id for f in scenario.evidence if f.id in cited]


def prune_fragment(analysis: Analysis, fragment: str) -> Analysis:
    """``analysis`` without the objects citing ``fragment`` and those naming them
    (priorities, attack edges, exceptions to a dropped rule): the correct analysis
    once ``fragment`` is missing from the package."""
    facts = tuple(f for f in analysis.facts if fragment not in f.evidence)
    gone = _with_exceptions(analysis, {r.id for r in analysis.rules if fragment in r.evidence})
    rules = tuple(r for r in analysis.rules if r.id not in gone)
    kept = {o.id for o in (*facts, *rules)}
    priorities = tuple(p for p in analysis.priorities
                       if fragment not in p.evidence and {p.stronger, p.weaker} <= kept)
    attacks = tuple(a for a in analysis.attacks if fragment not in a.evidence and a.source in kept)
    return Analysis(facts=facts, rules=rules, priorities=priorities, attacks=attacks)


def target_rules(analysis: Analysis, target: str) -> list[Rule]:
    """The rules concluding ``target`` or its complement."""
    sides = {target, complement(target)}
    return [r for r in analysis.rules if r.consequent in sides]


def without_target(analysis: Analysis, target: str) -> Analysis:
    """``analysis`` without the rules and facts on the target's atom and what names them
    (priorities, attack edges, exceptions to a dropped rule): incomplete coverage."""
    sides = {target, complement(target)}
    gone = _with_exceptions(analysis, {r.id for r in analysis.rules if r.consequent in sides}
                            | {f.id for f in analysis.facts if f.literal in sides})
    return Analysis(
        facts=tuple(f for f in analysis.facts if f.id not in gone),
        rules=tuple(r for r in analysis.rules if r.id not in gone),
        priorities=tuple(p for p in analysis.priorities if not gone & {p.stronger, p.weaker}),
        attacks=tuple(a for a in analysis.attacks if not gone & {a.source, a.target, a.lic}),
    )


def negatable(analysis: Analysis) -> list[str]:
    """Where an extraction error can go: every fact, then every rule that is not an exception."""
    return [f"fact:{f.id}" for f in analysis.facts] + [
        f"rule:{r.id}" for r in analysis.rules if r.excepts is None]


def negate(analysis: Analysis, location: str) -> Analysis:
    """``analysis`` with the literal of ``fact:<id>`` (or the consequent of ``rule:<id>``)
    replaced by its complement: an extraction error."""
    kind, _, ident = location.partition(":")
    if kind == "fact":
        return analysis.model_copy(update={"facts": tuple(
            f.model_copy(update={"literal": complement(f.literal)}) if f.id == ident else f
            for f in analysis.facts)})
    return analysis.model_copy(update={"rules": tuple(
        r.model_copy(update={"consequent": complement(r.consequent)}) if r.id == ident else r
        for r in analysis.rules)})


def invertible(analysis: Analysis) -> list[Priority]:
    """The priorities whose reverse is not stated as well (inverting those changes the order)."""
    pairs = {(p.stronger, p.weaker) for p in analysis.priorities}
    return [p for p in analysis.priorities if (p.weaker, p.stronger) not in pairs]


def invert(analysis: Analysis, priority: Priority) -> Analysis:
    """``analysis`` with ``priority`` (one of its objects) pointing the other way."""
    flipped = priority.model_copy(update={"stronger": priority.weaker, "weaker": priority.stronger})
    return analysis.model_copy(update={"priorities": tuple(
        flipped if p is priority else p for p in analysis.priorities)})


def drop_attack(analysis: Analysis, edge: AttackEdge) -> Analysis:
    """``analysis`` without the explicit attack edge ``edge`` (one of its objects)."""
    return analysis.model_copy(update={"attacks": tuple(a for a in analysis.attacks if a is not edge)})


def fresh_id(analysis: Analysis, prefix: str) -> str:
    """The first ``<prefix><n>`` that no fact or rule of ``analysis`` uses."""
    used = {o.id for o in (*analysis.facts, *analysis.rules)}
    n = 1
    while f"{prefix}{n}" in used:
        n += 1
    return f"{prefix}{n}"


def add_ungrounded(analysis: Analysis, literal: str, premise: str | None = None) -> tuple[Analysis, str]:
    """``analysis`` with a node about ``literal`` that cites no fragment, and its location.

    Parameters
    ----------
    analysis : Analysis
    literal : str
        What the node states (the target or its complement).
    premise : str, optional
        With a premise the node is a defeasible rule ``premise => literal``,
        without one a fact.

    Returns
    -------
    (Analysis, str)
        The changed analysis and ``fact:<id>`` / ``rule:<id>`` of the new node.
    """
    if premise is None:
        node = Fact(id=fresh_id(analysis, "f"), literal=literal, evidence=())
        return analysis.model_copy(update={"facts": analysis.facts + (node,)}), f"fact:{node.id}"
    rule = Rule(id=fresh_id(analysis, "r"), antecedents=(premise,), consequent=literal,
                kind=RuleKind.DEFEASIBLE, evidence=())
    return analysis.model_copy(update={"rules": analysis.rules + (rule,)}), f"rule:{rule.id}"
