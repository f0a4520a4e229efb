"""ASA on hand-built cases."""

from __future__ import annotations

import pytest

from scorer.metrics import answer_status_accuracy
from scorer.metrics._examples import penalty_context


@pytest.mark.parametrize("pred, value", [("accepted", 1.0), ("rejected", 0.0), ("both", 0.0),
                                         ("undecidable", 0.0)])
def test_asa_compares_the_four_valued_status(pred, value):
    r = answer_status_accuracy(penalty_context(pred))
    assert r.value == value and r.metadata["predicted"] == pred and r.metadata["gold"] == "accepted"


def test_inverted_priority_lowers_asa():
    # The inverted objects give rejected under the engine; an assistant reporting that is wrong.
    assert answer_status_accuracy(penalty_context("rejected", trace="inverted")).value == 0.0


def test_hard_failure_is_incorrect():
    r = answer_status_accuracy(penalty_context("accepted", hard_failure=True))
    assert r.value == 0.0 and "hard failure" in r.explanation and r.metadata["predicted"] is None
