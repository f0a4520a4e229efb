"""CLA, NER and UUCR on hand-built contradiction cases (Definition 6)."""

from __future__ import annotations

from metric_builders import fact, make_output, make_scenario, rule
from scorer.metrics import (
    build_context,
    conflict_localization_accuracy,
    gold_view,
    no_explosion_rate,
    unsupported_unrelated_conclusion_rate,
)
from scorer.metrics._examples import penalty_context
from symbolic.scenario.model import Analysis, AttackEdge


def test_not_applicable_without_the_gold_flag_whatever_the_output_says():
    ctx = penalty_context("both", trace="gold", conflict_detected=True, emitted=["Moon(x)"])
    for fn in (conflict_localization_accuracy, no_explosion_rate, unsupported_unrelated_conclusion_rate):
        assert fn(ctx).value is None


def test_cla_trace_full_and_omitted_conflict():
    assert conflict_localization_accuracy(penalty_context("accepted", trace="gold", contradiction=True)).value == 1.0
    r = conflict_localization_accuracy(penalty_context("accepted", trace="no-r2", contradiction=True))
    assert r.value == 0.0 and r.metadata["located"] < r.metadata["gold_conflicts"]


def test_omitted_explicit_attack_lowers_cla():
    # r2 concludes q (no clash with p); only the explicit undercut edge puts r2 against r1.
    objs = dict(facts=[fact(1, "a"), fact(2, "b")], rules=[rule(1, ["a"], "p"), rule(2, ["b"], "q")])
    attack = AttackEdge(source="r2", target="r1", kind="undercut", evidence=["E-01"])
    gold = Analysis(**objs, attacks=[attack])
    sc = make_scenario("x1", gold, "rejected", contradiction=True)
    g = gold_view(sc)
    with_attack = build_context(g, make_output("x1", "rejected", gold))
    without = build_context(g, make_output("x1", "undecidable", Analysis(**objs)))
    assert conflict_localization_accuracy(with_attack).value == 1.0
    assert conflict_localization_accuracy(without).value == 0.0


def test_cla_without_trace_uses_the_flag_and_the_citations():
    all_ids = [f"E-0{i}" for i in range(1, 7)]
    ok = penalty_context("accepted", contradiction=True, conflict_detected=True, evidence_ids=all_ids)
    assert conflict_localization_accuracy(ok).value == 1.0
    not_flagged = penalty_context("accepted", contradiction=True, conflict_detected=False, evidence_ids=all_ids)
    assert conflict_localization_accuracy(not_flagged).value == 0.0
    missing_r2 = [i for i in all_ids if i != "E-05"]
    partial = penalty_context("accepted", contradiction=True, conflict_detected=True, evidence_ids=missing_r2)
    assert conflict_localization_accuracy(partial).value == 0.0


def test_strict_against_strict_conflict_is_localized_without_any_attack():
    gold = Analysis(facts=[fact(1, "a")], rules=[rule(1, ["a"], "p", kind="strict"),
                                                 rule(2, ["a"], "¬p", kind="strict")])
    sc = make_scenario("x2", gold, "both", contradiction=True)
    g = gold_view(sc)
    assert conflict_localization_accuracy(build_context(g, make_output("x2", "both", gold))).value == 1.0
    one_side = Analysis(facts=gold.facts, rules=gold.rules[:1])
    assert conflict_localization_accuracy(build_context(g, make_output("x2", "accepted", one_side))).value == 0.0


def test_unrelated_ungrounded_conclusion_lowers_ner_and_raises_uucr():
    clean = penalty_context("both", contradiction=True, emitted=["Penalty(x)", "ForceMajeure(x)"])
    boom = penalty_context("both", contradiction=True,
                           emitted=["Penalty(x)", "¬Penalty(x)", "TerminateContract(x)", "Refund(y)"])
    assert no_explosion_rate(clean).value == 1.0 and unsupported_unrelated_conclusion_rate(clean).value == 0.0
    assert no_explosion_rate(boom).value == 0.0
    r = unsupported_unrelated_conclusion_rate(boom)
    assert r.value == 0.5 and r.metadata["unsupported_unrelated"] == ("Refund(y)", "TerminateContract(x)")


def test_related_or_supported_conclusions_are_not_explosion():
    # ¬Delay(x) is unsupported but about an atom of the query's cone: not an explosion.
    ctx = penalty_context("both", contradiction=True, emitted=["¬Delay(x)"])
    assert no_explosion_rate(ctx).value == 1.0


def test_conclusions_supported_by_the_outputs_own_grounded_rule_are_not_explosion():
    ctx = penalty_context("accepted", trace="unsupported", contradiction=True, emitted=["Penalty(x)"])
    assert no_explosion_rate(ctx).value == 1.0


def test_no_emitted_conclusion_and_hard_failure():
    ctx = penalty_context("both", contradiction=True)
    assert no_explosion_rate(ctx).value == 1.0 and unsupported_unrelated_conclusion_rate(ctx).value == 0.0
    hard = penalty_context("both", contradiction=True, hard_failure=True)
    assert no_explosion_rate(hard).value == 0.0 and unsupported_unrelated_conclusion_rate(hard).value == 1.0
    assert conflict_localization_accuracy(hard).value == 0.0
