"""TGC on hand-built cases."""

from __future__ import annotations

from scorer.metrics import answer_status_accuracy, trace_graph_coverage
from scorer.metrics._examples import penalty_context


def test_gold_trace_has_full_coverage():
    r = trace_graph_coverage(penalty_context("accepted", trace="gold"))
    assert r.value == 1.0 and r.metadata["missing"] == () and r.metadata["unsupported"] == ()


def test_correct_status_through_an_unsupported_rule_lowers_tgc():
    ctx = penalty_context("accepted", trace="unsupported")
    assert answer_status_accuracy(ctx).value == 1.0
    r = trace_graph_coverage(ctx)
    assert 0.0 < r.value < 1.0
    assert r.metadata["unsupported"] and r.metadata["matched"] < r.metadata["gold"]


def test_missing_conflict_lowers_tgc():
    full = trace_graph_coverage(penalty_context("accepted", trace="gold")).value
    assert trace_graph_coverage(penalty_context("accepted", trace="no-r2")).value < full


def test_no_trace_is_not_applicable_not_zero():
    r = trace_graph_coverage(penalty_context("accepted"))
    assert r.value is None and "no trace" in r.explanation


def test_hard_failure_of_a_trace_configuration_matches_nothing():
    r = trace_graph_coverage(penalty_context("accepted", hard_failure=True, expects_trace=True))
    assert r.value == 0.0 and r.metadata["gold"] > 0


def test_hard_failure_of_a_black_box_configuration_is_not_applicable():
    assert trace_graph_coverage(penalty_context("accepted", hard_failure=True)).value is None
