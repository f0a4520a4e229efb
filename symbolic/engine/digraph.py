"""Small directed-graph algorithms on adjacency dicts, for the engine's start-up path.

The priority order (Definition 3, docs/semantics.md section 5) and the trace's
rule names need strongly connected components and reachability on graphs of
rule ids; these plain-Python versions spare the import of networkx (about a
third of ``paratrace status``'s start-up) and are tested against it on random
graphs (``tests/symbolic/test_digraph.py``).
"""

from __future__ import annotations

from typing import Hashable, Iterable, Mapping, Sequence

__all__ = ["adjacency", "cyclic_components", "descendants", "strongly_connected_components"]


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
