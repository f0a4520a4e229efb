"""Split-level aggregates of the per-case metric records.

Each metric's :class:`~scorer.metrics.registry.Aggregation` decides:

* TGC pools edges: ``sum matched / sum gold`` over the applicable cases.
* BRA counts each update pair once (the record of its ``update`` member).
* Every other metric is the mean of its applicable per-case values (NCR: the
  mean edit cost, censored values included at ``|Delta_N| + 1``).

Not-applicable records (``value is None``) never enter a denominator; a
metric with no applicable case aggregates to ``value=None``.  Aggregate one
run (configuration, model, variant, repeat) at a time.
"""

from __future__ import annotations

from typing import Iterable, Mapping, Sequence

from ..records import CaseResult, MetricAggregate, MetricRecord
from .registry import METRICS, pooled

__all__ = ["HIGHER_IS_BETTER", "aggregate", "aggregate_metric"]

#: Direction of each metric (UUCR is a rate of bad conclusions), from :data:`~scorer.metrics.registry.METRICS`.
HIGHER_IS_BETTER: Mapping[str, bool] = {name: METRICS.entry(name).metadata["higher_is_better"]
                                         for name in sorted(METRICS)}


def aggregate_metric(metric: str, records: Sequence[MetricRecord]) -> MetricAggregate:
    """Aggregate one metric's per-case records.

    Parameters
    ----------
    metric : str
        The metric name.
    records : sequence of MetricRecord
        Its records over the cases of one run.

    Returns
    -------
    MetricAggregate

    Examples
    --------
    >>> recs = [MetricRecord("TGC", 1.0, "", {"matched": 10, "gold": 10}),
    ...         MetricRecord("TGC", 0.0, "", {"matched": 0, "gold": 30}),
    ...         MetricRecord("TGC", None, "no trace")]
    >>> aggregate_metric("TGC", recs)
    MetricAggregate(metric='TGC', value=0.25, numerator=10.0, denominator=40.0, n_applicable=2)
    >>> aggregate_metric("ASA", [MetricRecord("ASA", 1.0, ""), MetricRecord("ASA", 0.0, "")]).value
    0.5
    """
    num, den = pooled(metric, records)  # the metric's aggregation (docs/metrics.md)
    value = num / den if den else None
    return MetricAggregate(metric, value, float(num), den, sum(1 for r in records if r.value is not None))


def aggregate(results: Iterable[CaseResult]) -> dict[str, MetricAggregate]:
    """Aggregate every metric over the case results of one run.

    Parameters
    ----------
    results : iterable of CaseResult

    Returns
    -------
    dict of str to MetricAggregate
        Sorted by metric name.
    """
    by_metric: dict[str, list[MetricRecord]] = {}
    for res in results:
        for name, rec in res.metrics.items():
            by_metric.setdefault(name, []).append(rec)
    return {name: aggregate_metric(name, recs) for name, recs in sorted(by_metric.items())}
