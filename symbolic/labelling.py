"""Grounded labelling (Algorithm 1, docs/semantics.md section 6).

The least fixpoint of: IN when every attacker is OUT, OUT when some attacker
is IN, UNDEC otherwise.  Computed by a worklist with attacker counters, linear
in arguments plus attacks, that records its rounds in the shape of
:func:`networkx.topological_generations`: round 0 holds the unattacked
arguments (IN), round 1 the arguments they attack (OUT), round 2 the
arguments whose last attacker went OUT in round 1 (IN), and so on.
"""

from __future__ import annotations

from typing import Iterable, Sequence

import numpy as np

from .arguments import gc_paused
from .attack_table import AttackTable
from .results import Attack, Label, Labelling

__all__ = ["grounded_labelling", "grounded_rounds", "grounded_state"]

# Below this many edges a round is propagated in plain Python (no numpy call
# overhead); above it, with numpy gathers.  Both give identical results.
_SMALL = 256


class _Worklist:
    """Attacker counters and CSR out-adjacency over arguments ``0 .. n-1``."""

    def __init__(self, n: int, indptr: np.ndarray, indices: np.ndarray, pending: np.ndarray | None = None):
        self.indptr = indptr.astype(np.int64, copy=False)
        self.indices = indices.astype(np.int32, copy=False)
        if pending is None:
            pending = np.bincount(self.indices, minlength=n)
        self.pending = pending.astype(np.int64, copy=False)
        self.state = np.zeros(n, dtype=np.int8)
        self.degree: np.ndarray | None = None
        self.ptr, self.ind = memoryview(self.indptr), memoryview(self.indices)
        self.pend, self.st = memoryview(self.pending), memoryview(self.state)

    def _edges(self, nodes: list[int]) -> int:
        ptr = self.ptr
        return sum(ptr[a + 1] - ptr[a] for a in nodes) if len(nodes) <= _SMALL else _SMALL + 1

    def _dense(self, targets: np.ndarray) -> bool:
        """Whether a whole-array pass is cheaper than sorting ``targets``."""
        return 8 * len(targets) > len(self.state)

    def _many(self, nodes: list[int]) -> bool:
        """Whether ``nodes`` are so many that one boolean pass over all edges is cheaper."""
        return 4 * len(nodes) > len(self.state)

    def _targets(self, nodes: list[int]) -> np.ndarray:
        """Every argument attacked by ``nodes`` (with repeats), by one boolean pass over the edges."""
        if self.degree is None:
            self.degree = np.diff(self.indptr)
        mask = np.zeros(len(self.state), dtype=bool)
        mask[nodes] = True
        return self.indices[np.repeat(mask, self.degree)]

    def _gather(self, nodes: list[int]) -> np.ndarray:
        """The unlabelled arguments attacked by ``nodes`` (with repeats)."""
        if self._many(nodes):
            targets = self._targets(nodes)
            return targets[self.state[targets] == 0]
        nodes_arr = np.asarray(nodes, dtype=np.int64)
        starts = self.indptr[nodes_arr]
        lengths = self.indptr[nodes_arr + 1] - starts
        total = int(lengths.sum())
        if not total:
            return np.zeros(0, dtype=np.int32)
        shift = np.repeat(starts - (np.cumsum(lengths) - lengths), lengths)
        targets = self.indices[shift + np.arange(total)]
        return targets[self.state[targets] == 0]

    def beat(self, nodes: list[int]) -> list[int]:
        """Label OUT every unlabelled argument attacked by ``nodes``; return them sorted."""
        if self._edges(nodes) <= _SMALL:
            ptr, ind, st, beaten = self.ptr, self.ind, self.st, set()
            for a in nodes:
                for b in ind[ptr[a]:ptr[a + 1]]:
                    if st[b] == 0:
                        beaten.add(b)
            out = sorted(beaten)
            for b in out:
                st[b] = -1
            return out
        if self._many(nodes):  # mark the targets, keep the unlabelled ones: no gather of states per edge
            hit = np.zeros(len(self.state), dtype=bool)
            hit[self._targets(nodes)] = True
            beaten = np.flatnonzero(hit & (self.state == 0))
            self.state[beaten] = -1
            return beaten.tolist()
        targets = self._gather(nodes)
        if self._dense(targets):  # mark and scan: O(n), no sort
            self.state[targets] = -2
            beaten = np.flatnonzero(self.state == -2)
        else:
            beaten = np.unique(targets)
        self.state[beaten] = -1
        return beaten.tolist()

    def release(self, nodes: list[int]) -> list[int]:
        """Count down the attackers of what ``nodes`` attack; return the new IN arguments, sorted."""
        if self._edges(nodes) <= _SMALL:
            ptr, ind, st, pend, free = self.ptr, self.ind, self.st, self.pend, []
            for b in nodes:
                for c in ind[ptr[b]:ptr[b + 1]]:
                    if st[c] == 0:
                        pend[c] -= 1
                        if pend[c] == 0:
                            free.append(c)
            free.sort()
            return free
        targets = self._gather(nodes)
        if self._dense(targets):  # every unlabelled argument at zero was just released
            self.pending -= np.bincount(targets, minlength=len(self.pending))
            return np.flatnonzero((self.pending == 0) & (self.state == 0)).tolist()
        targets, counts = np.unique(targets, return_counts=True)
        self.pending[targets] -= counts
        return targets[self.pending[targets] == 0].tolist()

    def run(self) -> list[list[int]]:
        rounds: list[list[int]] = []
        current = np.flatnonzero(self.pending == 0).tolist()
        while current:
            self.state[current] = 1
            rounds.append(current)
            beaten = self.beat(current)
            if not beaten:
                break
            rounds.append(beaten)
            current = self.release(beaten)
        return rounds


