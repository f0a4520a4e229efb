"""The trace graph of an evaluation (paper Section 4.3, docs/semantics.md section 12).

:func:`build_trace` renders an :class:`~symbolic.results.Evaluation` as a
typed :class:`networkx.MultiDiGraph` whose nodes carry *content-derived* ids
(:mod:`symbolic.naming`), so the graph of two analyses that differ only in
the authors' names for their rules and facts is the same graph.

Nodes (attribute ``type`` is a :class:`~symbolic.model.NodeType`):
query, evidence, fact, rule, priority, argument, conclusion, status.
Edges (attribute ``type`` is an :class:`~symbolic.model.EdgeType`; the
multigraph key is :func:`symbolic.naming.edge_id`):

- grounding: evidence -> fact, rule, priority;
- derivation: fact -> fact argument; top rule -> argument; sub-argument ->
  argument; argument -> conclusion; base priority -> the ``P+`` priority it
  entails (only for closure pairs that neutralize an attack);
- attack: attacking argument -> attacked argument, with ``kind``, ``lic``
  (the licensing rule's node id) and ``state`` (``active`` or ``defeated``);
  an attack is always an edge, never a node;
- defeat: priority -> the attacked argument, with ``attack`` = the id of the
  attack edge it neutralizes (Definition 4): one defeat edge per priority of
  ``P+`` that neutralizes the attack;
- status: query -> target conclusion -> status.

Node attributes: ``type``, ``label`` (content only), ``names`` (the authors'
ids and the engine's argument ids that the node stands for); arguments also
carry ``labelling`` (IN/OUT/UNDEC) and ``round`` (the worklist round, or
``None`` for UNDEC).  Attack edges also carry ``explicit``.
"""

from __future__ import annotations

from collections import defaultdict
from typing import TYPE_CHECKING, Iterable

from .attack_table import KINDS
from .collector import gc_paused
from .model import EdgeType, NodeType
from .naming import EDGE_ARROW, Namer, edge_key
from .results import Attack, Evaluation
from .target_rules import NeutralizingPairs
from .trace_attacks import AttackEdges, attack_edges

if TYPE_CHECKING:  # networkx is imported where a graph is built, not at start-up
    import networkx as nx

__all__ = ["build_trace", "neutralizers", "trace_parts"]

_ACTIVE, _DEFEATED = "active", "defeated"


def neutralizers(evaluation: Evaluation, attack: Attack) -> frozenset[tuple[str, str]]:
    """Every pair of ``P+`` that neutralizes ``attack`` (Definition 4).

    The engine records one such pair in ``attack.defeated_by``; the trace
    shows all of them, so that it does not depend on the order in which the
    engine happened to try the target rules.

    Parameters
    ----------
    evaluation : Evaluation
        The evaluation the attack belongs to.
    attack : Attack
        One of ``evaluation.attacks``.

    Returns
    -------
    frozenset of (str, str)
        ``(stronger, weaker)`` pairs with ``stronger in targetRules(attack)``
        and ``weaker = lic(attack)``; empty for an active attack.

    Examples
    --------
    >>> from symbolic.grounding import ground
    >>> from symbolic.model import Analysis, Fact, Priority, Rule
    >>> from symbolic.status import evaluate
    >>> e = ["E-01"]
    >>> a = Analysis(facts=[Fact(id="f1", literal="a", evidence=e), Fact(id="f2", literal="b", evidence=e)],
    ...     rules=[Rule(id="r1", antecedents=["a"], consequent="p", evidence=e),
    ...            Rule(id="r2", antecedents=["b"], consequent="¬p", evidence=e)],
    ...     priorities=[Priority(stronger="r1", weaker="r2", basis="hierarchy", evidence=e)])
    >>> ev = evaluate(ground(e, a), "p")
    >>> sorted(p for att in ev.attacks for p in neutralizers(ev, att))
    [('r1', 'r2')]
    """
    if attack.active or attack.lic is None:
        return frozenset()
    return NeutralizingPairs.of(evaluation).pairs(attack.on, attack.target, attack.lic, attack.defeated_by)


