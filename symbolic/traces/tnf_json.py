"""The trace normal form on disk (docs/semantics.md section 12): the canonical JSON writer
(:func:`write_tnf`, :func:`tnf_json`), reading it back with its consistency checks
(:func:`trace_from_json`, :func:`check_trace`), the compact forms expanded (:func:`expand_tnf`) and
TNF equivalence.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping

from json.encoder import encode_basestring as _quote  # json.dumps(text, ensure_ascii=False) of a string

from pydantic import ValidationError

from symbolic.errors import SymbolicError
from symbolic.scenario.model import EdgeType, NodeType, Trace, TraceEdge, TraceNode
from symbolic.traces.naming import EDGE_ARROW, edge_id
from symbolic.traces.trace_rows import (COLUMNS_SCHEMA_VERSION, SCHEMA_VERSION, SUMMARY_SCHEMA_VERSION, TraceRows, pieces,
                                        rows_of_trace)

__all__ = [
    "COLUMNS_SCHEMA_VERSION",
    "SCHEMA_VERSION",
    "SUMMARY_SCHEMA_VERSION",
    "TraceFormatError",
    "check_trace",
    "expand_tnf",
    "tnf_equivalent",
    "tnf_json",
    "trace_from_json",
    "write_tnf",
]

_BLOCK = 1 << 16  # integers of a column per piece

_ATTACK_COLUMNS = ("active", "arguments", "defeats", "kind", "kinds", "lic", "rules", "source", "target")


class TraceFormatError(SymbolicError, ValueError):
    """A serialized trace is malformed or inconsistent."""


def _dumps(value) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _row(row: dict) -> str:
    """:func:`_dumps` of a row whose values are strings (a trace's node and edge rows), without the
    encoder's per-call set-up: each value through ``json``'s own string encoder."""
    try:
        return "{" + ",".join([f'"{key}":{_quote(row[key])}' for key in sorted(row)]) + "}"
    except TypeError:  # a value that is not a string
        return _dumps(row)


def write_tnf(rows: TraceRows) -> Iterator[bytes]:
    """The TNF JSON of a trace, in UTF-8 pieces: the one writer of the format.

    Exactly ``json.dumps(..., sort_keys=True, separators=(",", ":"), ensure_ascii=False)`` of
    ``{"edges": [...], "nodes": [...], "schema_version": ...}``, plus ``"defeat_sets"`` in the
    summary form and ``"attack_edges"`` in the columns form (:mod:`symbolic.traces.trace_rows`).

    Examples
    --------
    >>> from symbolic.traces.trace_rows import NodeRow
    >>> b"".join(write_tnf(TraceRows(nodes=[NodeRow("status:both", "status", "both")], edges=[])))
    b'{"edges":[],"nodes":[{"id":"status:both","label":"both","type":"status"}],"schema_version":"tnf-v1"}'
    """
    yield b"{"
    if rows.attack_columns is not None:
        yield b'"attack_edges":{'
        for i, (name, column) in enumerate(rows.attack_columns.items()):
            yield (("," if i else "") + _dumps(name) + ":[").encode("utf-8")
            if hasattr(column, "tolist"):  # integers: written a block at a time
                for start in range(0, len(column), _BLOCK):  # the repr of a list of ints, without its spaces
                    text = repr(column[start:start + _BLOCK].tolist())[1:-1].replace(", ", ",")
                    yield (("," if start else "") + text).encode()
            else:
                yield _dumps(list(column))[1:-1].encode("utf-8")
            yield b"]"
        yield b"},"
    if rows.defeat_sets is not None:
        yield b'"defeat_sets":['
        sets = (_dumps({"id": ident, "priorities": list(members)}) for ident, members in rows.defeat_sets)
        yield from pieces(sets, ",")
        yield b"],"
    yield b'"edges":['
    yield from pieces(map(_row, rows.edges), ",")
    yield b'],"nodes":['
    yield from pieces((_row({"id": n.id, "label": n.label, "type": n.type}) for n in rows.nodes), ",")
    yield f'],"schema_version":{_dumps(rows.schema_version)}}}'.encode("utf-8")


def tnf_json(trace: Trace) -> str:
    """Serialize a trace deterministically: :func:`write_tnf` of
    :func:`~symbolic.traces.trace_rows.rows_of_trace`, each edge with its :func:`edge_id` as ``id``.

    Examples
    --------
    >>> t = Trace(nodes=[TraceNode(id="status:both", type="status", label="both")])
    >>> tnf_json(t)
    '{"edges":[],"nodes":[{"id":"status:both","label":"both","type":"status"}],"schema_version":"tnf-v1"}'
    """
    return b"".join(write_tnf(rows_of_trace(trace))).decode("utf-8")


def tnf_equivalent(a: Trace, b: Trace) -> bool:
    """Whether two trace normal forms are equivalent: their TNF JSON is equal.

    Examples
    --------
    >>> x = TraceNode(id="fact:a", type="fact", label="a")
    >>> y = TraceNode(id="fact:b", type="fact", label="b")
    >>> tnf_equivalent(Trace(nodes=[x, y]), Trace(nodes=[y, x])), tnf_equivalent(Trace(nodes=[x]), Trace())
    (True, False)
    """
    return tnf_json(a) == tnf_json(b)


def check_trace(trace: Trace) -> None:
    """Check that every edge endpoint is a declared node, edge ids are unique, attack edges carry a
    kind and a state and join two arguments, and a defeat edge comes from a priority and names a
    defeated attack edge whose target it points to.

    Raises
    ------
    TraceFormatError
        Naming the first offending node or edge.

    Examples
    --------
    >>> check_trace(Trace(edges=[TraceEdge(source="evidence:E-01", target="fact:a", type="grounding")]))
    Traceback (most recent call last):
    ...
    symbolic.traces.tnf_json.TraceFormatError: edges.0: grounding:evidence:E-01→fact:a: unknown source node 'evidence:E-01'
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
    """Read a trace written by :func:`tnf_json` or :func:`write_tnf` (compact forms expanded), checked
    with :func:`check_trace`.

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
    if data.get("schema_version", SCHEMA_VERSION) != SCHEMA_VERSION:
        data = expand_tnf(data)
    data.pop("schema_version", None)
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


def _defeat_sets(data: Mapping) -> list[tuple[str, list[str]]]:
    sets = data.get("defeat_sets", [])
    if not isinstance(sets, list):
        raise TraceFormatError(f"defeat_sets: must be a list, got {type(sets).__name__}")
    out = []
    for i, entry in enumerate(sets):
        ident = entry.get("id") if isinstance(entry, dict) else None
        priorities = entry.get("priorities") if isinstance(entry, dict) else None
        if not isinstance(ident, str) or not isinstance(priorities, list) \
                or not all(isinstance(p, str) for p in priorities):
            raise TraceFormatError(f"defeat_sets.{i}: a defeat set is {{\"id\": str, \"priorities\": [str]}}, "
                                   f"got {entry!r}")
        out.append((ident, priorities))
    return out


def _defeat_edges(attack: Mapping, priorities: list[str]) -> list[dict]:
    """The defeat edges an attack edge with this defeat set stands for."""
    key, target = attack["id"], attack["target"]
    return [{"attack": key, "id": f"defeat:{p}{EDGE_ARROW}{key}", "source": p, "target": target, "type": "defeat"}
            for p in priorities]


def _column(columns: Mapping, name: str, n: int | None, size: int | None = None, low: int = 0) -> list:
    values = columns.get(name)
    where = f"attack_edges.{name}"
    if not isinstance(values, list):
        raise TraceFormatError(f"{where}: must be a list, got {type(values).__name__}")
    if n is not None and len(values) != n:
        raise TraceFormatError(f"{where}: has {len(values)} rows, attack_edges.source has {n}")
    if size is None:
        if not all(isinstance(v, str) for v in values):
            raise TraceFormatError(f"{where}: must list strings")
        return values
    for i, v in enumerate(values):
        if type(v) is not int or not low <= v < size:
            raise TraceFormatError(f"{where}.{i}: must be an integer in [{low}, {size}), got {v!r}")
    return values


def _attack_rows(columns, sets: list[tuple[str, list[str]]]) -> list[dict]:
    """The attack and defeat edges that the columns of the columnar form stand for."""
    if not isinstance(columns, dict):
        raise TraceFormatError(f"attack_edges: must be an object, got {type(columns).__name__}")
    unknown = sorted(set(columns) - set(_ATTACK_COLUMNS))
    if unknown:
        raise TraceFormatError(f"attack_edges.{unknown[0]}: unknown column; expected {', '.join(_ATTACK_COLUMNS)}")
    arguments, rules, kinds = (_column(columns, name, None) for name in ("arguments", "rules", "kinds"))
    source = _column(columns, "source", None, len(arguments))
    n = len(source)
    target = _column(columns, "target", n, len(arguments))
    kind = _column(columns, "kind", n, len(kinds))
    lic = _column(columns, "lic", n, len(rules), low=-1)
    active = _column(columns, "active", n, 2)
    chosen = _column(columns, "defeats", n, len(sets), low=-1)
    edges = []
    for i in range(n):
        s, t, k = arguments[source[i]], arguments[target[i]], kinds[kind[i]]
        edge = {"id": f"attack:{k}:{s}{EDGE_ARROW}{t}", "kind": k, "source": s,
                "state": "active" if active[i] else "defeated", "target": t, "type": "attack"}
        if lic[i] >= 0:
            edge["lic"] = rules[lic[i]]
        edges.append(edge)
        if chosen[i] >= 0:
            edges.extend(_defeat_edges(edge, sets[chosen[i]][1]))
    return edges


def expand_tnf(data: Mapping) -> dict:
    """The full form (``tnf-v1``) of a parsed TNF in any of its three forms, edges sorted by id (its
    canonical ``json.dumps`` is the :func:`tnf_json` text); ``data`` itself is not changed.

    Raises
    ------
    TraceFormatError
        For an unknown schema version, a malformed defeat set or column, or
        a set id or index that names nothing.

    Examples
    --------
    >>> expand_tnf({"defeat_sets": [{"id": "defeats:x", "priorities": ["priority:p"]}],
    ...             "edges": [{"defeats": "defeats:x", "id": "attack:rebut:arg:a→arg:b", "kind": "rebut",
    ...                        "source": "arg:a", "state": "defeated", "target": "arg:b", "type": "attack"}],
    ...             "nodes": [], "schema_version": "tnf-v1-summary"})["edges"][1]["id"]
    'defeat:priority:p→attack:rebut:arg:a→arg:b'
    """
    version = data.get("schema_version", SCHEMA_VERSION)
    known = (SCHEMA_VERSION, SUMMARY_SCHEMA_VERSION, COLUMNS_SCHEMA_VERSION)
    if version not in known:
        raise TraceFormatError(f"unknown schema_version {version!r}; expected one of {', '.join(map(repr, known))}")
    out = {k: v for k, v in data.items() if k not in ("attack_edges", "defeat_sets")}
    out["schema_version"] = SCHEMA_VERSION
    if version == SCHEMA_VERSION:
        return out
    sets = _defeat_sets(data)
    by_id = dict(sets)
    given = data.get("edges", [])
    if not isinstance(given, list):
        raise TraceFormatError(f"edges: must be a list, got {type(given).__name__}")
    edges = []
    for i, edge in enumerate(given):
        if not isinstance(edge, dict):
            raise TraceFormatError(f"edges.{i}: an edge must be an object, got {edge!r}")
        if "defeats" not in edge:
            edges.append(edge)
            continue
        edge = dict(edge)
        chosen = edge.pop("defeats")
        if chosen not in by_id:
            raise TraceFormatError(f"edges.{i}.defeats: names no defeat set of this trace ({chosen!r})")
        if not isinstance(edge.get("id"), str) or not isinstance(edge.get("target"), str):
            raise TraceFormatError(f"edges.{i}: an attack edge with a defeat set needs its id and target")
        edges.append(edge)
        edges.extend(_defeat_edges(edge, by_id[chosen]))
    if version == COLUMNS_SCHEMA_VERSION:
        if "attack_edges" not in data:
            raise TraceFormatError("attack_edges: missing (schema tnf-v1-columns)")
        edges.extend(_attack_rows(data["attack_edges"], sets))
    out["edges"] = sorted(edges, key=lambda e: str(e.get("id", "")))
    return out
