"""Streamed TNF JSON and DOT of an evaluation, without a Python object per
attack or defeat edge (paper Section 4.3, docs/semantics.md section 12).

:func:`iter_tnf_json` yields the text of :func:`symbolic.traces.tnf_json.tnf_json`
in chunks, byte for byte, for the trace of an evaluation: the few nodes and
grounding, derivation and status edges come from the skeleton of
:func:`symbolic.traces.trace.trace_parts`, the attack and defeat edges straight from
the columns of :class:`~symbolic.traces.trace_attacks.AttackEdges`, already in
canonical order (``attack:`` < ``defeat:`` < ``derivation:`` < ``grounding:``
< ``status:``).

**Summarized defeats.**  With dense priorities a trace has about one defeat
edge per attack *per rule of the attacked team*, which no reader needs one
by one.  In the ``summary`` form (schema ``tnf-v1-summary``) the defeat edges
are left out; each defeated attack edge carries ``"defeats": "<set id>"`` and
the top-level ``"defeat_sets"`` lists every set once as ``{"id":
"defeats:<12 hex>", "priorities": [...]}``.  The attack edge ``e`` with set
``d`` stands for the defeat edges ``priority -> target(e)`` with ``attack =
id(e)``, one per priority of ``d``: the same content, linear in the attack
edges.  :data:`DEFEAT_EDGE_LIMIT` decides in ``auto`` mode.

**Attack columns.**  Above :data:`ATTACK_EDGE_LIMIT` attack edges (``auto``)
or on request (``attacks="columns"``) the attack edges themselves are
written as columns (schema ``tnf-v1-columns``, always with defeat sets):
``"attack_edges": {"active", "arguments", "defeats", "kind", "kinds", "lic",
"rules", "source", "target"}``.  Row ``i`` stands for the attack edge from
``arguments[source[i]]`` to ``arguments[target[i]]`` of kind
``kinds[kind[i]]``, licensed by ``rules[lic[i]]`` (no ``lic`` when ``-1``),
``active`` when ``active[i]`` is 1, else ``defeated`` with the defeat set
``defeat_sets[defeats[i]]``; the rows are in canonical order and
``"edges"`` holds the other edges.  :func:`symbolic.traces.tnf_json.expand_tnf`
turns either compact form back into the full one.

**Bytes.**  :func:`iter_tnf_bytes` and :func:`iter_dot_bytes` yield the UTF-8
text directly: the attack and defeat lines are built in bulk from the
columns (:func:`symbolic.traces.byte_rows.rows`), one ``bytes.join`` per chunk of
:data:`symbolic.traces.byte_rows.CHUNK` lines; :func:`iter_tnf_json` and
:func:`iter_dot` decode the same chunks.
"""

from __future__ import annotations

from json.encoder import encode_basestring
from typing import Iterator

import numpy as np

from symbolic.engine.attack_table import KINDS
from symbolic.traces.byte_rows import decimal_blocks, rows, table
from symbolic.traces.defeat_set_members import set_id
from symbolic.traces.dot import _EDGE_STYLE, dot_escape
from symbolic.scenario.model import EdgeType
from symbolic.traces.naming import EDGE_ARROW, string_ranks
from symbolic.engine.results import Evaluation
from symbolic.traces.tnf_json import COLUMNS_SCHEMA_VERSION, SCHEMA_VERSION, SUMMARY_SCHEMA_VERSION
from symbolic.traces.skeleton_rows import SkeletonRows
from symbolic.traces.trace import trace_parts
from symbolic.traces.trace_attacks import AttackEdges

__all__ = ["ATTACKS_MODES", "ATTACK_EDGE_LIMIT", "COLUMNS_SCHEMA_VERSION", "DEFEAT_EDGE_LIMIT", "DEFEATS_MODES",
           "SUMMARY_SCHEMA_VERSION", "defeat_set_id", "iter_dot", "iter_dot_bytes", "iter_tnf_bytes", "iter_tnf_json"]

DEFEAT_EDGE_LIMIT = 200_000
ATTACK_EDGE_LIMIT = 200_000
DEFEATS_MODES = ("auto", "edges", "summary")
ATTACKS_MODES = ("auto", "edges", "columns")
_KINDS = tuple(k.value for k in KINDS)

# ``json.dumps(text, ensure_ascii=False)`` of a string, without the encoder's per-call overhead.
_q = encode_basestring


