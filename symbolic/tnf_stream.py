"""Streamed TNF JSON and DOT of an evaluation, without a Python object per
attack or defeat edge (paper Section 4.3, docs/semantics.md section 12).

:func:`iter_tnf_json` yields the text of :func:`symbolic.tnf_json.tnf_json`
in chunks, byte for byte, for the trace of an evaluation: the few nodes and
grounding, derivation and status edges come from the skeleton of
:func:`symbolic.trace.trace_parts`, the attack and defeat edges straight from
the columns of :class:`~symbolic.trace_attacks.AttackEdges`, already in
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
"""

from __future__ import annotations

import hashlib
import json
from typing import Iterator

import numpy as np

from .attack_table import KINDS
from .dot import _EDGE_STYLE, _NODE_STYLE, dot_escape
from .model import EdgeType, NodeType
from .naming import EDGE_ARROW
from .results import Evaluation
from .tnf_json import SCHEMA_VERSION
from .trace import trace_parts
from .trace_attacks import AttackEdges

__all__ = ["DEFEAT_EDGE_LIMIT", "DEFEATS_MODES", "SUMMARY_SCHEMA_VERSION", "defeat_set_id", "iter_dot",
           "iter_tnf_json"]

SUMMARY_SCHEMA_VERSION = "tnf-v1-summary"
DEFEAT_EDGE_LIMIT = 200_000
DEFEATS_MODES = ("auto", "edges", "summary")
_CHUNK = 1 << 14


def _q(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def defeat_set_id(priorities) -> str:
    """The id of a defeat set: ``defeats:`` and 12 hex of the sha256 of its sorted priority ids.

    >>> defeat_set_id(["priority:(b=>¬p)>(a=>p)"])[:8]
    'defeats:'
    """
    text = "\n".join(sorted(priorities))
    return "defeats:" + hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]


def _summarize(edges: AttackEdges, defeats: str) -> bool:
    if defeats not in DEFEATS_MODES:
        raise ValueError(f"defeats must be one of {', '.join(DEFEATS_MODES)}, got {defeats!r}")
    if defeats == "auto":
        return edges.defeat_edge_count() > DEFEAT_EDGE_LIMIT
    return defeats == "summary"


def _attack_lines(edges: AttackEdges, set_ids: list[str] | None) -> Iterator[str]:
    """JSON objects of the attack edges, in canonical order (sorted keys, compact)."""
    nodes = [_q(n)[1:-1] for n in edges.node_ids]
    rules = [_q(r) for r in edges.rule_nodes]
    kinds = [k.value for k in KINDS]
    arrow = EDGE_ARROW
    for start in range(0, len(edges), _CHUNK):
        cut = slice(start, start + _CHUNK)
        out = []
        for source, target, kind, lic, active, chosen in zip(
                edges.source[cut].tolist(), edges.target[cut].tolist(), edges.kind[cut].tolist(),
                edges.lic[cut].tolist(), edges.active[cut].tolist(), edges.defeat_set[cut].tolist()):
            s, t, k = nodes[source], nodes[target], kinds[kind]
            head = f'{{"defeats":"{set_ids[chosen]}",' if set_ids is not None and chosen >= 0 else "{"
            lic_part = f'"lic":{rules[lic]},' if lic >= 0 else ""
            state = "active" if active else "defeated"
            out.append(f'{head}"id":"attack:{k}:{s}{arrow}{t}","kind":"{k}",{lic_part}"source":"{s}",'
                       f'"state":"{state}","target":"{t}","type":"attack"}}')
        yield ",".join(out)


