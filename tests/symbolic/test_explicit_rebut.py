"""An explicit rebut naming a rule is read like the derived rebut (Definition 4,
team reading): any applicable rule concluding the attacked literal may
neutralize it, not only the named rule."""

from __future__ import annotations

from symbolic.model import Analysis, AttackEdge, Fact, Priority, Rule
from symbolic.status import evaluate_analysis
from symbolic.tnf import tnf, tnf_json

EVIDENCE = ["E-01", "E-02", "E-03"]


def penalty(attacks=()):
    return Analysis(
        facts=[Fact(id="f1", literal="Delay(x)", evidence=["E-01"]),
               Fact(id="f2", literal="ForceMajeure(x)", evidence=["E-02"]),
               Fact(id="f3", literal="GrossNegligence(x)", evidence=["E-03"])],
        rules=[Rule(id="r1", antecedents=["Delay(x)"], consequent="Penalty(x)", evidence=["E-01"]),
               Rule(id="r2", antecedents=["ForceMajeure(x)"], consequent="¬Penalty(x)", evidence=["E-02"]),
               Rule(id="r3", antecedents=["GrossNegligence(x)"], consequent="Penalty(x)", evidence=["E-03"])],
        priorities=[Priority(stronger="r2", weaker="r1", basis="exception", evidence=["E-02"]),
                    Priority(stronger="r3", weaker="r2", basis="exception", evidence=["E-03"])],
        attacks=list(attacks),
    )


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