class Skeleton:
    """The nodes and the grounding, derivation and status edges of a trace, as plain dicts.

    Attributes
    ----------
    nodes : dict of str to dict
        Node id -> attributes (``type``, ``label``, ``names``, ...), in insertion order.
    edges : list of (str, str, str, dict)
        ``(source, target, edge id, attributes)``, each edge id once.
    attrs : dict
        The graph attributes (``target``, ``status``, ``support``, ``against``).
    """

    __slots__ = ("nodes", "edges", "attrs")

    def __init__(self, **attrs):
        self.nodes: dict[str, dict] = {}
        self.edges: list[tuple[str, str, str, dict]] = []
        self.attrs = attrs

    def to_graph(self) -> nx.MultiDiGraph:
        """The skeleton as a :class:`networkx.MultiDiGraph` keyed by edge id."""
        import networkx as nx

        graph = nx.MultiDiGraph(**self.attrs)
        graph.add_nodes_from(self.nodes.items())
        graph.add_edges_from(self.edges)
        return graph


class _Builder:
    """Accumulates nodes and edges, merging the ones that share a canonical id."""

    def __init__(self, skeleton: Skeleton):
        self.nodes = skeleton.nodes
        self.edges = skeleton.edges
        self.keys = {key for _, _, key, _ in skeleton.edges}

    def node(self, node_id: str, node_type: NodeType, label: str, name: str | None = None, **attrs):
        data = self.nodes.get(node_id)
        if data is None:
            data = self.nodes[node_id] = {"type": node_type, "label": label, "names": (), **attrs}
        if name is not None and name not in data["names"]:
            data["names"] = tuple(sorted(data["names"] + (name,)))
        return node_id

    def edge(self, source: str, target: str, edge_type: EdgeType, **attrs) -> str:
        key = edge_key(edge_type, source, target, attrs.get("kind"), attrs.get("attack"))
        if key not in self.keys:
            self.keys.add(key)
            self.edges.append((source, target, key, {"type": edge_type, **attrs}))
        return key


def build_trace(evaluation: Evaluation, *, query: str | None = None) -> nx.MultiDiGraph:
    """Render an evaluation as a typed trace graph (Section 4.3, docs/semantics.md section 12).

    Parameters
    ----------
    evaluation : Evaluation
        From :func:`symbolic.status.evaluate` or
        :func:`symbolic.status.evaluate_analysis`.
    query : str, optional
        The natural-language question; the query node's label (default: the
        target literal).

    Returns
    -------
    networkx.MultiDiGraph
        Nodes keyed by canonical ids, edges keyed by :func:`~symbolic.naming.edge_id`;
        ``graph.graph`` holds ``target``, ``status``, ``support`` and ``against``.

    Examples
    --------
    >>> from symbolic.model import Analysis, Fact, Rule
    >>> from symbolic.status import evaluate_analysis
    >>> a = Analysis(facts=[Fact(id="f1", literal="Delay(x)", evidence=["E-01"])],
    ...              rules=[Rule(id="r1", antecedents=["Delay(x)"], consequent="Penalty(x)",
    ...                          evidence=["E-02"])])
    >>> g = build_trace(evaluate_analysis(["E-01", "E-02"], a, "Penalty(x)"))
    >>> sorted(n for n in g if not n.startswith("arg:"))  # doctest: +NORMALIZE_WHITESPACE
    ['conclusion:Delay(x)', 'conclusion:Penalty(x)', 'evidence:E-01', 'evidence:E-02',
     'fact:Delay(x)', 'query:Penalty(x)', 'rule:Delay(x)=>Penalty(x)', 'status:accepted']
    >>> g.nodes["rule:Delay(x)=>Penalty(x)"]["names"]
    ('r1',)
    """
    skeleton, edges = trace_parts(evaluation, query=query)
    graph = skeleton.to_graph()
    _add_attack_edges(graph, edges)
    return graph


