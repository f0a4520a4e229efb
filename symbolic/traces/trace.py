"""The trace of an evaluation (paper Section 4.3, docs/semantics.md section 12): its parts, its rows
and its graph.

Nodes carry content-derived ids (:mod:`symbolic.traces.naming`) and ``type`` (a
:class:`~symbolic.scenario.model.NodeType`); edges are grounding, derivation (a base priority ->
the ``P+`` pair it entails, for closure pairs a defeat uses), attack (with ``kind``, ``lic``,
``state``; never a node), defeat (priority -> attacked argument, ``attack`` = the attack edge's
id, one per pair of ``P+`` that neutralizes it, Definition 4) and status.  Every output is written
from :func:`evaluation_rows`; :func:`trace_edge_map` and :func:`trace_edge_attrs` read the same
rows; :func:`build_trace` joins the parts in a :class:`networkx.MultiDiGraph` whose nodes also
carry ``names`` (the authors' and engine's ids), ``labelling`` and ``round``.
"""

from __future__ import annotations

from itertools import repeat
from operator import itemgetter
from typing import TYPE_CHECKING, Iterator

import numpy as np

from symbolic.engine.results import KINDS, Attack, Evaluation
from symbolic.scenario.labels import AttackKind
from symbolic.scenario.model import EdgeType, NodeType, TraceEdge
from symbolic.traces.naming import EDGE_ARROW, Namer, edge_key, string_ranks
from symbolic.traces.trace_rows import (COLUMNS_SCHEMA_VERSION, SCHEMA_VERSION, SUMMARY_SCHEMA_VERSION, EdgeRows,
                                        NodeRow, TraceRows)
from symbolic.traces.defeat_sets import defeat_set_id
from symbolic.traces.skeleton import Skeleton, build_skeleton
from symbolic.engine.target_rules import NeutralizingPairs
from symbolic.traces.trace_attacks import AttackEdges, attack_edges

if TYPE_CHECKING:  # networkx is imported where a graph is built, not at start-up
    import networkx as nx

__all__ = ["ATTACKS_MODES", "ATTACK_EDGE_LIMIT", "DEFEAT_EDGE_LIMIT", "DEFEATS_MODES", "Skeleton", "build_trace",
           "evaluation_rows", "neutralizers", "trace_edge_attrs", "trace_edge_map", "trace_parts"]

_ACTIVE, _DEFEATED = "active", "defeated"
DEFEAT_EDGE_LIMIT = 200_000
"""Above this many defeat edges ``defeats="auto"`` writes defeat sets (:func:`evaluation_rows`)."""
ATTACK_EDGE_LIMIT = 200_000
"""Above this many attack edges ``attacks="auto"`` writes the attack edges as columns."""
DEFEATS_MODES = ("auto", "edges", "summary")
ATTACKS_MODES = ("auto", "edges", "columns")
_KINDS = tuple(k.value for k in KINDS)
_NODE_TYPE = {**{t: t.value for t in NodeType}, **{t.value: t.value for t in NodeType}}  # type -> its text
_EDGE_TYPE = {**{t: t.value for t in EdgeType}, **{t.value: t.value for t in EdgeType}}


def neutralizers(evaluation: Evaluation, attack: Attack) -> frozenset[tuple[str, str]]:
    """Every pair of ``P+`` that neutralizes ``attack`` (Definition 4): the trace shows all of them,
    not only the engine's ``attack.defeated_by``, so it does not depend on the order of ``targetRules``.

    Returns
    -------
    frozenset of (str, str)
        ``(t, lic(attack))`` with ``t`` in ``targetRules(attack)``; empty for an active attack.

    Examples
    --------
    >>> from symbolic.engine.grounding import ground
    >>> from symbolic.scenario.model import Analysis, Fact, Priority, Rule
    >>> from symbolic.engine.status import evaluate
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


def build_trace(evaluation: Evaluation, *, query: str | None = None) -> nx.MultiDiGraph:
    """Render an evaluation as a typed trace graph (Section 4.3, docs/semantics.md section 12).

    Parameters
    ----------
    evaluation : Evaluation
    query : str, optional
        The question, the query node's label (default: the target literal).

    Returns
    -------
    networkx.MultiDiGraph
        Nodes keyed by canonical ids, edges keyed by :func:`~symbolic.traces.naming.edge_id`;
        ``graph.graph`` holds ``target``, ``status``, ``support`` and ``against``.

    Examples
    --------
    >>> from symbolic.scenario.model import Analysis, Fact, Rule
    >>> from symbolic.engine.status import evaluate_analysis
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
    """The trace's nodes and other edges (a :class:`Skeleton`), and its attack and defeat edges as
    columns (:class:`~symbolic.traces.trace_attacks.AttackEdges`).

    Parameters
    ----------
    evaluation : Evaluation
    query : str, optional
        The query node's label.

    Returns
    -------
    (Skeleton, AttackEdges)
    """
    namer = Namer(evaluation.theory.rules, evaluation.arguments)
    edges = attack_edges(evaluation, namer)
    return build_skeleton(evaluation, namer, edges.pairs, query=query), edges


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