def _defeat_lines(edges: AttackEdges) -> Iterator[str]:
    """JSON objects of the defeat edges of the full form, in canonical order."""
    edge, priority, priorities = edges.defeat_order()
    nodes = [_q(n)[1:-1] for n in edges.node_ids]
    prio = [_q(p)[1:-1] for p in priorities]
    kinds = [k.value for k in KINDS]
    src, dst, kind = edges.source, edges.target, edges.kind
    arrow = EDGE_ARROW
    for start in range(0, len(edge), _CHUNK):
        cut = slice(start, start + _CHUNK)
        rows = edge[cut]
        out = []
        for p, s, t, k in zip(priority[cut].tolist(), src[rows].tolist(), dst[rows].tolist(),
                              kind[rows].tolist()):
            attack = f"attack:{kinds[k]}:{nodes[s]}{arrow}{nodes[t]}"
            out.append(f'{{"attack":"{attack}","id":"defeat:{prio[p]}{arrow}{attack}",'
                       f'"source":"{prio[p]}","target":"{nodes[t]}","type":"defeat"}}')
        yield ",".join(out)


def _first(item):
    return item[0]


def _skeleton_edges(skeleton) -> list[str]:
    """JSON objects of the skeleton's edges (grounding, derivation, status), sorted by edge id.

    Their edge ids (:func:`symbolic.naming.edge_key`) are unique, so the id
    alone orders them.
    """
    out = []
    for source, target, key, data in sorted(skeleton.edges, key=_third):
        fields = {"id": key, "source": source, "target": target, "type": EdgeType(data["type"]).value}
        for name in ("kind", "lic", "state", "attack"):
            value = data.get(name)
            if value is not None:
                fields[name] = value.value if name == "kind" else value
        out.append(json.dumps(fields, sort_keys=True, separators=(",", ":"), ensure_ascii=False))
    return out


def _third(item):
    return item[2]


def _joined(parts: Iterator[str], first: bool) -> Iterator[str]:
    """Join non-empty JSON fragments with commas; ``first`` says no item was written yet."""
    for part in parts:
        if not part:
            continue
        yield part if first else "," + part
        first = False


def iter_tnf_json(evaluation: Evaluation, *, query: str | None = None, defeats: str = "auto") -> Iterator[str]:
    """The TNF JSON of an evaluation's trace, in chunks.

    Parameters
    ----------
    evaluation : Evaluation
        From :func:`symbolic.tnf.normal_form` (its ``evaluation``).
    query : str, optional
        The query node's label.
    defeats : {"auto", "edges", "summary"}
        ``edges``: one defeat edge per priority and attack edge, exactly
        :func:`symbolic.tnf_json.tnf_json` of the trace; ``summary``: defeat
        sets (module docstring); ``auto``: ``summary`` only when the full form
        would have more than :data:`DEFEAT_EDGE_LIMIT` defeat edges.

    Yields
    ------
    str
        Pieces whose concatenation is one JSON object.

    Raises
    ------
    ValueError
        If ``defeats`` is not one of :data:`DEFEATS_MODES`.
    """
    skeleton, edges = trace_parts(evaluation, query=query)
    summary = _summarize(edges, defeats)
    set_ids = [defeat_set_id(s) for s in edges.sets] if summary else None
    if summary:
        sets = sorted(zip(set_ids, edges.sets))
        yield '{"defeat_sets":[' + ",".join(
            json.dumps({"id": i, "priorities": list(p)}, ensure_ascii=False, separators=(",", ":"))
            for i, p in sets) + '],"edges":['
    else:
        yield '{"edges":['
    first = True
    for piece in _joined(_attack_lines(edges, set_ids), first):
        first = False
        yield piece
    if not summary:
        for piece in _joined(_defeat_lines(edges), first):
            first = False
            yield piece
    tail = ",".join(_skeleton_edges(skeleton))
    if tail:
        yield tail if first else "," + tail
    yield '],"nodes":['
    yield ",".join(f'{{"id":{_q(n)},"label":{_q(data.get("label", ""))},"type":"{NodeType(data["type"]).value}"}}'
                   for n, data in sorted(skeleton.nodes.items(), key=_first))
    version = SUMMARY_SCHEMA_VERSION if summary else SCHEMA_VERSION
    yield f'],"schema_version":"{version}"}}'


