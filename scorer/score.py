"""Scoring of cases and suites: every metric on every output, then aggregates.

:func:`score_case` scores one output against its scenario;
:func:`score_suite` scores many outputs (several configurations, models,
variants and repeats) against a suite, computing each scenario's gold side
(admissible gold classes, NCR witness) once, inferring per run whether the
configuration emits traces, and completing BRA over update pairs;
:func:`aggregate` turns the case results of one run into split-level values.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Iterable, Sequence

from symbolic.support.collector import collected_between
from symbolic.scenario.model import Scenario

from .contract import OutputRecord
from .errors import ScoringError
from .metrics import METRICS, belief_revision_accuracy, build_context, gold_view
from .metrics import aggregate as _aggregate
from .metrics.context import GoldView, white_box
from .ncr import DEFAULT_MAX_CANDIDATES, DEFAULT_MAX_SIZE
from .budget import DEFAULT_CASE_BUDGET, BudgetExceeded
from .gold_views import GoldViews
from .records import CaseResult, MetricAggregate, MetricRecord

__all__ = ["aggregate", "score_case", "score_suite"]


def _not_scored(scenario: Scenario, output: OutputRecord, why: str) -> CaseResult:
    """The record of a case the budget did not allow to score: no metric value at all."""
    reason = f"not scored (budget): {why}"
    metrics = {name: MetricRecord(name, None, reason, {"not_scored": True}) for name in METRICS}
    return CaseResult(
        case_id=output.case_id, configuration=output.configuration, model=output.model,
        variant=output.variant, repeat=output.repeat, status_gold=scenario.gold.status.value,
        status_pred=None if output.status is None else output.status.value, correct=False,
        hard_failure=output.meta.hard_failure, metrics=metrics, alignment=None, not_scored=f"budget: {why}",
    )


def _result(gold: GoldView, output: OutputRecord, expects_trace: bool | None) -> CaseResult:
    try:
        ctx = build_context(gold, output, expects_trace=expects_trace)
    except BudgetExceeded as exc:
        return _not_scored(gold.scenario, output, str(exc))
    metrics = {name: fn(ctx) for name, fn in METRICS.items()}
    return CaseResult(
        case_id=output.case_id, configuration=output.configuration, model=output.model,
        variant=output.variant, repeat=output.repeat, status_gold=gold.status.value,
        status_pred=None if ctx.pred is None else ctx.pred.value, correct=ctx.correct,
        hard_failure=ctx.hard_failure, metrics=metrics, alignment=ctx.alignment, shortcut=bool(ctx.shortcut),
    )


def score_case(scenario: Scenario, output: OutputRecord, *, expects_trace: bool | None = None,
               ncr: bool = True, ncr_max_size: int = DEFAULT_MAX_SIZE,
               ncr_max_candidates: int = DEFAULT_MAX_CANDIDATES,
               budget: int | None = DEFAULT_CASE_BUDGET) -> CaseResult:
    """Score one output against its scenario.

    Parameters
    ----------
    scenario : Scenario
    output : OutputRecord
        Must carry ``case_id == scenario.id``.
    expects_trace : bool, optional
        Whether the configuration emits traces (decides TGC on a hard failure);
        default: whether this output has one.
    ncr : bool
        Run the NCR search (Algorithm 5).
    ncr_max_size, ncr_max_candidates : int
        Caps of the NCR search.
    budget : int, optional
        Engine work units per case side (:mod:`scorer.budget`; ``None``:
        unbounded).  A case that needs more is returned *not scored*.

    Returns
    -------
    CaseResult
        Every metric of :data:`scorer.metrics.registry.METRICS`; BRA is "not
        applicable" until the pair is scored together (:func:`score_suite`).

    Raises
    ------
    ScoringError
        If the case ids differ or the scenario's gold cannot be evaluated.

    Examples
    --------
    >>> from scorer.metrics._examples import penalty_output, penalty_scenario
    >>> res = score_case(penalty_scenario(), penalty_output("accepted", "gold"))
    >>> res.correct, res.metrics["ASA"].value, res.metrics["TGC"].value, res.metrics["NCR"].value
    (True, 1.0, 1.0, 1.0)
    """
    try:
        gold = gold_view(scenario, ncr=ncr, ncr_max_size=ncr_max_size, ncr_max_candidates=ncr_max_candidates,
                         budget=budget)
    except BudgetExceeded as exc:
        return _not_scored(scenario, output, str(exc))
    return _result(gold, output, expects_trace)


def score_suite(scenarios: Iterable[Scenario], outputs: Iterable[OutputRecord], *, ncr: bool = True,
                ncr_max_size: int = DEFAULT_MAX_SIZE,
                ncr_max_candidates: int = DEFAULT_MAX_CANDIDATES,
                budget: int | None = DEFAULT_CASE_BUDGET,
                gold_views: GoldViews | None = None) -> list[CaseResult]:
    """Score every output against its scenario and complete BRA per run.

    A run (configuration, model, variant, repeat) *emits traces* when any of
    its non-failed outputs has a trace-v2 payload; its hard failures then
    count against TGC.

    Parameters
    ----------
    scenarios : iterable of Scenario
    outputs : iterable of OutputRecord
    ncr : bool
        Run the NCR search.
    ncr_max_size, ncr_max_candidates : int
        Caps of the NCR search.
    budget : int, optional
        Engine work units per case side (:mod:`scorer.budget`); a case that
        needs more is recorded *not scored (budget)*, never given a score.
    gold_views : GoldViews, optional
        Where the gold sides of an earlier scoring of the same suite are kept
        (:mod:`scorer.gold_views`); the results are the same with or without.

    Returns
    -------
    list of CaseResult
        Sorted by (configuration, model, variant, repeat, case id).

    Raises
    ------
    ScoringError
        If an output names an unknown case, two scenarios share an id, or one
        run holds two outputs for the same case.

    Examples
    --------
    >>> from scorer.metrics._examples import penalty_output, penalty_scenario
    >>> res = score_suite([penalty_scenario()], [penalty_output("both"), penalty_output("accepted")])
    Traceback (most recent call last):
    ...
    scorer.errors.ScoringError: run ('cfg', 'm', '', 0) has two outputs for case 'penalty'
    """
    by_id: dict[str, Scenario] = {}
    for sc in scenarios:
        if sc.id in by_id:
            raise ScoringError(f"two scenarios share the id {sc.id!r}")
        by_id[sc.id] = sc
    outs = list(outputs)
    seen: set[tuple] = set()
    traced: dict[tuple, bool] = {}
    for o in outs:
        if o.case_id not in by_id:
            raise ScoringError(f"output of run {o.run_key} names unknown case {o.case_id!r}")
        key = (o.run_key, o.case_id)
        if key in seen:
            raise ScoringError(f"run {o.run_key} has two outputs for case {o.case_id!r}")
        seen.add(key)
        traced[o.run_key] = traced.get(o.run_key, False) or white_box(o.trace)
    by_case: dict[str, list[OutputRecord]] = {}
    for o in outs:
        by_case.setdefault(o.case_id, []).append(o)
    results: list[CaseResult] = []
    for case_id in collected_between(sorted(by_case)):  # no collector pass within a case (symbolic.support.collector)
        # One gold side per case, dropped once its outputs are scored (bounded memory).
        side = gold_view if gold_views is None else gold_views.view
        try:
            gold = side(by_id[case_id], ncr=ncr, ncr_max_size=ncr_max_size,
                        ncr_max_candidates=ncr_max_candidates, budget=budget)
        except BudgetExceeded as exc:
            results.extend(_not_scored(by_id[case_id], o, str(exc)) for o in by_case[case_id])
            continue
        results.extend(_result(gold, o, traced[o.run_key]) for o in by_case[case_id])
    results.sort(key=lambda r: (r.run_key, r.case_id))
    return _complete_pairs(results)


def _complete_pairs(results: Sequence[CaseResult]) -> list[CaseResult]:
    by_run: dict[tuple, list[int]] = {}
    for i, r in enumerate(results):
        if "BRA" in r.metrics and "pair" in r.metrics["BRA"].metadata:
            by_run.setdefault(r.run_key, []).append(i)
    out = list(results)
    for indices in by_run.values():
        filled = belief_revision_accuracy(results[i].metrics["BRA"] for i in indices)
        for i in indices:
            rec = results[i].metrics["BRA"]
            new = filled[f"{rec.metadata['pair']}/{rec.metadata['role']}"]
            out[i] = replace(results[i], metrics={**results[i].metrics, "BRA": new})
    return out


def aggregate(results: Iterable[CaseResult]) -> dict[str, MetricAggregate]:
    """Split-level value of every metric over the case results of one run.

    Parameters
    ----------
    results : iterable of CaseResult
        The results of one run (filter by configuration, model, variant and repeat first).

    Returns
    -------
    dict of str to MetricAggregate
        See :mod:`scorer.metrics.aggregate` for how each metric pools.

    Examples
    --------
    >>> from scorer.metrics._examples import penalty_output, penalty_scenario
    >>> res = score_suite([penalty_scenario()], [penalty_output("accepted", "gold")])
    >>> agg = aggregate(res)
    >>> agg["ASA"].value, agg["TGC"].value, agg["CLA"].value
    (1.0, 1.0, None)
    """
    return _aggregate(results)
