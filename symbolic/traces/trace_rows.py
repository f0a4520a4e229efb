"""A trace as the rows its outputs write: the one trace value behind every output format
(paper Section 4.3 and Algorithm 4 step vi, docs/semantics.md section 12).

:class:`TraceRows` holds nodes sorted by id and edges sorted by
:func:`symbolic.traces.naming.edge_id`, each edge a JSON-ready dict; the TNF writer
(:func:`symbolic.traces.tnf_json.write_tnf`) and the DOT writer (:func:`symbolic.traces.dot.write_dot`)
read nothing else.  Three forms differ only in how attack and defeat edges are written
(docs/performance.md, "Defeat sets"): ``tnf-v1``, every edge a row; ``tnf-v1-summary``, no defeat
edges, each defeated attack edge names its defeat set (``"defeats": "<set id>"``, the sets listed
once in :attr:`TraceRows.defeat_sets`); ``tnf-v1-columns``, the attack edges too held as columns
(:attr:`TraceRows.attack_columns`: ``active``, ``arguments``, ``defeats``, ``kind``, ``kinds``,
``lic``, ``rules``, ``source``, ``target``).  :func:`symbolic.traces.tnf_json.expand_tnf` turns
either compact form back into the full one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

from symbolic.scenario.model import Trace, TraceEdge
from symbolic.traces.naming import trace_sort_key

if TYPE_CHECKING:  # a graph is read, never built, here
    import networkx as nx

__all__ = ["CHUNK", "COLUMNS_SCHEMA_VERSION", "EdgeRows", "NodeRow", "SCHEMA_VERSION", "SUMMARY_SCHEMA_VERSION",
           "TraceRows", "edge_row", "pieces", "rows_of_trace"]

SCHEMA_VERSION = "tnf-v1"
SUMMARY_SCHEMA_VERSION = "tnf-v1-summary"
COLUMNS_SCHEMA_VERSION = "tnf-v1-columns"
CHUNK = 4096
"""Rows joined per piece of a writer's output."""


def pieces(items: Iterable[str], separator: str = "") -> Iterator[bytes]:
    """``separator.join(items)`` in UTF-8 pieces of :data:`CHUNK` items (what the writers yield).

    >>> list(pieces(["a", "b"], ","))
    [b'a,b']
    """
    batch, lead = [], ""
    for item in items:
        batch.append(item)
        if len(batch) == CHUNK:
            yield (lead + separator.join(batch)).encode("utf-8")
            batch, lead = [], separator
    if batch:
        yield (lead + separator.join(batch)).encode("utf-8")


class NodeRow(NamedTuple):
    """One trace node: its canonical id, type (the :class:`~symbolic.scenario.model.NodeType` value),
    label and the authors' ids it stands for (shown by DOT, not part of the TNF)."""

    id: str
    type: str
    label: str
    names: tuple[str, ...] = ()


class EdgeRows:
    """Edge rows in canonical order, made afresh at each iteration from a few row generators.

    Parameters
    ----------
    *makers : callable
        Each returns an iterator of edge rows; the rows of all of them, in turn, are in canonical
        order.
    """

    __slots__ = ("_makers",)

    def __init__(self, *makers: Callable[[], Iterable[dict]]):
        self._makers = makers

    def __iter__(self) -> Iterator[dict]:
        for make in self._makers:
            yield from make()


@dataclass(frozen=True, slots=True)
class TraceRows:
    """A trace in canonical order, in one of its three forms (module docstring).

    Attributes
    ----------
    nodes : sequence of NodeRow
        Sorted by id, each id once.
    edges : iterable of dict
        Sorted by edge id; re-iterable (a list, or :class:`EdgeRows`).
    schema_version : str
        ``tnf-v1``, ``tnf-v1-summary`` or ``tnf-v1-columns``.
    defeat_sets : sequence of (str, tuple of str), optional
        The summary and columns forms: ``(set id, priority node ids)``, sorted by set id.
    attack_columns : mapping of str to sequence, optional
        The columns form: column name -> its values, in the order of the names (sorted): a
        sequence of strings, or a numpy array of integers.
    """

    nodes: Sequence[NodeRow]
    edges: Iterable[dict]
    schema_version: str = SCHEMA_VERSION
    defeat_sets: Sequence[tuple[str, tuple[str, ...]]] | None = None
    attack_columns: Mapping[str, Sequence] | None = None


def edge_row(edge: TraceEdge, key: str) -> dict:
    """The row of a typed trace edge whose canonical id is ``key``.

    Examples
    --------
    >>> edge_row(TraceEdge(source="evidence:E-01", target="fact:a", type="grounding"), "g")
    {'id': 'g', 'source': 'evidence:E-01', 'target': 'fact:a', 'type': 'grounding'}
    """
    row = {"id": key, "source": edge.source, "target": edge.target, "type": edge.type.value}
    if edge.kind is not None:
        row["kind"] = edge.kind.value
    for name in ("lic", "state", "attack"):
        value = getattr(edge, name)
        if value is not None:
            row[name] = value
    return row


def rows_of_trace(trace: Trace | nx.MultiDiGraph) -> TraceRows:
    """The full form (``tnf-v1``) of a trace or a trace graph.

    A node id that occurs more than once is kept once (the least by type and label), an edge
    stated twice once; for a graph (:func:`symbolic.traces.trace.build_trace`) each node keeps the
    authors' ids it stands for (``names``).

    Parameters
    ----------
    trace : Trace or networkx.MultiDiGraph

    Returns
    -------
    TraceRows

    Examples
    --------
    >>> from symbolic.scenario.model import TraceNode
    >>> r = rows_of_trace(Trace(nodes=[TraceNode(id="status:both", type="status", label="both")]))
    >>> r.nodes, r.edges
    ((NodeRow(id='status:both', type='status', label='both', names=()),), [])
    """
    names: dict[str, tuple[str, ...]] = {}
    if not isinstance(trace, Trace):  # a networkx.MultiDiGraph
        from symbolic.traces.trace_graph import graph_to_trace

        names = {n: tuple(d.get("names", ())) for n, d in trace.nodes(data=True)}
        trace = graph_to_trace(trace)
    nodes = {}
    for node in sorted(trace.nodes, key=lambda n: (n.id, n.type.value, n.label)):
        nodes.setdefault(node.id, node)
    edges = sorted({(trace_sort_key(e), e) for e in trace.edges}, key=lambda pair: pair[0])
    return TraceRows(
        nodes=tuple(NodeRow(n.id, n.type.value, n.label, names.get(n.id, ())) for n in map(nodes.get, sorted(nodes))),
        edges=[edge_row(e, key[0]) for key, e in edges])