def defeat_set_id(priorities) -> str:
    """The id of a defeat set: ``defeats:`` and 12 hex of the sha256 of its sorted priority ids.

    >>> defeat_set_id(["priority:(b=>¬p)>(a=>p)"])[:8]
    'defeats:'
    """
    return set_id("\n".join(sorted(priorities)).encode("utf-8"))


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


def _attack_columns(edges: AttackEdges, set_ids: list[str]) -> Iterator[bytes]:
    """The ``"attack_edges"`` member of the columnar form (keys sorted, compact), in pieces."""
    rank = string_ranks(set_ids)  # sets are listed sorted by id
    chosen = np.full(len(edges), -1, dtype=np.int64)
    defeated = edges.defeat_set >= 0
    chosen[defeated] = rank[edges.defeat_set[defeated]]
    lists = (  # keys sorted; each column's decimals come block by block, never joined
        ("active", decimal_blocks(edges.active)),
        ("arguments", [",".join(_q(n) for n in edges.node_ids).encode("utf-8")]),
        ("defeats", decimal_blocks(chosen)),
        ("kind", decimal_blocks(edges.kind)),
        ("kinds", [",".join(f'"{k}"' for k in _KINDS).encode("utf-8")]),
        ("lic", decimal_blocks(edges.lic)),
        ("rules", [",".join(_q(r) for r in edges.rule_nodes).encode("utf-8")]),
        ("source", decimal_blocks(edges.source)),
        ("target", decimal_blocks(edges.target)),
    )
    yield b'"attack_edges":{'
    for i, (name, pieces) in enumerate(lists):
        yield b'%s"%s":[' % (b"," if i else b"", name.encode())
        yield from pieces
        yield b"]"
    yield b"},"


def _attack_rows(edges: AttackEdges, set_ids: list[str] | None) -> Iterator[bytes]:
    """JSON objects of the attack edges, in canonical order (sorted keys, compact), each after a comma."""
    n, kinds = len(edges.node_ids), _KINDS
    node = [_q(x)[1:-1] for x in edges.node_ids]
    heads = [",{"] + [f',{{"defeats":"{i}",' for i in (set_ids or ())]
    kind_source = [f'"id":"attack:{k}:{s}{EDGE_ARROW}' for k in kinds for s in node]
    target_kind = [f'{t}","kind":"{k}",' for t in node for k in kinds]
    lic = [""] + [f'"lic":{_q(r)},' for r in edges.rule_nodes]
    source_state = [f'"source":"{s}","state":"{state}","target":"' for s in node for state in ("defeated", "active")]
    target = [f'{t}","type":"attack"}}' for t in node]
    src, dst, kind = edges.source, edges.target, edges.kind
    chosen = edges.defeat_set + 1 if set_ids is not None else np.zeros(len(edges), dtype=np.int64)
    yield from rows([(table(heads), chosen), (table(kind_source), kind * n + src),
                     (table(target_kind), dst * len(kinds) + kind), (table(lic), edges.lic + 1),
                     (table(source_state), src * 2 + edges.active), (table(target), dst)], len(edges))


def _defeat_rows(edges: AttackEdges) -> Iterator[bytes]:
    """JSON objects of the defeat edges of the full form, in canonical order, each after a comma."""
    edge, priority, priorities = edges.defeat_order()
    if not len(edge):
        return
    node = [_q(x)[1:-1] for x in edges.node_ids]
    prio = [_q(p)[1:-1] for p in priorities]
    n, kinds = len(node), _KINDS
    src, dst = edges.source[edge], edges.target[edge]
    kind_source = edges.kind[edge] * n + src
    yield from rows([
        (table([f',{{"attack":"attack:{k}:{s}{EDGE_ARROW}' for k in kinds for s in node]), kind_source),
        (table([f'{t}","id":"defeat:' for t in node]), dst),
        (table([f"{p}{EDGE_ARROW}attack:" for p in prio]), priority),
        (table([f"{k}:{s}{EDGE_ARROW}" for k in kinds for s in node]), kind_source),
        (table([f'{t}","source":"' for t in node]), dst),
        (table([f'{p}","target":"' for p in prio]), priority),
        (table([f'{t}","type":"defeat"}}' for t in node]), dst)], len(edge))


