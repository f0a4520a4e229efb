"""The priority order ``P+`` over rules (Definition 3, docs/semantics.md section 5).

The grounded priority base ``P0`` is a set of ``(stronger, weaker)`` pairs.
Its strongly connected components that contain a cycle (size > 1, or a
self-loop) are *unresolved*: their rules are flagged ``unresolved_priority``
and lose every comparison, including those with rules outside the cycle.
``P+`` is the transitive closure of what remains, a strict partial order.

A large base that is already a shallow, acyclic, transitive order (the usual
shape: a layer of stronger rules over a layer of weaker ones) is recognized
with numpy over integer rule codes; any other base takes the general path
(Tarjan's components and descendant sets, :mod:`symbolic.engine.digraph`).
"""

from __future__ import annotations

import warnings
from itertools import chain
from typing import Iterable, NamedTuple, Sequence

import numpy as np

from symbolic.engine.digraph import adjacency, cyclic_components, descendants, strongly_connected_components
from symbolic.errors import PriorityCycleWarning
from symbolic.engine.grounding import Theory
from symbolic.scenario.priority_list import PriorityList
from symbolic.engine.results import PriorityOrder
from symbolic.support.sorted_keys import unique

__all__ = ["Layered", "priority_order", "priority_order_from_pairs", "priority_parts", "stronger_map"]

_FAST_FROM = 256  # pairs; below, the general path is cheaper than numpy's set-up
_MAX_DEPTH = 16  # layers peeled with numpy before the general path takes over


def _codes(strongs: Sequence[str], weaks: Sequence[str]) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """Integer codes of both columns, names numbered in first-seen order (``strongs`` first)."""
    names = list(dict.fromkeys(chain(strongs, weaks)))
    code = dict(zip(names, range(len(names))))
    return (np.fromiter(map(code.__getitem__, strongs), dtype=np.int64, count=len(strongs)),
            np.fromiter(map(code.__getitem__, weaks), dtype=np.int64, count=len(weaks)), names)


def _layered(strong: np.ndarray, weak: np.ndarray, n: int) -> bool:
    """Whether the graph ``strong -> weak`` on ``n`` nodes is acyclic, at most :data:`_MAX_DEPTH`
    layers deep, and transitive (every two-step path has its own edge).

    Edges are distinct.  Kahn's peeling, a layer per numpy pass: a node is peeled once every
    edge into it comes from a peeled node; a cycle (a self-loop included) is never peeled.
    """
    order = np.argsort(strong, kind="stable")
    src, dst = strong[order], weak[order]
    indptr = np.searchsorted(src, np.arange(n + 1))
    indeg = np.bincount(dst, minlength=n)
    frontier = np.flatnonzero(indeg == 0)
    peeled = len(frontier)
    for _ in range(_MAX_DEPTH):
        if peeled == n or not len(frontier):
            break
        starts, stops = indptr[frontier], indptr[frontier + 1]
        sizes = stops - starts
        if not sizes.sum():
            break
        edges = np.repeat(stops - np.cumsum(sizes), sizes) + np.arange(int(sizes.sum()))
        hit = dst[edges]
        indeg -= np.bincount(hit, minlength=n)
        touched = unique(hit)
        frontier = touched[indeg[touched] == 0]
        peeled += len(frontier)
    if peeled != n:
        return False
    # transitive: for each edge (a, b) and edge (b, c), (a, c) is an edge
    out = indptr[1:] - indptr[:-1]
    fan = out[dst]
    total = int(fan.sum())
    if not total:
        return True
    if total > 16 * len(dst) + 65536:  # too many two-step paths to check: the general path
        return False
    first = np.repeat(src, fan)
    starts = indptr[dst]
    second = dst[np.repeat(starts - np.cumsum(fan) + fan, fan) + np.arange(total)]
    keys = src * n + dst  # sorted: src ascending, then dst in input order; sort to search
    keys.sort()
    wanted = first * n + second
    found = np.searchsorted(keys, wanted)
    found[found == len(keys)] = 0
    return bool((keys[found] == wanted).all())


def stronger_map(names: Sequence[str], strong: np.ndarray, weak: np.ndarray) -> dict[str, set[str]]:
    """For each weaker rule, the set of rules stronger than it: the pairs
    ``names[strong[i]] >+ names[weak[i]]`` (:class:`Layered`) grouped by weaker rule.

    Examples
    --------
    >>> import numpy as np
    >>> grouped = stronger_map(["r1", "r2", "r3"], np.array([0, 1]), np.array([2, 2]))
    >>> {weak: sorted(strong) for weak, strong in grouped.items()}
    {'r3': ['r1', 'r2']}
    """
    if not len(weak):
        return {}
    order = np.argsort(weak, kind="stable")
    w = weak[order]
    strong_names = np.array(names, dtype=object)[strong[order]].tolist()
    cuts = (np.flatnonzero(w[1:] != w[:-1]) + 1).tolist()
    heads = np.array(names, dtype=object)[w[[0] + cuts]].tolist()
    return {head: set(strong_names[a:b]) for head, a, b in zip(heads, [0] + cuts, cuts + [len(w)])}


class Layered(NamedTuple):
    """``P+`` of a layered base (module docstring) in the forms the engine reads.

    Attributes
    ----------
    names : list of str
        The rules, by integer code.
    strong, weak : numpy.ndarray of int64
        The pairs ``names[strong[i]] >+ names[weak[i]]``, each once.
    pairs : list of (str, str)
        The same pairs, ``pairs[i]`` the very tuple held by ``P+`` (``closure``).
    """

    names: list[str]
    strong: np.ndarray
    weak: np.ndarray
    pairs: list[tuple[str, str]]


