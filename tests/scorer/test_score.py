"""score_case / score_suite / aggregate."""

from __future__ import annotations

import json

import pytest

from metric_builders import failure, make_output, make_scenario, two_paths
from scorer.errors import ScoringError
from scorer.metrics import METRICS
from scorer.metrics._examples import penalty_output, penalty_scenario
from scorer.score import aggregate, score_case, score_suite


def test_score_case_records_every_metric():
    res = score_case(penalty_scenario(contradiction=True, priority=True), penalty_output("accepted", "gold"))
    assert set(res.metrics) == set(METRICS)
    assert res.correct and not res.hard_failure and res.status_pred == "accepted"
    assert res.metrics["TGC"].value == 1.0 and res.alignment.missing == ()
    for name in ("ASA", "CLA", "NER", "PHA"):
        assert res.metrics[name].value == 1.0, name
    assert res.metrics["UUCR"].value == 0.0 and res.metrics["NCR"].value == 1.0
    assert res.metrics["DLA"].value is None and res.metrics["BRA"].value is None


def test_score_case_rejects_a_foreign_output():
    with pytest.raises(ScoringError, match="scored against scenario"):
        score_case(penalty_scenario(), penalty_output("accepted", case_id="other"))


def suite():
    return [penalty_scenario(contradiction=True), make_scenario("two", two_paths(), "accepted")]


def outputs():
    return [penalty_output("accepted", "gold"), make_output("two", "accepted", two_paths()),
            make_output("penalty", "both", configuration="direct", conflict_detected=True),
            failure("two", configuration="direct")]


def test_suite_infers_trace_runs_and_scores_hard_failures():
    res = score_suite(suite(), outputs() + [failure("penalty", configuration="cfg2"),
                                            make_output("two", "accepted", two_paths(), configuration="cfg2")])
    by = {(r.configuration, r.case_id): r for r in res}
    assert by[("direct", "two")].metrics["TGC"].value is None  # black-box run: TGC n/a
    assert by[("cfg2", "penalty")].metrics["TGC"].value == 0.0  # trace run: failure matches nothing
    assert by[("cfg2", "penalty")].metrics["CLA"].value == 0.0
    assert [(r.configuration, r.case_id) for r in res] == sorted((r.configuration, r.case_id) for r in res)


def test_suite_is_deterministic_whatever_the_order():
    a = score_suite(suite(), outputs())
    b = score_suite(list(reversed(suite())), list(reversed(outputs())))
    dump = lambda rs: json.dumps([r.to_dict() for r in rs], sort_keys=True, ensure_ascii=False)  # noqa: E731
    assert dump(a) == dump(b)


def test_suite_errors():
    with pytest.raises(ScoringError, match="unknown case"):
        score_suite(suite(), [make_output("nope", "accepted")])
    with pytest.raises(ScoringError, match="share the id"):
        score_suite(suite() + suite(), [])
    with pytest.raises(ScoringError, match="two outputs"):
        score_suite(suite(), [make_output("two", "accepted"), make_output("two", "both")])


def test_aggregate_per_run():
    res = [r for r in score_suite(suite(), outputs()) if r.configuration == "cfg"]
    agg = aggregate(res)
    assert agg["ASA"].value == 1.0 and agg["ASA"].n_applicable == 2
    assert agg["TGC"].value == 1.0 and agg["CLA"].n_applicable == 1
    assert agg["DLA"].value is None and agg["DLA"].n_applicable == 0


def test_ncr_can_be_skipped():
    res = score_case(penalty_scenario(), penalty_output("accepted"), ncr=False)
    assert res.metrics["NCR"].value is None and "not run" in res.metrics["NCR"].explanation


def test_case_results_round_trip_through_json():
    from scorer.records import CaseResult, MetricAggregate

    for r in score_suite(suite(), outputs()):
        back = CaseResult.from_dict(json.loads(json.dumps(r.to_dict())))
        assert back.to_dict() == r.to_dict()
    for a in aggregate(score_suite(suite(), outputs())).values():
        assert MetricAggregate.from_dict(json.loads(json.dumps(a.to_dict()))) == a
