"""Graphviz DOT rendering of a trace (no graphviz dependency).

Render with ``dot -Tsvg trace.dot > trace.svg``.  Node shapes follow the node
type; attack edges are red and labelled with their kind, a *defeated* attack
is dashed; a defeat edge (priority -> the attack it neutralizes, drawn to the
attacked argument) is blue and dotted.  Output is deterministic: nodes sorted
by id, edges by :func:`symbolic.traces.naming.edge_id`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from symbolic.scenario.model import EdgeType, NodeType, Trace
from symbolic.traces.naming import edge_id, trace_sort_key
from symbolic.traces.trace_graph import graph_to_trace

if TYPE_CHECKING:  # a graph is read, never built, here: no import at start-up
    import networkx as nx

__all__ = ["dot_escape", "to_dot"]

_NODE_STYLE = {
    NodeType.QUERY: 'shape=note, style=filled, fillcolor="#fff7d6"',
    NodeType.EVIDENCE: 'shape=folder, style=filled, fillcolor="#eeeeee"',
    NodeType.FACT: 'shape=box, style=filled, fillcolor="#e3f0ff"',
    NodeType.RULE: 'shape=box, style="rounded,filled", fillcolor="#e8f7e4"',
    NodeType.PRIORITY: 'shape=hexagon, style=filled, fillcolor="#f3e6ff"',
    NodeType.ARGUMENT: "shape=ellipse",
    NodeType.CONCLUSION: 'shape=ellipse, style="bold"',
    NodeType.STATUS: 'shape=doubleoctagon, style=filled, fillcolor="#ffe0e0"',
}
_EDGE_STYLE = {
    EdgeType.GROUNDING: "color=gray50",
    EdgeType.DERIVATION: "color=black",
    EdgeType.ATTACK: "color=red, fontcolor=red",
    EdgeType.DEFEAT: 'color=blue, fontcolor=blue, style=dotted, label="neutralizes"',
    EdgeType.STATUS: "color=darkgreen, style=bold",
}


def dot_escape(text: str) -> str:
    """Quote a string for DOT: backslashes, double quotes and line breaks are escaped.

    Parameters
    ----------
    text : str

    Returns
    -------
    str
        A double-quoted DOT string that renders ``text`` verbatim.

    Examples
    --------
    >>> print(dot_escape('say "hi"\\\\n'))
    "say \\"hi\\"\\\\n"
    """
    body = text.replace("\\", "\\\\").replace('"', '\\"').replace("\r\n", "\n")
    return '"' + body.replace("\r", "\\n").replace("\n", "\\n") + '"'


def to_dot(trace: Trace | nx.MultiDiGraph, *, name: str = "trace") -> str:
    """Render a trace (or a trace graph) as Graphviz DOT text.

    Parameters
    ----------
    trace : Trace or networkx.MultiDiGraph
        A TNF or the graph of :func:`symbolic.traces.trace.build_trace`; for a graph
        the authors' ids (``names``) are shown under each label.
    name : str, optional
        The graph's name.

    Returns
    -------
    str
        ``digraph`` text ending in a newline; byte-identical for equal input.

    Examples
    --------
    >>> from symbolic.scenario.model import TraceEdge, TraceNode
    >>> t = Trace(nodes=[TraceNode(id="fact:a", type="fact", label="a"),
    ...                  TraceNode(id="evidence:E-01", type="evidence", label="E-01")],
    ...           edges=[TraceEdge(source="evidence:E-01", target="fact:a", type="grounding")])
    >>> print(to_dot(t), end="")
    digraph "trace" {
      rankdir=LR;
      node [fontname="Helvetica", fontsize=10];
      edge [fontname="Helvetica", fontsize=9];
      "evidence:E-01" [label="E-01", shape=folder, style=filled, fillcolor="#eeeeee"];
      "fact:a" [label="a", shape=box, style=filled, fillcolor="#e3f0ff"];
      "evidence:E-01" -> "fact:a" [color=gray50];
    }
    """
    names: dict[str, tuple[str, ...]] = {}
    if not isinstance(trace, Trace):  # a networkx.MultiDiGraph
        names = {n: tuple(d.get("names", ())) for n, d in trace.nodes(data=True)}
        trace = graph_to_trace(trace)
    lines = [f"digraph {dot_escape(name)} {{", "  rankdir=LR;",
             '  node [fontname="Helvetica", fontsize=10];',
             '  edge [fontname="Helvetica", fontsize=9];']
    for node in sorted(trace.nodes, key=lambda n: n.id):
        label = node.label or node.id
        if names.get(node.id):
            label = f"{label}\n({', '.join(names[node.id])})"
        lines.append(f"  {dot_escape(node.id)} [label={dot_escape(label)}, {_NODE_STYLE[node.type]}];")
    for edge in sorted(trace.edges, key=trace_sort_key):
        style = _EDGE_STYLE[edge.type]
        if edge.type is EdgeType.ATTACK:
            text = edge.kind.value if edge.kind is not None else "attack"
            if edge.state == "defeated":
                text += " (defeated)"
                style += ", style=dashed"
            style += f", label={dot_escape(text)}"
        attrs = f"{style}, id={dot_escape(edge_id(edge))}" if edge.type in (EdgeType.ATTACK, EdgeType.DEFEAT) else style
        lines.append(f"  {dot_escape(edge.source)} -> {dot_escape(edge.target)} [{attrs}];")
    lines.append("}")
    return "\n".join(lines) + "\n"