def trace_parts(evaluation: Evaluation, *, query: str | None = None) -> tuple[Skeleton, AttackEdges]:
    """The trace without its attack and defeat edges, and those edges as columns.

    Every node is in the :class:`Skeleton` (closure priorities included); the
    attack and defeat edges are in the :class:`~symbolic.trace_attacks.AttackEdges`,
    so that a large trace can be written (:mod:`symbolic.tnf_stream`) without a
    Python object per edge.  :func:`build_trace` joins the two in a graph.

    Parameters
    ----------
    evaluation : Evaluation
    query : str, optional
        The query node's label.

    Returns
    -------
    (Skeleton, AttackEdges)
    """
    with gc_paused():
        return _trace_parts(evaluation, query)


def _trace_parts(evaluation: Evaluation, query: str | None) -> tuple[Skeleton, AttackEdges]:
    theory = evaluation.theory
    namer = Namer(theory.rules, evaluation.arguments)
    target = namer.literal(evaluation.target)
    skeleton = Skeleton(target=target, status=evaluation.status, support=evaluation.support,
                        against=evaluation.against)
    b = _Builder(skeleton)
    evidence_nodes: dict[str, str] = {}
    keys, edge_list, grounding = b.keys, b.edges, {"type": EdgeType.GROUNDING}

    def ground(node_id: str, evidence: Iterable[str]) -> None:
        """Grounding edges ``evidence:<fragment> -> node_id`` (ids as :func:`symbolic.naming.edge_key`)."""
        for fragment in evidence:
            source = evidence_nodes.get(fragment)
            if source is None:
                source = evidence_nodes[fragment] = b.node(f"evidence:{fragment}", NodeType.EVIDENCE, fragment)
            key = f"grounding:{source}{EDGE_ARROW}{node_id}"
            if key not in keys:
                keys.add(key)
                edge_list.append((source, node_id, key, grounding))

    for fact in theory.facts:
        literal = namer.literal(fact.literal)
        ground(b.node(namer.fact_id(fact.literal), NodeType.FACT, literal, fact.id), fact.evidence)
    for rule in theory.rules:
        ground(b.node(namer.rule_id(rule.id), NodeType.RULE, namer.rule_label(rule.id), rule.id),
               rule.evidence)
    _priorities(evaluation, namer, b, ground, evidence_nodes)
    _arguments(evaluation, namer, b)
    edges = _attacks(evaluation, namer, b)

    goal = b.node(f"conclusion:{target}", NodeType.CONCLUSION, target)
    asked = b.node(f"query:{target}", NodeType.QUERY, " ".join(query.split()) if query else target)
    b.edge(asked, goal, EdgeType.STATUS)
    status = str(evaluation.status)
    b.edge(goal, b.node(f"status:{status}", NodeType.STATUS, status), EdgeType.STATUS)
    return skeleton, edges


