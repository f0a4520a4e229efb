"""Text rows built in bulk from integer columns and small tables of encoded pieces.

A streamed output (:mod:`symbolic.traces.tnf_stream`, :mod:`symbolic.commands.cli_render`)
writes one line per attack or defeat edge.  Every line is a concatenation of
a few pieces, each a lookup into a small table indexed by one integer column
(an argument node, a kind, a licensing rule, a defeat set).  A :class:`Table`
holds its pieces as UTF-8, and :func:`rows` writes a chunk of lines by
looking the pieces up with ``map`` and joining them once per chunk: no text
encoding at write time.  :func:`decimals` writes an integer column as a
comma-separated decimal list (:func:`decimal_blocks`: in pieces, without
joining them).
"""

from __future__ import annotations

from itertools import chain, repeat
from typing import Iterable, Iterator, Sequence

import numpy as np

__all__ = ["CHUNK", "Table", "decimal_blocks", "decimals", "rows", "table"]

# Rows (and decimals) per piece: about 1 MB of text.  A larger piece is mapped afresh by the
# allocator and costs its page faults each time (docs/performance.md, "Streaming").
CHUNK = 1 << 12
_BLOCK = 1 << 17


class Table:
    """Pieces of text as UTF-8, laid end to end: piece ``k`` is ``data[ends[k]:ends[k + 1]]``.

    Parameters
    ----------
    pieces : list of bytes

    Attributes
    ----------
    data : bytes
    ends : numpy.ndarray of int64
        ``len(pieces) + 1`` offsets, the first 0.
    """

    __slots__ = ("data", "ends")

    def __init__(self, pieces: list[bytes]):
        self._set(b"".join(pieces), map(len, pieces), len(pieces))

    def _set(self, data: bytes, lengths: Iterable[int], count: int) -> None:
        self.data = data
        self.ends = np.zeros(count + 1, dtype=np.int64)
        np.cumsum(np.fromiter(lengths, dtype=np.int64, count=count), out=self.ends[1:])

    @classmethod
    def of_text(cls, pieces: list[str]) -> Table:
        """The table of ``str`` pieces, encoded in one call when their text is ASCII, else split on NUL.

        Raises
        ------
        TypeError
            If a piece is not a ``str``.
        """
        text = "".join(pieces)
        if text.isascii():
            out = cls.__new__(cls)
            out._set(text.encode("ascii"), map(len, pieces), len(pieces))
            return out
        if "\0" not in text:
            return cls("\0".join(pieces).encode("utf-8").split(b"\0") if pieces else [])
        return cls([p.encode("utf-8") for p in pieces])

    def __len__(self) -> int:
        return len(self.ends) - 1

    def pieces(self) -> list[bytes]:
        """The pieces, one ``bytes`` each."""
        data, ends = self.data, self.ends.tolist()
        return [data[a:b] for a, b in zip(ends, ends[1:])]


def table(pieces: Iterable[str | bytes]) -> Table:
    """The :class:`Table` of pieces (``str`` encoded as UTF-8), for :func:`rows`.

    Examples
    --------
    >>> table(["a", "¬", b"c"]).pieces()
    [b'a', b'\\xc2\\xac', b'c']
    """
    items = pieces if isinstance(pieces, list) else list(pieces)
    try:
        return Table.of_text(items)
    except TypeError:  # bytes among the pieces
        return Table([p if isinstance(p, bytes) else p.encode("utf-8") for p in items])


def _index(values: np.ndarray, n: int) -> np.ndarray:
    """``values`` as a one-dimensional integer (or bool) array of at least ``n`` items."""
    column = np.asarray(values)
    if column.dtype.kind not in "iub" or column.ndim != 1:
        raise TypeError(f"an index column must be one-dimensional integers, got {column.dtype} of shape {column.shape}")
    if len(column) < n:
        raise ValueError(f"an index column of {len(column)} items for {n} rows")
    return column


def _pieces_at(pieces: list[bytes], index: np.ndarray) -> list[bytes]:
    """The pieces at each index; :class:`IndexError` for one outside the table (negatives included)."""
    at = index.tolist()
    if at and (min(at) < 0 or max(at) >= len(pieces)):
        raise IndexError(f"a piece index outside 0..{len(pieces) - 1}")
    return list(map(pieces.__getitem__, at))


def rows(columns: Sequence[tuple[Table, np.ndarray]], n: int, *, chunk: int = CHUNK) -> Iterator[bytes]:
    """Lines ``b"".join(tab.pieces()[index[i]] for tab, index in columns)`` for ``i < n``, in chunks.

    Parameters
    ----------
    columns : sequence of (Table, numpy.ndarray)
        ``(table, index)`` pairs: a :func:`table` and an integer array of
        (at least) ``n`` items indexing it, or ``None`` for piece 0 in every row.
    n : int
        The number of rows.
    chunk : int, optional
        Rows per yielded piece.

    Yields
    ------
    bytes
        The concatenated rows of one chunk (no separator is added).

    Raises
    ------
    IndexError
        If an index is outside its table.

    Examples
    --------
    >>> names = table(["x", "y"])
    >>> b"".join(rows([(names, np.array([1, 0])), (table([";"]), np.zeros(2, dtype=int))], 2))
    b'y;x;'
    """
    columns = [(tab.pieces(), None if index is None else _index(index, n)) for tab, index in columns]
    for start in range(0, n, chunk):
        stop = min(n, start + chunk)
        cells = [repeat(pieces[0], stop - start) if index is None else _pieces_at(pieces, index[start:stop])
                 for pieces, index in columns]
        yield b"".join(chain.from_iterable(zip(*cells)))


def decimals(values: np.ndarray) -> bytes:
    """An integer column as ASCII decimals joined by commas (the body of a JSON list of ints).

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
    >>> decimals(np.array([True, False]))
    b'1,0'
    >>> decimals(np.array([], dtype=int))
    b''
    """
    column = _index(values, 0)
    if column.dtype.kind == "b":  # a bool column is written as 0 and 1, as JSON integers
        column = column.astype(np.int8)
    return repr(column.tolist())[1:-1].replace(" ", "").encode("ascii")  # a list of ints' repr: "[0, 7, -1]"


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
    v = _index(values, 0)
    for start in range(0, len(v), _BLOCK):
        if start:
            yield b","
        yield decimals(v[start:start + _BLOCK])
