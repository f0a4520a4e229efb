"""The metrics as registry entries: name, per-case function and metadata (docs/metrics.md).

:data:`METRICS` is a :class:`symbolic.support.registry.Registry`, in report order, like
the configurations, baselines, optimizers and suites.  Each entry's factory is
the per-case function (``CaseContext -> MetricRecord``; ``value=None`` with the
reason where it does not apply) and its metadata says which way is better, how
the per-case records are pooled, what the split value divides by, which cases
it applies to and whether it is a quantity, so that aggregation, intervals,
report arrows and objectives read the metadata instead of branching on names:

``higher_is_better`` : bool
    Direction (UUCR is a rate of bad conclusions).
``aggregation`` : Aggregation
    How the split value pools the per-case records.
``denominator`` : str
    What the split value divides by.
``applicability`` : str
    The cases it applies to (decided by the gold flags, never by the output).
``quantity`` : bool
    A quantity rather than a 0/1 outcome (NCR's edit cost): bootstrap intervals, no Wilson.

>>> METRICS.entry("UUCR").metadata["higher_is_better"], list(METRICS)[:3]
(False, ['ASA', 'TGC', 'CLA'])
"""

from __future__ import annotations

from enum import Enum
from typing import Callable, Sequence

from symbolic.support.registry import Entry, Registry

from ..records import MetricRecord
from .conflict import conflict_localization_accuracy, no_explosion_rate, unsupported_unrelated_conclusion_rate
from .context import CaseContext
from .coverage import trace_graph_coverage
from .defects import defect_localization_accuracy
from .priority import priority_handling_accuracy
from .revision import pair_placeholder
from .robustness import normative_counterfactual_robustness
from .status import answer_status_accuracy

__all__ = ["METRICS", "Aggregation", "aggregation_of", "counted", "pooled"]


class Aggregation(str, Enum):
    """How a metric's applicable per-case records make its split value."""

    MEAN = "mean"
    """The mean of the per-case values."""
    EDGE_POOLED = "edge-pooled"
    """``sum matched / sum gold`` over the records' ``matched`` and ``gold`` counts."""
    PER_PAIR = "per-pair"
    """The mean over update pairs, each counted once (the record of its ``update`` member)."""


def aggregation_of(name: str) -> Aggregation:
    """The aggregation of the metric ``name``; a name outside :data:`METRICS` is a plain mean.

    Examples
    --------
    >>> aggregation_of("TGC").value, aggregation_of("BRA").value, aggregation_of("custom").value
    ('edge-pooled', 'per-pair', 'mean')
    """
    return METRICS.entry(name).metadata["aggregation"] if name in METRICS else Aggregation.MEAN


def counted(name: str, records: Sequence[MetricRecord]) -> list[MetricRecord]:
    """The applicable records of metric ``name`` that enter its split value (per pair: one per pair).

    Examples
    --------
    >>> recs = [MetricRecord("BRA", 1.0, "", {"role": "base"}), MetricRecord("BRA", 1.0, "", {"role": "update"}),
    ...         MetricRecord("BRA", None, "no partner")]
    >>> len(counted("BRA", recs)), len(counted("ASA", recs))
    (1, 2)
    """
    applicable = [r for r in records if r.value is not None]
    if aggregation_of(name) is Aggregation.PER_PAIR:
        return [r for r in applicable if r.metadata.get("role") == "update"]
    return applicable


def pooled(name: str, records: Sequence[MetricRecord]) -> tuple[float, float]:
    """``(numerator, denominator)`` of metric ``name``'s split value over ``records``."""
    chosen = counted(name, records)
    if aggregation_of(name) is Aggregation.EDGE_POOLED:
        return (float(sum(r.metadata["matched"] for r in chosen)),
                float(sum(r.metadata["gold"] for r in chosen)))
    return float(sum(r.value for r in chosen)), float(len(chosen))


def _metric(name: str, compute: Callable[[CaseContext], MetricRecord], *, higher_is_better: bool = True,
            aggregation: Aggregation = Aggregation.MEAN, denominator: str = "applicable cases",
            applicability: str = "every case", quantity: bool = False) -> Entry[MetricRecord]:
    return Entry(name, compute, {"higher_is_better": higher_is_better, "aggregation": aggregation,
                                 "denominator": denominator, "applicability": applicability, "quantity": quantity})


METRICS: Registry[MetricRecord] = Registry("metric", (
    _metric("ASA", answer_status_accuracy),
    _metric("TGC", trace_graph_coverage, aggregation=Aggregation.EDGE_POOLED, denominator="mandatory gold edges",
            applicability="outputs with a trace (and hard failures of trace runs)"),
    _metric("CLA", conflict_localization_accuracy, applicability="metadata.contradiction"),
    _metric("NER", no_explosion_rate, applicability="metadata.contradiction"),
    _metric("UUCR", unsupported_unrelated_conclusion_rate, higher_is_better=False,
            applicability="metadata.contradiction"),
    _metric("PHA", priority_handling_accuracy, applicability="metadata.priority"),
    _metric("BRA", pair_placeholder, aggregation=Aggregation.PER_PAIR, denominator="update pairs",
            applicability="update pairs (metadata.pair, role) in one run"),
    _metric("NCR", normative_counterfactual_robustness, quantity=True),
    _metric("DLA", defect_localization_accuracy, applicability="metadata.defect_class set and not none"),
))
