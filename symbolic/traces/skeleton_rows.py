"""The nodes and the grounding, derivation and status edges of a trace as
sorted JSON or DOT text, written from the columns of a
:class:`~symbolic.traces.skeleton.Skeleton` (docs/semantics.md section 12,
docs/performance.md).

The TNF lists nodes by id and edges by edge id (``<type>:<source>→<target>``),
in Python's string order.  :class:`SkeletonRows` gets that order from integer
keys instead of the strings:

- the nodes of the store (facts, rules, evidence, arguments, conclusions,
  query, status) are sorted as strings once, and the order of ``id + "→"``
  (an edge's source) is their order unless one id is a prefix of another, when
  those strings are sorted too;
- a priority id is ``priority:(<strong>)>(<weak>)``: when no part contains
  ``)>(``, the strings ``<strong>)>(`` are prefix-free, so the id's order is
  the order of its strong part (with ``)>(``) and then of its weak part (with
  ``)``, or ``)→`` as a source), both sorted once per distinct part; no store
  id starts with ``priority:`` (nor is a prefix of it), so the priority nodes
  are one run between the store nodes below and above ``priority:``;
- an edge id is then ordered by its type, its source's order as a source and
  its target's order, which is exact when no id contains ``→``.

Where one of these conditions fails (ids that no content of a theory's own
trace gives) the rows are formatted from the skeleton's dicts and sorted as
strings, the plain way.  Each line is a few pieces looked up in tables of
UTF-8 ``bytes`` (each distinct id, label, part and rule escaped once, the
whole table in one call) and joined per chunk (:func:`symbolic.traces.byte_rows.rows`).
"""

from __future__ import annotations

import json
from bisect import bisect_left
from json.encoder import encode_basestring as _q
from operator import itemgetter
from typing import Iterator, Sequence

import numpy as np

from symbolic.traces.byte_rows import Table, rows, table
from symbolic.traces.dot import _EDGE_STYLE, _NODE_STYLE, dot_escape
from symbolic.scenario.model import EdgeType, NodeType
from symbolic.traces.naming import EDGE_ARROW, PART_SEPARATOR, id_pieces, string_ranks
from symbolic.traces.skeleton import Skeleton

__all__ = ["SkeletonRows", "dot_pieces", "json_pieces"]

_PREFIX = "priority:"
_first, _third = itemgetter(0), itemgetter(2)
_type, _label, _names = itemgetter("type"), itemgetter("label"), itemgetter("names")


def json_pieces(strings: Sequence[str]) -> list[bytes]:
    """Each string JSON-escaped (``encode_basestring`` without the quotes), as UTF-8.

    The strings are escaped in one call, joined by NUL (escaped as ``\\u0000``); if that
    text occurs in the escaped strings themselves, each is escaped on its own.

    Examples
    --------
    >>> json_pieces(['a"b', "¬c", ""])
    [b'a\\\\"b', b'\\xc2\\xacc', b'']
    """
    if not strings:
        return []
    pieces = _q("\0".join(strings))[1:-1].encode("utf-8").split(b"\\u0000")
    if len(pieces) != len(strings):
        pieces = [_q(s)[1:-1].encode("utf-8") for s in strings]
    return pieces


def dot_pieces(strings: Sequence[str]) -> list[bytes]:
    """Each string as :func:`symbolic.traces.dot.dot_escape` writes it, without the quotes, as UTF-8.

    Examples
    --------
    >>> dot_pieces(['say "hi"', "a\\nb"])
    [b'say \\\\"hi\\\\"', b'a\\\\nb']
    """
    if not strings:
        return []
    pieces = dot_escape("\0".join(strings))[1:-1].encode("utf-8").split(b"\0")
    if len(pieces) != len(strings):
        pieces = [dot_escape(s)[1:-1].encode("utf-8") for s in strings]
    return pieces


def _suffixed(pieces: list[bytes], suffix: bytes) -> Table:
    return Table([p + suffix for p in pieces])


