"""PHA on hand-built priority cases."""

from __future__ import annotations

from scorer.metrics import answer_status_accuracy, priority_handling_accuracy
from scorer.metrics._examples import penalty_context


def test_gold_priorities_give_pha_one():
    r = priority_handling_accuracy(penalty_context("accepted", trace="gold", priority=True))
    assert r.value == 1.0
    assert r.metadata["required"] == ("rule:GrossNegligence(x)=>Penalty(x) > rule:ForceMajeure(x)=>¬Penalty(x)",)


def test_inverted_priority_lowers_pha_and_asa():
    ctx = penalty_context("rejected", trace="inverted", priority=True)
    r = priority_handling_accuracy(ctx)
    assert r.value == 0.0 and len(r.metadata["inverted"]) == 1 and len(r.metadata["missing"]) == 1
    assert answer_status_accuracy(ctx).value == 0.0


def test_inversion_counts_even_with_a_lucky_status():
    r = priority_handling_accuracy(penalty_context("accepted", trace="inverted", priority=True))
    assert r.value == 0.0 and "inverted" in r.explanation


def test_missing_required_priority():
    r = priority_handling_accuracy(penalty_context("both", trace="no-r3>r2", priority=True))
    assert r.value == 0.0 and len(r.metadata["missing"]) == 1 and r.metadata["inverted"] == ()


def test_without_trace_priority_applied_is_required():
    yes = penalty_context("accepted", priority=True, priority_applied=True)
    no = penalty_context("accepted", priority=True, priority_applied=False)
    silent = penalty_context("accepted", priority=True)
    assert priority_handling_accuracy(yes).value == 1.0
    assert priority_handling_accuracy(no).value == 0.0
    assert priority_handling_accuracy(silent).value == 0.0


def test_not_applicable_without_the_gold_flag_and_zero_on_hard_failure():
    assert priority_handling_accuracy(penalty_context("accepted", trace="gold")).value is None
    assert priority_handling_accuracy(penalty_context("accepted", priority=True, hard_failure=True)).value == 0.0
