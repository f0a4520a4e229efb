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
