"""The skeleton of a trace: its nodes and its grounding, derivation and status edges (paper Section
4.3, docs/semantics.md section 12), made object by object: facts and rules with their evidence,
the theory's priorities, the arguments with their conclusions, a ``[closure]`` node for each pair of
``P+`` a defeat set uses that the base lacks (derived from the base pairs behind it, Definition 3),
and the query, goal and status.  The attack and defeat edges are in :mod:`symbolic.traces.trace_attacks`.
"""

from __future__ import annotations

from collections import defaultdict
from typing import TYPE_CHECKING

from symbolic.scenario.model import EdgeType, NodeType
from symbolic.traces.naming import EDGE_ARROW, Namer

if TYPE_CHECKING:  # networkx is imported where a graph is built, not at start-up
    import networkx as nx

__all__ = ["CLOSURE_TAG", "Skeleton", "build_skeleton"]

CLOSURE_TAG = "closure"


class Skeleton:
    """The nodes and the grounding, derivation and status edges of a trace.

    Attributes
    ----------
    nodes : dict of str to dict
        Node id -> attributes (``type``, ``label``, ``names``, and ``pair`` for a priority,
        ``labelling`` and ``round`` for an argument), in creation order.
    edges : list of (str, str, str, dict)
        ``(source, target, edge id, {"type": ...})``, each edge id once, in creation order.
    attrs : dict
        The graph attributes (``target``, ``status``, ``support``, ``against``).
    """

    __slots__ = ("nodes", "edges", "attrs", "_keys")

    def __init__(self, **attrs):
        self.nodes: dict[str, dict] = {}
        self.edges: list[tuple[str, str, str, dict]] = []
        self.attrs = attrs
        self._keys: set[str] = set()

    def node(self, node_id: str, node_type: NodeType, label: str, name: str | None = None, **attrs) -> str:
        """Add a node (or merge ``name`` into the node of that id, names sorted); return its id."""
        data = self.nodes.get(node_id)
        if data is None:
            data = self.nodes[node_id] = {"type": node_type, "label": label, "names": (), **attrs}
        if name is not None and name not in data["names"]:
            data["names"] = tuple(sorted(data["names"] + (name,)))
        return node_id

    def edge(self, source: str, target: str, edge_type: EdgeType) -> None:
        """Add an edge, once per edge id."""
        key = f"{edge_type.value}:{source}{EDGE_ARROW}{target}"
        if key not in self._keys:
            self._keys.add(key)
            self.edges.append((source, target, key, {"type": edge_type}))

    def to_graph(self) -> nx.MultiDiGraph:
        """The skeleton as a :class:`networkx.MultiDiGraph` keyed by edge id."""
        import networkx as nx

        graph = nx.MultiDiGraph(**self.attrs)
        graph.add_nodes_from(self.nodes.items())
        graph.add_edges_from(self.edges)
        return graph


def _grounded(skeleton: Skeleton, node_id: str, evidence) -> None:
    for fragment in evidence:
        skeleton.edge(skeleton.node(f"evidence:{fragment}", NodeType.EVIDENCE, fragment), node_id,
                      EdgeType.GROUNDING)


def _priorities(skeleton: Skeleton, evaluation, namer: Namer) -> set[tuple[str, str]]:
    """The theory's priority nodes; returns their ``(stronger, weaker)`` pairs."""
    unresolved = evaluation.priorities.unresolved
    bases: dict[str, set[str]] = defaultdict(set)
    basis_text: dict = {}  # str() of each basis, once
    for p in evaluation.theory.priorities:
        node_id = namer.priority_id(p.stronger, p.weaker)
        skeleton.node(node_id, NodeType.PRIORITY, "", f"{p.stronger}>{p.weaker}", pair=(p.stronger, p.weaker))
        data = skeleton.nodes[node_id]
        text = basis_text.get(p.basis)
        if text is None:
            text = basis_text[p.basis] = str(p.basis)
        bases[node_id].add(text)
        s, w = data["pair"]  # the first priority of the id gives the label's rules
        tags = sorted(bases[node_id]) + (["unresolved"] if s in unresolved or w in unresolved else [])
        data["label"] = f"{namer.priority_label(s, w)} [{', '.join(tags)}]"
        _grounded(skeleton, node_id, p.evidence)
    return {(p.stronger, p.weaker) for p in evaluation.theory.priorities}


