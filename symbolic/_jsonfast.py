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


def _split_parse(data: bytes | None, rows_at: tuple[str, ...] | None):
    """jiter's value of ``data`` with the long arrays of attacks read from the bytes, or ``SLOW``.

    :func:`symbolic._jsonrows.splices` reads the array at ``rows_at`` as
    :class:`~symbolic.columns.RawRows` (and the columns of an ``attack_table``
    next to it as tuples of str); jiter parses the rest of the document with
    a number that occurs nowhere else in place of each array, and the value
    is only used where each number is the value at its array's path (so the
    array bytes were that value: the document is the one jiter parsed with
    arrays in place of numbers).
    """
    if (rows_at is None or data is None or len(data) < SPLIT_MIN_BYTES or data.startswith(b"\xef\xbb\xbf")
            or sys.get_int_max_str_digits() != _JITER_INT_DIGITS):
        return SLOW
    found = splices(data, rows_at, MIN_ROWS)
    if not found:
        return SLOW
    markers = [str(int(_MARKER) + k).encode() for k in range(len(found))]
    bounds = [0, *(at for start, end, _, _ in found for at in (start, end)), len(data)]
    parts = [data[bounds[k]:bounds[k + 1]] for k in range(0, len(bounds), 2)]
    if any(marker in part for marker in markers for part in parts):
        return SLOW
    try:
        value = jiter.from_json(b"".join(part + marker for part, marker in zip(parts, markers)) + parts[-1],
                                allow_inf_nan=False, catch_duplicate_keys=True, cache_mode="all")
    except ValueError:
        return SLOW
    for (_, _, path, rows), marker in zip(found, markers):
        parent = value
        for key in path[:-1]:
            parent = parent.get(key) if type(parent) is dict else None
        if type(parent) is not dict or type(parent.get(path[-1])) is not int or parent[path[-1]] != int(marker):
            return SLOW
        parent[path[-1]] = rows
    return value


def fast_validated(text: str | None, validate: Callable | None, line: int, data: bytes | None = None,
                   rows_at: tuple[str, ...] | None = None):
    """``validate(value, line)`` of jiter's value, or ``SLOW`` (no validator, jiter refused, or invalid).

    With ``rows_at`` (a path of keys, such as ``("gold", "attacks")``), a
    document of at least :data:`SPLIT_MIN_BYTES` bytes whose value there is
    a long array of flat objects of one layout gets that array as
    :class:`~symbolic.columns.RawRows` (:func:`symbolic._jsonrows.split_rows`),
    which ``validate`` must accept as the list of dicts it stands for, and
    the long string columns of an ``attack_table`` next to it as tuples of str
    (:func:`symbolic._jsonrows.split_table`).

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