class SkeletonRows:
    """Sorted JSON and DOT lines of a skeleton's nodes and edges.

    Parameters
    ----------
    skeleton : Skeleton
    columnar : bool, optional
        ``False`` formats from the skeleton's dicts, sorted as strings (the
        plain way, always exact); by default the columns are used whenever
        their integer order is exact (module docstring).
    """

    def __init__(self, skeleton: Skeleton, *, columnar: bool | None = None):
        self.skeleton = skeleton
        self._ids: np.ndarray | None = None
        self.columnar = self._exact() if columnar is None else columnar and self._exact()
        if self.columnar:
            self._order()

    # -- order ----------------------------------------------------------------------------------

    def _exact(self) -> bool:
        """Whether the integer keys order nodes and edges as their id strings (module docstring)."""
        store, block = self.skeleton.store, self.skeleton.priorities
        ids = store.ids
        if block is not None and (block.ambiguous or EDGE_ARROW in "".join(block.parts)):
            return False
        if EDGE_ARROW in "".join(ids) or any(_PREFIX[:k] in store.positions for k in range(1, len(_PREFIX) + 1)):
            return False
        return not any(map(str.startswith, ids, [_PREFIX] * len(ids)))

    def _order(self) -> None:
        skeleton = self.skeleton
        store, block = skeleton.store, skeleton.priorities
        ids = store.ids
        n_store, n_block = len(ids), (len(block) if block is not None else 0)
        self.n_store, self.n_block = n_store, n_block
        order = sorted(range(n_store), key=ids.__getitem__)
        ordered = [ids[i] for i in order]
        rank = np.empty(n_store, dtype=np.int64)
        rank[order] = np.arange(n_store, dtype=np.int64)
        if any(map(str.startswith, ordered[1:], ordered[:-1])):  # a prefix: "x→" sorts after "xy→"
            arrows = [i + EDGE_ARROW for i in ordered]  # nearly sorted already: a quick sort
            arrow = np.empty(n_store, dtype=np.int64)
            by_arrow = sorted(range(n_store), key=arrows.__getitem__)
            arrow[np.asarray(order, dtype=np.int64)[by_arrow]] = np.arange(n_store, dtype=np.int64)
        else:
            arrow = rank
        low = bisect_left(ordered, _PREFIX)  # store nodes before the priority nodes
        self.low = low
        g_rank = np.empty(n_store + n_block, dtype=np.int64)
        g_arrow = np.empty(n_store + n_block, dtype=np.int64)
        g_rank[:n_store] = np.where(rank < low, rank, rank + n_block)
        g_arrow[:n_store] = np.where(arrow < low, arrow, arrow + n_block)
        self.block_order = np.zeros(0, dtype=np.int64)
        if n_block:
            parts = block.parts
            strong = string_ranks([p + PART_SEPARATOR for p in parts])
            weak = string_ranks([p + ")" for p in parts])
            width = len(parts)
            head = strong[block.strong_part] * width
            by_id = np.argsort(head + weak[block.weak_part])
            g_rank[n_store:][by_id] = low + np.arange(n_block, dtype=np.int64)
            if any((group.source < 0).any() for group in skeleton.groups):  # priority nodes as sources
                weak_arrow = string_ranks([p + ")" + EDGE_ARROW for p in parts])
                g_arrow[n_store:][np.argsort(head + weak_arrow[block.weak_part])] = low + np.arange(n_block)
            self.block_order = by_id
        self.rank, self.arrow = g_rank, g_arrow
        real = np.fromiter(map(store.positions.__getitem__, store.data), dtype=np.int64, count=len(store.data))
        real = real[np.argsort(rank[real])]
        split = int(np.searchsorted(rank[real], low))
        self.store_low, self.store_high = real[:split], real[split:]

    def _edges(self) -> tuple[list[EdgeType], np.ndarray, np.ndarray, np.ndarray]:
        """The distinct edges sorted by edge id: their types, type codes, global sources and targets."""
        skeleton = self.skeleton
        groups = list(skeleton.groups)
        if skeleton.priorities is not None:
            groups.append(skeleton.priorities.grounding())
        types = sorted({g.type for g in groups if len(g)}, key=lambda t: t.value + ":")
        code = {t: i for i, t in enumerate(types)}
        n = self.n_store
        kind = np.concatenate([np.full(len(g), code.get(g.type, 0), dtype=np.int64) for g in groups] or [[]])
        ends = []
        for column in ("source", "target"):
            e = np.concatenate([getattr(g, column) for g in groups] or [[]]).astype(np.int64)
            ends.append(np.where(e >= 0, e, n - 1 - e))
        source, target = ends
        size = n + self.n_block
        if len(types) * size * size < 1 << 62:
            key = (kind * size + self.arrow[source]) * size + self.rank[target]
            by_id = np.argsort(key)
            key = key[by_id]
            keep = np.ones(len(key), dtype=bool)
            keep[1:] = key[1:] != key[:-1]
        else:
            by_id = np.lexsort((self.rank[target], self.arrow[source], kind))
            k, s, t = kind[by_id], source[by_id], target[by_id]
            keep = np.ones(len(by_id), dtype=bool)
            keep[1:] = (k[1:] != k[:-1]) | (s[1:] != s[:-1]) | (t[1:] != t[:-1])
        by_id = by_id[keep]
        return types, kind[by_id], source[by_id], target[by_id]

    def _heads(self, pieces) -> tuple[np.ndarray, np.ndarray, list[bytes], list[bytes]]:
        """Per global node its head and tail piece (a store id and ``""``; ``priority:(<strong>)>(`` and
        ``<weak>)``), and the escaped tables of both."""
        store, block = self.skeleton.store, self.skeleton.priorities
        n = self.n_store
        heads = list(store.ids)
        tails = [""]
        head_of = np.arange(n + self.n_block, dtype=np.int64)
        tail_of = np.zeros(n + self.n_block, dtype=np.int64)
        if self.n_block:
            block_heads, block_tails = id_pieces(block.parts)
            heads += block_heads
            tails += block_tails
            head_of[n:] = n + block.strong_part
            tail_of[n:] = 1 + block.weak_part
        return head_of, tail_of, pieces(heads), pieces(tails)

    # -- JSON -----------------------------------------------------------------------------------

    def json_nodes(self) -> Iterator[bytes]:
        """``{"id", "label", "type"}`` of every node, sorted by id, each after a comma."""
        if not self.columnar:
            items = sorted(self.skeleton.nodes.items(), key=_first)
            yield "".join([f',{{"id":{_q(n)},"label":{_q(d.get("label", ""))},"type":"{NodeType(d["type"]).value}"}}'
                           for n, d in items]).encode("utf-8")
            return
        yield from self._json_store(self.store_low)
        yield from self._json_block()
        yield from self._json_store(self.store_high)

    def _store_nodes(self, positions: np.ndarray) -> tuple[list[str], list[dict], np.ndarray, list]:
        """The ids and attributes of the store nodes at ``positions``, their type codes and the types."""
        store = self.skeleton.store
        if self._ids is None:
            self._ids = np.empty(len(store.ids), dtype=object)
            self._ids[:] = store.ids
        ids = self._ids[positions].tolist()
        data = list(map(store.data.__getitem__, ids))
        kinds = list(map(_type, data))
        types = list(dict.fromkeys(kinds))
        codes = np.fromiter(map({t: k for k, t in enumerate(types)}.__getitem__, kinds), dtype=np.int64,
                            count=len(kinds))
        return ids, data, codes, types

    def _json_store(self, positions: np.ndarray) -> Iterator[bytes]:
        if not len(positions):
            return
        ids, data, codes, types = self._store_nodes(positions)
        n, zeros = len(ids), np.zeros(len(ids), dtype=np.int64)
        yield from rows([(table([',{"id":"']), zeros), (Table(json_pieces(ids)), np.arange(n)),
                         (table(['","label":"']), zeros), (Table(json_pieces(list(map(_label, data)))), np.arange(n)),
                         (table([f'","type":"{NodeType(t).value}"}}' for t in types]), codes)], n)

    def _json_block(self) -> Iterator[bytes]:
        block, j = self.skeleton.priorities, self.block_order
        if not len(j):
            return
        parts, labels = json_pieces(block.parts), json_pieces(block.rule_labels)
        yield from rows([
            (Table([b',{"id":"priority:(' + p + PART_SEPARATOR.encode() for p in parts]), block.strong_part[j]),
            (_suffixed(parts, b')","label":"('), block.weak_part[j]),
            (_suffixed(labels, b") > ("), block.strong_rule[j]),
            (_suffixed(labels, b") ["), block.weak_rule[j]),
            (_suffixed(json_pieces(block.tags), b']","type":"priority"}'), block.tag[j])], len(j))

    def json_edges(self) -> Iterator[bytes]:
        """``{"id", "source", "target", "type"}`` of every edge, sorted by edge id, each after a comma."""
        if not self.columnar:
            yield _plain_json_edges(self.skeleton).encode("utf-8")
            return
        types, kind, source, target = self._edges()
        if not len(kind):
            return
        head_of, tail_of, heads, tails = self._heads(json_pieces)
        names = [t.value.encode() for t in types]
        head, n = Table(heads), len(types)
        hs, hd, ts, td = head_of[source], head_of[target], tail_of[source], tail_of[target]
        yield from rows([
            (Table([b',{"id":"' + t + b":" for t in names]), kind), (head, hs),
            (_suffixed(tails, EDGE_ARROW.encode()), ts), (head, hd),
            (_suffixed(tails, b'","source":"'), td), (head, hs),
            (_suffixed(tails, b'","target":"'), ts), (head, hd),
            (Table([p + b'","type":"' + t + b'"}' for p in tails for t in names]), td * n + kind)], len(kind))

    # -- DOT ------------------------------------------------------------------------------------

    def dot_nodes(self) -> Iterator[bytes]:
        """The DOT line of every node (label, the authors' names below it, style), sorted by id."""
        if not self.columnar:
            lines = []
            for node_id, data in sorted(self.skeleton.nodes.items(), key=_first):
                lines.append(f"  {dot_escape(node_id)} [label={dot_escape(_dot_label(node_id, data))}, "
                             f"{_NODE_STYLE[NodeType(data['type'])]}];\n")
            yield "".join(lines).encode("utf-8")
            return
        yield from self._dot_store(self.store_low)
        yield from self._dot_block()
        yield from self._dot_store(self.store_high)

    def _dot_store(self, positions: np.ndarray) -> Iterator[bytes]:
        if not len(positions):
            return
        ids, data, codes, types = self._store_nodes(positions)
        labels = list(map(_label, data))
        if not all(labels):
            labels = [label or node_id for label, node_id in zip(labels, ids)]
        names = list(map(", ".join, map(_names, data)))
        shown = [f"{label}\n({name})" if name else label for label, name in zip(labels, names)]
        n, zeros = len(ids), np.zeros(len(ids), dtype=np.int64)
        yield from rows([(table(['  "']), zeros), (Table(dot_pieces(ids)), np.arange(n)),
                         (table(['" [label="']), zeros), (Table(dot_pieces(shown)), np.arange(n)),
                         (table([f'", {_NODE_STYLE[NodeType(t)]}];\n' for t in types]), codes)], n)

    def _dot_block(self) -> Iterator[bytes]:
        block, j = self.skeleton.priorities, self.block_order
        if not len(j):
            return
        parts, labels, rules = dot_pieces(block.parts), dot_pieces(block.rule_labels), dot_pieces(block.rules)
        end = f'", {_NODE_STYLE[NodeType.PRIORITY]}];\n'.encode()
        strong_name, weak_name = block.strong_rule[j].copy(), block.weak_rule[j].copy()
        several = sorted(block.names)  # nodes of several names: the joined names, then the end
        shared = dot_pieces([", ".join(block.names[k]) for k in several])
        if several:
            at = np.full(len(block), -1, dtype=np.int64)
            at[several] = np.arange(len(several))
            mine = at[j]
            hit = mine >= 0
            strong_name[hit] = len(rules) + mine[hit]
            weak_name[hit] = len(rules)
        yield from rows([
            (Table([b'  "priority:(' + p + PART_SEPARATOR.encode() for p in parts]), block.strong_part[j]),
            (_suffixed(parts, b')" [label="('), block.weak_part[j]),
            (_suffixed(labels, b") > ("), block.strong_rule[j]),
            (_suffixed(labels, b") ["), block.weak_rule[j]),
            (_suffixed(dot_pieces(block.tags), b"]\\n("), block.tag[j]),
            (Table([r + b">" for r in rules] + shared), strong_name),
            (Table([r + b")" + end for r in rules] + [b")" + end]), weak_name)], len(j))

    def dot_edges(self) -> Iterator[bytes]:
        """The DOT line of every edge, sorted by edge id."""
        if not self.columnar:
            styles = {}
            lines = []
            for source, target, _, data in sorted(self.skeleton.edges, key=_third):
                style = styles.get(data["type"]) or styles.setdefault(data["type"], _EDGE_STYLE[EdgeType(data["type"])])
                lines.append(f"  {dot_escape(source)} -> {dot_escape(target)} [{style}];\n")
            yield "".join(lines).encode("utf-8")
            return
        types, kind, source, target = self._edges()
        if not len(kind):
            return
        head_of, tail_of, heads, tails = self._heads(dot_pieces)
        head, n = Table(heads), len(types)
        styles = [f'" [{_EDGE_STYLE[t]}];\n'.encode() for t in types]
        yield from rows([
            (table(['  "']), np.zeros(len(kind), dtype=np.int64)), (head, head_of[source]),
            (_suffixed(tails, b'" -> "'), tail_of[source]), (head, head_of[target]),
            (Table([p + s for p in tails for s in styles]), tail_of[target] * n + kind)], len(kind))


def _dot_label(node_id: str, data: dict) -> str:
    """A node's DOT label: its label (or id), the authors' names below it."""
    label = data.get("label", "") or node_id
    if data.get("names"):
        label = f"{label}\n({', '.join(data['names'])})"
    return label


def _plain_json_edges(skeleton: Skeleton) -> str:
    """JSON objects of the skeleton's edges, sorted by edge id, each after a comma (from its dicts)."""
    out, values = [], {}
    for source, target, key, data in sorted(skeleton.edges, key=_third):
        kind = values.get(data["type"]) or values.setdefault(data["type"], EdgeType(data["type"]).value)
        if len(data) == 1:  # the type alone: what the skeleton's edges carry
            out.append(f',{{"id":{_q(key)},"source":{_q(source)},"target":{_q(target)},"type":"{kind}"}}')
            continue
        fields = {"id": key, "source": source, "target": target, "type": kind}
        for name in ("kind", "lic", "state", "attack"):
            value = data.get(name)
            if value is not None:
                fields[name] = value.value if name == "kind" else value
        out.append("," + json.dumps(fields, sort_keys=True, separators=(",", ":"), ensure_ascii=False))
    return "".join(out)
