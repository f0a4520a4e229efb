"""The report's tables as data (paper Section 6 tables), computed from scored cases.

A *configuration* is ``(configuration, model, variant)``; its *runs* are its
repeats.  The headline tables (status accuracy and DLA, confusion matrix,
metrics, paired comparison) use each configuration's first run (lowest
``repeat``), so every interval is over distinct cases; the stability table
uses all runs.

Point estimates are :func:`scorer.metrics.aggregate.aggregate_metric`'s (TGC
pools edges, BRA counts each update pair once, the rest average the applicable
cases).  Intervals: a metric whose counted per-case values are all 0 or 1 gets a Wilson
interval; TGC (which pools edges) a seeded edge-level bootstrap; any other
metric (NCR, an edit cost, even when every cost is 0 or 1; a fraction per
case) a seeded case-level bootstrap of the mean.  For a configuration with
several runs, each metric's run-level aggregate also gets its mean and sample
SD over the runs (a metric is listed when it applies in every run).  Paired
comparisons use the exact McNemar test on status correctness and on every 0/1
metric, over the cases both configurations have, and Benjamini-Hochberg
q-values across that whole family.  Breakdowns (accuracy by subset, repairs by
kind, metrics over runs) are in :mod:`scorer.summary_tables`.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from itertools import combinations
from typing import Iterable, Mapping, Sequence

from symbolic.scenario.model import Scenario

from .contract import OutputRecord
from .errors import ReportError
from .metrics.aggregate import aggregate_metric
from .metrics.registry import METRICS, Aggregation, aggregation_of, counted
from .records import CaseResult, MetricRecord
from .stats import (
    ConfusionMatrix,
    Interval,
    Stability,
    benjamini_hochberg,
    bootstrap_mean,
    bootstrap_tgc,
    confusion_matrix,
    paired_mcnemar,
    stability,
    wilson,
)
from .summary_tables import (
    REPAIR_KINDS,
    RepairRow,
    RunMetricRow,
    SubsetRow,
    case_subsets,
    repair_kind,
    repair_rows,
    run_metric_rows,
    subset_rows,
)

__all__ = [
    "AccuracyRow",
    "ConfigKey",
    "LimitRow",
    "MetricRow",
    "PairedRow",
    "QUANTITY_METRICS",
    "REPAIR_KINDS",
    "RepairRow",
    "RunMetricRow",
    "SubsetRow",
    "Summary",
    "case_subsets",
    "config_label",
    "repair_kind",
    "summarize",
]

ConfigKey = tuple[str, str, str]
STATUS_METRIC = "status"
#: Metrics whose per-case value is a quantity (an edit cost), not a 0/1 outcome or a share.
QUANTITY_METRICS = frozenset(e.name for e in METRICS.entries() if e.metadata["quantity"])


def config_label(key: ConfigKey) -> str:
    """``configuration / model`` (and ``/ variant`` when there is one).

    >>> config_label(("engine", "gpt-4o", "")), config_label(("b2", "m", "no-priorities"))
    ('engine / gpt-4o', 'b2 / m / no-priorities')
    """
    return " / ".join(part for part in key if part)


@dataclass(frozen=True, slots=True)
class AccuracyRow:
    """Status accuracy and DLA of one configuration (first run)."""

    config: ConfigKey
    repeat: int
    n_cases: int
    hard_failures: int
    accuracy: Interval
    dla: Interval | None
    repaired: int | None = None


@dataclass(frozen=True, slots=True)
class LimitRow:
    """Where the scorer's bounds stopped short, for one configuration (first run).

    ``not_scored``: cases over the scoring budget (no metric value);
    ``ncr_stopped``: correct answers whose NCR search a cap or the budget
    stopped (a lower bound, left out of the mean), with the smallest and
    largest bound; ``alignment_capped``: cases whose admissible-class search
    hit the seed or priority-subset cap.
    """

    config: ConfigKey
    n_cases: int
    not_scored: int
    ncr_stopped: int
    ncr_bounds: tuple[int, int] | None
    alignment_capped: int


def limit_rows(runs: Mapping[ConfigKey, Sequence[CaseResult]]) -> list[LimitRow]:
    """One :class:`LimitRow` per configuration (first runs)."""
    rows = []
    for key, results in runs.items():
        bounds = [r.metrics["NCR"].metadata["lower_bound"] for r in results
                  if "NCR" in r.metrics and r.metrics["NCR"].value is None
                  and r.metrics["NCR"].metadata.get("lower_bound") is not None]
        capped = sum(1 for r in results if r.alignment is not None and r.alignment.metadata.get("classes_capped"))
        rows.append(LimitRow(key, len(results), sum(1 for r in results if r.not_scored), len(bounds),
                             (min(bounds), max(bounds)) if bounds else None, capped))
    return rows


@dataclass(frozen=True, slots=True)
class MetricRow:
    """One metric of one configuration (first run)."""

    config: ConfigKey
    metric: str
    n_cases: int
    n_applicable: int
    estimate: float | None
    interval: Interval | None
    is_rate: bool = True


@dataclass(frozen=True, slots=True)
class PairedRow:
    """An exact McNemar test of two configurations on one 0/1 outcome."""

    metric: str
    a: ConfigKey
    b: ConfigKey
    n: int
    a_rate: float
    b_rate: float
    only_a: int
    only_b: int
    pvalue: float
    qvalue: float


@dataclass(frozen=True, slots=True)
class Summary:
    """Every table of the report."""

    configs: tuple[ConfigKey, ...]
    metrics: tuple[str, ...]
    accuracy: tuple[AccuracyRow, ...]
    confusion: tuple[tuple[ConfigKey, ConfusionMatrix], ...]
    metric_rows: tuple[MetricRow, ...]
    paired: tuple[PairedRow, ...]
    stability: tuple[tuple[ConfigKey, Stability], ...]
    alpha: float
    seed: int
    n_resamples: int
    run_metrics: tuple[RunMetricRow, ...] = ()
    subsets: tuple[SubsetRow, ...] = ()
    repairs: tuple[RepairRow, ...] = ()
    limits: tuple[LimitRow, ...] = ()


def _key(r: CaseResult) -> ConfigKey:
    return (r.configuration, r.model, r.variant or "")


def _binary(values: Iterable[float]) -> bool:
    return all(v in (0.0, 1.0) for v in values)


def _counted(metric: str, records: Sequence[MetricRecord]) -> list[MetricRecord]:
    """The applicable records that enter the metric's aggregate (BRA: one per update pair)."""
    return counted(metric, records)