def _summarize(edges: AttackEdges, defeats: str) -> bool:
    if defeats not in DEFEATS_MODES:
        raise ValueError(f"defeats must be one of {', '.join(DEFEATS_MODES)}, got {defeats!r}")
    if defeats == "auto":
        return edges.defeat_edge_count() > DEFEAT_EDGE_LIMIT
    return defeats == "summary"


def _columnar(edges: AttackEdges, defeats: str, attacks: str) -> bool:
    """Whether the attack edges are written as columns (``attacks``, and ``auto`` above the limit)."""
    if attacks not in ATTACKS_MODES:
        raise ValueError(f"attacks must be one of {', '.join(ATTACKS_MODES)}, got {attacks!r}")
    if attacks == "columns" and defeats == "edges":
        raise ValueError("attacks='columns' writes defeat sets; it cannot be combined with defeats='edges'")
    return attacks == "columns" or (attacks == "auto" and defeats != "edges" and len(edges) > ATTACK_EDGE_LIMIT)


def _attack_columns(edges: AttackEdges, set_ids: list[str]) -> dict:
    """The ``"attack_edges"`` columns of the columnar form (keys sorted)."""
    rank = string_ranks(set_ids)  # sets are listed sorted by id
    chosen = np.full(len(edges), -1, dtype=np.int64)
    defeated = edges.defeat_set >= 0
    chosen[defeated] = rank[edges.defeat_set[defeated]]
    return {"active": edges.active.astype(np.int64), "arguments": edges.node_ids, "defeats": chosen,
            "kind": edges.kind, "kinds": _KINDS, "lic": edges.lic, "rules": edges.rule_nodes,
            "source": edges.source, "target": edges.target}


def _attack_rows(edges: AttackEdges, set_ids: list[str] | None) -> Iterator[dict]:
    """The attack edges' rows, in canonical order (with their defeat set's id in the summary form)."""
    nodes, rules, kinds = edges.node_ids, edges.rule_nodes, _KINDS
    chosen = edges.defeat_set.tolist() if set_ids is not None else repeat(-1)
    columns = zip(edges.source.tolist(), edges.target.tolist(), edges.kind.tolist(), edges.lic.tolist(),
                  edges.active.tolist(), chosen)
    for source, target, kind, lic, active, chosen_set in columns:
        row = {"id": f"attack:{kinds[kind]}:{nodes[source]}{EDGE_ARROW}{nodes[target]}", "kind": kinds[kind],
               "source": nodes[source], "state": "active" if active else "defeated", "target": nodes[target],
               "type": "attack"}
        if lic >= 0:
            row["lic"] = rules[lic]
        if chosen_set >= 0:
            row["defeats"] = set_ids[chosen_set]
        yield row


def _defeat_rows(edges: AttackEdges) -> Iterator[dict]:
    """The defeat edges' rows of the full form, in canonical order."""
    edge, priority, priorities = edges.defeat_order()
    nodes = edges.node_ids
    for e, p in zip(edge.tolist(), priority.tolist()):
        attack, source = edges.edge_id(e), priorities[p]
        yield {"attack": attack, "id": f"defeat:{source}{EDGE_ARROW}{attack}", "source": source,
               "target": nodes[edges.target[e]], "type": "defeat"}


def _skeleton_rows(skeleton: Skeleton) -> Iterator[dict]:
    """The skeleton's edges (grounding, derivation, status), sorted by edge id."""
    for source, target, key, data in sorted(skeleton.edges, key=itemgetter(2)):
        row = {"id": key, "source": source, "target": target, "type": _EDGE_TYPE[data["type"]]}
        for name in ("kind", "lic", "state", "attack"):
            value = data.get(name)
            if value is not None:
                row[name] = value.value if name == "kind" else value
        yield row


