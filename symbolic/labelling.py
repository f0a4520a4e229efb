"""Grounded labelling (Algorithm 1, SEMANTICS.md section 6).

The least fixpoint of: IN when every attacker is OUT, OUT when some attacker
is IN, UNDEC otherwise.  Computed by a worklist with attacker counters, linear
in arguments plus attacks, that records its rounds in the shape of
:func:`networkx.topological_generations`: round 0 holds the unattacked
arguments (IN), round 1 the arguments they attack (OUT), round 2 the
arguments whose last attacker went OUT in round 1 (IN), and so on.
"""

from __future__ import annotations

from typing import Iterable, Sequence

from .results import Attack, Label, Labelling

__all__ = ["grounded_labelling", "grounded_rounds"]


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
    pending = [0] * n
    for b in indices:
        pending[b] += 1
    state = [0] * n
    current = [a for a in range(n) if pending[a] == 0]
    rounds: list[list[int]] = []
    while current:
        for a in current:
            state[a] = 1
        rounds.append(current)
        beaten = []
        for a in current:
            for b in indices[indptr[a]:indptr[a + 1]]:
                if state[b] == 0:
                    state[b] = -1
                    beaten.append(b)
        if not beaten:
            break
        beaten.sort()
        rounds.append(beaten)
        current = []
        for b in beaten:
            for c in indices[indptr[b]:indptr[b + 1]]:
                if state[c] == 0:
                    pending[c] -= 1
                    if pending[c] == 0:
                        current.append(c)
        current.sort()
    return state, rounds


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
    ids = list(argument_ids)
    position = {a: i for i, a in enumerate(ids)}
    out: list[list[int]] = [[] for _ in ids]
    for attack in attacks:
        if attack.defeated_by is None:
            out[position[attack.attacker]].append(position[attack.target])
    indptr, indices = [0], []
    for targets in out:
        indices.extend(targets)
        indptr.append(len(indices))
    state, rounds = grounded_rounds(len(ids), indptr, indices)
    return Labelling(
        labels={a: _LABEL[state[i]] for i, a in enumerate(ids)},
        rounds=tuple(tuple(ids[i] for i in r) for r in rounds),
    )
