"""Reading a long JSON array of flat objects as columns, without a Python object per row.

A list of a million ``attacks`` entries is 88 MB of objects that repeat one
layout (``{"source": "a1", "target": "a2", "kind": "undermine", "evidence":
["E-01"]}``).  Decoding it makes a dict (and a list) per entry; freeing and
validating them costs more than parsing.  :func:`split_rows` finds such an
array in the bytes of a document and reads it column-wise instead: the
layout of the first entry is parsed, and every other entry is checked to be
the same bytes apart from the contents of its value strings (one comparison
of all the bytes that are not value contents against the layout repeated,
numpy throughout).  The value strings are then decoded by jiter from a copy
of the array in which everything else is blanked out.

It declines (returns ``None``) on anything else: a backslash anywhere in the
array, a control character in a string, entries of different layouts
(another key, another order, other whitespace, a number, a nested object),
fewer than two entries.  The caller parses the document as usual then, so
only arrays that the exact parser reads the same way take this path.
"""

from __future__ import annotations

from typing import Iterator

import jiter
import numpy as np

from .columns import RawRows

__all__ = ["split_rows"]

_WS = b" \t\n\r"
_QUOTE, _COMMA, _SPACE, _OPEN, _CLOSE = 34, 44, 32, 91, 93


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
    """The layout of the flat object at ``i``: ``(keys, kinds, value slots, end)``.

    ``kinds[k]`` is ``"str"``, ``"null"`` or the number of strings of a list;
    the value slots are the indices (among the object's strings, keys
    included) of the value strings, in order.
    """
    if data[i:i + 1] != b"{":
        raise _Decline
    keys, kinds, slots, count = [], [], [], 0
    i = _skip(data, i + 1)
    while True:
        if data[i:i + 1] != b'"':
            raise _Decline
        start, end = _string(data, i)
        keys.append(data[start:end])
        count += 1
        i = _skip(data, end + 1)
        if data[i:i + 1] != b":":
            raise _Decline
        i = _skip(data, i + 1)
        head = data[i:i + 1]
        if head == b'"':
            _, end = _string(data, i)
            kinds.append("str")
            slots.append(count)
            count += 1
            i = end + 1
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
                    _, end = _string(data, i)
                    slots.append(count)
                    count += 1
                    items += 1
                    i = _skip(data, end + 1)
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
            return keys, kinds, slots, count, i + 1
        if data[i:i + 1] != b",":
            raise _Decline
        i = _skip(data, i + 1)


def _find(data: bytes, key: bytes) -> Iterator[int]:
    """Positions of the ``[`` of each ``"key": [`` in ``data``, in order."""
    pattern, at = b'"' + key + b'"', 0
    while True:
        at = data.find(pattern, at)
        if at < 0:
            return
        i = _skip(data, at + len(pattern))
        if data[i:i + 1] == b":":
            i = _skip(data, i + 1)
            if data[i:i + 1] == b"[":
                yield i
        at += len(pattern)