def evaluation_rows(evaluation: Evaluation, *, query: str | None = None, defeats: str = "auto",
                    attacks: str = "auto") -> TraceRows:
    """The trace of an evaluation as rows, in the form ``defeats`` and ``attacks`` choose.

    Parameters
    ----------
    evaluation : Evaluation
        From :func:`symbolic.traces.tnf.normal_form` (its ``evaluation``).
    query : str, optional
        The query node's label.
    defeats : {"auto", "edges", "summary"}
        ``edges``: one defeat edge per priority and attack edge (``tnf-v1``); ``summary``: defeat
        sets; ``auto``: ``summary`` above :data:`DEFEAT_EDGE_LIMIT` defeat edges.
    attacks : {"auto", "edges", "columns"}
        ``columns``: the attack edges as columns, with defeat sets; ``auto``: ``columns`` above
        :data:`ATTACK_EDGE_LIMIT` attack edges unless ``defeats`` is ``edges``.

    Returns
    -------
    TraceRows

    Raises
    ------
    ValueError
        If ``defeats`` or ``attacks`` is not one of its modes, or ``attacks``
        is ``columns`` and ``defeats`` is ``edges``.
    """
    skeleton, edges = trace_parts(evaluation, query=query)
    columns = _columnar(edges, defeats, attacks)
    summary = columns or _summarize(edges, defeats)
    set_ids = [defeat_set_id(s) for s in edges.sets] if summary else None
    nodes = tuple(NodeRow(node_id, _NODE_TYPE[data["type"]], data.get("label", ""), tuple(data.get("names", ())))
                  for node_id, data in sorted(skeleton.nodes.items(), key=itemgetter(0)))
    makers = []
    if not columns:
        makers.append(lambda: _attack_rows(edges, set_ids))
    if not summary:
        makers.append(lambda: _defeat_rows(edges))
    makers.append(lambda: _skeleton_rows(skeleton))
    version = COLUMNS_SCHEMA_VERSION if columns else SUMMARY_SCHEMA_VERSION if summary else SCHEMA_VERSION
    return TraceRows(nodes=nodes, edges=EdgeRows(*makers), schema_version=version,
                     defeat_sets=sorted(zip(set_ids, edges.sets)) if summary else None,
                     attack_columns=_attack_columns(edges, set_ids) if columns else None)


def trace_edge_map(evaluation: Evaluation, *, query: str | None = None) -> dict[str, TraceEdge]:
    """The trace's edges by canonical edge id (:func:`symbolic.traces.naming.edge_id`), sorted: equal,
    key for key, to the edges of ``graph_to_trace(build_trace(evaluation))``, without the graph.

    >>> from symbolic.scenario.model import Analysis, Fact, Rule
    >>> from symbolic.engine.status import evaluate_analysis
    >>> a = Analysis(facts=[Fact(id="f1", literal="Delay(x)", evidence=["E-01"])],
    ...              rules=[Rule(id="r1", antecedents=["Delay(x)"], consequent="Penalty(x)", evidence=["E-02"])])
    >>> next(iter(trace_edge_map(evaluate_analysis(["E-01", "E-02"], a, "Penalty(x)"))))
    'derivation:arg:Delay(x)@...'
    """
    made = TraceEdge.model_construct
    out = {}
    for row in evaluation_rows(evaluation, query=query, defeats="edges", attacks="edges").edges:
        kind = row.get("kind")
        out[row["id"]] = made(source=row["source"], target=row["target"], type=EdgeType(row["type"]),
                              kind=AttackKind(kind) if kind is not None else None, lic=row.get("lic"),
                              state=row.get("state"), attack=row.get("attack"))
    return out


def trace_edge_attrs(evaluation: Evaluation, *, query: str | None = None) -> dict[str, tuple]:
    """The keys of :func:`trace_edge_map`, each with what an alignment compares (Algorithm 4):
    ``(state, lic)`` for an attack edge, ``()`` for any other, with no edge object made.

    >>> from symbolic.scenario.model import Analysis, Fact, Rule
    >>> from symbolic.engine.status import evaluate_analysis
    >>> a = Analysis(facts=[Fact(id="f1", literal="Delay(x)", evidence=["E-01"])],
    ...              rules=[Rule(id="r1", antecedents=["Delay(x)"], consequent="Penalty(x)", evidence=["E-02"])])
    >>> ev = evaluate_analysis(["E-01", "E-02"], a, "Penalty(x)")
    >>> list(trace_edge_attrs(ev)) == list(trace_edge_map(ev))
    True
    """
    rows = evaluation_rows(evaluation, query=query, defeats="edges", attacks="edges").edges
    return {row["id"]: (row["state"], row.get("lic")) if row["type"] == "attack" else () for row in rows}
