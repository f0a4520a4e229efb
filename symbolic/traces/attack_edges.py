"""Explicit attack edges for the attacks the engine derives (Definition 2), in the
form an analysis states them: the attacker's top rule (or fact) against the
conclusion of the rebutted sub-argument, the undercut rule, or the undermined
fact.  The controlled suite writes its candidates' edges this way and B4's
audit compares a candidate's edges with its own in the same form.
"""

from __future__ import annotations

from symbolic.scenario.labels import AttackKind
from symbolic.scenario.model import AttackEdge
from symbolic.engine.results import Evaluation

__all__ = ["explicit_attack_edges"]


def explicit_attack_edges(evaluation: Evaluation) -> tuple[AttackEdge, ...]:
    """One edge per derived attack, duplicates merged, sorted by ``(source, kind, target)``.

    Each edge cites the evidence of its source object.

    Parameters
    ----------
    evaluation : Evaluation
        The engine's result for one target.

    Returns
    -------
    tuple of AttackEdge

    Examples
    --------
    >>> from symbolic.scenario.model import Analysis, Fact, Priority, Rule
    >>> from symbolic.engine.status import evaluate_analysis
    >>> e = ["E-01"]
    >>> a = Analysis(facts=[Fact(id="f1", literal="Delay(x)", evidence=e), Fact(id="f2", literal="Storm(x)", evidence=e)],
    ...              rules=[Rule(id="r1", antecedents=["Delay(x)"], consequent="Penalty(x)", evidence=e),
    ...                     Rule(id="r2", antecedents=["Storm(x)"], consequent="¬Penalty(x)", evidence=e)])
    >>> [(x.source, x.kind.value, x.target) for x in explicit_attack_edges(evaluate_analysis(e, a, "Penalty(x)"))]
    [('r1', 'rebut', '¬Penalty(x)'), ('r2', 'rebut', 'Penalty(x)')]
    """
    args = {a.id: a for a in evaluation.arguments}
    facts = {f.id: f for f in evaluation.theory.facts}
    edges: dict[tuple, AttackEdge] = {}
    for att in evaluation.attacks:
        attacker = args[att.attacker]
        source = attacker.top_rule or attacker.fact
        target = args[att.on].conclusion if att.kind is AttackKind.REBUT else att.on
        rule = evaluation.theory.rule(source) if attacker.top_rule else None
        evidence = rule.evidence if rule is not None else facts[source].evidence
        edges.setdefault((source, att.kind.value, target),
                         AttackEdge(source=source, target=target, kind=att.kind, evidence=evidence))
    return tuple(edges[k] for k in sorted(edges))