def _order(strongs: Sequence[str], weaks: Sequence[str], stacklevel: int):
    """``P+`` of the base ``zip(strongs, weaks)`` (Definition 3), and, on the layered path,
    its :class:`Layered` forms (else ``None``)."""
    pairs = list(zip(strongs, weaks))
    base = frozenset(pairs)
    if len(strongs) >= _FAST_FROM:
        s, w, names = _codes(strongs, weaks)
        if len(base) < len(strongs):  # repeated pairs: keep one of each
            keys, first = np.unique(s * len(names) + w, return_index=True)
            s, w, pairs = keys // len(names), keys % len(names), [pairs[i] for i in first.tolist()]
        if _layered(s, w, len(names)):
            return PriorityOrder(base=base, cycles=(), unresolved=frozenset(), closure=base), \
                Layered(names, s, w, pairs)
    succ = adjacency(base)
    components = strongly_connected_components(succ)
    cyclic = cyclic_components(succ, components)
    cycles = sorted(tuple(sorted(component)) for component in cyclic)
    unresolved = frozenset(rule for cycle in cycles for rule in cycle)
    if cycles:
        shown = "; ".join(" , ".join(cycle) for cycle in cycles)
        warnings.warn(
            f"priority cycle among rules {shown}: these rules lose all their comparisons",
            PriorityCycleWarning,
            stacklevel=stacklevel,
        )
    if unresolved:  # they lose every comparison: out of the graph, with their edges
        succ = {a: [b for b in bs if b not in unresolved] for a, bs in succ.items() if a not in unresolved}
        components = [c for c in components if not c & unresolved]  # still reverse topological
    below = descendants(succ, components)
    if not unresolved and all(len(below[node]) == len(out) for node, out in succ.items()):
        closure = base  # already transitive: nothing lies below a successor
    else:
        closure = frozenset((node, weaker) for node, reach in below.items() for weaker in reach)
    return PriorityOrder(base=base, cycles=tuple(cycles), unresolved=unresolved, closure=closure), None


def _columns(priorities) -> tuple[Sequence[str], Sequence[str]]:
    """The stronger and the weaker rule of each priority (a :class:`~symbolic.scenario.priority_list.PriorityList`'s
    columns as they are, without an object per priority)."""
    if isinstance(priorities, PriorityList):
        return priorities.stronger, priorities.weaker
    return [p.stronger for p in priorities], [p.weaker for p in priorities]


def priority_order_from_pairs(pairs: Iterable[tuple[str, str]]) -> PriorityOrder:
    """Compute ``P+`` from ``(stronger, weaker)`` pairs (Definition 3).

    Parameters
    ----------
    pairs : iterable of (str, str)
        The priority base ``P0``; duplicates are ignored.

    Returns
    -------
    PriorityOrder
        The base, the unresolved cycles (each sorted, in sorted order), the
        unresolved rules and the transitive closure of the acyclic rest.

    Warns
    -----
    PriorityCycleWarning
        When the base contains a cycle, naming its rules.

    Examples
    --------
    >>> order = priority_order_from_pairs([("r1", "r2"), ("r2", "r3")])
    >>> order.stronger("r1", "r3"), order.stronger("r3", "r1")
    (True, False)
    >>> import warnings
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")
    ...     cyc = priority_order_from_pairs([("r1", "r2"), ("r2", "r1"), ("r2", "r9")])
    >>> cyc.cycles, sorted(cyc.unresolved), sorted(cyc.closure)
    ((('r1', 'r2'),), ['r1', 'r2'], [])
    """
    pairs = [(str(a), str(b)) for a, b in pairs]
    return _order([a for a, _ in pairs], [b for _, b in pairs], 4)[0]


def priority_order(theory: Theory) -> PriorityOrder:
    """Compute ``P+`` for a grounded theory (Definition 3).

    Ungrounded priorities were already dropped by :func:`symbolic.engine.grounding.ground`;
    only ``theory.priorities`` is used.

    Parameters
    ----------
    theory : Theory
        The grounded theory.

    Returns
    -------
    PriorityOrder

    Warns
    -----
    PriorityCycleWarning
        When the grounded base contains a cycle (all its rules become unresolved).

    Examples
    --------
    >>> from symbolic.engine.grounding import Theory
    >>> from symbolic.scenario.model import Priority
    >>> t = Theory(frozenset({"E-01"}), priorities=(
    ...     Priority(stronger="r2", weaker="r1", basis="exception", evidence=["E-01"]),
    ...     Priority(stronger="r3", weaker="r2", basis="exception", evidence=["E-01"])))
    >>> sorted(priority_order(t).closure)
    [('r2', 'r1'), ('r3', 'r1'), ('r3', 'r2')]
    """
    return _order(*_columns(theory.priorities), 3)[0]


def priority_parts(theory: Theory) -> tuple[PriorityOrder, Layered | None]:
    """:func:`priority_order`, and for a layered base (see the module docstring) ``P+`` as
    integer columns (:class:`Layered`; ``None`` otherwise), computed on the way.

    Parameters
    ----------
    theory : Theory

    Returns
    -------
    (PriorityOrder, Layered or None)

    Warns
    -----
    PriorityCycleWarning
        When the grounded base contains a cycle.

    Examples
    --------
    >>> from symbolic.engine.grounding import Theory
    >>> from symbolic.scenario.model import Priority
    >>> t = Theory(frozenset({"E-01"}), priorities=(
    ...     Priority(stronger="r2", weaker="r1", basis="exception", evidence=["E-01"]),))
    >>> order, layered = priority_parts(t)
    >>> sorted(order.closure), layered
    ([('r2', 'r1')], None)
    """
    return _order(*_columns(theory.priorities), 3)
