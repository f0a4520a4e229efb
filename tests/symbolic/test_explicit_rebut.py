"""An explicit rebut naming a rule is read like the derived rebut (Definition 4,
team reading): any applicable rule concluding the attacked literal may
neutralize it, not only the named rule."""

from __future__ import annotations

from symbolic.scenario.examples import PENALTY_FRAGMENTS, penalty_analysis
from symbolic.scenario.model import Analysis, AttackEdge
from symbolic.engine.status import evaluate_analysis
from symbolic.traces.tnf import tnf, tnf_json

EVIDENCE = [f.id for f in PENALTY_FRAGMENTS]


def penalty(attacks=()) -> Analysis:
    """The penalty objects (r2's clause is E-02) with ``attacks`` stated."""
    return penalty_analysis().model_copy(update={"attacks": tuple(attacks)})


def test_explicit_rebut_of_a_rule_is_neutralized_by_the_team():
    edge = AttackEdge(source="r2", target="r1", kind="rebut", evidence=["E-02"])
    ev = evaluate_analysis(EVIDENCE, penalty([edge]), "Penalty(x)")
    on_r1 = [a for a in ev.attacks if a.explicit and a.lic == "r2"]
    assert on_r1 and all(a.defeated_by == ("r3", "r2") for a in on_r1)
    assert ev.status.value == "accepted"


def test_stating_a_derived_rebut_changes_nothing_in_tnf():
    edge = AttackEdge(source="r2", target="r1", kind="rebut", evidence=["E-02"])
    plain = tnf(EVIDENCE, penalty(), "Penalty(x)")
    stated = tnf(EVIDENCE, penalty([edge]), "Penalty(x)")
    assert tnf_json(plain) == tnf_json(stated)


def test_explicit_undercut_of_a_rule_stays_an_undercut():
    edge = AttackEdge(source="r2", target="r1", kind="undercut", evidence=["E-02"])
    ev = evaluate_analysis(EVIDENCE, penalty([edge]), "Penalty(x)")
    undercuts = [a for a in ev.attacks if a.kind.value == "undercut"]
    assert undercuts and all(a.on == "r1" for a in undercuts)