def _metric_interval(metric: str, records, *, seed: int, n_resamples: int, alpha: float):
    values = [rec.value for rec in records]
    if aggregation_of(metric) is Aggregation.EDGE_POOLED and all("matched" in rec.metadata and "gold" in rec.metadata for rec in records):
        counts = [(int(rec.metadata["matched"]), int(rec.metadata["gold"])) for rec in records]
        if sum(g for _, g in counts):
            return bootstrap_tgc(counts, seed=seed, n_resamples=n_resamples, alpha=alpha)
    if metric not in QUANTITY_METRICS and _binary(values):
        return wilson(int(sum(values)), len(values), alpha)
    return bootstrap_mean(values, seed=seed, n_resamples=n_resamples, alpha=alpha)


def _first_runs(results: Sequence[CaseResult]) -> dict[ConfigKey, list[CaseResult]]:
    first: dict[ConfigKey, int] = {}
    for r in results:
        first[_key(r)] = min(first.get(_key(r), r.repeat), r.repeat)
    runs: dict[ConfigKey, list[CaseResult]] = defaultdict(list)
    for r in results:
        if r.repeat == first[_key(r)]:
            runs[_key(r)].append(r)
    return {k: sorted(v, key=lambda r: r.case_id) for k, v in sorted(runs.items())}


def _outcomes(rows: Sequence[CaseResult], metric: str) -> dict[str, float]:
    if metric == STATUS_METRIC:
        return {r.case_id: 1.0 if r.correct else 0.0 for r in rows}
    return {r.case_id: r.metrics[metric].value for r in rows
            if metric in r.metrics and _counted(metric, [r.metrics[metric]])}


