"""The composite objective as a DSPy metric: weights, applicability, bootstrapping threshold, errors."""

from __future__ import annotations

import dspy
import pytest

from optimize.errors import OptimizeError
from optimize.objectives import DEFAULT_WEIGHTS, Objective, output_record
from scorer.metrics._examples import penalty_output, penalty_scenario


def _pred(status, variant):
    out = penalty_output(status, variant)
    return dspy.Prediction(common=out.common, trace=out.trace)


@pytest.fixture(scope="module")
def scored():
    scenario = penalty_scenario(priority=True, contradiction=True)
    obj = Objective([scenario])
    return obj, obj.score("penalty", _pred("both", "no-r3>r2"))


def test_composite_is_the_weighted_mean_of_applicable_metrics(scored):
    obj, result = scored
    m = result.result.metrics
    expected = sum(DEFAULT_WEIGHTS[k] * m[k].value for k in DEFAULT_WEIGHTS) / sum(DEFAULT_WEIGHTS.values())
    assert result.score == pytest.approx(expected)
    assert m["ASA"].value == 0.0 and m["PHA"].value == 0.0 and m["CLA"].value == 1.0


def test_inapplicable_metric_drops_out():
    obj = Objective([penalty_scenario()], {"ASA": 1.0, "PHA": 3.0})  # not a priority case: PHA does not apply
    assert obj.metric(dspy.Example(case_id="penalty"), _pred("accepted", "gold")) == 1.0


def test_uucr_enters_inverted():
    obj = Objective([penalty_scenario(contradiction=True)], {"UUCR": 1.0})
    assert obj.metric(dspy.Example(case_id="penalty"), _pred("accepted", "gold")) == 1.0


def test_bootstrapping_returns_whether_the_threshold_is_reached():
    obj = Objective([penalty_scenario(priority=True)], threshold=0.9)
    ex = dspy.Example(case_id="penalty")
    assert obj.metric(ex, _pred("accepted", "gold"), trace=[]) is True
    assert obj.metric(ex, _pred("both", "no-r3>r2"), trace=[]) is False


@pytest.mark.parametrize("weights, message", [
    ({"NCR": 1.0}, "unknown metric 'NCR'"),
    ({"ASA": -1.0}, "non-negative"),
    ({"ASA": 0.0}, "all zero"),
])
def test_bad_weights(weights, message):
    with pytest.raises(OptimizeError, match=message):
        Objective([], weights)


def test_parse_weights_and_errors():
    assert Objective.parse_weights("asa=1,tgc=0.5") == {"ASA": 1.0, "TGC": 0.5}
    with pytest.raises(OptimizeError, match="'ASA' is not NAME=NUMBER"):
        Objective.parse_weights("ASA")
    with pytest.raises(OptimizeError, match="unknown case 'nope'|does not know"):
        Objective([penalty_scenario()]).metric(dspy.Example(case_id="nope"), _pred("accepted", "gold"))


def test_output_record_of_a_prediction_without_answer_is_a_hard_failure():
    assert output_record(dspy.Prediction(), "c").meta.hard_failure
    assert output_record(_pred("accepted", "gold"), "c").trace is not None