def _arguments(skeleton: Skeleton, evaluation, namer: Namer) -> None:
    labels = evaluation.labelling.labels
    rounds = {a: k for k, members in enumerate(evaluation.labelling.rounds) for a in members}
    seen: dict[str, set[str]] = {}
    for arg in evaluation.arguments:
        node_id = namer.argument_id(arg.id)
        label = labels.get(arg.id)
        conclusion = namer.literal(arg.conclusion)
        via = "fact" if arg.top_rule is None else namer.rule_label(arg.top_rule)
        skeleton.node(node_id, NodeType.ARGUMENT, "", arg.id, labelling=label, round=rounds.get(arg.id))
        shown = seen.setdefault(node_id, set())
        shown.add(str(label))  # another argument of the same derivation: every labelling, sorted
        skeleton.nodes[node_id]["label"] = f"{'/'.join(sorted(shown))}: {conclusion} via {via}"
        head = namer.fact_id(arg.conclusion) if arg.fact is not None else namer.rule_id(arg.top_rule)
        skeleton.edge(head, node_id, EdgeType.DERIVATION)
        for sub in arg.subs:
            skeleton.edge(namer.argument_id(sub), node_id, EdgeType.DERIVATION)
        goal = skeleton.node(f"conclusion:{conclusion}", NodeType.CONCLUSION, conclusion)
        skeleton.edge(node_id, goal, EdgeType.DERIVATION)


def _supporting(order, stronger: str, weaker: str, below: dict, base: dict) -> list[tuple[str, str]]:
    """Base pairs ``(s, w)`` with ``stronger >= s`` and ``w >= weaker`` in ``P+``, sorted."""
    found = []
    for s in {stronger} | below.get(stronger, set()):
        for w in base.get(s, ()):
            if w == weaker or (w, weaker) in order.closure:
                found.append((s, w))
    return sorted(found)


def _closure(skeleton: Skeleton, evaluation, namer: Namer, known: set, pairs) -> None:
    """A ``[closure]`` node for each pair of ``pairs`` that has no node yet, in sorted order, with a
    derivation edge from each base pair behind it (Definition 3: ``P+`` is the closure of ``P0``)."""
    missing = sorted(p for p in pairs if p not in known)
    if not missing:
        return
    order = evaluation.priorities
    below: dict[str, set[str]] = defaultdict(set)
    for strong, weak in order.closure:
        below[strong].add(weak)
    base: dict[str, list[str]] = defaultdict(list)
    for strong, weak in sorted(order.base):
        if not {strong, weak} & order.unresolved:
            base[strong].append(weak)
    for stronger, weaker in missing:
        node_id = namer.priority_id(stronger, weaker)
        if node_id in skeleton.nodes:  # a pair of the same id came first
            continue
        skeleton.node(node_id, NodeType.PRIORITY, f"{namer.priority_label(stronger, weaker)} [{CLOSURE_TAG}]",
                      f"{stronger}>{weaker}", pair=(stronger, weaker))
        for s, w in _supporting(order, stronger, weaker, below, base):
            skeleton.edge(namer.priority_id(s, w), node_id, EdgeType.DERIVATION)


def build_skeleton(evaluation, namer: Namer, pairs, *, query: str | None = None) -> Skeleton:
    """The skeleton of an evaluation's trace, named by ``namer``; ``pairs`` are the pairs of ``P+``
    the defeat sets use, ``query`` the query node's label (default: the target literal)."""
    theory = evaluation.theory
    target = namer.literal(evaluation.target)
    skeleton = Skeleton(target=target, status=evaluation.status, support=evaluation.support,
                        against=evaluation.against)
    for fact in theory.facts:
        node_id = skeleton.node(namer.fact_id(fact.literal), NodeType.FACT, namer.literal(fact.literal), fact.id)
        _grounded(skeleton, node_id, fact.evidence)
    for rule in theory.rules:
        node_id = skeleton.node(namer.rule_id(rule.id), NodeType.RULE, namer.rule_label(rule.id), rule.id)
        _grounded(skeleton, node_id, rule.evidence)
    known = _priorities(skeleton, evaluation, namer)
    _arguments(skeleton, evaluation, namer)
    _closure(skeleton, evaluation, namer, known, pairs)
    goal = skeleton.node(f"conclusion:{target}", NodeType.CONCLUSION, target)
    asked = skeleton.node(f"query:{target}", NodeType.QUERY, " ".join(query.split()) if query else target)
    status = str(evaluation.status)
    shown = skeleton.node(f"status:{status}", NodeType.STATUS, status)
    skeleton.edge(asked, goal, EdgeType.STATUS)
    skeleton.edge(goal, shown, EdgeType.STATUS)
    return skeleton