def _listed(parts: Iterator[bytes]) -> Iterator[bytes]:
    """Items that each start with a comma, as the body of a JSON list (the first comma dropped)."""
    first = True
    for part in parts:
        if not part:
            continue
        yield part[1:] if first else part
        first = False


def iter_tnf_bytes(evaluation: Evaluation, *, query: str | None = None, defeats: str = "auto",
                   attacks: str = "auto") -> Iterator[bytes]:
    """The TNF JSON of an evaluation's trace as UTF-8 ``bytes``, in chunks.

    Parameters
    ----------
    evaluation : Evaluation
        From :func:`symbolic.traces.tnf.normal_form` (its ``evaluation``).
    query : str, optional
        The query node's label.
    defeats : {"auto", "edges", "summary"}
        ``edges``: one defeat edge per priority and attack edge, exactly
        :func:`symbolic.traces.tnf_json.tnf_json` of the trace; ``summary``: defeat
        sets (module docstring); ``auto``: ``summary`` only when the full form
        would have more than :data:`DEFEAT_EDGE_LIMIT` defeat edges.
    attacks : {"auto", "edges", "columns"}
        ``edges``: one JSON object per attack edge; ``columns``: the attack
        edges as columns, with defeat sets (module docstring); ``auto``:
        ``columns`` only above :data:`ATTACK_EDGE_LIMIT` attack edges and
        unless ``defeats`` is ``edges``.

    Yields
    ------
    bytes
        Pieces whose concatenation is one JSON object.

    Raises
    ------
    ValueError
        If ``defeats`` or ``attacks`` is not one of its modes, or ``attacks``
        is ``columns`` and ``defeats`` is ``edges``.
    """
    skeleton, edges = trace_parts(evaluation, query=query)
    columns = _columnar(edges, defeats, attacks)
    summary = columns or _summarize(edges, defeats)
    set_ids = edges.sets.ids() if summary else None
    written = SkeletonRows(skeleton)
    del skeleton
    if columns:
        yield b"{"
        yield from _attack_columns(edges, set_ids)
    if summary:
        yield b'"defeat_sets":[' if columns else b'{"defeat_sets":['
        yield edges.sets.json_members(set_ids)
        yield b'],"edges":['
    else:
        yield b'{"edges":['

    def parts() -> Iterator[bytes]:
        if not columns:
            yield from _attack_rows(edges, set_ids)
        if not summary:
            yield from _defeat_rows(edges)
        yield from written.json_edges()

    yield from _listed(parts())
    yield b'],"nodes":['
    yield from _listed(written.json_nodes())
    version = COLUMNS_SCHEMA_VERSION if columns else SUMMARY_SCHEMA_VERSION if summary else SCHEMA_VERSION
    yield f'],"schema_version":"{version}"}}'.encode("utf-8")


def iter_tnf_json(evaluation: Evaluation, *, query: str | None = None, defeats: str = "auto",
                  attacks: str = "auto") -> Iterator[str]:
    """The TNF JSON of an evaluation's trace, in chunks of text (:func:`iter_tnf_bytes`, decoded).

    Parameters
    ----------
    evaluation : Evaluation
    query : str, optional
    defeats : {"auto", "edges", "summary"}
    attacks : {"auto", "edges", "columns"}
        As for :func:`iter_tnf_bytes`.

    Yields
    ------
    str
        Pieces whose concatenation is one JSON object.
    """
    for piece in iter_tnf_bytes(evaluation, query=query, defeats=defeats, attacks=attacks):
        yield piece.decode("utf-8")


def _body(text: str) -> str:
    """:func:`symbolic.traces.dot.dot_escape` without the quotes (for pieces of one quoted string)."""
    return dot_escape(text)[1:-1]


