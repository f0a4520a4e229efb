"""Sorting and grouping of non-negative integer keys, as the trace's attack columns need them.

Plain numpy: a stable ``argsort`` orders keys (ties in position order), ``unique`` groups them
and ``searchsorted`` finds them; :func:`value_codes` numbers the values of columns with a dict.
"""

from __future__ import annotations

import numpy as np

__all__ = ["distinct", "find", "sort_order", "sort_positions", "unique", "value_codes"]


def sort_order(key: np.ndarray, span: int) -> tuple[np.ndarray, np.ndarray]:
    """An order that sorts ``key`` and the sorted keys (ties in position order).

    Parameters
    ----------
    key : numpy.ndarray of int
        Values in ``[0, span)``.
    span : int
        A bound on the values.

    Returns
    -------
    order : numpy.ndarray of int64
        ``key[order]`` is sorted.
    ordered : numpy.ndarray of int64
        ``key[order]``.

    Examples
    --------
    >>> import numpy as np
    >>> order, ordered = sort_order(np.array([3, 1, 3, 0]), 4)
    >>> order.tolist(), ordered.tolist()
    ([3, 1, 0, 2], [0, 1, 3, 3])
    """
    order = np.argsort(key, kind="stable").astype(np.int64, copy=False)
    return order, key[order].astype(np.int64, copy=False)


def sort_positions(key: np.ndarray, span: int) -> tuple[np.ndarray, np.ndarray | None]:
    """An order that sorts ``key`` (ties in position order), and the sorted keys only when two are equal.

    As :func:`sort_order`, for callers that need the sorted keys only to find equal ones.
    ``key`` and ``span`` are as for :func:`sort_order`.

    Returns
    -------
    order : numpy.ndarray of int64
        ``key[order]`` is sorted.
    ordered : numpy.ndarray or None
        ``key[order]`` (int64) when some two keys are equal, else None.

    Examples
    --------
    >>> import numpy as np
    >>> order, ordered = sort_positions(np.array([3, 1, 2]), 4)
    >>> order.tolist(), ordered
    ([1, 2, 0], None)
    >>> sort_positions(np.array([3, 1, 3]), 4)[1].tolist()
    [1, 3, 3]
    """
    order, ordered = sort_order(key, span)
    return order, ordered if len(key) > 1 and bool((ordered[1:] == ordered[:-1]).any()) else None


def unique(values: np.ndarray) -> np.ndarray:
    """The distinct values of an integer array, sorted (``numpy.unique`` by a plain sort; values that are
    few and small against the length, as codes are, are counted instead).

    Examples
    --------
    >>> import numpy as np
    >>> unique(np.array([4, 1, 4, 0])).tolist()
    [0, 1, 4]
    """
    return np.unique(values)


def distinct(key: np.ndarray, span: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The distinct values of ``key`` (sorted), a position holding each, and each position's distinct index.

    As ``numpy.unique(key, return_index=True, return_inverse=True)``, except that the position of
    a value is any one holding it: callers read fields that all positions of a value share.

    Parameters
    ----------
    key : numpy.ndarray of int
        Values in ``[0, span)``.
    span : int
        A bound on the values.

    Returns
    -------
    values, first, inverse : numpy.ndarray of int64

    Examples
    --------
    >>> import numpy as np
    >>> values, first, inverse = distinct(np.array([5, 2, 5]), 6)
    >>> values.tolist(), first.tolist(), inverse.tolist()
    ([2, 5], [1, 0], [1, 0, 1])
    """
    order, ordered = sort_order(key, span)
    new = np.empty(len(ordered), dtype=bool)
    new[:1] = True
    np.not_equal(ordered[1:], ordered[:-1], out=new[1:])
    starts = np.flatnonzero(new)
    inverse = np.empty(len(key), dtype=np.int64)
    inverse[order] = np.cumsum(new) - 1
    return ordered[starts], order[starts], inverse


def find(keys: np.ndarray, queries: np.ndarray, span: int) -> np.ndarray:
    """The index of each query in ``keys`` (sorted, distinct), -1 where it is not there.

    Parameters
    ----------
    keys : numpy.ndarray of int
        Sorted distinct values in ``[0, span)``.
    queries : numpy.ndarray of int
        Values in ``[0, span)``.
    span : int
        A bound on the values.

    Returns
    -------
    numpy.ndarray of int64

    Examples
    --------
    >>> import numpy as np
    >>> find(np.array([2, 5, 9]), np.array([9, 3, 2, 2]), 10).tolist()
    [2, -1, 0, 0]
    """
    found = np.full(len(queries), -1, dtype=np.int64)
    if not len(keys) or not len(queries):
        return found
    at = np.minimum(np.searchsorted(keys, queries), len(keys) - 1)
    return np.where(keys[at] == queries, at, -1).astype(np.int64, copy=False)


def value_codes(columns, known: dict | None = None) -> tuple[np.ndarray, list | None]:
    """The integer code of each value of ``columns`` laid end to end.

    Parameters
    ----------
    columns : sequence of sequences
        Hashable values.
    known : dict, optional
        Value -> code.  When given and non-empty, and it holds every value, each value's code is
        ``known[value]``.

    Returns
    -------
    codes : numpy.ndarray of int32
    distinct : list or None
        None when the codes come from ``known``; otherwise the distinct values in first-seen
        order, each value's code being its position there.

    Examples
    --------
    >>> codes, names = value_codes([("b", "a"), ("b", "c")])
    >>> codes.tolist(), names
    ([0, 1, 0, 2], ['b', 'a', 'c'])
    >>> value_codes([("a",)], {"a": 5})[0].tolist()
    [5]
    """
    if known:
        try:
            return np.array([known[v] for column in columns for v in column], dtype=np.int32), None
        except KeyError:
            pass
    number: dict = {}
    codes = [number.setdefault(v, len(number)) for column in columns for v in column]
    return np.array(codes, dtype=np.int32), list(number)
