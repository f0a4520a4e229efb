"""Scenarios that stress the NCR search and the scorer's budget, for tests and
``benchmarks/ncr.py``.

Not part of the public API.
"""

from __future__ import annotations

from symbolic.scenario.model import EvidenceFragment, Fact, Gold, Priority, Rule, Scenario

__all__ = ["alternative_derivations", "redundant_routes"]


def redundant_routes(routes: int = 8) -> Scenario:
    """``routes`` independent support routes for ``P(x)`` (fact ``Ai(x)``, rule ``ri: Ai(x) => P(x)``),
    one attacker ``s: B(x) => ¬P(x)`` and ``ri > s`` for every route: ``3 * routes + 2`` objects,
    status accepted.  Every single route defeats ``s`` (one grounded dominating rule is enough),
    so the status flips only once every route (or every priority) is gone: the minimal
    flipping edit costs ``routes``.
    """
    e = ["E-01"]
    facts = [Fact(id=f"f{i}", literal=f"A{i}(x)", evidence=e) for i in range(1, routes + 1)]
    facts.append(Fact(id="fb", literal="B(x)", evidence=e))
    rules = [Rule(id=f"r{i}", antecedents=[f"A{i}(x)"], consequent="P(x)", evidence=e) for i in range(1, routes + 1)]
    rules.append(Rule(id="s", antecedents=["B(x)"], consequent="¬P(x)", evidence=e))
    pris = [Priority(stronger=f"r{i}", weaker="s", basis="hierarchy", evidence=e) for i in range(1, routes + 1)]
    return Scenario(id=f"routes-{routes}", query="Does P hold?", target="P(x)",
                    evidence=[EvidenceFragment(id="E-01", text="The routes.", source="doc")],
                    gold=Gold(status="accepted", facts=facts, rules=rules, priorities=pris))


def alternative_derivations(levels: int, width: int = 2) -> Scenario:
    """A chain ``C0(x) -> ... -> C{levels}(x) = P(x)`` where every link has ``width`` alternative
    rules from ``width`` facts: ``width ** levels`` arguments for the target (one per choice of
    sub-arguments), ``levels * 2 * width`` objects, status accepted."""
    e = ["E-01"]
    facts, rules = [], []
    for level in range(levels):
        for k in range(width):
            facts.append(Fact(id=f"f{level}_{k}", literal=f"D{level}_{k}(x)", evidence=e))
            head = "P(x)" if level == levels - 1 else f"C{level + 1}(x)"
            body = [f"D{level}_{k}(x)"] + ([f"C{level}(x)"] if level else [])
            rules.append(Rule(id=f"r{level}_{k}", antecedents=body, consequent=head, evidence=e))
    return Scenario(id=f"alternatives-{levels}x{width}", query="Does P hold?", target="P(x)",
                    evidence=[EvidenceFragment(id="E-01", text="The derivations.", source="doc")],
                    gold=Gold(status="accepted", facts=facts, rules=rules))
