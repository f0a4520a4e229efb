"""The plain-Python graph algorithms of symbolic.engine.priorities against networkx on random graphs."""

from __future__ import annotations

import networkx as nx
from hypothesis import given, settings
from hypothesis import strategies as st

from symbolic.engine.priorities import adjacency, cyclic_components, descendants, strongly_connected_components
from symbolic.engine.priorities import priority_order_from_pairs

NODES = [f"r{i}" for i in range(12)]
graphs = st.lists(st.tuples(st.sampled_from(NODES), st.sampled_from(NODES)), max_size=40)


def _frozen(components):
    return sorted(tuple(sorted(c)) for c in components)


@settings(max_examples=400, derandomize=True, deadline=None)
@given(graphs)
def test_components_and_descendants_match_networkx(edges):
    succ = adjacency(edges)
    graph = nx.DiGraph()
    graph.add_nodes_from(succ)
    graph.add_edges_from(edges)
    components = strongly_connected_components(succ)
    assert _frozen(components) == _frozen(nx.strongly_connected_components(graph))
    position = {n: i for i, c in enumerate(components) for n in c}
    assert all(position[a] >= position[b] for a, b in edges)  # reverse topological order
    expected_cyclic = [c for c in nx.strongly_connected_components(graph)
                       if len(c) > 1 or any(graph.has_edge(n, n) for n in c)]
    assert _frozen(cyclic_components(succ)) == _frozen(expected_cyclic)
    acyclic = [(a, b) for a, b in edges if a < b]  # r1 < r10 < r2 ...: a strict order, so a DAG
    dag = adjacency(acyclic)
    below = descendants(dag, strongly_connected_components(dag))
    reference = nx.DiGraph(acyclic)
    assert below == {n: nx.descendants(reference, n) for n in reference.nodes}


def _networkx_priority_order(pairs):
    """Definition 3 computed with networkx, as the engine did before symbolic.engine.priorities."""
    base = frozenset(pairs)
    graph = nx.DiGraph(sorted(base))
    cycles = sorted(tuple(sorted(c)) for c in nx.strongly_connected_components(graph)
                    if len(c) > 1 or any(graph.has_edge(n, n) for n in c))
    unresolved = frozenset(r for c in cycles for r in c)
    graph.remove_nodes_from(unresolved)
    closure = frozenset((n, w) for n in graph.nodes for w in nx.descendants(graph, n))
    return tuple(cycles), unresolved, closure


@settings(max_examples=400, derandomize=True, deadline=None)
@given(graphs)
def test_priority_order_matches_networkx(pairs):
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        order = priority_order_from_pairs(pairs)
    assert (order.cycles, order.unresolved, order.closure) == _networkx_priority_order(pairs)
    assert order.base == frozenset(pairs)
