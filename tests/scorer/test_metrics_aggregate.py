"""Aggregates: pooling, not-applicable handling."""

from __future__ import annotations

from scorer.metrics import HIGHER_IS_BETTER, aggregate_metric
from scorer.records import MetricRecord


def test_tgc_pools_edges_not_cases():
    recs = [MetricRecord("TGC", 1.0, "", {"matched": 2, "gold": 2}),
            MetricRecord("TGC", 0.5, "", {"matched": 9, "gold": 18})]
    agg = aggregate_metric("TGC", recs)
    assert agg.value == 11 / 20 and agg.n_applicable == 2


def test_not_applicable_never_enters_a_denominator():
    recs = [MetricRecord("CLA", None, "n/a"), MetricRecord("CLA", 1.0, ""), MetricRecord("CLA", 0.0, "")]
    agg = aggregate_metric("CLA", recs)
    assert (agg.value, agg.denominator, agg.n_applicable) == (0.5, 2.0, 2)
    assert aggregate_metric("CLA", [MetricRecord("CLA", None, "n/a")]).value is None


def test_bra_counts_pairs_once():
    recs = [MetricRecord("BRA", 1.0, "", {"pair": "p", "role": "base"}),
            MetricRecord("BRA", 1.0, "", {"pair": "p", "role": "update"})]
    agg = aggregate_metric("BRA", recs)
    assert (agg.value, agg.denominator, agg.n_applicable) == (1.0, 1.0, 2)


def test_directions():
    assert HIGHER_IS_BETTER["UUCR"] is False and all(v for k, v in HIGHER_IS_BETTER.items() if k != "UUCR")
