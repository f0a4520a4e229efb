"""Text rows built in bulk from integer columns and small tables of encoded pieces.

A streamed output (:mod:`symbolic.tnf_stream`, :mod:`symbolic.cli_render`)
writes one line per attack or defeat edge.  Every line is a concatenation of
a few pieces, each a lookup into a small table indexed by one integer column
(an argument node, a kind, a licensing rule, a defeat set).  :func:`rows`
builds a chunk of lines with numpy fancy indexing into object arrays of
UTF-8 ``bytes`` and one ``bytes.join`` per chunk: no per-row Python code,
no per-row string object, no text encoding at write time.
"""

from __future__ import annotations

from typing import Iterable, Iterator, Sequence

import numpy as np

__all__ = ["CHUNK", "rows", "table"]

CHUNK = 1 << 14


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