def _csr(n: int, src: np.ndarray, dst: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Out-adjacency: a stable sort of the edges by attacker (radix on uint16 keys)."""
    key = src.astype(np.uint16) if n <= 1 << 16 else src
    order = np.argsort(key, kind="stable")
    indptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.bincount(src, minlength=n), out=indptr[1:])
    return indptr, dst[order]


def _as_index(values, n: int, name: str) -> np.ndarray:
    column = np.asarray(values).reshape(-1)
    if column.dtype.kind not in "iu":
        if column.size:
            raise ValueError(f"{name} indices must be integers, got {column.dtype}")
        column = column.astype(np.int32)
    if column.size and (column.min() < 0 or column.max() >= n):
        raise ValueError(f"{name} index out of range 0..{n - 1}: {column.min()}..{column.max()}")
    return column.astype(np.int32, copy=False)


def grounded_state(n: int, src, dst) -> tuple[np.ndarray, list[list[int]]]:
    """Grounded labelling of an integer framework given as an edge list (Algorithm 1).

    Parameters
    ----------
    n : int
        Number of arguments ``0 .. n-1``.
    src, dst : array_like of int
        Attack ``k`` is ``src[k] -> dst[k]`` (repeats allowed).

    Returns
    -------
    state : numpy.ndarray of int8
        ``1`` IN, ``-1`` OUT, ``0`` UNDEC, per argument.
    rounds : list of list of int
        The arguments labelled in each round, ascending; IN in even rounds.

    Raises
    ------
    ValueError
        If an index is outside ``0 .. n-1``.

    Examples
    --------
    >>> state, rounds = grounded_state(4, [0, 1, 2, 3], [1, 2, 3, 3])
    >>> state.tolist(), rounds
    ([1, -1, 1, -1], [[0], [1], [2], [3]])
    """
    src, dst = _as_index(src, n, "attacker"), _as_index(dst, n, "target")
    if len(src) != len(dst):
        raise ValueError(f"{len(src)} attackers but {len(dst)} targets")
    with gc_paused():
        pending = np.bincount(dst, minlength=n)
        if not pending.all() and len(dst):  # something is unattacked: propagation needs adjacency
            indptr, indices = _csr(n, src, dst)
        else:
            indptr, indices = np.zeros(n + 1, dtype=np.int64), np.zeros(0, dtype=np.int32)
        worklist = _Worklist(n, indptr, indices, pending)
        rounds = worklist.run()
    return worklist.state, rounds


def grounded_rounds(n: int, indptr: Sequence[int], indices: Sequence[int]) -> tuple[list[int], list[list[int]]]:
    """Grounded labelling of an integer framework given as CSR out-adjacency.

    Parameters
    ----------
    n : int
        Number of arguments ``0 .. n-1``.
    indptr, indices : sequence of int
        The arguments attacked by ``a`` are ``indices[indptr[a]:indptr[a + 1]]``
        (repeats allowed).

    Returns
    -------
    state : list of int
        ``1`` IN, ``-1`` OUT, ``0`` UNDEC, per argument.
    rounds : list of list of int
        The arguments labelled in each round, ascending; IN in even rounds.

    Examples
    --------
    >>> grounded_rounds(4, [0, 1, 2, 3, 4], [1, 2, 3, 3])   # 0 -> 1 -> 2 -> 3, 3 -> 3
    ([1, -1, 1, -1], [[0], [1], [2], [3]])
    """
    worklist = _Worklist(n, np.asarray(indptr, dtype=np.int64), np.asarray(indices, dtype=np.int32))
    rounds = worklist.run()
    return worklist.state.tolist(), rounds


_LABEL = {1: Label.IN, -1: Label.OUT, 0: Label.UNDEC}


def grounded_labelling(argument_ids: Iterable[str], attacks: Iterable[Attack]) -> Labelling:
    """Grounded labelling over the active attacks (Algorithm 1).

    Parameters
    ----------
    argument_ids : iterable of str
        The arguments, in the order the labels and rounds should follow.
    attacks : iterable of Attack
        Attacks; neutralized ones (``defeated_by`` set) are ignored.

    Returns
    -------
    Labelling
        A label per argument and the rounds of the worklist.

    Raises
    ------
    KeyError
        If an active attack names an argument not in ``argument_ids``.

    Examples
    --------
    >>> from symbolic.labels import AttackKind
    >>> att = [Attack("A1", "A2", AttackKind.REBUT, "A2", None),
    ...        Attack("A2", "A3", AttackKind.REBUT, "A3", "r2"),
    ...        Attack("A3", "A2", AttackKind.REBUT, "A2", "r3", defeated_by=("r2", "r3"))]
    >>> lab = grounded_labelling(["A1", "A2", "A3"], att)
    >>> [str(lab.labels[a]) for a in ("A1", "A2", "A3")], lab.rounds
    (['IN', 'OUT', 'IN'], (('A1',), ('A2',), ('A3',)))
    """
    ids = tuple(argument_ids)
    if isinstance(attacks, AttackTable) and attacks.argument_ids == ids:
        src, dst = attacks.active_pairs()
    else:
        position = {a: i for i, a in enumerate(ids)}
        pairs = [(position[a.attacker], position[a.target]) for a in attacks if a.defeated_by is None]
        src = np.fromiter((p[0] for p in pairs), dtype=np.int64, count=len(pairs))
        dst = np.fromiter((p[1] for p in pairs), dtype=np.int64, count=len(pairs))
    state, rounds = grounded_state(len(ids), src, dst)
    return Labelling(
        labels=dict(zip(ids, [_LABEL[x] for x in state.tolist()])),
        rounds=tuple(tuple(ids[i] for i in r) for r in rounds),
    )
