"""The per-case metrics (paper Section 5) and their aggregates.

Each metric is a pure function of a :class:`~scorer.metrics.context.CaseContext`
returning a :class:`~scorer.records.MetricRecord` (``value=None`` with an
explanation when it does not apply).  :data:`METRICS` lists them in report
order with their metadata (:mod:`scorer.metrics.registry`); BRA is completed per run by
:func:`~scorer.metrics.revision.belief_revision_accuracy`.
"""

from .aggregate import HIGHER_IS_BETTER, aggregate, aggregate_metric
from .conflict import (
    conflict_localization_accuracy,
    no_explosion_rate,
    unsupported_unrelated,
    unsupported_unrelated_conclusion_rate,
)
from .context import CaseContext, GoldView, build_context, conflict_pairs, gold_view
from .coverage import trace_graph_coverage
from ..defects.classes import same_location
from .defects import defect_localization_accuracy
from .priority import priority_handling_accuracy
from .revision import belief_revision_accuracy, pair_placeholder
from .robustness import normative_counterfactual_robustness
from .registry import METRICS, Aggregation
from .status import answer_status_accuracy

__all__ = [
    "Aggregation",
    "CaseContext",
    "GoldView",
    "HIGHER_IS_BETTER",
    "METRICS",
    "aggregate",
    "aggregate_metric",
    "answer_status_accuracy",
    "belief_revision_accuracy",
    "build_context",
    "conflict_localization_accuracy",
    "conflict_pairs",
    "defect_localization_accuracy",
    "gold_view",
    "no_explosion_rate",
    "normative_counterfactual_robustness",
    "pair_placeholder",
    "priority_handling_accuracy",
    "same_location",
    "trace_graph_coverage",
    "unsupported_unrelated",
    "unsupported_unrelated_conclusion_rate",
]
