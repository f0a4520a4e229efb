"""Breakdown tables of the report: status accuracy by subset of the suite,
deterministic repairs by kind, and each metric over repeated runs.

Used by :func:`scorer.summary.summarize` (and re-exported there).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Mapping, Sequence

from symbolic.scenario.model import Scenario

from .contract import OutputRecord
from .metrics.aggregate import aggregate_metric
from .records import CaseResult
from .stats import Interval, mean_sd, wilson

__all__ = [
    "REPAIR_KINDS",
    "RepairRow",
    "RunMetricRow",
    "SubsetRow",
    "case_subsets",
    "repair_kind",
    "repair_rows",
    "run_metric_rows",
    "subset_rows",
]

ConfigKey = tuple[str, str, str]


def _key(r: CaseResult) -> ConfigKey:
    return (r.configuration, r.model, r.variant or "")


#: Repair categories of the report (Appendix A.8), in column order.
REPAIR_KINDS = ("fence", "prose", "syntax", "field names", "status", "evidence ids", "typed edges",
                "rejected", "dropped", "other")


def repair_kind(line: str) -> str:
    """The category of one repair-log line.

    Examples
    --------
    >>> [repair_kind(x) for x in ("stripped markdown fence (json)", "common.final_status: 'Both.' -> 'both'",
    ...                           "common.evidence_ids: 'E_1' -> 'E-01'", "trace.rejected: edge x: ...")]
    ['fence', 'status', 'evidence ids', 'rejected']
    """
    where, _, what = line.partition(": ")
    if line.startswith("stripped markdown fence"):
        return "fence"
    if "of prose" in line:
        return "prose"
    if "trailing comma" in line or "Python constant" in line:
        return "syntax"
    if "renamed field" in what or "collected top-level" in what or "wrapped a single" in what:
        return "field names"
    if where.startswith("trace.rejected"):
        return "rejected"
    if where.endswith("final_status"):
        return "status"
    if "evidence" in where and ("->" in what or "duplicate" in what):
        return "evidence ids"
    if what.startswith("converted"):
        return "typed edges"
    if what.startswith("dropped"):
        return "dropped"
    return "other"


@dataclass(frozen=True, slots=True)
class RepairRow:
    """Repairs of one configuration's outputs (first run): outputs touched per category."""

    config: ConfigKey
    n_outputs: int
    repaired: int
    hard_failures: int
    by_kind: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class SubsetRow:
    """Status accuracy of one configuration (first run) on one subset of cases."""

    config: ConfigKey
    subset: str
    n_cases: int
    hard_failures: int
    accuracy: Interval


@dataclass(frozen=True, slots=True)
class RunMetricRow:
    """One metric of one configuration across its runs: per-run values, mean and sample SD."""

    config: ConfigKey
    metric: str
    values: tuple[float, ...]
    mean: float
    sd: float | None


def case_subsets(scenario: Scenario) -> tuple[str, ...]:
    """The subsets a case belongs to, for the accuracy-by-subset table.

    ``gold:<status>``, ``domain:<domain>``, ``contradiction``, ``priority``,
    ``defect:<class>``, ``split:<split>``, ``pair:<role>``.

    Examples
    --------
    >>> from scorer.metrics._examples import penalty_scenario
    >>> case_subsets(penalty_scenario(contradiction=True, priority=True))
    ('contradiction', 'gold:accepted', 'priority')
    """
    md = scenario.metadata
    tags = {f"gold:{scenario.gold.status.value}"}
    if md.domain is not None:
        tags.add(f"domain:{md.domain.value}")
    if md.contradiction:
        tags.add("contradiction")
    if md.priority:
        tags.add("priority")
    if md.defect_class is not None:
        tags.add(f"defect:{md.defect_class.value}")
    if md.split:
        tags.add(f"split:{md.split}")
    if md.role:
        tags.add(f"pair:{md.role}")
    return tuple(sorted(tags))


def subset_rows(runs: Mapping[ConfigKey, list[CaseResult]], subsets: Mapping[str, Sequence[str]],
                alpha: float) -> list[SubsetRow]:
    """Status accuracy (Wilson) per configuration (first run) and subset of cases."""
    rows = []
    for key, rs in runs.items():
        members: dict[str, list[CaseResult]] = defaultdict(list)
        for r in rs:
            for tag in subsets.get(r.case_id, ()):
                members[tag].append(r)
        for tag in sorted(members):
            group = members[tag]
            rows.append(SubsetRow(key, tag, len(group), sum(r.hard_failure for r in group),
                                  wilson(sum(r.correct for r in group), len(group), alpha)))
    return rows


def run_metric_rows(results: Sequence[CaseResult], metrics: Sequence[str]) -> list[RunMetricRow]:
    """Mean and sample SD over runs of each metric's run-level aggregate (configurations with 2+ runs)."""
    by_run: dict[ConfigKey, dict[int, list[CaseResult]]] = defaultdict(lambda: defaultdict(list))
    for r in results:
        by_run[_key(r)][r.repeat].append(r)
    rows = []
    for key in sorted(by_run):
        reps = by_run[key]
        if len(reps) < 2:
            continue
        for metric in metrics:
            values = []
            for repeat in sorted(reps):
                records = [r.metrics[metric] for r in reps[repeat] if metric in r.metrics]
                agg = aggregate_metric(metric, records)
                if agg.value is not None:
                    values.append(agg.value)
            if len(values) == len(reps):
                mean, sd = mean_sd(values)
                rows.append(RunMetricRow(key, metric, tuple(values), mean, sd))
    return rows


def repair_rows(runs: Mapping[ConfigKey, list[CaseResult]],
                outputs: Sequence[OutputRecord]) -> list[RepairRow]:
    """Outputs touched by each kind of repair, per configuration (first run)."""
    by_key = {o.run_key + (o.case_id,): o for o in outputs}
    rows = []
    for key, rs in runs.items():
        outs = [by_key[key + (r.repeat, r.case_id)] for r in rs if key + (r.repeat, r.case_id) in by_key]
        if not outs:
            continue
        counts = [0] * len(REPAIR_KINDS)
        for o in outs:
            for kind in {repair_kind(line) for line in o.meta.repair_log}:
                counts[REPAIR_KINDS.index(kind)] += 1
        rows.append(RepairRow(key, len(outs), sum(1 for o in outs if o.meta.repair_log),
                              sum(1 for o in outs if o.meta.hard_failure), tuple(counts)))
    return rows
