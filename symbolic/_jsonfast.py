"""The fast path of :mod:`symbolic._jsonread`: jiter parses a record first.

jiter is the Rust JSON parser of the pydantic stack; with its string cache and
duplicate-key check it refuses what the strict parser
(:func:`symbolic._jsonread.parse_json`) refuses, with one exception handled
by the callers (numbers that overflow to infinity).  Where it refuses a text,
or the validation of its value fails, the callers re-parse with the strict
parser, so values and errors are the strict parser's.
"""

from __future__ import annotations

import sys
from typing import Callable

import jiter

from ._jsonrows import splices
from .collector import gc_paused
from .columns import MIN_ROWS
from .errors import ScenarioError

__all__ = ["SLOW", "fast_parse", "fast_validated"]

#: Returned where only the strict parser may decide.
SLOW = object()
#: The integer-length limit jiter applies (Python's default ``sys.get_int_max_str_digits()``).
_JITER_INT_DIGITS = 4300
#: Documents at least this large are looked at for a long array read as columns (``rows_at``).
SPLIT_MIN_BYTES = 1 << 20
#: Stands for the array read as columns while jiter parses the rest of the document.
_MARKER = b"-7306594133377720691"


def fast_parse(text: str | None, data: bytes | None = None):
    """jiter's value of ``text``, or ``SLOW`` where only :func:`symbolic._jsonread.parse_json` may decide.

    jiter refuses whatever the strict parser refuses (malformed text,
    duplicate keys, ``NaN``, integers over 4,300 digits), except numbers that
    overflow to infinity, which it returns as ``inf``; callers only use its
    value after validating it against a schema that refuses infinities (the
    scenario schema: its only numeric fields are integers), and
    re-parse with :func:`symbolic._jsonread.parse_json` when that fails.  (jiter refuses a
    lone surrogate escape such as ``"\\ud800"`` too.)  ``data``, when given,
    is ``text`` as UTF-8 (the bytes it was decoded from); ``text`` may be
    ``None`` when ``data`` is ASCII (its own text, with no BOM).
    """
    if sys.get_int_max_str_digits() != _JITER_INT_DIGITS:
        return SLOW
    if text is None:  # ASCII bytes (so no BOM)
        if not data.isascii():
            return SLOW
    elif text.startswith("\ufeff"):
        text, data = text[1:], None
    if data is None:
        try:
            data = text.encode("utf-8")
        except UnicodeEncodeError:  # a lone surrogate character in a str
            return SLOW
    try:
        with gc_paused():
            return jiter.from_json(data, allow_inf_nan=False, catch_duplicate_keys=True, cache_mode="all")
    except ValueError:
        return SLOW


def _paths(rows_at) -> tuple[tuple[str, ...], ...]:
    """``rows_at`` as a tuple of key paths (one path, a tuple of str, stands for itself alone)."""
    if not rows_at:
        return ()
    return (tuple(rows_at),) if isinstance(rows_at[0], str) else tuple(tuple(path) for path in rows_at)


def _split_parse(data: bytes | None, rows_at):
    """jiter's value of ``data`` with each long array at a path of ``rows_at`` read from the bytes, or ``SLOW``.

    :func:`symbolic._jsonrows.splices` reads each array at a path of
    ``rows_at`` as :class:`~symbolic.columns.RawRows` (and the columns of an
    ``attack_table`` next to the attack entries as tuples of str); jiter
    parses the rest of the document with a number that occurs nowhere else in
    the place of each such array (a number per array), and a value is only
    used where its number is the value at its path (so the array bytes were
    that value: the document is the one jiter parsed with arrays in place of
    numbers); an array that is not (a key elsewhere) is parsed as usual.
    ``SLOW`` when no array was read from the bytes.
    """
    paths = _paths(rows_at)
    if (not paths or data is None or len(data) < SPLIT_MIN_BYTES or data.startswith(b"\xef\xbb\xbf")
            or sys.get_int_max_str_digits() != _JITER_INT_DIGITS):
        return SLOW
    found = [(start, end, rows, path, str(int(_MARKER) + k).encode("ascii"))  # (start, end, rows, path, marker)
             for k, (start, end, path, rows) in enumerate(splices(data, paths, MIN_ROWS))]
    while found:
        value = _parse_marked(data, found)
        if value is SLOW:
            return SLOW
        wrong = [item for item in found if _at(value, item[3]) != int(item[4])]
        if not wrong:
            for _, _, rows, path, _ in found:
                _parent(value, path)[path[-1]] = rows
            return value
        found = [item for item in found if item not in wrong]
    return SLOW


def _parse_marked(data: bytes, found: list):
    """jiter's value of ``data`` with each array of ``found`` replaced by its marker number, or ``SLOW``."""
    pieces, at = [], 0
    for start, end, _, _, marker in found:
        pieces += [data[at:start], marker]
        at = end
    pieces.append(data[at:])
    if any(marker in piece for *_, marker in found for piece in pieces[::2]):
        return SLOW
    try:
        return jiter.from_json(b"".join(pieces), allow_inf_nan=False, catch_duplicate_keys=True, cache_mode="all")
    except ValueError:
        return SLOW


def _parent(value, path: tuple[str, ...]):
    """The object holding the last key of ``path`` in ``value`` (``None`` when there is none)."""
    for key in path[:-1]:
        value = value.get(key) if type(value) is dict else None
    return value if type(value) is dict else None


def _at(value, path: tuple[str, ...]):
    """The integer at ``path`` in ``value``, else ``None``."""
    parent = _parent(value, path)
    found = None if parent is None else parent.get(path[-1])
    return found if type(found) is int else None


def fast_validated(text: str | None, validate: Callable | None, line: int, data: bytes | None = None,
                   rows_at: tuple | None = None):
    """``validate(value, line)`` of jiter's value, or ``SLOW`` (no validator, jiter refused, or invalid).

    With ``rows_at`` (a path of keys, such as ``("gold", "attacks")``, or a
    tuple of such paths), a document of at least :data:`SPLIT_MIN_BYTES`
    bytes whose value at a path is a long array of flat objects of one
    layout gets that array as
    :class:`~symbolic.columns.RawRows` (:func:`symbolic._jsonrows.split_rows`),
    which ``validate`` must accept as the list of dicts it stands for, and
    the long string columns of an ``attack_table`` next to the attack entries
    as tuples of str (:func:`symbolic._jsonrows.split_table`).

    The garbage collector stays paused until the decoded value is freed: a
    collection in between would traverse every one of its containers.
    """
    if validate is None:
        return SLOW
    with gc_paused():
        value = _split_parse(data, rows_at)
        if value is SLOW:
            value = fast_parse(text, data)
        if value is SLOW or isinstance(value, list):
            return SLOW
        try:
            return validate(value, line)
        except ScenarioError:
            return SLOW  # the exact parser decides: an overflowing number is a JSON error
        finally:
            del value