def summarize(results: Sequence[CaseResult], *, outputs: Iterable[OutputRecord] = (),
              scenarios: Iterable[Scenario] = (), seed: int = 0, alpha: float = 0.05,
              n_resamples: int = 2000) -> Summary:
    """Compute every report table from scored cases.

    Parameters
    ----------
    results : sequence of CaseResult
        Scored cases of one or more configurations and repeats (one suite).
    outputs : iterable of OutputRecord
        The scored outputs, for the count of repaired outputs (optional).
    scenarios : iterable of Scenario
        The suite, for status accuracy by subset (:func:`case_subsets`; optional).
    seed : int
        Seed of every bootstrap (each table cell derives its own generator
        from it deterministically).
    alpha : float
        One minus the confidence level.
    n_resamples : int
        Bootstrap resamples.

    Returns
    -------
    Summary

    Raises
    ------
    ReportError
        If ``results`` is empty or a run scores a case twice.

    Examples
    --------
    >>> from scorer.records import CaseResult, MetricRecord
    >>> def case(i, ok):
    ...     return CaseResult(f"c{i}", "engine", "m", "", 0, "both", "both" if ok else "accepted", ok,
    ...                       False, {"ASA": MetricRecord("ASA", float(ok), "")})
    >>> s = summarize([case(i, i % 4 != 0) for i in range(8)])
    >>> s.accuracy[0].accuracy.estimate, s.metric_rows[0].metric, s.metric_rows[0].interval.method
    (0.75, 'ASA', 'wilson')
    """
    results = list(results)
    outputs = list(outputs)
    if not results:
        raise ReportError("no scored cases to report")
    seen: set[tuple] = set()
    for r in results:
        ident = (_key(r), r.repeat, r.case_id)
        if ident in seen:
            raise ReportError(f"case {r.case_id!r} is scored twice in run {config_label(_key(r))} "
                              f"repeat {r.repeat}")
        seen.add(ident)
    runs = _first_runs(results)
    repairs = {o.run_key + (o.case_id,): len(o.meta.repair_log) for o in outputs}
    metrics = tuple(sorted({m for r in results for m in r.metrics}))
    accuracy, confusion, metric_rows = [], [], []
    limits = tuple(limit_rows(runs))
    runs = {k: [r for r in rows if r.not_scored is None] for k, rows in runs.items()}
    runs = {k: rows for k, rows in runs.items() if rows}
    for c_index, (key, rows) in enumerate(runs.items()):
        correct = sum(r.correct for r in rows)
        dla_values = [r.metrics["DLA"].value for r in rows
                      if "DLA" in r.metrics and r.metrics["DLA"].value is not None]
        dla = None
        if dla_values and _binary(dla_values):
            dla = wilson(int(sum(dla_values)), len(dla_values), alpha)
        logged = [repairs.get(key + (r.repeat, r.case_id)) for r in rows]
        repaired = None if not repairs else sum(1 for n in logged if n)
        accuracy.append(AccuracyRow(key, rows[0].repeat, len(rows), sum(r.hard_failure for r in rows),
                                    wilson(correct, len(rows), alpha), dla, repaired))
        confusion.append((key, confusion_matrix([r.status_gold for r in rows],
                                                [r.status_pred for r in rows])))
        for m_index, metric in enumerate(metrics):
            records = _counted(metric, [r.metrics[metric] for r in rows if metric in r.metrics])
            interval = None
            if records:
                cell_seed = seed * 1_000_003 + c_index * 1009 + m_index
                interval = _metric_interval(metric, records, seed=cell_seed,
                                            n_resamples=n_resamples, alpha=alpha)
            agg = aggregate_metric(metric, records)
            metric_rows.append(MetricRow(key, metric, len(rows), len(records), agg.value, interval,
                                         metric not in QUANTITY_METRICS
                                         and all(0.0 <= rec.value <= 1.0 for rec in records)))
    paired = _paired(runs, metrics)
    stab = []
    by_config: dict[ConfigKey, dict[int, dict[str, str | None]]] = defaultdict(lambda: defaultdict(dict))
    gold: dict[str, str] = {}
    for r in results:
        by_config[_key(r)][r.repeat][r.case_id] = r.status_pred
        gold[r.case_id] = r.status_gold
    for key in sorted(by_config):
        reps = by_config[key]
        if len(reps) < 2:
            continue
        common = set.intersection(*(set(run) for run in reps.values()))
        if not common:
            continue
        stab.append((key, stability([{c: reps[i][c] for c in common} for i in sorted(reps)], gold)))
    return Summary(tuple(runs), metrics, tuple(accuracy), tuple(confusion), tuple(metric_rows),
                   tuple(paired), tuple(stab), alpha, seed, n_resamples,
                   tuple(run_metric_rows(results, metrics)),
                   tuple(subset_rows(runs, {s.id: case_subsets(s) for s in scenarios}, alpha)),
                   tuple(repair_rows(runs, outputs)), limits)


def _paired(runs: Mapping[ConfigKey, list[CaseResult]], metrics: Sequence[str]) -> list[PairedRow]:
    rows = []
    family = tuple(metrics) if "ASA" in metrics else (STATUS_METRIC,) + tuple(metrics)
    for metric in family:
        if metric in QUANTITY_METRICS:
            continue
        outcomes = {key: _outcomes(rs, metric) for key, rs in runs.items()}
        for a, b in combinations(sorted(runs), 2):
            cases = sorted(set(outcomes[a]) & set(outcomes[b]))
            if not cases:
                continue
            xa = [outcomes[a][c] for c in cases]
            xb = [outcomes[b][c] for c in cases]
            if not (_binary(xa) and _binary(xb)):
                continue
            test = paired_mcnemar([x == 1.0 for x in xa], [x == 1.0 for x in xb])
            rows.append((metric, a, b, len(cases), sum(xa) / len(cases), sum(xb) / len(cases), test))
    qvalues = benjamini_hochberg([t.pvalue for *_, t in rows])
    return [PairedRow(m, a, b, n, ra, rb, t.b, t.c, t.pvalue, q)
            for (m, a, b, n, ra, rb, t), q in zip(rows, qvalues)]
