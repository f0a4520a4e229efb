"""paratrace's scorer: the output contract, deterministic repair, the metrics,
the statistics and the reports (paper Sections 5-6, Appendix A.8).

Importing this package touches no network and no LLM library.  The contract,
repair and records load eagerly (the assistant imports the contract); the
statistics (statsmodels, scipy), scoring, summaries, reports and the audit
load on first use, so the ``paratrace`` command starts without them.
"""

from importlib import import_module

from .contract import CommonV1, Diagnostics, OutputRecord, Rejected, RunMeta, TraceV2, json_schemas
from .errors import OutputFileError, ReportError, ScorerError, ScoringError, StatsError
from .outputs_io import dump_outputs, load_outputs
from .records import AlignmentRecord, CaseResult, MetricAggregate, MetricRecord
from .repair import Repaired, repair_output, repair_record

_STATS = ("ConfusionMatrix", "Interval", "McNemar", "Stability", "benjamini_hochberg", "bootstrap_mean",
          "bootstrap_tgc", "confusion_matrix", "mcnemar_exact", "mean_sd", "paired_mcnemar", "stability",
          "wilson")

_LAZY = {
    **{name: "stats" for name in _STATS},
    "AuditRow": "audit", "component_audit": "audit",
    "write_report": "report",
    "aggregate": "score", "score_case": "score", "score_suite": "score",
    "Summary": "summary", "summarize": "summary",
    "NCRWitness": "ncr", "ncr_witness": "ncr",
    "Injected": "defects", "gold_output": "defects",
    "LocalizationTable": "defects", "localization_table": "defects", "localize_case": "defects",
    "Operations": "operations",
}


def __getattr__(name):
    if name in _LAZY:
        value = getattr(import_module(f".{_LAZY[name]}", __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

__all__ = sorted([
    "Operations",
    "localize_case",
    "localization_table",
    "LocalizationTable",
    "gold_output",
    "Injected",
    "ncr_witness",
    "NCRWitness",
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
    "bootstrap_mean",
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
