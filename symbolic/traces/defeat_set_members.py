"""The defeat sets of a trace's attack edges, held as integer members, and how sets of pairs are
named (Definition 4, docs/performance.md "Defeat sets: the summarized TNF").

A defeat set is a sorted tuple of priority node ids ``priority:(<strong>)>(<weak>)``, where
``<strong>`` and ``<weak>`` are the parts of two rules (:meth:`symbolic.traces.naming.Namer.priority_part`).
At the peer size the sets hold 58,767 ids; :class:`DefeatSets` keeps each member as two indices
into the table of parts instead; the ids themselves are made only when a set is read
as a tuple or named (:meth:`DefeatSets.ids`).
"""

from __future__ import annotations

import hashlib
from itertools import starmap
from operator import and_, ne
from typing import Iterator, Sequence

import numpy as np

from symbolic.traces.naming import PART_SEPARATOR, Namer, ids_of_parts
from symbolic.support.sorted_keys import sort_order, unique

__all__ = ["DefeatSets", "expand_runs", "named_sets", "set_id"]



def set_id(text: bytes) -> str:
    """The id of a defeat set from its members' ids joined by newlines (UTF-8): ``defeats:`` and
    12 hex of their sha256."""
    return "defeats:" + hashlib.sha256(text).hexdigest()[:12]


class DefeatSets(Sequence):
    """A sequence of defeat sets, each a tuple of priority node ids, sorted.

    Made either from the ids (:meth:`of_names`) or from integer members (:meth:`of_members`):
    member ``k`` is ``priority:(<parts[strong[k]]>)>(<parts[weak[k]]>)``, set ``i`` its members
    ``ends[i]:ends[i + 1]``, already sorted and each once.
    """

    __slots__ = ("_names", "_strong", "_weak", "_ends", "_parts")

    def __init__(self):
        self._names = self._strong = self._weak = self._ends = self._parts = None

    @classmethod
    def of_names(cls, sets: Sequence[tuple[str, ...]]) -> DefeatSets:
        """The sets given as tuples of ids."""
        out = cls()
        out._names = tuple(sets)
        return out

    @classmethod
    def of_members(cls, strong: np.ndarray, weak: np.ndarray, ends: np.ndarray,
                   parts: Sequence[str]) -> DefeatSets:
        """The sets given as integer members (class docstring)."""
        out = cls()
        out._strong, out._weak = np.asarray(strong, dtype=np.int64), np.asarray(weak, dtype=np.int64)
        out._ends, out._parts = np.asarray(ends, dtype=np.int64), list(parts)
        return out

    def __len__(self) -> int:
        return len(self._names) if self._names is not None else len(self._ends) - 1

    def __getitem__(self, i):
        return self.names()[i]

    def __iter__(self) -> Iterator[tuple[str, ...]]:
        return iter(self.names())

    def __eq__(self, other) -> bool:
        if not isinstance(other, DefeatSets):
            return NotImplemented
        return self.names() == other.names()

    __hash__ = None

    def __repr__(self) -> str:
        return f"DefeatSets({len(self)} sets)"

    def names(self) -> tuple[tuple[str, ...], ...]:
        """Every set as a tuple of priority node ids (made on first use)."""
        if self._names is None:
            ids = ids_of_parts(self._parts, self._strong, self._weak)
            ends = self._ends.tolist()
            self._names = tuple(tuple(ids[a:b]) for a, b in zip(ends, ends[1:]))
        return self._names

    def sizes(self) -> np.ndarray:
        """The number of ids in each set."""
        if self._ends is not None:
            return np.diff(self._ends)
        return np.array([len(s) for s in self._names], dtype=np.int64)

    def ids(self) -> list[str]:
        """Each set's id (:func:`set_id` of its members joined by newlines)."""
        return [set_id("\n".join(s).encode("utf-8")) for s in self.names()]


