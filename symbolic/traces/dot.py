"""Graphviz DOT rendering of a trace (no graphviz dependency; ``dot -Tsvg trace.dot > trace.svg``).

Node shapes follow the node type; attack edges are red and labelled with their kind, a defeated
one dashed; a defeat edge (priority -> the attacked argument) is blue and dotted.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from symbolic.scenario.model import EdgeType, NodeType, Trace
from symbolic.traces.trace_rows import NodeRow, TraceRows, pieces, rows_of_trace

if TYPE_CHECKING:  # a graph is read, never built, here: no import at start-up
    import networkx as nx

__all__ = ["dot_escape", "to_dot", "write_dot"]

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
_NODE_STYLE.update({t.value: style for t, style in list(_NODE_STYLE.items())})  # by type or its text
_EDGE_TYPE = {**{t: t for t in EdgeType}, **{t.value: t for t in EdgeType}}


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


def _node_line(node: NodeRow) -> str:
    label = node.label or node.id
    if node.names:
        label = f"{label}\n({', '.join(node.names)})"
    return f"  {dot_escape(node.id)} [label={dot_escape(label)}, {_NODE_STYLE[node.type]}];\n"


def _edge_line(edge: dict) -> str:
    kind = _EDGE_TYPE[edge["type"]]
    style = _EDGE_STYLE[kind]
    if kind is EdgeType.ATTACK:
        text = edge.get("kind", "attack")
        if edge.get("state") == "defeated":
            text += " (defeated)"
            style += ", style=dashed"
        style += f", label={dot_escape(text)}"
    if kind in (EdgeType.ATTACK, EdgeType.DEFEAT):
        style += f", id={dot_escape(edge['id'])}"
        if "defeats" in edge:
            style += f", defeats={dot_escape(edge['defeats'])}"
    return f"  {dot_escape(edge['source'])} -> {dot_escape(edge['target'])} [{style}];\n"


def write_dot(rows: TraceRows, *, name: str = "trace") -> Iterator[bytes]:
    """Graphviz DOT of a trace, in UTF-8 pieces: the one writer of the format.

    Nodes sorted by id, edges by edge id.  In the summary form each defeated attack edge carries
    ``defeats="<set id>"`` and a comment line per set, ``// defeats:<id>: <priority ids>``, follows
    the nodes (DOT has no columns: the columns form is written as the summary form).
    """
    yield (f"digraph {dot_escape(name)} {{\n  rankdir=LR;\n"
           '  node [fontname="Helvetica", fontsize=10];\n  edge [fontname="Helvetica", fontsize=9];\n').encode("utf-8")
    yield from pieces(map(_node_line, rows.nodes))
    if rows.defeat_sets is not None:
        yield from pieces(f"  // {ident}: {', '.join(members)}".replace("\n", " ") + "\n"
                           for ident, members in rows.defeat_sets)
    yield from pieces(map(_edge_line, rows.edges))
    yield b"}\n"


def to_dot(trace: Trace | nx.MultiDiGraph, *, name: str = "trace") -> str:
    """Graphviz DOT text of a trace, or of a trace graph (:func:`symbolic.traces.trace.build_trace`,
    the authors' ids shown under each label): :func:`write_dot` of
    :func:`~symbolic.traces.trace_rows.rows_of_trace`.

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
    return b"".join(write_dot(rows_of_trace(trace), name=name)).decode("utf-8")
