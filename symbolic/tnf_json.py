"""The trace normal form on disk: canonical JSON, reading it back, consistency
checks and TNF equivalence (docs/semantics.md section 12).

:func:`tnf_json` writes ``{"edges": [...], "nodes": [...], "schema_version":
"tnf-v1"}`` with sorted keys, compact separators and UTF-8 text
(``ensure_ascii=False``); nodes are sorted by id, edges by
:func:`symbolic.naming.edge_id`, and each edge carries that id as ``id``.
Two TNF-equivalent traces serialize byte-identically.
"""

from __future__ import annotations

import json

from pydantic import ValidationError

from .errors import SymbolicError
from .model import EdgeType, NodeType, Trace, TraceEdge, TraceNode
from .naming import edge_id, trace_sort_key

__all__ = [
    "SCHEMA_VERSION",
    "TraceFormatError",
    "check_trace",
    "tnf_equivalent",
    "tnf_json",
    "trace_from_json",
]

SCHEMA_VERSION = "tnf-v1"


class TraceFormatError(SymbolicError, ValueError):
    """A serialized trace is malformed or inconsistent."""


def _canonical(trace: Trace) -> tuple[list[TraceNode], list[tuple[str, TraceEdge]]]:
    nodes = {n.id: n for n in sorted(trace.nodes, key=lambda n: (n.id, n.type.value, n.label))}
    edges = sorted({(trace_sort_key(e), e) for e in trace.edges}, key=lambda pair: pair[0])
    return [nodes[k] for k in sorted(nodes)], [(key[0], e) for key, e in edges]


def _edge_json(key: str, e: TraceEdge) -> dict:
    out = {"id": key, "source": e.source, "target": e.target, "type": e.type.value}
    if e.kind is not None:
        out["kind"] = e.kind.value
    for name in ("lic", "state", "attack"):
        value = getattr(e, name)
        if value is not None:
            out[name] = value
    return out


def tnf_json(trace: Trace) -> str:
    """Serialize a trace deterministically (sorted, compact, UTF-8 text).

    Parameters
    ----------
    trace : Trace
        Usually a TNF from :func:`tnf`.

    Returns
    -------
    str
        ``{"edges":[...],"nodes":[...],"schema_version":"tnf-v1"}``; each
        edge carries its :func:`edge_id` as ``id``.

    Examples
    --------
    >>> t = Trace(nodes=[TraceNode(id="status:both", type="status", label="both")])
    >>> tnf_json(t)
    '{"edges":[],"nodes":[{"id":"status:both","label":"both","type":"status"}],"schema_version":"tnf-v1"}'
    """
    nodes, edges = _canonical(trace)
    payload = {
        "schema_version": SCHEMA_VERSION,
        "nodes": [{"id": n.id, "label": n.label, "type": n.type.value} for n in nodes],
        "edges": [_edge_json(key, e) for key, e in edges],
    }
    return json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def tnf_equivalent(a: Trace, b: Trace) -> bool:
    """Whether two trace normal forms are equivalent (their TNF JSON is equal).

    Parameters
    ----------
    a, b : Trace
        Outputs of :func:`tnf` (or of :func:`trace_from_json`).

    Returns
    -------
    bool

    Examples
    --------
    >>> x = TraceNode(id="fact:a", type="fact", label="a")
    >>> y = TraceNode(id="fact:b", type="fact", label="b")
    >>> tnf_equivalent(Trace(nodes=[x, y]), Trace(nodes=[y, x])), tnf_equivalent(Trace(nodes=[x]), Trace())
    (True, False)
    """
    return tnf_json(a) == tnf_json(b)


