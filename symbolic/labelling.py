"""Grounded labelling (Algorithm 1, docs/semantics.md section 6).

The least fixpoint of: IN when every attacker is OUT, OUT when some attacker
is IN, UNDEC otherwise.  Computed by a worklist with attacker counters, linear
in arguments plus attacks, that records its rounds in the shape of
:func:`networkx.topological_generations`: round 0 holds the unattacked
arguments (IN), round 1 the arguments they attack (OUT), round 2 the
arguments whose last attacker went OUT in round 1 (IN), and so on; each round
ascending.  The worklist is the C extension :mod:`symbolic._grounded`
(``symbolic/_grounded.c``, built at install time); this module checks the
input and reports bad indices.
"""

from __future__ import annotations

from typing import Iterable, Sequence

import numpy as np

from ._grounded import csr_rounds as _csr_rounds, edge_rounds as _edge_rounds
from .attack_table import AttackTable
from .collector import gc_paused
from .results import Attack, Label, Labelling

__all__ = ["grounded_labelling", "grounded_rounds", "grounded_state"]


def _as_index(values, name: str) -> tuple[np.ndarray, np.ndarray]:
    """``values`` as a flat integer array, and as the contiguous int32 or int64 array the kernel reads."""
    column = np.asarray(values).reshape(-1)
    if column.dtype.kind not in "iu":
        if column.size:
            raise ValueError(f"{name} indices must be integers, got {column.dtype}")
        column = column.astype(np.int32)
    kernel = column if column.dtype in (np.int32, np.int64) else column.astype(np.int64)
    return column, np.ascontiguousarray(kernel)


def _check_range(column: np.ndarray, n: int, name: str) -> None:
    """Raise ``ValueError`` if an index of ``column`` is outside ``0 .. n-1``."""
    if column.size and (column.min() < 0 or column.max() >= n):
        raise ValueError(f"{name} index out of range 0..{n - 1}: {column.min()}..{column.max()}")


def _range_error(error: IndexError, n: int, columns: dict[str, np.ndarray]) -> ValueError:
    """The kernel's ``IndexError("attacker")`` or ``IndexError("target")`` as the range it found broken."""
    name = str(error.args[0])
    try:
        _check_range(columns[name], n, name)
    except ValueError as reported:
        return reported
    raise AssertionError(f"the kernel rejected {name} indices that are in range 0..{n - 1}") from error


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
        If an index is outside ``0 .. n-1`` (attackers checked first) or is
        not an integer, or if ``src`` and ``dst`` differ in length.

    Examples
    --------
    >>> state, rounds = grounded_state(4, [0, 1, 2, 3], [1, 2, 3, 3])
    >>> state.tolist(), rounds
    ([1, -1, 1, -1], [[0], [1], [2], [3]])
    """
    (src_column, src), (dst_column, dst) = _as_index(src, "attacker"), _as_index(dst, "target")
    if len(src) != len(dst):
        _check_range(src_column, n, "attacker")
        _check_range(dst_column, n, "target")
        raise ValueError(f"{len(src)} attackers but {len(dst)} targets")
    if src.dtype != dst.dtype:  # the kernel reads both at one width
        src, dst = src.astype(np.int64), dst.astype(np.int64)
    state = np.empty(max(n, 0), dtype=np.int8)
    try:
        with gc_paused():  # the rounds are one list per round
            rounds = _edge_rounds(n, src, dst, state)
    except IndexError as error:  # the kernel checks the range while it counts
        raise _range_error(error, n, {"attacker": src_column, "target": dst_column}) from None
    return state, rounds


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

    Raises
    ------
    ValueError
        If a target is outside ``0 .. n-1`` or is not an integer, or if
        ``indptr`` does not rise from 0 to ``len(indices)`` in ``n + 1`` items.

    Examples
    --------
    >>> grounded_rounds(4, [0, 1, 2, 3, 4], [1, 2, 3, 3])   # 0 -> 1 -> 2 -> 3, 3 -> 3
    ([1, -1, 1, -1], [[0], [1], [2], [3]])
    """
    indptr = np.ascontiguousarray(np.asarray(indptr, dtype=np.int64).reshape(-1))
    column, indices = _as_index(indices, "target")
    state = np.empty(max(n, 0), dtype=np.int8)
    try:
        with gc_paused():
            rounds = _csr_rounds(n, indptr, indices, state)
    except IndexError as error:
        raise _range_error(error, n, {"target": column}) from None
    return state.tolist(), rounds


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
