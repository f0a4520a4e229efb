"""Sorting and grouping of non-negative integer keys, as the trace's attack columns need them.

numpy's ``sort`` of an int64 array is several times faster than its ``argsort`` (a vectorized
sort against a plain one), so the keys are sorted packed with their positions
(``key << bits | position``) whenever the packed value fits in an int64; a stable
``numpy.argsort`` is the fallback.  :func:`find` looks many keys up in a sorted array the same way (one sort of both,
instead of a binary search per key).
"""

from __future__ import annotations

import numpy as np

__all__ = ["PACK_LIMIT", "value_codes", "distinct", "find", "sort_order", "sort_positions", "unique"]

PACK_LIMIT = 1 << 62  # packed sort values stay below this bound (tests lower it to force the fallbacks)


def _or_positions(packed: np.ndarray) -> None:
    """``packed |= arange(len(packed))``: each key packed with its position."""
    packed |= np.arange(len(packed), dtype=np.int64)


def _fits(span: int, n: int) -> tuple[bool, int]:
    """Whether keys in ``[0, span)`` packed with ``n`` positions stay below :data:`PACK_LIMIT`."""
    bits = max(int(n - 1).bit_length(), 1)
    return span > 0 and (span << bits) < PACK_LIMIT, bits


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
    n = len(key)
    fits, bits = _fits(span, n)
    if not fits:
        order = np.argsort(key, kind="stable").astype(np.int64, copy=False)
        return order, key[order].astype(np.int64, copy=False)
    packed = key.astype(np.int64)
    packed <<= bits
    _or_positions(packed)
    packed.sort()
    order = packed & ((1 << bits) - 1)
    packed >>= bits
    return order, packed


def sort_positions(key: np.ndarray, span: int) -> tuple[np.ndarray, np.ndarray | None]:
    """An order that sorts ``key`` (ties in position order), and the sorted keys only when two are equal.

    As :func:`sort_order`, for callers that need the sorted keys only to find equal ones.
    ``key`` and ``span`` are as for :func:`sort_order`.

    Returns
    -------
    order : numpy.ndarray of int64
        ``key[order]`` is sorted.
    ordered : numpy.ndarray or None
        ``key[order]`` (of ``key``'s type) when some two keys are equal, else None.

    Examples
    --------
    >>> import numpy as np
    >>> order, ordered = sort_positions(np.array([3, 1, 2]), 4)
    >>> order.tolist(), ordered
    ([1, 2, 0], None)
    >>> sort_positions(np.array([3, 1, 3]), 4)[1].tolist()
    [1, 3, 3]
    """
    n = len(key)
    order, ordered = sort_order(key, span)
    return order, ordered if n > 1 and bool((ordered[1:] == ordered[:-1]).any()) else None


def unique(values: np.ndarray) -> np.ndarray:
    """The distinct values of an integer array, sorted (``numpy.unique`` by a plain sort; values that are
    few and small against the length, as codes are, are counted instead).

    Examples
    --------
    >>> import numpy as np
    >>> unique(np.array([4, 1, 4, 0])).tolist()
    [0, 1, 4]
    """
    if len(values) > 64 and values.dtype.kind in "iu":  # dense small values: counted, not sorted
        low, high = int(values.min()), int(values.max())
        if low >= 0 and high < 4 * len(values):
            return np.flatnonzero(np.bincount(values, minlength=high + 1)).astype(values.dtype, copy=False)
    ordered = np.sort(values)
    if len(ordered) < 2:
        return ordered
    keep = np.empty(len(ordered), dtype=bool)
    keep[0] = True
    np.not_equal(ordered[1:], ordered[:-1], out=keep[1:])
    return ordered[keep]


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
    m, q = len(keys), len(queries)
    found = np.full(q, -1, dtype=np.int64)
    if not m or not q:
        return found
    fits, bits = _fits(2 * span, m + q)
    if not fits:
        at = np.minimum(np.searchsorted(keys, queries), m - 1)
        return np.where(keys[at] == queries, at, -1)
    # key << (bits + 1) | is_query << bits | position: a query sorts right after its equal key.
    packed = np.concatenate([keys, queries]).astype(np.int64, copy=False)
    packed <<= bits + 1
    packed[m:] |= 1 << bits
    _or_positions(packed)
    packed.sort()
    position = packed & ((1 << bits) - 1)
    packed >>= bits + 1
    is_key = position < m
    last = np.where(is_key, np.arange(m + q), -1)
    np.maximum.accumulate(last, out=last)
    asked = np.flatnonzero(~is_key)
    at = last[asked]
    hit = (at >= 0) & (packed[np.maximum(at, 0)] == packed[asked])
    found[position[asked] - m] = np.where(hit, position[np.maximum(at, 0)], -1)
    return found


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
