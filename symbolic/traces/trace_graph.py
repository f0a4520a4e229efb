"""A trace graph (:func:`symbolic.traces.trace.build_trace`) and the typed
:class:`~symbolic.scenario.model.Trace` of docs/semantics.md section 12, each into the other.

networkx is imported only when a graph is built.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from symbolic.scenario.labels import AttackKind
from symbolic.scenario.model import EdgeType, NodeType, Trace, TraceEdge, TraceNode
from symbolic.traces.naming import edge_id, trace_sort_key

if TYPE_CHECKING:
    import networkx as nx

__all__ = ["graph_to_trace", "trace_to_graph"]


def graph_to_trace(graph: nx.MultiDiGraph) -> Trace:
    """Project a trace graph onto a :class:`~symbolic.scenario.model.Trace` in canonical order,
    keeping only the typed content (author names, engine ids and rounds are dropped).

    Raises
    ------
    KeyError
        If a node or edge lacks its ``type`` attribute.

    Examples
    --------
    >>> import networkx as nx
    >>> g = nx.MultiDiGraph()
    >>> g.add_node("fact:a", type=NodeType.FACT, label="a")
    >>> graph_to_trace(g).nodes[0].id
    'fact:a'
    """
    node, edge = TraceNode.model_construct, TraceEdge.model_construct
    nodes = [node(id=n, type=NodeType(d["type"]), label=d.get("label", "")) for n, d in graph.nodes(data=True)]
    edges = []
    for source, target, data in graph.edges(data=True):
        kind = data.get("kind")
        edges.append(edge(source=source, target=target, type=EdgeType(data["type"]),
                          kind=AttackKind(kind) if kind is not None else None, lic=data.get("lic"),
                          state=data.get("state"), attack=data.get("attack")))
    edges.sort(key=trace_sort_key)
    return Trace.model_construct(nodes=tuple(sorted(nodes, key=lambda n: n.id)), edges=tuple(edges))


def trace_to_graph(trace: Trace) -> nx.MultiDiGraph:
    """Load a :class:`~symbolic.scenario.model.Trace` into a multigraph keyed by edge id (an edge whose
    endpoint is not a declared node creates a bare node: :func:`symbolic.traces.tnf.check_trace`).

    Examples
    --------
    >>> t = Trace(nodes=[TraceNode(id="evidence:E-01", type="evidence", label="E-01"),
    ...                  TraceNode(id="fact:a", type="fact", label="a")],
    ...           edges=[TraceEdge(source="evidence:E-01", target="fact:a", type="grounding")])
    >>> list(trace_to_graph(t).edges(keys=True))
    [('evidence:E-01', 'fact:a', 'grounding:evidence:E-01→fact:a')]
    """
    import networkx as nx

    graph = nx.MultiDiGraph()
    for node in trace.nodes:
        graph.add_node(node.id, type=node.type, label=node.label)
    for edge in trace.edges:
        graph.add_edge(edge.source, edge.target, key=edge_id(edge),
                       **edge.model_dump(exclude={"source", "target"}, exclude_none=True))
    return graph
