"""DLA on defective controlled cases."""

from __future__ import annotations

import pytest

from scorer.metrics import defect_localization_accuracy as dla
from scorer.metrics._examples import penalty_context

DEFECT = ("priority_inversion", "r3>r2")


@pytest.mark.parametrize("diagnostics, value", [
    (("priority_inversion", "r3 > r2"), 1.0),
    (("priority_inversion", "r2>r1"), 0.0),
    (("attack_deletion", "r3>r2"), 0.0),
    (("none", None), 0.0),
])
def test_class_and_location_must_match(diagnostics, value):
    assert dla(penalty_context("accepted", trace="gold", defect=DEFECT, diagnostics=diagnostics)).value == value


def test_no_diagnostics_or_no_trace_locates_nothing():
    assert dla(penalty_context("accepted", trace="gold", defect=DEFECT)).value == 0.0
    assert dla(penalty_context("accepted", defect=DEFECT)).value == 0.0
    assert dla(penalty_context("accepted", defect=DEFECT, hard_failure=True)).value == 0.0


def test_not_applicable_on_clean_or_unannotated_cases():
    assert dla(penalty_context("accepted", trace="gold", defect=("none", None))).value is None
    assert dla(penalty_context("accepted", trace="gold")).value is None


def test_gold_without_location_needs_only_the_class():
    r = dla(penalty_context("accepted", trace="gold", defect=("attack_deletion", None),
                            diagnostics=("attack_deletion", "anything")))
    assert r.value == 1.0


@pytest.mark.parametrize("gold, reported, value", [
    ("rule:r2", "rule:r2", 1.0),            # the controlled suite's typed form, reported as is
    ("rule:r2", "r2", 1.0),                 # an untyped id is typed by the candidate (r2 is a rule)
    ("rule:r2", "fact:r2", 0.0),            # same id, wrong kind
    ("priority:r3>r2", "priority:r2>r3", 1.0),  # a priority location names the pair of rules
    ("evidence:E-03", "E_03", 1.0),
    ("attack:r2-rebut->Penalty(x)", "r2 - rebut -> Penalty(x)", 1.0),
    ("target:Penalty(x)", "target:Penalty(x)", 1.0),
    ("target:Penalty(x)", "target:¬Penalty(x)", 0.0),
])
def test_typed_locations_compare_by_kind_and_ident(gold, reported, value):
    from scorer.locations import same_location
    from symbolic.scenario.examples import penalty_analysis

    assert same_location(reported, gold, penalty_analysis()) is bool(value)
    r = dla(penalty_context("accepted", trace="gold", defect=("extraction_error", gold),
                            diagnostics=("extraction_error", reported)))
    # the context's scenario has no candidate: an untyped bare id cannot be typed there
    assert r.value == (value if reported != "r2" else 0.0)
