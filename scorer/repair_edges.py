"""Edge-level deterministic repair (paper Appendix A.8, steps 5-6).

* serialized attack records become typed :class:`~symbolic.scenario.model.AttackEdge`
  objects through :func:`symbolic.traces.records.parse_record` (the TNF's own
  converter; see :mod:`scorer.repair`);
* :func:`to_trace_edge` turns a provenance event of the trace graph
  (``{"event": "grounds", "from": "E-01", "to": "f1"}``, ``"derives"``,
  ``"rebuts"``, ``"defeats"``...) into a typed :class:`~symbolic.scenario.model.TraceEdge`;
* :func:`reject_unsourced_edges` drops every trace edge whose source has no
  path from a cited evidence fragment of the package.

Each function returns what it changed so the caller can log it.
"""

from __future__ import annotations

from collections import deque
from typing import Iterable, Mapping

from symbolic.engine.grounding import Theory
from symbolic.scenario.labels import normalize_evidence_id
from symbolic.scenario.model import EdgeType, NodeType, TraceEdge, TraceNode
from symbolic.traces.records import normalize_attack_kind

__all__ = ["reject_unsourced_edges", "to_trace_edge"]

_SOURCE_KEYS = ("source", "attacker", "from", "by", "src", "head")
_TARGET_KEYS = ("target", "attacked", "to", "on", "dst", "tail")
_KIND_KEYS = ("kind", "attack_type", "attack_kind", "type", "relation", "event")
_LIC_KEYS = ("lic", "licensing_rule", "via", "rule")

_EDGE_TYPES = {
    "grounding": EdgeType.GROUNDING, "grounds": EdgeType.GROUNDING, "grounded": EdgeType.GROUNDING,
    "grounded_in": EdgeType.GROUNDING, "cites": EdgeType.GROUNDING, "cite": EdgeType.GROUNDING,
    "derivation": EdgeType.DERIVATION, "derives": EdgeType.DERIVATION,
    "derive": EdgeType.DERIVATION, "derived": EdgeType.DERIVATION, "supports": EdgeType.DERIVATION,
    "support": EdgeType.DERIVATION, "applies": EdgeType.DERIVATION, "apply": EdgeType.DERIVATION,
    "infers": EdgeType.DERIVATION, "premise": EdgeType.DERIVATION,
    "attack": EdgeType.ATTACK, "attacks": EdgeType.ATTACK,
    "defeat": EdgeType.DEFEAT, "defeats": EdgeType.DEFEAT, "neutralizes": EdgeType.DEFEAT,
    "neutralises": EdgeType.DEFEAT, "overrides": EdgeType.DEFEAT, "prevails": EdgeType.DEFEAT,
    "prevails_over": EdgeType.DEFEAT, "priority": EdgeType.DEFEAT,
    "status": EdgeType.STATUS, "concludes": EdgeType.STATUS, "yields": EdgeType.STATUS,
}
_TYPE_PREFIXES = tuple(f"{t.value}:" for t in NodeType)


def _key(text: str) -> str:
    return "_".join(str(text).strip().lower().replace("-", " ").split())


def _first(record: Mapping, keys: Iterable[str]):
    for key in keys:
        if key in record and record[key] is not None:
            return key, record[key]
    return None, None


