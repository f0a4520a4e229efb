"""The skeleton of a trace: its nodes and its grounding, derivation and status
edges (docs/semantics.md section 12), stored for streaming.

A trace of a large theory has one node per priority pair (58,767 at the peer
size), one per argument and one grounding or derivation edge per priority,
fact, rule and sub-argument.  :class:`Skeleton` keeps them without a Python
object per priority node or per edge:

- every node but the priorities has a string id and a dict of attributes in a
  :class:`NodeStore` (facts, rules, evidence, arguments, conclusions, the
  query and the status), addressed by an integer *position*;
- the priority nodes are columns (:class:`symbolic.traces.trace_priorities.PriorityNodes`):
  per distinct rule its pieces of the id and the label once, per node a few
  integer codes;
- each group of edges (one edge type) is two integer columns, ``source`` and
  ``target``: a position in the store (``>= 0``) or a priority node ``j``
  written as ``-1 - j``.

:attr:`Skeleton.nodes` and :attr:`Skeleton.edges` build the plain dicts and
tuples of the former skeleton on demand, in the order in which the trace
creates them, for :meth:`Skeleton.to_graph`; the streamed outputs
(:mod:`symbolic.traces.skeleton_rows`) read the columns.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable, Sequence

import numpy as np

from symbolic.scenario.model import EdgeType, NodeType
from symbolic.traces.naming import EDGE_ARROW

if TYPE_CHECKING:  # networkx is imported where a graph is built, not at start-up
    import networkx as nx

__all__ = ["EdgeGroup", "NodeStore", "Skeleton"]


class NodeStore:
    """Nodes with string ids, each at an integer position.

    An edge may name an id that is no node (the graph then gets a bare node
    for it, as :mod:`networkx` does): :meth:`at` gives such an id a position
    too, without attributes.

    Attributes
    ----------
    ids : list of str
        Position -> id, nodes and bare ids alike.
    positions : dict of str to int
        Id -> position.
    data : dict of str to dict
        Id -> attributes (``type``, ``label``, ``names``, ...) of every node, in creation order.
    """

    __slots__ = ("ids", "positions", "data")

    def __init__(self):
        self.ids: list[str] = []
        self.positions: dict[str, int] = {}
        self.data: dict[str, dict] = {}

    def at(self, node_id: str) -> int:
        """The position of ``node_id`` (a new one, without attributes, for an id not seen yet)."""
        position = self.positions.get(node_id)
        if position is None:
            position = self.positions[node_id] = len(self.ids)
            self.ids.append(node_id)
        return position

    def extend(self, ids: list[str], attrs: list[dict], extra_ids: list[str] = (), extra_attrs: list[dict] = (),
               after: Sequence[int] = ()) -> tuple[np.ndarray, np.ndarray] | None:
        """Add new nodes at once: ``ids[i]`` in order, each ``extra_ids[k]`` right after ``ids[after[k]]``.

        The same nodes at the same positions as :meth:`node` called in that order, when every id is
        new and occurs once; otherwise nothing is added.

        Parameters
        ----------
        ids, attrs : list
            The nodes and their attribute dicts (kept, not copied).
        extra_ids, extra_attrs : list, optional
            Nodes created between them (as the evidence of an object, the conclusion of an argument).
        after : sequence of int, optional
            Per extra node the node of ``ids`` it follows, non-decreasing (extras of one node in order).

        Returns
        -------
        (numpy.ndarray, numpy.ndarray) or None
            The positions of ``ids`` and of ``extra_ids``; ``None`` when some id is in the store
            already or occurs twice (nothing added: add them one by one).
        """
        n, m, base = len(ids), len(extra_ids), len(self.ids)
        new = set(ids)
        new.update(extra_ids)
        if len(new) != n + m or not self.positions.keys().isdisjoint(new):
            return None
        after = np.asarray(after, dtype=np.int64).reshape(-1)
        # node i follows the extras of the nodes before it; extra k follows its node and the extras before it
        own = base + np.arange(n, dtype=np.int64) + np.searchsorted(after, np.arange(n, dtype=np.int64))
        extra = base + after + 1 + np.arange(m, dtype=np.int64)
        if m:
            order = np.empty(n + m, dtype=np.int64)
            order[own - base], order[extra - base] = np.arange(n), np.arange(n, n + m)
            order = order.tolist()
            ids = list(map((ids + list(extra_ids)).__getitem__, order))
            attrs = list(map((attrs + list(extra_attrs)).__getitem__, order))
        self.ids.extend(ids)
        self.positions.update(zip(ids, range(base, base + n + m)))
        self.data.update(zip(ids, attrs))
        return own, extra

    def node(self, node_id: str, node_type: NodeType, label: str, name: str | None = None, **attrs) -> int:
        """Add a node (or merge ``name`` into the node of that id); return its position."""
        data = self.data.get(node_id)
        if data is None:
            data = self.data[node_id] = {"type": node_type, "label": label, "names": (), **attrs}
        if name is not None and name not in data["names"]:
            data["names"] = tuple(sorted(data["names"] + (name,)))
        return self.at(node_id)


class EdgeGroup:
    """Edges of one type as two integer columns (store positions, or ``-1 - j`` for priority node ``j``).

    Attributes
    ----------
    type : EdgeType
    source, target : numpy.ndarray of int64
        In creation order; an edge may occur more than once (it is one edge).
    """

    __slots__ = ("type", "source", "target")

    def __init__(self, edge_type: EdgeType, source: Iterable[int], target: Iterable[int]):
        self.type = edge_type
        self.source = np.asarray(source, dtype=np.int64).reshape(-1)
        self.target = np.asarray(target, dtype=np.int64).reshape(-1)
        if len(self.source) != len(self.target):
            raise ValueError(f"edge group {edge_type.value}: {len(self.source)} sources, {len(self.target)} targets")

    def __len__(self) -> int:
        return len(self.source)


class Skeleton:
    """The nodes and the grounding, derivation and status edges of a trace.

    Attributes
    ----------
    store : NodeStore
        Every node but the priority nodes.
    priorities : symbolic.traces.trace_priorities.PriorityNodes
        The priority nodes (base and closure pairs) and the grounding edges of the base ones.
    groups : list of EdgeGroup
        The other edges, in creation order (the priorities' grounding edges come after the first group).
    attrs : dict
        The graph attributes (``target``, ``status``, ``support``, ``against``).
    """

    __slots__ = ("store", "priorities", "groups", "attrs", "marks", "_nodes", "_edges")

    def __init__(self, **attrs):
        self.store = NodeStore()
        self.priorities = None  # a symbolic.traces.trace_priorities.PriorityNodes, set by the trace
        self.groups: list[EdgeGroup] = []
        self.attrs = attrs
        self.marks = (0, 0)  # nodes in the store before the priorities, before the closure priorities
        self._nodes: dict[str, dict] | None = None
        self._edges: list[tuple[str, str, str, dict]] | None = None

    def node_id(self, code: int) -> str:
        """The id of an edge endpoint (a store position, or ``-1 - j`` for priority node ``j``)."""
        return self.store.ids[code] if code >= 0 else self.priorities.node_ids()[-1 - code]

    @property
    def nodes(self) -> dict[str, dict]:
        """Node id -> attributes (``type``, ``label``, ``names``, ...), in creation order (built once)."""
        if self._nodes is None:
            self._nodes = self._build_nodes()
        return self._nodes

    @property
    def edges(self) -> list[tuple[str, str, str, dict]]:
        """``(source, target, edge id, attributes)``, each edge id once, in creation order (built once)."""
        if self._edges is None:
            self._edges = self._build_edges()
        return self._edges

    def _build_nodes(self) -> dict[str, dict]:
        items = list(self.store.data.items())
        before, before_closure = self.marks
        out = dict(items[:before])
        if self.priorities is not None:
            self.priorities.replay_nodes(out, self.store, closure=False)
        for node_id, data in items[before:before_closure]:
            if node_id not in out:
                out[node_id] = data
        if self.priorities is not None:
            self.priorities.replay_nodes(out, self.store, closure=True)
        for node_id, data in items[before_closure:]:
            if node_id not in out:
                out[node_id] = data
        return out

    def _build_edges(self) -> list[tuple[str, str, str, dict]]:
        groups = list(self.groups)
        if self.priorities is not None:
            groups.insert(1, self.priorities.grounding())
        out, keys = [], set()
        for group in groups:
            kind, attrs = group.type.value, {"type": group.type}
            for source, target in zip(group.source.tolist(), group.target.tolist()):
                source_id, target_id = self.node_id(source), self.node_id(target)
                key = f"{kind}:{source_id}{EDGE_ARROW}{target_id}"
                if key not in keys:
                    keys.add(key)
                    out.append((source_id, target_id, key, attrs))
        return out

    def to_graph(self) -> nx.MultiDiGraph:
        """The skeleton as a :class:`networkx.MultiDiGraph` keyed by edge id."""
        import networkx as nx

        graph = nx.MultiDiGraph(**self.attrs)
        graph.add_nodes_from(self.nodes.items())
        graph.add_edges_from(self.edges)
        return graph
