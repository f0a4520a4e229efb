"""The TNF edges of an evaluation's trace by canonical id, without a trace graph
(paper Section 4.3 and Algorithm 4, docs/semantics.md section 12).

:func:`trace_edge_map` gives what ``{edge_id(e): e for e in
graph_to_trace(build_trace(evaluation)).edges}`` gives -- the same
:class:`~symbolic.scenario.model.TraceEdge` values in the same order (sorted by edge
id) -- from the rows of :func:`symbolic.traces.trace.evaluation_rows` (the trace value every
output is written from): no networkx graph is built, so a scorer that compares traces
edge by edge pays for the edges, not for a graph around them.
"""

from __future__ import annotations

from symbolic.engine.results import Evaluation
from symbolic.scenario.labels import AttackKind
from symbolic.scenario.model import EdgeType, TraceEdge
from symbolic.traces.trace import evaluation_rows

__all__ = ["trace_edge_attrs", "trace_edge_map"]


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
    made = TraceEdge.model_construct
    out = {}
    for row in evaluation_rows(evaluation, query=query, defeats="edges", attacks="edges").edges:
        kind = row.get("kind")
        out[row["id"]] = made(source=row["source"], target=row["target"], type=EdgeType(row["type"]),
                              kind=AttackKind(kind) if kind is not None else None, lic=row.get("lic"),
                              state=row.get("state"), attack=row.get("attack"))
    return out


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
    rows = evaluation_rows(evaluation, query=query, defeats="edges", attacks="edges").edges
    return {row["id"]: (row["state"], row.get("lic")) if row["type"] == "attack" else () for row in rows}