def expand_runs(starts: np.ndarray, sizes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The runs ``[starts[i], starts[i] + sizes[i])`` laid end to end: each position's run, and the position."""
    run = np.repeat(np.arange(len(sizes), dtype=np.int64), sizes)
    ends = np.cumsum(sizes)
    position = np.arange(int(ends[-1]) if len(ends) else 0, dtype=np.int64)
    position += np.repeat(starts - (ends - sizes), sizes)
    return run, position


def _id_ranks(namer: Namer, names: list, strong: np.ndarray, weak: np.ndarray):
    """Ranks of the priority ids ``priority:(<strong>)>(<weak>)`` of pairs, from the ranks of their
    rules' parts (:meth:`~symbolic.traces.naming.Namer.priority_part`): equal ranks for equal ids, and
    rank order for code-point order.  That holds when no ``<part>)>(`` is a proper prefix of
    another (a part with ``)>(`` in it could be); None otherwise.

    Returns
    -------
    (rank, parts, strong_part, weak_part) or None
        Each pair's rank; the parts of the rules met; each pair's strong and weak part (indices into them).
    """
    rules = unique(np.concatenate([strong, weak]))
    parts = [namer.priority_part(names[r]) for r in rules.tolist()]
    heads = [p + PART_SEPARATOR for p in parts]
    by_head = sorted(range(len(heads)), key=heads.__getitem__)
    ordered = list(map(heads.__getitem__, by_head))
    if any(map(and_, map(ne, ordered[:-1], ordered[1:]), map(str.startswith, ordered[1:], ordered[:-1]))):
        return None
    tails = [p + ")" for p in parts]
    head_rank, tail_rank = _tied_ranks(heads, by_head), _tied_ranks(tails)
    at = np.zeros(int(rules[-1]) + 1, dtype=np.int64)
    at[rules] = np.arange(len(rules))
    strong_part, weak_part = at[strong], at[weak]
    return head_rank[strong_part] * len(rules) + tail_rank[weak_part], parts, strong_part, weak_part


def _tied_ranks(strings: list, order: list | None = None) -> np.ndarray:
    """Rank of each string in code-point order, equal strings sharing one (``order``: their sorted order)."""
    if order is None:
        order = sorted(range(len(strings)), key=strings.__getitem__)
    ordered = list(map(strings.__getitem__, order))
    step = np.zeros(len(ordered), dtype=np.int64)
    step[1:] = np.fromiter(map(ne, ordered[1:], ordered[:-1]), dtype=bool, count=max(len(ordered) - 1, 0))
    ranks = np.empty(len(strings), dtype=np.int64)
    ranks[np.asarray(order, dtype=np.int64)] = np.cumsum(step)
    return ranks


def named_sets(members: list[np.ndarray], pairs, namer: Namer):
    """Name sets of pairs by their priority node ids, without making the ids when their ranks say the same.

    With the ids' ranks (:func:`_id_ranks`), a set is its members sorted by rank, equal ranks
    (equal ids) once, kept as part indices; otherwise (a part holding ``)>(``) as its sorted ids.

    Parameters
    ----------
    members : list of numpy.ndarray of int
        Each set's pairs, as indices into ``pairs``.
    pairs : symbolic.traces.defeat_sets._Pairs
        The numbered pairs.
    namer : Namer

    Returns
    -------
    keys : list
        A hashable key per set, equal for sets of equal ids.
    chosen_sets : callable
        ``chosen_sets(positions)``: the :class:`DefeatSets` of the sets at ``positions`` (in order).
    used : numpy.ndarray of int
        The pairs some set holds (indices into ``pairs``), in the order ``P+`` lists them.
    tuples : list of (str, str)
        Their ``(stronger, weaker)`` tuples.
    """
    flat = np.concatenate(members) if members else np.zeros(0, dtype=np.int64)
    used, tuples = pairs.in_source_order(np.flatnonzero(np.bincount(flat, minlength=len(pairs))))
    strong, weak = pairs.codes_of(used)
    position = np.zeros(len(pairs), dtype=np.int64)
    position[used] = np.arange(len(used))
    at = position[flat]
    sizes = np.array([len(m) for m in members], dtype=np.int64)
    ranked = _id_ranks(namer, pairs.names, strong, weak) if len(used) else None
    if ranked is None:  # sorted by the ids themselves
        ids = list(starmap(namer.priority_id, tuples))
        flat_ids = list(map(ids.__getitem__, at.tolist()))
        duplicate = len(set(ids)) < len(ids)  # two pairs of one id: a set lists it once
        out, start = [], 0
        for size in sizes.tolist():
            part = sorted(flat_ids[start:start + size])
            start += size
            out.append(tuple(dict.fromkeys(part)) if duplicate else tuple(part))
        return out, lambda chosen: DefeatSets.of_names([out[i] for i in chosen]), used, tuples
    rank, parts, strong_part, weak_part = ranked
    # Each set's members by rank (one sort for all sets), equal ranks (equal ids) once.
    span = int(rank.max()) + 1
    entry = np.repeat(np.arange(len(members), dtype=np.int64), sizes)
    order, key = sort_order(entry * span + rank[at], len(members) * span)
    keep = np.ones(len(key), dtype=bool)
    np.not_equal(key[1:], key[:-1], out=keep[1:])
    kept = at[order[keep]]
    ends = np.zeros(len(members) + 1, dtype=np.int64)
    np.cumsum(np.bincount(entry[order[keep]], minlength=len(members)), out=ends[1:])
    text = rank[kept].tobytes()
    width = rank.itemsize
    bounds = (ends * width).tolist()
    keys = [text[a:b] for a, b in zip(bounds, bounds[1:])]

    def chosen_sets(chosen: list[int]) -> DefeatSets:
        pick = np.asarray(chosen, dtype=np.int64)
        starts, counts = ends[:-1][pick], np.diff(ends)[pick]
        _, member = expand_runs(starts, counts)
        out_ends = np.zeros(len(pick) + 1, dtype=np.int64)
        np.cumsum(counts, out=out_ends[1:])
        return DefeatSets.of_members(strong_part[kept[member]], weak_part[kept[member]], out_ends, parts)

    return keys, chosen_sets, used, tuples