def _dot_attack_rows(edges: AttackEdges, set_ids: list[str] | None) -> Iterator[bytes]:
    """DOT lines of the attack edges, in canonical order.

    The id ``attack:<kind>:<source>→<target>`` is escaped piecewise: every
    piece starts and ends outside a line break (argument ids start with
    ``arg:`` and end with a hash), so this equals escaping the whole id.
    """
    kinds, style = _KINDS, _EDGE_STYLE[EdgeType.ATTACK]
    labels = [f"{style}, style=dashed, label={dot_escape(k + ' (defeated)')}, id=\"{_body('attack:' + k + ':')}"
              for k in kinds] + [f"{style}, label={dot_escape(k)}, id=\"{_body('attack:' + k + ':')}" for k in kinds]
    tails = ["];\n"] + [f', defeats="{i}"];\n' for i in (set_ids or ())]
    chosen = edges.defeat_set + 1 if set_ids is not None else np.zeros(len(edges), dtype=np.int64)
    src, dst = edges.source, edges.target
    yield from rows([
        (table([f"  {dot_escape(s)} -> " for s in edges.node_ids]), src),
        (table([f"{dot_escape(t)} [" for t in edges.node_ids]), dst),
        (table(labels), edges.active * len(kinds) + edges.kind),
        (table([_body(s + EDGE_ARROW) for s in edges.node_ids]), src),
        (table([_body(t) + '"' for t in edges.node_ids]), dst),
        (table(tails), chosen)], len(edges))


def _dot_defeat_rows(edges: AttackEdges) -> Iterator[bytes]:
    """DOT lines of the defeat edges of the full form, in canonical order (ids escaped piecewise)."""
    edge, priority, priorities = edges.defeat_order()
    if not len(edge):
        return
    n, kinds, style = len(edges.node_ids), _KINDS, _EDGE_STYLE[EdgeType.DEFEAT]
    dst = edges.target[edge]
    yield from rows([
        (table([f"  {dot_escape(p)} -> " for p in priorities]), priority),
        (table([f'{dot_escape(t)} [{style}, id="defeat:' for t in edges.node_ids]), dst),
        (table([_body(p + EDGE_ARROW + "attack:") for p in priorities]), priority),
        (table([_body(f"{k}:{s}{EDGE_ARROW}") for k in kinds for s in edges.node_ids]),
         edges.kind[edge] * n + edges.source[edge]),
        (table([_body(t) + '"];\n' for t in edges.node_ids]), dst)], len(edge))


def iter_dot_bytes(evaluation: Evaluation, *, query: str | None = None, name: str = "trace",
                   defeats: str = "auto") -> Iterator[bytes]:
    """Graphviz DOT of an evaluation's trace as UTF-8 ``bytes``, in chunks: exactly
    :func:`symbolic.traces.dot.to_dot` of :func:`symbolic.traces.trace.build_trace`,
    unless the defeat edges are summarized.

    In the summary form (see :func:`iter_tnf_bytes`) the defeat edges are left
    out, each defeated attack edge carries ``defeats="<set id>"`` and one
    comment line per set, ``// defeats:<id>: <priority ids>``, follows the
    nodes.

    Parameters
    ----------
    evaluation : Evaluation
    query : str, optional
    name : str, optional
        The graph's name.
    defeats : {"auto", "edges", "summary"}
        As for :func:`iter_tnf_bytes`.

    Yields
    ------
    bytes
    """
    skeleton, edges = trace_parts(evaluation, query=query)
    summary = _summarize(edges, defeats)
    set_ids = edges.sets.ids() if summary else None
    written = SkeletonRows(skeleton)
    del skeleton
    yield (f"digraph {dot_escape(name)} {{\n  rankdir=LR;\n"
           '  node [fontname="Helvetica", fontsize=10];\n  edge [fontname="Helvetica", fontsize=9];\n').encode("utf-8")
    yield from written.dot_nodes()
    if summary:
        yield "".join(f"  // {ident}: {', '.join(priorities)}".replace("\n", " ") + "\n"
                      for ident, priorities in sorted(zip(set_ids, edges.sets))).encode("utf-8")
    yield from _dot_attack_rows(edges, set_ids)
    if not summary:
        yield from _dot_defeat_rows(edges)
    yield from written.dot_edges()
    yield b"}\n"


def iter_dot(evaluation: Evaluation, *, query: str | None = None, name: str = "trace",
             defeats: str = "auto") -> Iterator[str]:
    """Graphviz DOT of an evaluation's trace, in chunks of text (:func:`iter_dot_bytes`, decoded).

    Parameters
    ----------
    evaluation : Evaluation
    query : str, optional
    name : str, optional
        The graph's name.
    defeats : {"auto", "edges", "summary"}
        As for :func:`iter_tnf_bytes`.

    Yields
    ------
    str
    """
    for piece in iter_dot_bytes(evaluation, query=query, name=name, defeats=defeats):
        yield piece.decode("utf-8")
