"""Grounded labelling (Algorithm 1, docs/semantics.md section 6): the least fixpoint of IN when every
attacker is OUT, OUT when some attacker is IN, UNDEC otherwise, by a worklist with attacker counters
(linear in arguments plus attacks) that records its rounds in the shape of
:func:`networkx.topological_generations`.
"""

from __future__ import annotations

from typing import Iterable

import numpy as np

from symbolic.engine.results import Attack, AttackTable, Label, Labelling

__all__ = ["grounded_labelling", "grounded_state"]


def _index_column(values, name: str, n: int) -> np.ndarray:
    """``values`` as a flat int64 array, every index in ``0 .. n-1``.

    Raises
    ------
    ValueError
        If a value is not an integer or is out of range.
    """
    column = np.asarray(values).reshape(-1)
    if column.dtype.kind not in "iu":
        if column.size:
            raise ValueError(f"{name} indices must be integers, got {column.dtype}")
        column = column.astype(np.int64)
    if column.size and (column.min() < 0 or column.max() >= n):
        raise ValueError(f"{name} index out of range 0..{n - 1}: {column.min()}..{column.max()}")
    return column.astype(np.int64, copy=False)


def grounded_state(n: int, src, dst) -> tuple[np.ndarray, list[list[int]]]:
    """Grounded labelling of an integer framework given as an edge list (Algorithm 1).

    Every argument counts its attackers not yet OUT.  Round 0 labels IN those at zero; each OUT
    round labels OUT what a new IN argument attacks; each argument going OUT counts down what it
    attacks, and one reaching zero is IN in the next round.  What no round labels is UNDEC.  Each
    edge is read at most twice.

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
        If an index is not an integer in ``0 .. n-1``, or ``src`` and ``dst`` differ in length.

    Examples
    --------
    >>> state, rounds = grounded_state(4, [0, 1, 2, 3], [1, 2, 3, 3])
    >>> state.tolist(), rounds
    ([1, -1, 1, -1], [[0], [1], [2], [3]])
    """
    n = max(n, 0)
    src, dst = _index_column(src, "attacker", n), _index_column(dst, "target", n)
    if len(src) != len(dst):
        raise ValueError(f"{len(src)} attackers but {len(dst)} targets")
    order = np.argsort(src, kind="stable")  # out-adjacency: what argument a attacks is targets[start[a]:start[a+1]]
    targets = dst[order].tolist()
    start = np.searchsorted(src[order], np.arange(n + 1)).tolist()
    pending = np.bincount(dst, minlength=n).tolist()  # attackers not yet OUT, repeats counted
    state = [0] * n
    rounds: list[list[int]] = []
    new_in = [a for a in range(n) if not pending[a]]
    while new_in:
        for a in new_in:
            state[a] = 1
        rounds.append(new_in)
        new_out = []
        for a in new_in:
            for b in targets[start[a]:start[a + 1]]:
                if not state[b]:
                    state[b] = -1
                    new_out.append(b)
        if not new_out:
            break
        new_out.sort()
        rounds.append(new_out)
        released = []
        for b in new_out:
            for c in targets[start[b]:start[b + 1]]:
                if not state[c]:
                    pending[c] -= 1
                    if not pending[c]:
                        released.append(c)
        released.sort()
        new_in = released
    return np.array(state, dtype=np.int8), rounds


_LABEL = {1: Label.IN, -1: Label.OUT, 0: Label.UNDEC}


def grounded_labelling(argument_ids: Iterable[str], attacks: Iterable[Attack]) -> Labelling:
    """Grounded labelling over the active attacks (Algorithm 1).

    Parameters
    ----------
    argument_ids : iterable of str
        The arguments, in the order the labels and rounds follow.
    attacks : iterable of Attack
        Neutralized ones (``defeated_by`` set) are ignored.

    Raises
    ------
    KeyError
        If an active attack names an argument not in ``argument_ids``.

    Examples
    --------
    >>> from symbolic.scenario.labels import AttackKind
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
