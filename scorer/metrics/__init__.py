"""The per-case metrics (paper Section 5) and their aggregates.

Each metric is a pure function of a :class:`~scorer.metrics.context.CaseContext`
returning a :class:`~scorer.records.MetricRecord` (``value=None`` with an
explanation when it does not apply).  :data:`CASE_METRICS` lists them in
report order; BRA is completed per run by
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
from .defects import defect_localization_accuracy, same_location
from .priority import priority_handling_accuracy
from .revision import belief_revision_accuracy, pair_placeholder
from .robustness import normative_counterfactual_robustness
from .status import answer_status_accuracy

#: Metric name -> per-case function, in report order.
CASE_METRICS = {
    "ASA": answer_status_accuracy,
    "TGC": trace_graph_coverage,
    "CLA": conflict_localization_accuracy,
    "NER": no_explosion_rate,
    "UUCR": unsupported_unrelated_conclusion_rate,
    "PHA": priority_handling_accuracy,
    "BRA": pair_placeholder,
    "NCR": normative_counterfactual_robustness,
    "DLA": defect_localization_accuracy,
}

__all__ = sorted([
    "CASE_METRICS",
    "CaseContext",
    "GoldView",
    "HIGHER_IS_BETTER",
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
])
