"""The metric entries carry what docs/metrics.md says of each metric."""

from __future__ import annotations

import re
from pathlib import Path

from scorer.metrics import HIGHER_IS_BETTER, METRICS, Aggregation, aggregate_metric
from symbolic.support.registry import Registry
from scorer.records import MetricRecord

DOC = (Path(__file__).resolve().parents[2] / "docs" / "metrics.md").read_text(encoding="utf-8")
ROW = re.compile(r"^\| (?P<name>[A-Z]+) [^|]+\| (?P<applies>[^|]+) \| (?P<value>[^|]+) \| (?P<split>[^|]+) \|$", re.M)


def test_each_entry_agrees_with_the_metrics_table():
    rows = {m["name"]: m for m in ROW.finditer(DOC)}
    assert isinstance(METRICS, Registry)
    assert list(rows) == [e.name for e in METRICS.entries()] == list(METRICS)
    for entry in METRICS.entries():
        meta, row = entry.metadata, rows[entry.name]
        split = row["split"].strip()
        want = (Aggregation.EDGE_POOLED if split.startswith("edge-pooled") else
                Aggregation.PER_PAIR if split.startswith("per pair") else Aggregation.MEAN)
        assert meta["aggregation"] is want, entry.name
        assert meta["higher_is_better"] is ("lower is better" not in row["value"]), entry.name
        assert meta["applicability"].replace("`", "") in row["applies"].replace("`", ""), entry.name
    assert HIGHER_IS_BETTER == {e.name: e.metadata["higher_is_better"] for e in METRICS.entries()}


def test_aggregation_follows_the_entry_not_the_name():
    pairs = [MetricRecord("BRA", 1.0, "", {"role": "base"}), MetricRecord("BRA", 0.0, "", {"role": "update"})]
    assert aggregate_metric("BRA", pairs).value == 0.0  # the pair counted once, by its update member
    edges = [MetricRecord("TGC", 1.0, "", {"matched": 1, "gold": 1}), MetricRecord("TGC", 0.5, "", {"matched": 1, "gold": 3})]
    assert aggregate_metric("TGC", edges).value == 0.5  # pooled 2 / 4, not the mean 0.75
    plain = [MetricRecord("XYZ", 1.0, "", {"role": "base"}), MetricRecord("XYZ", 0.0, "", {"role": "update"})]
    assert aggregate_metric("XYZ", plain).value == 0.5  # an unregistered name is a plain mean