def to_trace_edge(record: Mapping) -> TraceEdge:
    """Convert a provenance event or an attack record into a typed trace edge.

    Parameters
    ----------
    record : mapping
        A :class:`~symbolic.scenario.model.TraceEdge` dict, or an event with a relation
        (``type``, ``relation``, ``event``: grounds, derives, attacks, defeats,
        concludes...) and endpoints (``from``/``to``, ``source``/``target``).
        An attack kind as relation (``rebuts``) makes an attack edge.

    Returns
    -------
    TraceEdge

    Raises
    ------
    ValueError
        If the record has no endpoints or no recognizable relation.

    Examples
    --------
    >>> e = to_trace_edge({"event": "grounds", "from": "E_01", "to": "f1"})
    >>> e.source, e.target, e.type.value
    ('E-01', 'f1', 'grounding')
    >>> to_trace_edge({"from": "A2", "to": "A1", "relation": "undercuts", "via": "r4"}).kind
    <AttackKind.UNDERCUT: 'undercut'>
    """
    if not isinstance(record, Mapping):
        raise ValueError(f"a trace edge must be an object, got {record!r}")
    try:
        edge = TraceEdge.model_validate(dict(record))
    except ValueError:
        pass
    else:
        return edge.model_copy(update={"source": _endpoint(edge.source),
                                       "target": _endpoint(edge.target)})
    _, source = _first(record, _SOURCE_KEYS)
    _, target = _first(record, _TARGET_KEYS)
    if source is None or target is None:
        raise ValueError(f"trace edge lacks a source or target: {dict(record)!r}")
    edge_type = kind = None
    for key in _KIND_KEYS:
        value = record.get(key)
        if value is None or isinstance(value, (bool, int, float)):
            continue
        label = _key(value)
        if edge_type is None and label in _EDGE_TYPES:
            edge_type = _EDGE_TYPES[label]
        elif kind is None:
            try:
                kind = normalize_attack_kind(value)
            except ValueError:
                pass
    if edge_type is None and kind is not None:
        edge_type = EdgeType.ATTACK
    if edge_type is None:
        raise ValueError(f"trace edge has no recognizable type: {dict(record)!r}")
    state = record.get("state")
    if state is None and isinstance(record.get("defeated"), bool):
        state = "defeated" if record["defeated"] else "active"
    if state is None and isinstance(record.get("active"), bool):
        state = "active" if record["active"] else "defeated"
    if isinstance(state, str):
        state = _key(state)
    _, lic = _first(record, _LIC_KEYS)
    attack = edge_type is EdgeType.ATTACK
    extra = {}
    if edge_type is EdgeType.DEFEAT and isinstance(record.get("attack"), str):
        extra["attack"] = record["attack"]
    return TraceEdge(source=_endpoint(source), target=_endpoint(target), type=edge_type,
                     kind=kind if attack else None,
                     lic=None if lic is None or not attack else str(lic),
                     state=state if attack else None, **extra)


def _endpoint(value) -> str:
    text = str(value).strip()
    return normalize_evidence_id(text) if text else text


def _resolve(node: str, known: set[str]) -> str:
    if node in known:
        return node
    for prefix in _TYPE_PREFIXES:
        if node.startswith(prefix) and node[len(prefix):] in known:
            return node[len(prefix):]
    return node


def reject_unsourced_edges(edges: Iterable[TraceEdge], *, theory: Theory,
                           nodes: Iterable[TraceNode] = ()) -> tuple[tuple[TraceEdge, ...],
                                                                    tuple[tuple[TraceEdge, str], ...]]:
    """Keep the trace edges whose source has a path from a cited evidence fragment.

    The roots are the evidence fragments of the package, the grounded facts,
    rules and priorities of ``theory`` (their own citations are the path) and
    the query node.  An edge is kept iff its source is reachable from a root
    along edges (a node id may carry its type as prefix, ``fact:f1``).

    Parameters
    ----------
    edges : iterable of TraceEdge
    theory : Theory
        The grounded objects (:func:`symbolic.engine.grounding.ground`).
    nodes : iterable of TraceNode
        Declared trace nodes (query nodes are roots).

    Returns
    -------
    (tuple of TraceEdge, tuple of (TraceEdge, str))
        Kept edges, in input order, and rejected edges with the reason.

    Examples
    --------
    >>> from symbolic.engine.grounding import ground
    >>> from symbolic.scenario.model import Analysis, Fact
    >>> th = ground({"E-01"}, Analysis(facts=[Fact(id="f1", literal="Delay(x)", evidence=["E-01"])]))
    >>> good = to_trace_edge({"type": "derivation", "from": "f1", "to": "A1"})
    >>> bad = to_trace_edge({"type": "grounding", "from": "E-09", "to": "f2"})
    >>> kept, rejected = reject_unsourced_edges([good, bad], theory=th)
    >>> [e.source for e in kept], [reason for _, reason in rejected]
    (['f1'], ['source E-09 has no path from a cited evidence fragment'])
    """
    edges = tuple(edges)
    roots = set(theory.evidence)
    roots |= {f.id for f in theory.facts} | {r.id for r in theory.rules}
    roots |= {p.id for p in theory.priorities}
    roots |= {n.id for n in nodes if n.type is NodeType.QUERY}
    known = roots
    out: dict[str, list[str]] = {}
    for edge in edges:
        out.setdefault(_resolve(edge.source, known), []).append(_resolve(edge.target, known))
    reached = set(roots)
    queue = deque(sorted(roots))
    while queue:
        node = queue.popleft()
        for nxt in out.get(node, ()):
            if nxt not in reached:
                reached.add(nxt)
                queue.append(nxt)
    kept, rejected = [], []
    for edge in edges:
        if _resolve(edge.source, known) in reached:
            kept.append(edge)
        else:
            rejected.append((edge, f"source {edge.source} has no path from a cited evidence fragment"))
    return tuple(kept), tuple(rejected)