def _priorities(evaluation, namer: Namer, b: _Builder, ground, evidence_nodes: dict[str, str]) -> None:
    """One node per priority pair (as :meth:`_Builder.node`, inlined), labelled, with its grounding edges."""
    unresolved = evaluation.priorities.unresolved
    nodes, keys, edge_list, ids = b.nodes, b.keys, b.edges, namer.priority_ids
    grounding = {"type": EdgeType.GROUNDING}
    basis_names: dict = {}  # str() of each basis, once
    parts: dict[str, str] = {}  # rule id -> its content in a priority id, once
    labels: dict[str, str] = {}  # rule id -> its readable rendering, once
    kinds: dict[str, str | set[str]] = {}  # node -> the basis of its priority (a set once several share it)
    priority_type, part, rule_label = NodeType.PRIORITY, namer.priority_part, namer.rule_label
    for priority in evaluation.theory.priorities:
        stronger, weaker, basis = priority.stronger, priority.weaker, priority.basis
        pair = (stronger, weaker)
        node = ids.get(pair)
        if node is None:  # as Namer.priority_id
            strong = parts.get(stronger) or parts.setdefault(stronger, part(stronger))
            weak = parts.get(weaker) or parts.setdefault(weaker, part(weaker))
            node = ids[pair] = f"priority:({strong})>({weak})"
        name = f"{stronger}>{weaker}"
        kind = basis_names.get(basis) or basis_names.setdefault(basis, str(basis))
        data = nodes.get(node)
        if data is None:
            strong = labels.get(stronger) or labels.setdefault(stronger, rule_label(stronger))
            weak = labels.get(weaker) or labels.setdefault(weaker, rule_label(weaker))
            tag = f"{kind}, unresolved" if stronger in unresolved or weaker in unresolved else kind
            nodes[node] = {"type": priority_type, "label": f"({strong}) > ({weak}) [{tag}]", "names": (name,),
                           "pair": pair}
            kinds[node] = kind
        else:  # another priority of the same pair: the label lists every basis (sorted)
            if name not in data["names"]:
                data["names"] = tuple(sorted(data["names"] + (name,)))
            seen = kinds[node]
            seen = kinds[node] = ({seen} if isinstance(seen, str) else seen) | {kind}
            first, second = data["pair"]
            tags = sorted(seen) + (["unresolved"] if first in unresolved or second in unresolved else [])
            data["label"] = f"{namer.priority_label(first, second)} [{', '.join(tags)}]"
        evidence = priority.evidence
        source = evidence_nodes.get(evidence[0]) if len(evidence) == 1 else None
        if source is None:
            ground(node, evidence)
            continue
        key = f"grounding:{source}{EDGE_ARROW}{node}"  # ground(), inlined for the usual one fragment
        if key not in keys:
            keys.add(key)
            edge_list.append((source, node, key, grounding))


def _arguments(evaluation, namer: Namer, b: _Builder) -> None:
    """One node per argument id (arguments of one derivation merge), its conclusion and derivation edges."""
    labels = evaluation.labelling.labels
    rounds = {a: k for k, members in enumerate(evaluation.labelling.rounds) for a in members}
    seen: dict[str, set[str]] = defaultdict(set)
    nodes, keys, edge_list = b.nodes, b.keys, b.edges
    derivation, argument_type, conclusion_type = {"type": EdgeType.DERIVATION}, NodeType.ARGUMENT, NodeType.CONCLUSION
    argument_id, arg_ids, literal = namer.argument_id, namer.argument_ids, namer.literal
    label_names: dict = {}  # str() of each label, once
    heads: dict[str | None, tuple[str, str]] = {}  # top rule (None: a fact) -> (derivation source or "", via)

    def derive(source: str, target: str) -> None:
        """A derivation edge (id as :func:`symbolic.naming.edge_key`), once."""
        key = f"derivation:{source}{EDGE_ARROW}{target}"
        if key not in keys:
            keys.add(key)
            edge_list.append((source, target, key, derivation))

    for arg in evaluation.arguments:
        arg_id, top = arg.id, arg.top_rule
        node = arg_ids.get(arg_id) or argument_id(arg_id)
        conclusion = literal(arg.conclusion)
        label = labels.get(arg_id)
        labelled = seen[node]
        labelled.add(label_names.get(label) or label_names.setdefault(label, str(label)))
        head = heads.get(top)
        if head is None:
            head = heads[top] = ("", "fact") if top is None else (namer.rule_id(top), namer.rule_label(top))
        data = nodes.get(node)
        if data is None:  # as _Builder.node, inlined
            data = nodes[node] = {"type": argument_type, "label": "", "names": (arg_id,), "labelling": label,
                                  "round": rounds.get(arg_id)}
        elif arg_id not in data["names"]:
            data["names"] = tuple(sorted(data["names"] + (arg_id,)))
        data["label"] = (f"{'/'.join(sorted(labelled)) if len(labelled) > 1 else next(iter(labelled))}: "
                         f"{conclusion} via {head[1]}")
        source = namer.fact_id(arg.conclusion) if arg.fact is not None else head[0] if top else namer.rule_id(top)
        derive(source, node)
        for sub in arg.subs:
            derive(arg_ids.get(sub) or argument_id(sub), node)
        goal = f"conclusion:{conclusion}"
        if goal not in nodes:
            nodes[goal] = {"type": conclusion_type, "label": conclusion, "names": ()}
        derive(node, goal)


