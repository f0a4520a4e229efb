"""Normative counterfactual robustness (NCR, Algorithm 5).

The edit set ``Delta_N`` holds one unit-cost deletion per grounded normative
object of the gold analysis: facts, rules, exceptions, priority edges and
explicit attack edges (an ``attacks`` entry or one row of an ``attack_table``,
which is the same edge).  Objects are counted after TNF normalization: a rule
restated under a second id (a proof alias) is one norm and one edit.  Edit
sets are searched by non-decreasing cost and, at equal cost, in canonical
order (category in that order, then id); the first set whose deletion changes
the gold status is the *witness*, and its size the NCR cost.  When nothing
flips within the caps (20 objects, 50,000 edit sets, 5,000 engine
evaluations by default) the cost is right-censored at ``|Delta_N| + 1``.

Deleting a rule also removes the priorities and attacks that mention it
(the parser-validator would drop them as dangling); such cascaded removals
cost nothing extra.  Objects outside the target's dependency cone can never
flip the status and are skipped (:class:`scorer.subtheory.Universe`); when
the theory holds no argument for the target or its complement at all,
deletions cannot create one and the search stops at once, censored.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import Iterable

from symbolic.scenario.labels import Status
from symbolic.scenario.literals import complement
from symbolic.scenario.model import Analysis

from .budget import BudgetExceeded
from .subtheory import Universe

__all__ = [
    "DEFAULT_MAX_CANDIDATES",
    "DEFAULT_MAX_EVALUATIONS",
    "DEFAULT_MAX_SIZE",
    "NCRWitness",
    "consistent_with_witness",
    "ncr_witness",
]

DEFAULT_MAX_SIZE = 20
DEFAULT_MAX_CANDIDATES = 50_000
DEFAULT_MAX_EVALUATIONS = 5_000


@dataclass(frozen=True, slots=True)
class NCRWitness:
    """The result of the NCR search on one gold analysis (Algorithm 5).

    Attributes
    ----------
    cost : int
        Size of the smallest flipping edit set; ``edit_set_size + 1`` when censored;
        the lower bound when stopped.
    censored : bool
        The search was exhaustive (or no argument exists for the target or its
        complement) and no deletion flips the status.
    witness : tuple of str
        Handles of the first flipping edit set in canonical order (empty when censored).
    alternatives : tuple of tuple of str
        Every flipping edit set of the same cost (the witness first), at most ``max_alternatives``.
    status : Status
        The status before editing.
    counterfactual : Status or None
        The status after deleting the witness.
    edit_set_size : int
        ``|Delta_N|``: the number of unit edits (grounded objects).
    searched : int
        Edit sets examined.
    evaluations : int
        Engine evaluations actually run (the rest were STATUS-signature hits).
    cap_reached : bool
        The search stopped at ``max_size``, ``max_candidates``, ``max_evaluations``
        or the scoring budget before exhausting ``Delta_N``; ``cost`` is then a
        lower bound, not the minimum.
    lower_bound : int or None
        When stopped: every edit smaller than this was tried and none flips.
    stopped_by : str or None
        When stopped: ``max_size``, ``max_candidates``, ``max_evaluations`` or ``budget``.
    upper_bound : tuple of str or None
        When stopped by a cap: a flipping edit the engine verified (a greedy
        hitting set of the supporting arguments), so the minimum lies between
        ``lower_bound`` and its size; ``None`` when none was found.
    """

    cost: int
    censored: bool
    witness: tuple[str, ...]
    alternatives: tuple[tuple[str, ...], ...]
    status: Status
    counterfactual: Status | None
    edit_set_size: int
    searched: int
    evaluations: int
    cap_reached: bool
    lower_bound: int | None = None
    stopped_by: str | None = None
    upper_bound: tuple[str, ...] | None = None

    @property
    def stopped(self) -> bool:
        """A cap or the budget stopped the search: no minimum is known."""
        return self.lower_bound is not None

    def to_dict(self) -> dict:
        """JSON-ready dict."""
        return {
            "cost": self.cost, "censored": self.censored, "witness": list(self.witness),
            "alternatives": [list(a) for a in self.alternatives], "status": self.status.value,
            "counterfactual": None if self.counterfactual is None else self.counterfactual.value,
            "edit_set_size": self.edit_set_size, "searched": self.searched,
            "evaluations": self.evaluations, "cap_reached": self.cap_reached,
            "lower_bound": self.lower_bound, "stopped_by": self.stopped_by,
            "upper_bound": None if self.upper_bound is None else list(self.upper_bound),
        }


def ncr_witness(evidence_ids: Iterable[str], analysis: Analysis, target: str, *,
                max_size: int = DEFAULT_MAX_SIZE, max_candidates: int = DEFAULT_MAX_CANDIDATES,
                max_evaluations: int = DEFAULT_MAX_EVALUATIONS, max_alternatives: int = 16,
                universe: Universe | None = None) -> NCRWitness:
    """Smallest deletion of gold normative objects that flips the gold status (Algorithm 5).

    Parameters
    ----------
    evidence_ids : iterable of str
        Normalized ids of the evidence package.
    analysis : Analysis
        The gold facts, rules, attacks and priorities.
    target : str
        The target literal.
    max_size : int
        Largest edit set tried (default 20 objects).
    max_candidates : int
        Largest number of edit sets examined.
    max_evaluations : int
        Largest number of engine evaluations (STATUS-signature hits are free).
    max_alternatives : int
        How many equal-cost witnesses to keep.
    universe : Universe, optional
        A universe already built over the same objects (its memo is reused).

    Returns
    -------
    NCRWitness

    Raises
    ------
    ValueError
        If a cap is not positive, or ``target`` is not a literal.

    Examples
    --------
    The penalty example (docs/semantics.md section 8): NCR is 1, and deleting
    ``r3 > r2`` is one of the unit edits that flip ``accepted``.

    >>> from symbolic.scenario.examples import PENALTY_FRAGMENTS, penalty_analysis
    >>> e = [f.id for f in PENALTY_FRAGMENTS]
    >>> w = ncr_witness(e, penalty_analysis(), "Penalty(x)")
    >>> w.cost, w.witness, ("priority:r3>r2",) in w.alternatives
    (1, ('fact:f3',), True)
    """
    if min(max_size, max_candidates, max_evaluations) < 1:
        raise ValueError(f"caps must be positive, got max_size={max_size}, "
                         f"max_candidates={max_candidates}, max_evaluations={max_evaluations}")
    u = universe if universe is not None else Universe(evidence_ids, analysis, target)
    full = u.handles
    before = u.evaluations
    status = u.status(full)
    n = len(full)
    censored_cost = n + 1
    candidates = tuple(h for h in full if h in u.relevant)

    def censored(searched: int) -> NCRWitness:
        return NCRWitness(censored_cost, True, (), (), status, None, n, searched,
                          u.evaluations - before, False)

    def stopped(searched: int, size: int, why: str) -> NCRWitness:
        upper = _upper_bound(u, status, full, candidates) if why != "budget" else None
        if upper is not None and len(upper) == size:  # no smaller edit flips and this one does: exact
            after = u.status(frozenset(full).difference(upper))
            return NCRWitness(size, False, upper, (upper,), status, after, n, searched,
                              u.evaluations - before, False)
        return NCRWitness(size, False, (), (), status, None, n, searched, u.evaluations - before, True,
                          lower_bound=size, stopped_by=why, upper_bound=upper)

    try:
        full_eval_args = u.evaluate(full).arguments  # memoized: shared with the status above
    except BudgetExceeded:
        return stopped(0, 1, "budget")
    if not any(a.conclusion in (u.target, complement(u.target)) for a in full_eval_args):
        return censored(0)

    searched = 0
    full_set = frozenset(full)
    for size in range(1, len(candidates) + 1):
        if size > max_size:
            return stopped(searched, size, "max_size")
        found: list[tuple[str, ...]] = []
        flipped_to: Status | None = None
        for combo in combinations(candidates, size):
            if searched >= max_candidates or u.evaluations - before >= max_evaluations:
                if found:
                    break
                return stopped(searched, size, "max_candidates" if searched >= max_candidates
                               else "max_evaluations")
            searched += 1
            try:
                after = u.status(full_set.difference(combo))
            except BudgetExceeded:
                if found:
                    break
                return stopped(searched, size, "budget")
            if after is not status:
                if not found:
                    flipped_to = after
                found.append(combo)
                if len(found) >= max_alternatives:
                    break
        if found:
            return NCRWitness(size, False, found[0], tuple(found), status, flipped_to, n,
                              searched, u.evaluations - before, False)
    return censored(searched)


def _upper_bound(u: Universe, status: Status, full: tuple[str, ...], candidates: tuple[str, ...]
                 ) -> tuple[str, ...] | None:
    """A flipping edit, verified by the engine: a greedy hitting set of the objects of the
    arguments that support the standing side (the target when it is accepted or both, its
    complement when rejected).  ``None`` if that edit does not flip the status."""
    side = {Status.ACCEPTED: u.target, Status.BOTH: u.target,
            Status.REJECTED: complement(u.target)}.get(status)
    if side is None:
        return None
    allowed = set(candidates)
    try:
        ev = u.evaluate(full)
        routes = []
        for a in ev.arguments:
            if a.conclusion != side or a.defeater:
                continue
            route = {u.rule_handles[r] for r in a.rules if r in u.rule_handles}
            route |= {u.fact_handles[f] for f in a.premises if f in u.fact_handles}
            route &= allowed
            if not route:
                return None  # an argument no deletion in the cone removes
            routes.append(frozenset(route))
        chosen: list[str] = []
        order = {h: i for i, h in enumerate(full)}
        while routes:
            counts: dict[str, int] = {}
            for route in routes:
                for h in route:
                    counts[h] = counts.get(h, 0) + 1
            best = min(counts, key=lambda h: (-counts[h], order[h]))
            chosen.append(best)
            routes = [r for r in routes if best not in r]
        edit = tuple(sorted(chosen, key=order.__getitem__))
        if edit and u.status(frozenset(full).difference(edit)) is not status:
            return edit
    except BudgetExceeded:
        return None
    return None


def consistent_with_witness(witness: NCRWitness, gold: Universe, output: Universe) -> tuple[bool | None, str]:
    """Whether an assistant's objects follow the gold counterfactual.

    The witness objects are mapped to the output's objects by content key
    (:attr:`scorer.subtheory.Universe.keys`); the output is consistent iff it
    holds every one of them and deleting them moves its recomputed status to
    the gold counterfactual status.

    Parameters
    ----------
    witness : NCRWitness
        From :func:`ncr_witness` on the gold objects.
    gold : Universe
        The gold universe the witness was found in.
    output : Universe
        The assistant's objects over the same evidence package and target.

    Returns
    -------
    (bool or None, str)
        ``None`` when the witness is censored (nothing to follow), with an explanation.
    """
    if witness.censored:
        return None, "censored witness: no gold edit flips the status, nothing to follow"
    if witness.stopped:
        return None, f"search stopped ({witness.stopped_by}): no witness to follow"
    gold_keys = gold.keys
    by_key: dict[str, list[str]] = {}
    for handle, key in output.keys.items():
        by_key.setdefault(key, []).append(handle)
    mapped: list[str] = []
    for handle in witness.witness:
        hits = by_key.get(gold_keys[handle])
        if not hits:
            return False, f"the assistant's objects lack {handle} (the witness), so its answer cannot depend on it"
        mapped.extend(hits)
    after = output.status(frozenset(output.handles).difference(mapped))
    if after is witness.counterfactual:
        return True, (f"deleting {', '.join(mapped)} from the assistant's objects gives "
                      f"{after.value}, as in the gold counterfactual")
    return False, (f"deleting {', '.join(mapped)} from the assistant's objects gives {after.value}, "
                   f"the gold counterfactual is {witness.counterfactual.value}")
