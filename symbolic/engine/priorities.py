"""The priority order ``P+`` over rules (Definition 3, docs/semantics.md section 5).

The grounded priority base ``P0`` is a set of ``(stronger, weaker)`` pairs.
Its strongly connected components that contain a cycle (size > 1, or a
self-loop) are *unresolved*: their rules are flagged ``unresolved_priority``
and lose every comparison, including those with rules outside the cycle.
``P+`` is the transitive closure of what remains, a strict partial order
(Tarjan's components and descendant sets, :mod:`symbolic.engine.digraph`).
"""

from __future__ import annotations

import warnings
from typing import Iterable, Sequence


from symbolic.engine.digraph import adjacency, cyclic_components, descendants, strongly_connected_components
from symbolic.errors import PriorityCycleWarning
from symbolic.engine.grounding import Theory
from symbolic.engine.results import PriorityOrder

__all__ = ["priority_order", "priority_order_from_pairs"]

def _order(strongs: Sequence[str], weaks: Sequence[str], stacklevel: int) -> PriorityOrder:
    """``P+`` of the base ``zip(strongs, weaks)`` (Definition 3)."""
    base = frozenset(zip(strongs, weaks))
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
    return PriorityOrder(base=base, cycles=tuple(cycles), unresolved=unresolved, closure=closure)


def _columns(priorities) -> tuple[Sequence[str], Sequence[str]]:
    """The stronger and the weaker rule of each priority."""
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
    return _order([a for a, _ in pairs], [b for _, b in pairs], 4)


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
    return _order(*_columns(theory.priorities), 3)
