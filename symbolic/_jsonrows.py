"""Reading long JSON arrays of explicit attacks from the bytes of a document, without a Python object per row.

A list of a million ``attacks`` entries is 88 MB of objects that repeat one
layout (``{"source": "a1", "target": "a2", "kind": "undermine", "evidence":
["E-01"]}``).  Decoding it makes a dict (and a list) per entry; freeing and
validating them costs more than parsing.  :func:`split_rows` finds such an
array in the bytes of a document and reads it column-wise instead: the
layout of the first entry is parsed here, and the C scanner
(:func:`symbolic._colread.scan_rows`) checks that every other entry is the
same bytes apart from the contents of its value strings, and numbers the
distinct contents of each value in first-seen order.  Each distinct string
is decoded once; a column is the tuple of those shared objects.  The
columns of an ``attack_table`` (:func:`split_table`) are arrays of plain
strings, read the same way (:func:`symbolic._colread.scan_strings`).

Both decline (return ``None``, or no splice) on anything else: a backslash
or a control character in a string, bytes that are not UTF-8, entries of
different layouts (another key, another order, other whitespace, a number,
a nested object), fewer rows than asked.  The caller parses the document as
usual then, so only arrays that the exact parser reads the same way take
this path.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator

from . import _colread
from .columns import RawRows

__all__ = ["TABLE", "TABLE_COLUMNS", "CodedRows", "splices", "split_rows", "split_table"]

#: The key of the columnar block of explicit attacks next to ``attacks``, and the columns read from bytes.
TABLE, TABLE_COLUMNS = "attack_table", ("source", "target")

_WS = b" \t\n\r"


@dataclass(frozen=True, slots=True)
class CodedRows(RawRows):
    """:class:`~symbolic.columns.RawRows` whose string columns of several values also come coded.

    Attributes
    ----------
    coded : dict of str to (bytes, list of str)
        For each such column, the first-seen number of each row's value
        (native int32) and the distinct values they number: the column is
        ``tuple(distinct[c] for c in codes)``, so each distinct value can be
        validated once.
    """

    coded: dict


def _skip(data: bytes, i: int) -> int:
    while i < len(data) and data[i] in _WS:
        i += 1
    return i


def _string(data: bytes, i: int) -> tuple[int, int]:
    """``(start, end)`` of the contents of the string whose opening quote is at ``i``."""
    end = data.index(b'"', i + 1)
    return i + 1, end


class _Decline(Exception):
    pass


def _layout(data: bytes, i: int):
    """The layout of the flat object at ``i``: ``(keys, kinds, value spans, end)``.

    ``kinds[k]`` is ``"str"``, ``"null"`` or the number of strings of a list;
    the value spans are the ``(start, end)`` of the contents of each value
    string, in order; ``end`` is the position after the ``}``.
    """
    if data[i:i + 1] != b"{":
        raise _Decline
    keys, kinds, spans = [], [], []
    i = _skip(data, i + 1)
    while True:
        if data[i:i + 1] != b'"':
            raise _Decline
        start, end = _string(data, i)
        keys.append(data[start:end])
        i = _skip(data, end + 1)
        if data[i:i + 1] != b":":
            raise _Decline
        i = _skip(data, i + 1)
        head = data[i:i + 1]
        if head == b'"':
            spans.append(_string(data, i))
            kinds.append("str")
            i = spans[-1][1] + 1
        elif data[i:i + 4] == b"null":
            kinds.append("null")
            i += 4
        elif head == b"[":
            items = 0
            i = _skip(data, i + 1)
            if data[i:i + 1] != b"]":
                while True:
                    if data[i:i + 1] != b'"':
                        raise _Decline
                    spans.append(_string(data, i))
                    items += 1
                    i = _skip(data, spans[-1][1] + 1)
                    if data[i:i + 1] == b"]":
                        break
                    if data[i:i + 1] != b",":
                        raise _Decline
                    i = _skip(data, i + 1)
            kinds.append(items)
            i += 1
        else:
            raise _Decline
        i = _skip(data, i)
        if data[i:i + 1] == b"}":
            return keys, kinds, spans, i + 1
        if data[i:i + 1] != b",":
            raise _Decline
        i = _skip(data, i + 1)


def _find(data: bytes, key: bytes, at: int = 0, opener: bytes = b"[",
          skip: tuple[int, int] = (0, 0)) -> Iterator[int]:
    """Positions of the ``opener`` (``[`` or ``{``) of each ``"key": <opener>`` in ``data`` from ``at`` on,
    outside ``data[skip[0]:skip[1]]``, in order."""
    pattern = b'"' + key + b'"'
    while True:
        found = data.find(pattern, at, skip[0]) if at < skip[0] else -1
        at = found if found >= 0 else data.find(pattern, max(at, skip[1]))
        if at < 0:
            return
        i = _skip(data, at + len(pattern))
        if data[i:i + 1] == b":":
            i = _skip(data, i + 1)
            if data[i:i + 1] == opener:
                yield i
        at += len(pattern)


def split_rows(data: bytes, key: bytes, min_rows: int = 2, skip: tuple[int, int] = (0, 0)):
    """The array of flat objects that is the value of a ``key`` in ``data``, read as columns.

    Parameters
    ----------
    data : bytes
        A JSON document as UTF-8.
    key : bytes
        The key whose value is the array (the first such array that
        qualifies is taken).
    min_rows : int
        Decline shorter arrays.
    skip : tuple of (int, int)
        A range of ``data`` not to look into (an array read already).

    Returns
    -------
    tuple of (int, int, RawRows) or None
        ``data[start:end]`` is the array; its rows as columns.  ``None`` when
        no array qualifies (see the module docstring).  The caller must
        make sure ``data[start:end]`` is a value of the document (the array
        bytes alone are checked here).
    """
    for start in _find(data, key, skip=skip):
        try:
            found = _columns(data, start, min_rows)
        except (_Decline, ValueError, IndexError):
            continue
        if found is not None:
            return found
    return None


def _columns(data: bytes, start: int, min_rows: int):
    first = _skip(data, start + 1)
    keys, kinds, spans, row_end = _layout(data, first)
    if len(set(keys)) != len(keys) or not spans:
        return None
    for text in keys:  # a key must be a plain string (no escape, no control character)
        if b"\\" in text or any(b < 32 for b in text):
            return None
    after = _skip(data, row_end)
    if data[after:after + 1] != b",":
        return None
    nxt = _skip(data, after + 1)
    if data[nxt:nxt + 1] != b"{":
        return None
    # Every row is these pieces around its value contents (quotes, keys and whitespace included).
    bounds = [first, *(at for span in spans for at in span), row_end]
    pieces = tuple(data[bounds[k]:bounds[k + 1]] for k in range(0, len(bounds), 2))
    found = _colread.scan_rows(data, first, pieces, data[row_end:nxt])
    if found is None or found[1] < min_rows:
        return None
    end, n, values = found
    names = [key.decode("utf-8") for key in keys]
    columns, coded, at = {}, {}, 0
    for name, kind in zip(names, kinds):
        if kind == "null":
            columns[name] = (None,)
        elif kind == "str":
            columns[name] = _column(*values[at])
            if len(values[at][1]) > 1:
                coded[name] = values[at]
            at += 1
        else:
            items = values[at:at + kind]
            at += kind
            if all(len(distinct) == 1 for _, distinct in items):
                columns[name] = ([distinct[0] for _, distinct in items],)
            else:
                columns[name] = tuple(map(list, zip(*(_column(*item) for item in items))))
    return start, end, CodedRows(n, columns, coded)


def _column(codes: bytes, distinct: list) -> tuple:
    """The values of one column (shared objects), or a 1-tuple when every row has the same."""
    return (distinct[0],) if len(distinct) == 1 else _colread.take(distinct, codes)


def split_table(data: bytes, min_rows: int = 2, skip: tuple[int, int] = (0, 0)) -> list[tuple[int, int, str, tuple]]:
    """The :data:`TABLE_COLUMNS` arrays of the first ``attack_table`` object in ``data``, read from the bytes.

    Parameters
    ----------
    data : bytes
        A JSON document as UTF-8.
    min_rows : int
        Leave out shorter arrays.
    skip : tuple of (int, int)
        A range of ``data`` not to look into for the object (an array read otherwise).

    Returns
    -------
    list of (int, int, str, tuple)
        ``(start, end, column, values)`` for each column found after the
        object's ``{`` whose value is an array of at least ``min_rows``
        plain strings (see the module docstring): ``data[start:end]`` is the
        array, ``values`` its strings.  The caller must make sure each array
        is the value of that column of the table (the first ``"column": [``
        after the ``{`` is taken).
    """
    for at in _find(data, TABLE.encode("utf-8"), opener=b"{", skip=skip):
        found = []
        for name in TABLE_COLUMNS:
            start = next(_find(data, name.encode("utf-8"), at), None)
            if start is None:
                continue
            read = _colread.scan_strings(data, start)
            if read is not None and len(read[1]) >= min_rows:
                found.append((start, read[0], name, read[1]))
        if found:
            return sorted(found)
    return []


def splices(data: bytes, paths: tuple[tuple[str, ...], ...],
            min_rows: int) -> list[tuple[int, int, tuple[str, ...], object]]:
    """The long arrays at ``paths`` in ``data`` that can be read from the bytes, in document order.

    Parameters
    ----------
    data : bytes
        A JSON document as UTF-8.
    paths : tuple of tuple of str
        Paths of keys of lists of flat objects (``("gold", "attacks")``,
        ``("gold", "priorities")``); next to a path whose last key is
        ``attacks`` the :data:`TABLE` object is looked for too.
    min_rows : int
        Leave out shorter arrays.

    Returns
    -------
    list of (int, int, tuple of str, object)
        ``(start, end, path, value)``: ``data[start:end]`` is an array that,
        if it is the value at ``path``, is ``value``
        (:class:`~symbolic.columns.RawRows` for a list, a tuple of str for a
        table column); they do not overlap (of two that would, the later is
        left out).  The caller checks the paths.
    """
    found = []
    skip = (0, 0)  # the longest array read so far: no other key is inside it
    for path in paths:
        rows = split_rows(data, path[-1].encode("utf-8"), min_rows, skip)
        if rows is not None:
            found.append((rows[0], rows[1], path, rows[2]))
            if rows[1] - rows[0] > skip[1] - skip[0]:
                skip = (rows[0], rows[1])
    attacks = next((path for path in paths if path[-1] == "attacks"), None)
    if attacks is not None:
        skip = next(((start, end) for start, end, path, _ in found if path == attacks), (0, 0))
        for start, end, name, values in split_table(data, min_rows, skip):
            found.append((start, end, (*attacks[:-1], TABLE, name), values))
    found.sort(key=lambda splice: splice[0])
    kept = []
    for splice in found:
        if not kept or kept[-1][1] <= splice[0]:
            kept.append(splice)
    return kept
