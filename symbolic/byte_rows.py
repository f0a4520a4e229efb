"""Text rows built in bulk from integer columns and small tables of encoded pieces.

A streamed output (:mod:`symbolic.tnf_stream`, :mod:`symbolic.cli_render`)
writes one line per attack or defeat edge.  Every line is a concatenation of
a few pieces, each a lookup into a small table indexed by one integer column
(an argument node, a kind, a licensing rule, a defeat set).  :func:`rows`
builds a chunk of lines with numpy fancy indexing into object arrays of
UTF-8 ``bytes`` and one ``bytes.join`` per chunk: no per-row Python code,
no per-row string object, no text encoding at write time.  :func:`decimals`
writes an integer column as a comma-separated decimal list the same way
(:func:`decimal_blocks`: in pieces, without joining them).
"""

from __future__ import annotations

from typing import Iterable, Iterator, Sequence

import numpy as np

__all__ = ["CHUNK", "decimal_blocks", "decimals", "rows", "table"]

CHUNK = 1 << 12
_BLOCK = 1 << 18


def table(pieces: Iterable[str | bytes]) -> np.ndarray:
    """An object array of UTF-8 ``bytes``, one per piece, for :func:`rows`.

    Examples
    --------
    >>> table(["a", "¬"]).tolist()
    [b'a', b'\\xc2\\xac']
    """
    encoded = [p if isinstance(p, bytes) else p.encode("utf-8") for p in pieces]
    out = np.empty(len(encoded), dtype=object)
    out[:] = encoded
    return out


def rows(columns: Sequence[tuple[np.ndarray, np.ndarray]], n: int, *, chunk: int = CHUNK) -> Iterator[bytes]:
    """Lines ``b"".join(tab[index[i]] for tab, index in columns)`` for ``i < n``, in chunks.

    Parameters
    ----------
    columns : sequence of (numpy.ndarray, numpy.ndarray)
        ``(table, index)`` pairs: a :func:`table` and an integer array of
        length ``n`` indexing it.
    n : int
        The number of rows.
    chunk : int, optional
        Rows per yielded piece.

    Yields
    ------
    bytes
        The concatenated rows of one chunk (no separator is added).

    Examples
    --------
    >>> names = table(["x", "y"])
    >>> b"".join(rows([(names, np.array([1, 0])), (table([";"]), np.zeros(2, dtype=int))], 2))
    b'y;x;'
    """
    width = len(columns)
    for start in range(0, n, chunk):
        stop = min(n, start + chunk)
        block = np.empty((stop - start, width), dtype=object)
        for j, (tab, index) in enumerate(columns):
            block[:, j] = tab[index[start:stop]]
        yield b"".join(block.ravel().tolist())


def decimals(values: np.ndarray) -> bytes:
    """An integer column as ASCII decimals joined by commas (the body of a JSON list of ints).

    Built with numpy on a digit matrix, without a Python object per value.

    Parameters
    ----------
    values : numpy.ndarray of int

    Returns
    -------
    bytes

    Examples
    --------
    >>> decimals(np.array([0, 7, -1, 1234, 10]))
    b'0,7,-1,1234,10'
    >>> decimals(np.array([], dtype=int))
    b''
    """
    return b"".join(decimal_blocks(values))


def decimal_blocks(values: np.ndarray) -> Iterator[bytes]:
    """:func:`decimals` in pieces, a block of values each, the commas between blocks included.

    Parameters
    ----------
    values : numpy.ndarray of int

    Yields
    ------
    bytes
        Pieces whose concatenation is ``decimals(values)``.

    Examples
    --------
    >>> b"".join(decimal_blocks(np.array([3, -12])))
    b'3,-12'
    """
    v = np.asarray(values, dtype=np.int64)
    lut = _lookup(v)
    for start in range(0, len(v), _BLOCK):
        if start:
            yield b","
        if lut is None:
            yield _decimals(v[start:start + _BLOCK])
        else:
            low, words = lut
            grid = words[v[start:start + _BLOCK] - low].view(np.uint8)
            yield grid[grid != 0].tobytes()[:-1]


def _lookup(v: np.ndarray) -> tuple[int, np.ndarray] | None:
    """``(low, words)``: the text ``f"{x},"`` of every ``x`` in ``[low, max(v)]``, NUL-padded to 8 bytes,
    one ``uint64`` word each; ``None`` when the range is wider than the column or a value needs
    more than 7 characters.

    A column of small integers (argument and rule indices, flags) is then written by one gather
    of words and one pass dropping the NUL padding, instead of one pass per digit.
    """
    if not len(v):
        return None
    low, high = int(v.min()), int(v.max())
    if high - low >= max(len(v), 256) or max(len(str(low)), len(str(high))) > 7:
        return None
    text = "".join([f"{x},".ljust(8, "\0") for x in range(low, high + 1)])
    return low, np.frombuffer(text.encode("ascii"), dtype=np.uint64)


def _decimals(v: np.ndarray) -> bytes:
    """:func:`decimals` of an int64 column of at most a block."""
    if not len(v):
        return b""
    magnitude = np.abs(v)
    width = len(str(int(magnitude.max())))
    grid = np.empty((len(v), width + 2), dtype=np.uint8)
    grid[:, 0] = ord("-")
    grid[:, -1] = ord(",")
    rest = magnitude.astype(np.uint32 if width < 10 else np.uint64)
    for column in range(width, 0, -1):
        rest, digit = np.divmod(rest, 10)
        grid[:, column] = digit
        grid[:, column] += ord("0")
    if v.min() >= 0 and (width == 1 or magnitude.min() >= 10 ** (width - 1)):  # one width: no '-', no padding
        return grid[:, 1:].tobytes()[:-1]
    powers = 10 ** np.arange(1, width, dtype=np.int64)
    length = 1 + np.searchsorted(powers, magnitude, side="right")  # digits of each value
    keep = np.ones(grid.shape, dtype=bool)
    keep[:, 0] = v < 0
    keep[:, 1:-1] = np.arange(width, 0, -1)[None, :] <= length[:, None]
    return grid[keep].tobytes()[:-1]
