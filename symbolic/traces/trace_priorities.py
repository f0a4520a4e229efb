"""The priority nodes of a trace as columns (paper Section 4.3, Definition 3,
docs/semantics.md section 12).

A trace has one node per priority pair ``stronger > weaker`` of the theory,
with id ``priority:(<stronger>)>(<weaker>)`` (the rules' contents,
:mod:`symbolic.traces.naming`), label ``(<stronger>) > (<weaker>) [<bases>]`` and one
grounding edge per evidence fragment; plus one node per pair of the closure
``P+`` that a defeat set uses and the base does not have, labelled
``[closure]``, derived from the base pairs behind it.

:class:`PriorityNodes` keeps, per distinct rule, its id, its content in a
priority id (*part*) and its readable rendering once, and per node integer
codes: its stronger and weaker part (which fix the id), the rules of its
first priority (which fix the label and ``pair``) and its tag (the bases,
``unresolved``, or ``closure``).  No string is built per node unless the
node's attributes are asked for (:meth:`PriorityNodes.node_ids`,
:meth:`PriorityNodes.replay_nodes`): the streamed outputs write the pieces
(:mod:`symbolic.traces.skeleton_rows`).
"""

from __future__ import annotations

from collections import defaultdict
from itertools import chain
from operator import itemgetter
from typing import Sequence

import numpy as np

from symbolic.scenario.model import EdgeType, NodeType
from symbolic.traces.naming import PART_SEPARATOR, Namer, ids_of_parts
from symbolic.traces.skeleton import EdgeGroup, NodeStore
from symbolic.support.sorted_keys import value_codes

__all__ = ["CLOSURE_TAG", "PriorityNodes", "closure_pairs", "priority_nodes"]

CLOSURE_TAG = "closure"
_SHIFT = 32  # node key: stronger part << _SHIFT | weaker part