def iter_dot(evaluation: Evaluation, *, query: str | None = None, name: str = "trace",
             defeats: str = "auto") -> Iterator[str]:
    """Graphviz DOT of an evaluation's trace, in chunks: exactly
    :func:`symbolic.dot.to_dot` of :func:`symbolic.trace.build_trace`,
    unless the defeat edges are summarized.

    In the summary form (see :func:`iter_tnf_json`) the defeat edges are left
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
        As for :func:`iter_tnf_json`.

    Yields
    ------
    str
    """
    skeleton, edges = trace_parts(evaluation, query=query)
    summary = _summarize(edges, defeats)
    set_ids = [defeat_set_id(s) for s in edges.sets] if summary else None
    lines = [f"digraph {dot_escape(name)} {{", "  rankdir=LR;",
             '  node [fontname="Helvetica", fontsize=10];',
             '  edge [fontname="Helvetica", fontsize=9];']
    for node_id, data in sorted(skeleton.nodes.items(), key=_first):
        label = data.get("label", "") or node_id
        if data.get("names"):
            label = f"{label}\n({', '.join(data['names'])})"
        lines.append(f"  {dot_escape(node_id)} [label={dot_escape(label)}, {_NODE_STYLE[NodeType(data['type'])]}];")
    if summary:
        for ident, priorities in sorted(zip(set_ids, edges.sets)):
            lines.append(f"  // {ident}: {', '.join(priorities)}".replace("\n", " "))
    yield "\n".join(lines) + "\n"
    nodes = [dot_escape(n) for n in edges.node_ids]
    kinds = [k.value for k in KINDS]
    attack_style, arrow = _EDGE_STYLE[EdgeType.ATTACK], EDGE_ARROW
    for start in range(0, len(edges), _CHUNK):
        cut = slice(start, start + _CHUNK)
        out = []
        for s, t, k, active, chosen in zip(edges.source[cut].tolist(), edges.target[cut].tolist(),
                                           edges.kind[cut].tolist(), edges.active[cut].tolist(),
                                           edges.defeat_set[cut].tolist()):
            text = kinds[k] if active else kinds[k] + " (defeated)"
            style = attack_style if active else attack_style + ", style=dashed"
            key = dot_escape(f"attack:{kinds[k]}:{edges.node_ids[s]}{arrow}{edges.node_ids[t]}")
            extra = f', defeats="{set_ids[chosen]}"' if summary and chosen >= 0 else ""
            out.append(f"  {nodes[s]} -> {nodes[t]} [{style}, label={dot_escape(text)}, id={key}{extra}];\n")
        yield "".join(out)
    edge, priority, priorities = edges.defeat_order() if not summary else (np.zeros(0, dtype=np.int64),) * 2 + ((),)
    defeat_style = _EDGE_STYLE[EdgeType.DEFEAT]
    prio = [dot_escape(p) for p in priorities]
    for start in range(0, len(edge), _CHUNK):
        cut = slice(start, start + _CHUNK)
        out = []
        for p, row in zip(priority[cut].tolist(), edge[cut].tolist()):
            s, t, k = edges.source[row], edges.target[row], edges.kind[row]
            key = dot_escape(f"defeat:{priorities[p]}{arrow}attack:{kinds[k]}:{edges.node_ids[s]}"
                             f"{arrow}{edges.node_ids[t]}")
            out.append(f"  {prio[p]} -> {nodes[t]} [{defeat_style}, id={key}];\n")
        yield "".join(out)
    rest = []
    for source, target, _, data in sorted(skeleton.edges, key=_third):
        rest.append(f"  {dot_escape(source)} -> {dot_escape(target)} [{_EDGE_STYLE[EdgeType(data['type'])]}];\n")
    yield "".join(rest) + "}\n"
