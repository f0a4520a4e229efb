"""The TNF edges of an evaluation's trace by canonical id, without a trace graph
(paper Section 4.3 and Algorithm 4, docs/semantics.md section 12).

:func:`trace_edge_map` gives what ``{edge_id(e): e for e in
graph_to_trace(build_trace(evaluation)).edges}`` gives -- the same
:class:`~symbolic.scenario.model.TraceEdge` values in the same order (sorted by edge
id) -- straight from :func:`symbolic.traces.trace.trace_parts`: no networkx graph is
built and the edge objects are made column by column
(:func:`symbolic.scenario.columns.build_models`), so a scorer that compares traces
edge by edge pays for the edges, not for a graph around them.
"""

from __future__ import annotations

from symbolic.engine.attack_table import KINDS
from symbolic.scenario.columns import Rows, build_models
from symbolic.scenario.labels import AttackKind
from symbolic.scenario.model import EdgeType, TraceEdge
from symbolic.traces.naming import EDGE_ARROW
from symbolic.engine.results import Evaluation
from symbolic.traces.trace import trace_parts

__all__ = ["trace_edge_attrs", "trace_edge_map"]

_FIELDS = tuple(TraceEdge.model_fields)
_ACTIVE, _DEFEATED = "active", "defeated"


def trace_edge_map(evaluation: Evaluation, *, query: str | None = None) -> dict[str, TraceEdge]:
    """The trace's edges by canonical edge id (:func:`symbolic.traces.naming.edge_id`), sorted by id.

    Parameters
    ----------
    evaluation : Evaluation
        From :func:`symbolic.engine.status.evaluate` or :func:`symbolic.traces.tnf.normal_form`.
    query : str, optional
        The query node's label (it does not change any edge).

    Returns
    -------
    dict of str to TraceEdge
        Equal, key for key and in order, to the edges of
        :func:`symbolic.traces.trace_graph.graph_to_trace` of :func:`symbolic.traces.trace.build_trace`.

    Examples
    --------
    >>> from symbolic.scenario.model import Analysis, Fact, Rule
    >>> from symbolic.engine.status import evaluate_analysis
    >>> a = Analysis(facts=[Fact(id="f1", literal="Delay(x)", evidence=["E-01"])],
    ...              rules=[Rule(id="r1", antecedents=["Delay(x)"], consequent="Penalty(x)",
    ...                          evidence=["E-02"])])
    >>> edges = trace_edge_map(evaluate_analysis(["E-01", "E-02"], a, "Penalty(x)"))
    >>> next(iter(edges))
    'derivation:arg:Delay(x)@...'
    """
    return _edge_map(*trace_parts(evaluation, query=query))


def trace_edge_attrs(evaluation: Evaluation, *, query: str | None = None) -> dict[str, tuple]:
    """The trace's edge ids, sorted, each with the attributes an alignment compares (Algorithm 4).

    The same keys, in the same order, as :func:`trace_edge_map`; the value is
    ``(state, lic)`` for an attack edge and ``()`` for any other edge, as
    :func:`scorer.align.align_edges` reads them from a
    :class:`~symbolic.scenario.model.TraceEdge`.  No edge object is made, so a scorer
    that needs only ids and these attributes pays for the ids alone.

    Parameters
    ----------
    evaluation : Evaluation
    query : str, optional
        The query node's label (it does not change any edge).

    Returns
    -------
    dict of str to tuple

    Examples
    --------
    >>> from symbolic.scenario.model import Analysis, Fact, Rule
    >>> from symbolic.engine.status import evaluate_analysis
    >>> a = Analysis(facts=[Fact(id="f1", literal="Delay(x)", evidence=["E-01"])],
    ...              rules=[Rule(id="r1", antecedents=["Delay(x)"], consequent="Penalty(x)",
    ...                          evidence=["E-02"])])
    >>> ev = evaluate_analysis(["E-01", "E-02"], a, "Penalty(x)")
    >>> list(trace_edge_attrs(ev)) == list(trace_edge_map(ev))
    True
    """
    skeleton, attacks = trace_parts(evaluation, query=query)
    rows: list[tuple] = []
    add = rows.append
    attack_type = EdgeType.ATTACK
    for _, _, key, data in skeleton.edges:
        add((key, (data.get("state"), data.get("lic")) if EdgeType(data["type"]) is attack_type else ()))
    nodes, rules, sets = attacks.node_ids, attacks.rule_nodes, attacks.sets
    heads = [f"attack:{AttackKind(k).value}:" for k in KINDS]
    states = (_DEFEATED, _ACTIVE)
    columns = zip(attacks.source.tolist(), attacks.target.tolist(), attacks.kind.tolist(),
                  attacks.lic.tolist(), attacks.active.tolist(), attacks.defeat_set.tolist())
    for source, target, kind, lic, active, chosen in columns:
        key = f"{heads[kind]}{nodes[source]}{EDGE_ARROW}{nodes[target]}"
        add((key, (states[active], rules[lic] if lic >= 0 else None)))
        if chosen >= 0:
            rows.extend((f"defeat:{priority}{EDGE_ARROW}{key}", ()) for priority in sets[chosen])
    rows.sort()
    attrs = dict(rows)
    del rows
    return attrs


def _edge_map(skeleton, attacks) -> dict[str, TraceEdge]:
    rows: list[tuple] = []  # (id, source, target, type, kind, lic, state, attack)
    add = rows.append
    for source, target, key, data in skeleton.edges:
        kind = data.get("kind")
        add((key, source, target, EdgeType(data["type"]), AttackKind(kind) if kind is not None else None,
             data.get("lic"), data.get("state"), data.get("attack")))
    nodes, rules, sets = attacks.node_ids, attacks.rule_nodes, attacks.sets
    kinds = [(AttackKind(k), f"attack:{AttackKind(k).value}:") for k in KINDS]
    attack_type, defeat_type = EdgeType.ATTACK, EdgeType.DEFEAT
    columns = zip(attacks.source.tolist(), attacks.target.tolist(), attacks.kind.tolist(), attacks.lic.tolist(),
                  attacks.active.tolist(), attacks.defeat_set.tolist())
    for source, target, kind, lic, active, chosen in columns:
        source_id, target_id, (attack_kind, head) = nodes[source], nodes[target], kinds[kind]
        key = f"{head}{source_id}{EDGE_ARROW}{target_id}"
        add((key, source_id, target_id, attack_type, attack_kind, rules[lic] if lic >= 0 else None,
             _ACTIVE if active else _DEFEATED, None))
        if chosen >= 0:
            for priority in sets[chosen]:
                add((f"defeat:{priority}{EDGE_ARROW}{key}", priority, target_id, defeat_type, None, None, None, key))
    rows.sort()
    if not rows:
        return {}
    ids, *values = zip(*rows)
    made = build_models(TraceEdge, Rows(len(rows), dict(zip(_FIELDS, values)), (frozenset(_FIELDS),)))
    return dict(zip(ids, made))