class PriorityNodes:
    """Priority nodes as integer columns over tables of per-rule pieces.

    Attributes
    ----------
    rules : list of str
        Rule code -> the author's rule id.
    rule_part : list of int
        Rule code -> its part code (rules of one content share it).
    rule_labels : list of str
        Rule code -> :meth:`symbolic.traces.naming.Namer.rule_label`.
    parts : list of str
        Part code -> :meth:`symbolic.traces.naming.Namer.priority_part` (the content of a known rule, else its id).
    tags : list of str
        Tag code -> what a label ends with, inside the brackets.
    strong_part, weak_part : numpy.ndarray of int64
        Per node: the parts of its id, ``priority:(<strong>)>(<weak>)``.
    strong_rule, weak_rule : numpy.ndarray of int64
        Per node: the rules of its first priority (its label and ``pair``).
    tag : numpy.ndarray of int64
        Per node: its tag code.
    names : dict of int to tuple of str
        Node -> its ``names`` when it stands for several ``stronger>weaker`` ids (else the one of its rules).
    n_base : int
        Nodes ``0 .. n_base - 1`` are the theory's priorities, in order of first occurrence; the rest closure pairs.
    ambiguous : bool
        Whether some part contains :data:`PART_SEPARATOR` (nodes are then keyed by their id strings).
    known : frozenset of (str, str)
        While the trace is built: ``(stronger, weaker)`` of each priority.
    row_node, fragment_source : numpy.ndarray of int64
        Per priority its node; per evidence fragment (of every priority, in order) the store
        position of its evidence node.
    fragment_row : numpy.ndarray of int64 or None
        Per fragment its priority (``None``: one fragment per priority).
    """

    def __init__(self, namer: Namer, unresolved: frozenset[str]):
        self._namer, self._unresolved = namer, unresolved
        self.rules: list[str] = []
        self.rule_code: dict[str, int] = {}
        self.rule_part: list[int] = []
        self.rule_labels: list[str] = []
        self.rule_unresolved: list[bool] = []
        self.parts: list[str] = []
        self.part_code: dict[str, int] = {}
        self.tags: list[str] = []
        self.tag_code: dict[str, int] = {}
        empty = np.zeros(0, dtype=np.int64)
        self.strong_part = self.weak_part = self.strong_rule = self.weak_rule = self.tag = empty
        self.names: dict[int, tuple[str, ...]] = {}
        self.n_base = 0
        self.ambiguous = False
        # grounding: per fragment its evidence position and row; per row its node (creation order)
        self.row_node = self.fragment_source = empty
        self.fragment_row: np.ndarray | None = None  # None: one fragment per row
        self._ids: list[str] | None = None
        self._index: dict | None = None
        self._parts_of: np.ndarray | None = None
        self.known: frozenset[tuple[str, str]] = frozenset()  # (stronger, weaker) of each priority

    def __len__(self) -> int:
        return len(self.strong_part)

    def finish(self) -> None:
        """Drop what only building needed (the namer, the pairs of the priorities, the node index, the ids)."""
        self._namer = self._index = self._ids = None
        self.known = frozenset()

    # -- coding ---------------------------------------------------------------------------------

    def codes(self, rule_ids: Sequence[str]) -> np.ndarray:
        """The rule code of each id (new rules get theirs, with their part, label and ``unresolved`` flag)."""
        code = self.rule_code
        # each id's position among the distinct ids (first seen first)
        first_seen, distinct = value_codes([rule_ids])
        new = [rule for rule in distinct if rule not in code]
        if new:
            part_code, parts = self.part_code, self.parts
            for rule, part in zip(new, map(self._namer.priority_part, new)):
                if part not in part_code:
                    part_code[part] = len(parts)
                    parts.append(part)
                    if PART_SEPARATOR in part and not self.ambiguous:
                        self.ambiguous, self._index = True, None
                code[rule] = len(self.rules)
                self.rules.append(rule)
                self.rule_part.append(part_code[part])
            self.rule_labels.extend(map(self._namer.rule_label, new))
            self.rule_unresolved.extend(rule in self._unresolved for rule in new)
        of_distinct = np.fromiter(map(code.__getitem__, distinct), dtype=np.int64, count=len(distinct))
        return of_distinct[first_seen]

    def tag_of(self, text: str) -> int:
        """The code of a tag text."""
        found = self.tag_code.get(text)
        if found is None:
            found = self.tag_code[text] = len(self.tags)
            self.tags.append(text)
        return found

    def _keys(self, strong_part: np.ndarray, weak_part: np.ndarray):
        """Node keys of part pairs: integers, or the id strings when ids are ambiguous."""
        if not self.ambiguous:
            return (strong_part << _SHIFT) | weak_part
        return ids_of_parts(self.parts, strong_part, weak_part)

    def _part_array(self) -> np.ndarray:
        if self._parts_of is None or len(self._parts_of) != len(self.rule_part):
            self._parts_of = np.asarray(self.rule_part, dtype=np.int64)
        return self._parts_of

    def _node_index(self) -> dict:
        """Node key -> node (built on first use, kept up to date by :meth:`_append`)."""
        if self._index is None:
            mine = self._keys(self.strong_part, self.weak_part)
            self._index = dict(zip(mine.tolist() if isinstance(mine, np.ndarray) else mine, range(len(self))))
        return self._index

    def find(self, strong_rule: np.ndarray, weak_rule: np.ndarray) -> np.ndarray:
        """The node of each ``(stronger, weaker)`` rule-code pair, ``-1`` where there is none."""
        part = self._part_array()
        keys = self._keys(part[strong_rule], part[weak_rule])
        index = self._node_index()
        listed = keys.tolist() if isinstance(keys, np.ndarray) else keys
        return np.fromiter((index.get(k, -1) for k in listed), dtype=np.int64, count=len(listed))

    def _append(self, strong_rule, weak_rule, tag) -> None:
        """New nodes: the rules of their first priority and their tags."""
        part = self._part_array()
        sr, wr = np.asarray(strong_rule, dtype=np.int64), np.asarray(weak_rule, dtype=np.int64)
        start = len(self)
        self.strong_rule = np.concatenate([self.strong_rule, sr])
        self.weak_rule = np.concatenate([self.weak_rule, wr])
        self.strong_part = np.concatenate([self.strong_part, part[sr]])
        self.weak_part = np.concatenate([self.weak_part, part[wr]])
        self.tag = np.concatenate([self.tag, np.asarray(tag, dtype=np.int64)])
        self._ids = None
        if self._index is not None:
            added = self._keys(part[sr], part[wr])
            for j, key in enumerate(added.tolist() if isinstance(added, np.ndarray) else added, start):
                self._index.setdefault(key, j)

    # -- what the nodes are -----------------------------------------------------------------------

    def node_ids(self) -> list[str]:
        """Node -> its id string (built once)."""
        if self._ids is None:
            self._ids = ids_of_parts(self.parts, self.strong_part, self.weak_part)
        return self._ids

    def attributes(self, j: int) -> dict:
        """The attributes of node ``j`` (``type``, ``label``, ``names``, ``pair``), as the graph has them."""
        s, w = int(self.strong_rule[j]), int(self.weak_rule[j])
        label = f"({self.rule_labels[s]}) > ({self.rule_labels[w]}) [{self.tags[int(self.tag[j])]}]"
        names = self.names.get(j) or (f"{self.rules[s]}>{self.rules[w]}",)
        return {"type": NodeType.PRIORITY, "label": label, "names": names, "pair": (self.rules[s], self.rules[w])}

    def grounding(self) -> EdgeGroup:
        """The grounding edges of the theory's priorities (evidence position -> ``-1 - node``), in order."""
        rows = self.fragment_row if self.fragment_row is not None else slice(None)
        return EdgeGroup(EdgeType.GROUNDING, self.fragment_source, -1 - self.row_node[rows])

    def replay_nodes(self, out: dict, store: NodeStore, *, closure: bool) -> None:
        """Add the nodes to ``out`` in creation order: the base nodes with the evidence nodes they
        create interleaved (``closure=False``), or the closure nodes."""
        ids = self.node_ids()
        if closure:
            for j in range(self.n_base, len(self)):
                out[ids[j]] = self.attributes(j)
            return
        sources, data, known = self.fragment_source.tolist(), store.data, store.ids
        if self.fragment_row is None:
            starts = range(len(sources) + 1)
        else:
            starts = np.searchsorted(self.fragment_row, np.arange(len(self.row_node) + 1)).tolist()
        created = 0
        for row, node in enumerate(self.row_node.tolist()):
            if node == created:  # nodes are numbered in order of first occurrence
                out[ids[node]] = self.attributes(node)
                created += 1
            for k in range(starts[row], starts[row + 1]):
                evidence = known[sources[k]]
                if evidence not in out:
                    out[evidence] = data[evidence]