def split_rows(data: bytes, key: bytes, min_rows: int = 2):
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

    Returns
    -------
    tuple of (int, int, RawRows) or None
        ``data[start:end]`` is the array; its rows as columns.  ``None`` when
        no array qualifies (see the module docstring).  The caller must
        make sure ``data[start:end]`` is a value of the document (the array
        bytes alone are checked here).
    """
    if len(data) >= 1 << 31:  # positions are int32
        return None
    for start in _find(data, key):
        try:
            found = _columns(data, start, min_rows)
        except (_Decline, ValueError, IndexError):
            continue
        if found is not None:
            return found
    return None


def _columns(data: bytes, start: int, min_rows: int):
    first = _skip(data, start + 1)
    keys, kinds, slots, strings, row_end = _layout(data, first)
    if len(set(keys)) != len(keys) or not slots:
        return None
    for text in keys:  # a key must be a plain string (no escape, no control character)
        if b"\\" in text or any(b < 32 for b in text):
            return None
    quotes_per_row = 2 * strings
    whole = np.frombuffer(data, dtype=np.uint8)
    quotes = _quotes(whole, start)
    first_row_last = int(quotes[quotes_per_row - 1])
    after = _skip(data, row_end)
    if data[after:after + 1] != b",":
        return None
    nxt = _skip(data, after + 1)
    if data[nxt:nxt + 1] != b"{":
        return None
    join = data[first_row_last + 1:int(quotes[quotes_per_row])]  # last quote of a row to the first of the next
    rows = len(quotes) // quotes_per_row
    last = quotes[quotes_per_row - 1::quotes_per_row][:rows]
    ok = np.ones(rows, dtype=bool)
    ok[-1] = False
    nexts = quotes[quotes_per_row::quotes_per_row][:rows - 1]
    ok[:-1] = nexts - last[:-1] - 1 == len(join)
    if join:
        reach = int(np.searchsorted(last, len(data) - len(join) - 1, side="right"))  # rows whose join fits
        windows = np.lib.stride_tricks.sliding_window_view(whole, len(join))
        ok[:reach] &= (windows[last[:reach] + 1] == np.frombuffer(join, dtype=np.uint8)).all(axis=1)
        ok[reach:] = False
    n = int(np.argmin(ok)) + 1  # the first row not followed by another
    if n < min_rows:
        return None
    tail_start = int(last[n - 1]) + 1
    row_tail = join[:join.index(b"}") + 1]
    if data[tail_start:tail_start + len(row_tail)] != row_tail:
        return None
    end = _skip(data, tail_start + len(row_tail))
    if data[end:end + 1] != b"]":
        return None
    end += 1
    if data.find(b"\\", start, end) >= 0:
        return None
    quotes = quotes[:n * quotes_per_row].reshape(n, quotes_per_row)
    opens = [quotes[:, 2 * slot] for slot in slots]
    closes = [quotes[:, 2 * slot + 1] for slot in slots]
    # Between the close quote of each value and the open quote of the next (quotes included), the
    # bytes must be those of the first row (and of the join to the second, after a row's last value).
    width = len(slots)
    expected_ctrl = _ctrl(data[start:int(opens[0][0])]) + _ctrl(data[int(closes[-1][-1]):end])
    for k in range(width):
        if k + 1 < width:
            begin, stop = closes[k], opens[k + 1]
        else:
            begin, stop = closes[k][:-1], opens[0][1:]
        piece = data[int(begin[0]):int(stop[0]) + 1]
        if not (stop - begin == len(piece) - 1).all():
            return None
        if not _same(whole, begin, piece):
            return None
        expected_ctrl += _ctrl(piece) * len(begin)
    # The last row, from its last value to its last quote, as the first row.
    row_last = int(quotes[0, -1])
    if data[int(closes[-1][-1]):int(quotes[-1, -1]) + 1] != data[int(closes[-1][0]):row_last + 1]:
        return None
    if sum(np.count_nonzero(whole[at:min(at + _CHUNK, end)] < 32) for at in range(start, end, _CHUNK)) \
            != expected_ctrl:
        return None  # a control character in a value string
    values = []
    for k in range(width):
        values.append(_strings(whole, opens[k], closes[k]))
        if values[-1] is None:
            return None
    columns, at = {}, 0
    for name, kind in zip(keys, kinds):
        if kind == "null":
            columns[name.decode("utf-8")] = (None,)
        elif kind == "str":
            columns[name.decode("utf-8")] = _constant(values[at])
            at += 1
        else:
            items = values[at:at + kind]
            at += kind
            if all(column.count(column[0]) == n for column in items):
                columns[name.decode("utf-8")] = ([column[0] for column in items],)
            else:
                columns[name.decode("utf-8")] = tuple(map(list, zip(*items))) if kind else ([],)
    return start, end, RawRows(n, columns)


def _constant(column: tuple) -> tuple:
    return column[:1] if column.count(column[0]) == len(column) else column


#: Bytes scanned for quotes at a time (small temporaries: fresh memory is slow to fault in).
_CHUNK = 1 << 20


def _quotes(whole: np.ndarray, start: int) -> np.ndarray:
    """The positions of the quote characters of ``whole`` from ``start`` on, as int32."""
    parts = []
    for at in range(start, len(whole), _CHUNK):
        found = np.flatnonzero(whole[at:at + _CHUNK] == _QUOTE).astype(np.int32)
        found += at
        parts.append(found)
    return np.concatenate(parts) if parts else np.zeros(0, dtype=np.int32)


def _ctrl(piece: bytes) -> int:
    """The number of control characters (below 0x20, whitespace included) in ``piece``."""
    return sum(piece.count(bytes([b])) for b in range(32))


#: The widest value string (quotes included) read this way.
_MAX_WIDTH = 256


#: Rows handled at a time (temporaries stay small, so their memory is reused).
_BLOCK = 1 << 16


def _same(whole: np.ndarray, starts: np.ndarray, piece: bytes) -> bool:
    """Whether ``piece`` is at each of ``starts`` in ``whole``."""
    if not len(starts) or int(starts.max()) + len(piece) > len(whole):
        return not len(starts)
    windows = np.lib.stride_tricks.sliding_window_view(whole, len(piece))
    full = piece * _BLOCK
    for at in range(0, len(starts), _BLOCK):
        block = starts[at:at + _BLOCK]
        if windows[block].tobytes() != (full if len(block) == _BLOCK else piece * len(block)):
            return False
    return True


def _strings(whole: np.ndarray, opens: np.ndarray, closes: np.ndarray) -> tuple | None:
    """The strings whose quotes are at ``opens`` and ``closes`` (no escape in them), decoded by jiter."""
    sizes = closes - opens + 1
    width, narrowest = int(sizes.max()), int(sizes.min())
    if width > _MAX_WIDTH:
        return None
    first = whole[int(opens[0]):int(opens[0]) + width].tobytes()
    if narrowest == width and _same(whole, opens, first):  # one value for every row: decode it once
        return (jiter.from_json(first, cache_mode="all"),) * len(opens)
    windows = np.lib.stride_tricks.sliding_window_view(whole, width)
    fits = len(opens) if int(opens[-1]) <= len(whole) - width else \
        int(np.searchsorted(opens, len(whole) - width, side="right"))  # opens increase row by row
    columns, values = np.arange(width + 1), []
    for at in range(0, len(opens), _BLOCK):
        starts, size = opens[at:at + _BLOCK], sizes[at:at + _BLOCK]
        padded = np.empty((len(starts), width + 1), dtype=np.uint8)
        inside = max(0, min(len(starts), fits - at))
        padded[:inside, :width] = windows[starts[:inside]]
        for row in range(inside, len(starts)):  # a window would pass the end of the data
            o, length = int(starts[row]), int(size[row])
            padded[row, :length] = whole[o:o + length]
        np.putmask(padded, columns >= size[:, None], _SPACE)
        padded[np.arange(len(starts)), size] = _COMMA
        padded[-1, size[-1]] = _SPACE
        values.extend(jiter.from_json(b"[" + padded.tobytes() + b"]", cache_mode="all"))
    return tuple(values) if len(values) == len(opens) else None
