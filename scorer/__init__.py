"""paratrace's scorer: the output contract, deterministic repair, the metrics,
the statistics and the reports (paper Sections 5-6, Appendix A.8).

Importing this package touches no network and no LLM library.
"""

from .audit import AuditRow, component_audit
from .contract import CommonV1, Diagnostics, OutputRecord, Rejected, RunMeta, TraceV2, json_schemas
from .errors import OutputFileError, ReportError, ScorerError, ScoringError, StatsError
from .records import AlignmentRecord, CaseResult, MetricAggregate, MetricRecord
from .repair import Repaired, dump_outputs, load_outputs, repair_output, repair_record
from .report import write_report
from .score import aggregate, score_case, score_suite
from .stats import (
    ConfusionMatrix,
    Interval,
    McNemar,
    Stability,
    benjamini_hochberg,
    bootstrap_tgc,
    confusion_matrix,
    mcnemar_exact,
    mean_sd,
    paired_mcnemar,
    stability,
    wilson,
)
from .summary import Summary, summarize

__all__ = sorted([
    "AlignmentRecord",
    "AuditRow",
    "CaseResult",
    "CommonV1",
    "ConfusionMatrix",
    "Diagnostics",
    "Interval",
    "McNemar",
    "MetricAggregate",
    "MetricRecord",
    "OutputFileError",
    "OutputRecord",
    "Rejected",
    "Repaired",
    "ReportError",
    "RunMeta",
    "ScorerError",
    "ScoringError",
    "Stability",
    "StatsError",
    "Summary",
    "TraceV2",
    "aggregate",
    "benjamini_hochberg",
    "bootstrap_tgc",
    "component_audit",
    "confusion_matrix",
    "dump_outputs",
    "json_schemas",
    "load_outputs",
    "mcnemar_exact",
    "mean_sd",
    "paired_mcnemar",
    "repair_output",
    "repair_record",
    "score_case",
    "score_suite",
    "stability",
    "summarize",
    "wilson",
])