def priority_nodes(evaluation, namer: Namer, store: NodeStore) -> PriorityNodes:
    """The nodes of the theory's priorities, their evidence nodes (added to ``store``) and grounding.

    Parameters
    ----------
    evaluation : Evaluation
    namer : Namer
        Names of the evaluation's theory.
    store : NodeStore
        Gets the evidence nodes not in it yet, in order of first use.

    Returns
    -------
    PriorityNodes
        One node per distinct id, in order of first occurrence; the first priority of a node
        gives its ``pair`` and the rules of its label, every priority of it its bases and names.
    """
    block = PriorityNodes(namer, evaluation.priorities.unresolved)
    priorities = evaluation.theory.priorities
    n = len(priorities)
    strongers, weakers, bases, evidence = ([getattr(p, name) for p in priorities]
                                           for name in ("stronger", "weaker", "basis", "evidence"))
    strong_rule, weak_rule = block.codes(strongers), block.codes(weakers)
    part = block._part_array()
    keys = block._keys(part[strong_rule], part[weak_rule])
    if isinstance(keys, np.ndarray):
        ordered = np.sort(keys)
        distinct = not n or not (ordered[1:] == ordered[:-1]).any()
    else:
        distinct = len(set(keys)) == n
    basis_code = {b: i for i, b in enumerate(dict.fromkeys(bases))}
    for b in basis_code:  # tags 2i and 2i + 1: basis i, without and with "unresolved"
        block.tag_of(str(b))
        block.tag_of(f"{b}, unresolved")
    basis = np.fromiter(map(basis_code.__getitem__, bases), dtype=np.int64, count=n)
    if distinct:
        row_node, first = np.arange(n, dtype=np.int64), np.arange(n, dtype=np.int64)
    else:
        row_node, first = _first_occurrence(keys)
    unresolved = np.asarray(block.rule_unresolved, dtype=bool)
    sr, wr = strong_rule[first], weak_rule[first]
    tag = 2 * basis[first] + (unresolved[sr] | unresolved[wr])
    block._append(sr, wr, tag)
    block.n_base = len(first)
    if not distinct:
        _merge_rows(block, row_node, strongers, weakers, bases)
    # grounding edges: evidence -> node, one per fragment, with the evidence nodes they create
    lengths = np.fromiter(map(len, evidence), dtype=np.int64, count=n)
    if n and (lengths == 1).all():
        fragments = list(map(itemgetter(0), evidence))
    else:
        fragments = list(chain.from_iterable(evidence))
        block.fragment_row = np.repeat(np.arange(n, dtype=np.int64), lengths)
    position = {f: store.node(f"evidence:{f}", NodeType.EVIDENCE, f) for f in dict.fromkeys(fragments)}
    block.fragment_source = np.fromiter(map(position.__getitem__, fragments), dtype=np.int64, count=len(fragments))
    block.row_node = row_node
    # Each pair's id is namer.priority_id's (made from the same parts) and is made only when asked.
    block.known = frozenset(zip(strongers, weakers))
    return block


