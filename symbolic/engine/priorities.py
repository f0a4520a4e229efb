"""The priority order ``P+`` over rules (Definition 3, docs/semantics.md section 5).

The strongly connected components of the grounded base ``P0`` that contain a cycle (size > 1, or
a self-loop) are unresolved: their rules lose every comparison, also with rules outside the cycle.
``P+`` is the transitive closure of the rest.  The graph algorithms are plain Python over adjacency
dicts (the import of networkx would be a third of ``paratrace status``'s start-up); they are tested
against networkx in ``tests/symbolic/test_digraph.py``.
"""

from __future__ import annotations

import warnings
from typing import Hashable, Iterable, Mapping, Sequence

from symbolic.engine.grounding import Theory
from symbolic.engine.results import PriorityOrder
from symbolic.errors import PriorityCycleWarning

__all__ = ["adjacency", "cyclic_components", "descendants", "priority_order", "priority_order_from_pairs",
           "strongly_connected_components"]


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


def priority_order_from_pairs(pairs: Iterable[tuple[str, str]]) -> PriorityOrder:
    """Compute ``P+`` from the ``(stronger, weaker)`` pairs of a base (Definition 3), as
    :func:`priority_order` does from a theory's priorities.

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
    """Compute ``P+`` from the priorities of a grounded theory (Definition 3).

    Parameters
    ----------
    theory : Theory

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
    return _order([p.stronger for p in theory.priorities], [p.weaker for p in theory.priorities], 3)


# -- graph algorithms on adjacency dicts ---------------------------------------------------------

def adjacency(edges: Iterable[tuple[Hashable, Hashable]]) -> dict[Hashable, list[Hashable]]:
    """Successor lists of ``edges`` in first-seen order; every endpoint is a key (duplicates kept once).

    Examples
    --------
    >>> adjacency([("a", "b"), ("a", "b"), ("b", "c")])
    {'a': ['b'], 'b': ['c'], 'c': []}
    """
    succ: dict[Hashable, list[Hashable]] = {}
    heads = []
    for a, b in edges if isinstance(edges, (set, frozenset)) else dict.fromkeys(edges):
        out = succ.get(a)
        if out is None:
            succ[a] = [b]
        else:
            out.append(b)
        heads.append(b)
    for b in heads:
        if b not in succ:
            succ[b] = []
    return succ


def strongly_connected_components(succ: Mapping[Hashable, Sequence[Hashable]]) -> list[set]:
    """The strongly connected components of the graph ``succ`` (Tarjan's algorithm, iterative).

    Components come in reverse topological order: each after every component it reaches.

    Examples
    --------
    >>> [sorted(c) for c in strongly_connected_components({"a": ["b"], "b": ["a", "c"], "c": []})]
    [['c'], ['a', 'b']]
    """
    index: dict = {}
    low: dict = {}
    on_stack: set = set()
    stack: list = []
    components: list[set] = []
    counter = 0
    for root in succ:
        if root in index:
            continue
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        work = [(root, iter(succ[root]))]
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(succ.get(child, ()))))
                    break
                if child in on_stack and index[child] < low[node]:
                    low[node] = index[child]
            else:
                work.pop()
                if work and low[node] < low[work[-1][0]]:
                    low[work[-1][0]] = low[node]
                if low[node] == index[node]:
                    component = set()
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.add(member)
                        if member == node:
                            break
                    components.append(component)
    return components


def cyclic_components(succ: Mapping[Hashable, Sequence[Hashable]], components: Sequence[set] | None = None) -> list[set]:
    """The strongly connected components that contain a cycle: more than one node, or a self-loop.

    ``components`` are those of ``succ`` when already computed.

    Examples
    --------
    >>> [sorted(c) for c in cyclic_components({"a": ["a"], "b": ["c"], "c": ["b"], "d": []})]
    [['a'], ['b', 'c']]
    """
    if components is None:
        components = strongly_connected_components(succ)
    return [c for c in components if len(c) > 1 or any(n in succ.get(n, ()) for n in c)]


def descendants(succ: Mapping[Hashable, Sequence[Hashable]], order: Sequence[set]) -> dict[Hashable, set]:
    """Every node's descendants in an acyclic graph ``succ``, given its components ``order``.

    ``order`` is :func:`strongly_connected_components` of ``succ`` (each a single
    node): reverse topological, so a node's successors are done before it.

    Examples
    --------
    >>> g = {"a": ["b"], "b": ["c"], "c": []}
    >>> {k: sorted(v) for k, v in descendants(g, strongly_connected_components(g)).items()}
    {'c': [], 'b': ['c'], 'a': ['b', 'c']}
    """
    below: dict[Hashable, set] = {}
    for component in order:
        (node,) = component
        reach = set(succ[node])
        for child in succ[node]:
            reach |= below[child]
        below[node] = reach
    return below
