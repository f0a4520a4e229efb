"""BRA over update pairs."""

from __future__ import annotations

from metric_builders import failure, fact, make_output, make_scenario, rule
from scorer.score import aggregate, score_suite
from symbolic.scenario.model import Analysis


def pair_suite():
    base = Analysis(facts=[fact(1, "a")], rules=[rule(1, ["a"], "p")])
    update = Analysis(facts=[fact(1, "a"), fact(2, "b")],
                      rules=[rule(1, ["a"], "p"), rule(2, ["b"], "¬applicable(r1)")])
    return [make_scenario("b1", base, "accepted", pair="P1", role="base"),
            make_scenario("u1", update, "rejected", pair="P1", role="update"),
            make_scenario("b2", base, "accepted", pair="P2", role="base"),
            make_scenario("u2", update, "rejected", pair="P2", role="update"),
            make_scenario("solo", base, "accepted")]


def test_both_members_must_be_correct():
    outs = [make_output("b1", "accepted"), make_output("u1", "rejected"),
            make_output("b2", "accepted"), make_output("u2", "accepted"),  # did not revise
            make_output("solo", "accepted")]
    res = {r.case_id: r for r in score_suite(pair_suite(), outs, ncr=False)}
    assert res["b1"].metrics["BRA"].value == res["u1"].metrics["BRA"].value == 1.0
    assert res["b2"].metrics["BRA"].value == res["u2"].metrics["BRA"].value == 0.0
    assert res["solo"].metrics["BRA"].value is None
    agg = aggregate(res.values())["BRA"]
    assert (agg.value, agg.numerator, agg.denominator) == (0.5, 1.0, 2.0)


def test_missing_partner_stays_not_applicable():
    res = score_suite(pair_suite(), [make_output("b1", "accepted")], ncr=False)
    assert res[0].metrics["BRA"].value is None and "partner" in res[0].metrics["BRA"].explanation


def test_pairs_are_scored_within_one_run():
    outs = [make_output("b1", "accepted", repeat=0), make_output("u1", "rejected", repeat=1)]
    res = score_suite(pair_suite(), outs, ncr=False)
    assert all(r.metrics["BRA"].value is None for r in res)


def test_hard_failure_breaks_the_pair():
    res = score_suite(pair_suite(), [make_output("b1", "accepted"), failure("u1")], ncr=False)
    assert [r.metrics["BRA"].value for r in res] == [0.0, 0.0]