def _first_occurrence(keys) -> tuple[np.ndarray, np.ndarray]:
    """Each row's node and each node's first row, nodes numbered in order of first occurrence."""
    if isinstance(keys, np.ndarray):
        _, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
    else:
        code: dict[str, int] = {}
        inverse = np.fromiter((code.setdefault(k, len(code)) for k in keys), dtype=np.int64, count=len(keys))
        first = np.full(len(code), len(keys), dtype=np.int64)
        np.minimum.at(first, inverse, np.arange(len(keys), dtype=np.int64))
    order = np.argsort(first, kind="stable")
    rank = np.empty(len(first), dtype=np.int64)
    rank[order] = np.arange(len(first))
    return rank[inverse.reshape(-1)], first[order]


def _merge_rows(block: PriorityNodes, row_node: np.ndarray, strongers, weakers, bases) -> None:
    """Names and tags of the nodes that several priorities share (each basis in the label, sorted)."""
    counts = np.bincount(row_node, minlength=len(block))
    shared = np.flatnonzero(counts > 1)
    rows_of: dict[int, list[int]] = defaultdict(list)
    wanted = set(shared.tolist())
    for row, node in enumerate(row_node.tolist()):
        if node in wanted:
            rows_of[node].append(row)
    unresolved = block.rule_unresolved
    for node, rows in rows_of.items():
        names = tuple(sorted({f"{strongers[r]}>{weakers[r]}" for r in rows}))
        if len(names) > 1:
            block.names[node] = names
        tags = sorted({str(bases[r]) for r in rows})
        if unresolved[int(block.strong_rule[node])] or unresolved[int(block.weak_rule[node])]:
            tags.append("unresolved")
        block.tag[node] = block.tag_of(", ".join(tags))


class _Closure:
    """``P+`` indexed for finding the base priorities behind a closure pair."""

    def __init__(self, evaluation):
        order = evaluation.priorities
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


def closure_pairs(evaluation, namer: Namer, block: PriorityNodes, store: NodeStore, pairs) -> EdgeGroup:
    """Add a ``[closure]`` node for each pair of ``pairs`` that has no node, with its derivation edges.

    Parameters
    ----------
    evaluation : Evaluation
    namer : Namer
    block : PriorityNodes
        Gets the new nodes (in sorted pair order; a pair whose id some node has adds nothing).
    store : NodeStore
        Gets a bare id for a supporting base pair without a node (none in a theory's own trace).
    pairs : iterable of (str, str)
        ``(stronger, weaker)`` pairs of ``P+`` (the pairs of the defeat sets).

    Returns
    -------
    EdgeGroup
        Derivation edges from each supporting base pair to the closure node.
    """
    base = evaluation.priorities.base
    if base == block.known:  # the engine's base: the theory's pairs, each with its node
        pairs = list(pairs - base) if isinstance(pairs, (set, frozenset)) else [p for p in pairs if p not in base]
    else:
        pairs = [p for p in pairs if p not in block.known]  # the pair of a priority has its node
    if not pairs:
        return EdgeGroup(EdgeType.DERIVATION, [], [])
    found = block.find(block.codes([p[0] for p in pairs]), block.codes([p[1] for p in pairs]))
    missing = sorted(pairs[i] for i in np.flatnonzero(found < 0).tolist())
    sources: list[int] = []
    targets: list[int] = []
    if missing:
        closure, tag = _Closure(evaluation), block.tag_of(CLOSURE_TAG)
        for stronger, weaker in missing:
            codes = block.codes([stronger, weaker])
            if block.find(codes[:1], codes[1:])[0] >= 0:  # a pair of the same id came first
                continue
            block._append(codes[:1], codes[1:], [tag])
            node = -len(block)  # -1 - (len(block) - 1)
            for s, w in closure.supporting(stronger, weaker):
                codes = block.codes([s, w])
                j = int(block.find(codes[:1], codes[1:])[0])
                sources.append(-1 - j if j >= 0 else store.at(namer.priority_id(s, w)))
                targets.append(node)
    return EdgeGroup(EdgeType.DERIVATION, sources, targets)
