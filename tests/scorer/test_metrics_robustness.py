"""The NCR metric record: gate, witness, consistency."""

from __future__ import annotations

from scorer.metrics import normative_counterfactual_robustness as ncr
from scorer.metrics._examples import penalty_context


def test_penalty_case_has_ncr_one():
    r = ncr(penalty_context("accepted", trace="gold"))
    assert r.value == 1.0 and r.metadata["raw_cost"] == 1 and r.metadata["consistent"] is True
    assert ("priority:r3>r2",) in r.metadata["alternatives"]


def test_correctness_gate():
    r = ncr(penalty_context("rejected", trace="inverted"))
    assert r.value == 0.0 and r.metadata["raw_cost"] == 1 and "gate" in r.explanation
    assert ncr(penalty_context("accepted", hard_failure=True)).value == 0.0


def test_without_trace_consistency_is_not_reconstructable():
    r = ncr(penalty_context("accepted"))
    assert r.value == 1.0 and r.metadata["consistent"] is None and "not reconstructable" in r.explanation


def test_correct_answer_inconsistent_with_the_witness():
    r = ncr(penalty_context("accepted", trace="no-r2"))
    assert r.value == 1.0 and r.metadata["consistent"] is False


def test_censored_undecidable_case():
    r = ncr(penalty_context("undecidable", gold_status="undecidable", gold_variant="no-facts"))
    assert r.metadata["censored"] and r.value == r.metadata["edit_set_size"] + 1