def _attacks(evaluation, namer: Namer, b: _Builder) -> AttackEdges:
    """Add the closure priority nodes the defeat sets use; return the attack edges (not yet added)."""
    edges = attack_edges(evaluation, namer)
    nodes, known, priority_id = b.nodes, namer.priority_ids, namer.priority_id
    missing = sorted(pair for pair in edges.pairs if (known.get(pair) or priority_id(*pair)) not in nodes)
    if missing:  # pairs of the closure only
        closure = _Closure(evaluation)
        for stronger, weaker in missing:
            _priority_node(closure, namer, b, stronger, weaker)
    return edges


def _add_attack_edges(graph: nx.MultiDiGraph, edges: AttackEdges) -> None:
    """Add every attack edge and, for a defeated one, a defeat edge per priority of its defeat set."""
    nodes, rules, sets = edges.node_ids, edges.rule_nodes, edges.sets
    out = []
    columns = zip(edges.source.tolist(), edges.target.tolist(), edges.kind.tolist(), edges.lic.tolist(),
                  edges.active.tolist(), edges.explicit.tolist(), edges.defeat_set.tolist())
    for source, target, kind, lic, active, explicit, chosen in columns:
        source_id, target_id = nodes[source], nodes[target]
        key = edge_key(EdgeType.ATTACK, source_id, target_id, KINDS[kind])
        out.append((source_id, target_id, key, {"type": EdgeType.ATTACK, "kind": KINDS[kind],
                                                "lic": rules[lic] if lic >= 0 else None,
                                                "state": _ACTIVE if active else _DEFEATED, "explicit": explicit}))
        if chosen >= 0:
            for priority in sets[chosen]:
                out.append((priority, target_id, edge_key(EdgeType.DEFEAT, priority, target_id, None, key),
                            {"type": EdgeType.DEFEAT, "attack": key}))
    graph.add_edges_from(out)


class _Closure:
    """``P+`` indexed for finding the base priorities behind a closure pair."""

    def __init__(self, evaluation):
        order = evaluation.priorities
        self.unresolved = order.unresolved
        self.closure = order.closure
        self.weaker: dict[str, set[str]] = defaultdict(set)
        for strong, weak in order.closure:
            self.weaker[strong].add(weak)
        self.base: dict[str, list[str]] = defaultdict(list)
        for strong, weak in sorted(order.base):
            if not {strong, weak} & order.unresolved:
                self.base[strong].append(weak)

    def supporting(self, stronger: str, weaker: str) -> list[tuple[str, str]]:
        """Base pairs ``(s, w)`` with ``stronger >= s`` and ``w >= weaker`` in ``P+``, sorted."""
        found = []
        for s in {stronger} | self.weaker.get(stronger, set()):
            for w in self.base.get(s, ()):
                if w == weaker or (w, weaker) in self.closure:
                    found.append((s, w))
        return sorted(found)


def _priority_node(closure: _Closure, namer: Namer, b: _Builder, stronger: str, weaker: str) -> str:
    """The node of ``stronger > weaker``; a closure pair gets a derived node."""
    node = namer.priority_id(stronger, weaker)
    if node in b.nodes:
        return node
    b.node(node, NodeType.PRIORITY, f"{namer.priority_label(stronger, weaker)} [closure]",
           f"{stronger}>{weaker}", pair=(stronger, weaker))
    for s, w in closure.supporting(stronger, weaker):
        b.edge(namer.priority_id(s, w), node, EdgeType.DERIVATION)
    return node
