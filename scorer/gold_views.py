"""The gold sides of one suite, computed once when the suite is scored more than once.

A gold side (:func:`scorer.metrics.context.gold_view`: the gold status, the
admissible-class search of Algorithm 4, the NCR witness of Algorithm 5) depends
on the scenario and the scoring options only, not on the outputs.  Scoring the
same suite again -- the component audit's rescoring without trace graphs, one
cell per configuration in an experiment -- would search it again.
:class:`GoldViews` keeps each gold side and hands out a *snapshot* of it
(:meth:`scorer.subtheory.Universe.snapshot`): the memo and the spent budget of
its universe as they were right after the gold side was computed, so every
scoring sees exactly what a fresh computation would have given it, budget
exhaustion included.

Memory stays bounded: gold sides are kept while their trace edges (the full
gold trace and every admissible class) number at most ``max_edges`` in all;
beyond that a gold side is computed each time, as without the memo.
"""

from __future__ import annotations

from dataclasses import replace

from symbolic.scenario.model import Scenario

from .budget import DEFAULT_CASE_BUDGET, BudgetExceeded
from .metrics.context import GoldView, gold_view
from .ncr import DEFAULT_MAX_CANDIDATES, DEFAULT_MAX_SIZE

__all__ = ["DEFAULT_MAX_EDGES", "GoldViews"]

#: Trace edges the kept gold sides may hold in all (a few hundred bytes each).
DEFAULT_MAX_EDGES = 250_000


class GoldViews:
    """Gold sides of scenarios, each computed once per set of scoring options.

    Parameters
    ----------
    max_edges : int
        Bound on the trace edges held by the kept gold sides.

    Examples
    --------
    >>> from scorer.metrics._examples import penalty_scenario
    >>> views = GoldViews()
    >>> first, again = views.view(penalty_scenario()), views.view(penalty_scenario())
    >>> first.classes is again.classes, first.universe is again.universe, views.computed
    (True, False, 1)
    """

    def __init__(self, max_edges: int = DEFAULT_MAX_EDGES):
        if max_edges < 0:
            raise ValueError(f"max_edges must be at least 0, got {max_edges}")
        self.max_edges = max_edges
        self.held = 0
        self.computed = 0
        self._kept: dict[tuple, tuple[Scenario, GoldView | BudgetExceeded]] = {}

    def view(self, scenario: Scenario, *, ncr: bool = True, ncr_max_size: int = DEFAULT_MAX_SIZE,
             ncr_max_candidates: int = DEFAULT_MAX_CANDIDATES,
             budget: int | None = DEFAULT_CASE_BUDGET) -> GoldView:
        """The gold side of ``scenario`` (:func:`~scorer.metrics.context.gold_view`), a fresh snapshot each call.

        Parameters
        ----------
        scenario : Scenario
        ncr, ncr_max_size, ncr_max_candidates, budget
            As for :func:`~scorer.metrics.context.gold_view`.

        Returns
        -------
        GoldView

        Raises
        ------
        BudgetExceeded
            As :func:`~scorer.metrics.context.gold_view` does (kept, and raised again on later calls).
        ScoringError
            If the gold objects cannot be evaluated (not kept).
        """
        key = (scenario.id, ncr, ncr_max_size, ncr_max_candidates, budget)
        kept = self._kept.get(key)
        if kept is None or kept[0] is not scenario:
            self.computed += 1
            try:
                found: GoldView | BudgetExceeded = gold_view(
                    scenario, ncr=ncr, ncr_max_size=ncr_max_size, ncr_max_candidates=ncr_max_candidates,
                    budget=budget)
            except BudgetExceeded as exc:
                found = exc
            kept = (scenario, found)
            self._keep(key, kept)
        found = kept[1]
        if isinstance(found, BudgetExceeded):
            raise BudgetExceeded(str(found))
        return replace(found, universe=found.universe.snapshot())

    def _keep(self, key: tuple, kept: tuple[Scenario, GoldView | BudgetExceeded]) -> None:
        old = self._kept.pop(key, None)
        if old is not None:
            self.held -= _size(old[1])
        size = _size(kept[1])
        if self.held + size <= self.max_edges:
            self._kept[key] = kept
            self.held += size


def _size(found: GoldView | BudgetExceeded) -> int:
    """The trace edges a gold side holds: its full trace and every admissible class."""
    if isinstance(found, BudgetExceeded):
        return 0
    return len(found.classes.full) + sum(len(edges) for _, edges in found.classes.classes)