def check_trace(trace: Trace) -> None:
    """Check a trace's internal consistency.

    Every edge endpoint is a declared node, edge ids are unique, attack edges
    carry a kind and a state and join two arguments, and a defeat edge comes
    from a priority and names a defeated attack edge whose target it points to.

    Parameters
    ----------
    trace : Trace

    Raises
    ------
    TraceFormatError
        Naming the first offending node or edge.

    Examples
    --------
    >>> check_trace(Trace(edges=[TraceEdge(source="evidence:E-01", target="fact:a", type="grounding")]))
    Traceback (most recent call last):
    ...
    symbolic.tnf_json.TraceFormatError: edges.0: grounding:evidence:E-01→fact:a: unknown source node 'evidence:E-01'
    """
    types = {}
    for i, node in enumerate(trace.nodes):
        if node.id in types:
            raise TraceFormatError(f"nodes.{i}: duplicate node id {node.id!r}")
        types[node.id] = node.type
    attacks, seen = {}, set()
    for i, edge in enumerate(trace.edges):
        key = edge_id(edge)
        where = f"edges.{i}: {key}"
        if key in seen:
            raise TraceFormatError(f"{where}: duplicate edge id")
        seen.add(key)
        for end in ("source", "target"):
            if getattr(edge, end) not in types:
                raise TraceFormatError(f"{where}: unknown {end} node {getattr(edge, end)!r}")
        if edge.type is EdgeType.ATTACK:
            if edge.kind is None or edge.state is None:
                raise TraceFormatError(f"{where}: an attack edge needs a kind and a state")
            if types[edge.source] is not NodeType.ARGUMENT or types[edge.target] is not NodeType.ARGUMENT:
                raise TraceFormatError(f"{where}: an attack edge joins two arguments")
            attacks[key] = edge
    for i, edge in enumerate(trace.edges):
        if edge.type is not EdgeType.DEFEAT:
            continue
        where = f"edges.{i}: {edge_id(edge)}"
        if types[edge.source] is not NodeType.PRIORITY:
            raise TraceFormatError(f"{where}: a defeat edge starts at a priority node")
        attack = attacks.get(edge.attack)
        if attack is None:
            raise TraceFormatError(f"{where}: names no attack edge of this trace ({edge.attack!r})")
        if attack.state != "defeated" or attack.target != edge.target:
            raise TraceFormatError(f"{where}: the attack it names must be defeated and end at {edge.target!r}")


def trace_from_json(text: str) -> Trace:
    """Read a trace written by :func:`tnf_json` (or any ``{"nodes", "edges"}`` JSON).

    Parameters
    ----------
    text : str
        The JSON text.

    Returns
    -------
    Trace
        Checked with :func:`check_trace`.

    Raises
    ------
    TraceFormatError
        If the text is not valid JSON, has an unknown schema version, a field
        fails validation, an edge's ``id`` differs from its :func:`edge_id`,
        or the trace is inconsistent.

    Examples
    --------
    >>> t = Trace(nodes=[TraceNode(id="status:both", type="status", label="both")])
    >>> trace_from_json(tnf_json(t)) == t
    True
    """
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise TraceFormatError(f"not valid JSON: {exc.msg.removesuffix(' at')} at line {exc.lineno} column {exc.colno}") from None
    if not isinstance(data, dict):
        raise TraceFormatError(f"a trace must be a JSON object, got {type(data).__name__}")
    version = data.pop("schema_version", SCHEMA_VERSION)
    if version != SCHEMA_VERSION:
        raise TraceFormatError(f"unknown schema_version {version!r}; expected {SCHEMA_VERSION!r}")
    edges, ids = [], []
    for i, edge in enumerate(data.get("edges", ())):
        if not isinstance(edge, dict):
            raise TraceFormatError(f"edges.{i}: an edge must be an object, got {edge!r}")
        edge = dict(edge)
        ids.append((i, edge.pop("id", None)))
        edges.append(edge)
    try:
        trace = Trace.model_validate({**data, "edges": edges})
    except ValidationError as exc:
        error = exc.errors()[0]
        loc = ".".join(str(p) for p in error["loc"])
        raise TraceFormatError(f"{loc}: {error['msg']} (got {error.get('input')!r})") from None
    for (i, given), edge in zip(ids, trace.edges):
        if given is not None and given != edge_id(edge):
            raise TraceFormatError(f"edges.{i}: id {given!r} does not match its content ({edge_id(edge)!r})")
    check_trace(trace)
    return trace
