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

from .collector import gc_paused
from .errors import ScenarioError

__all__ = ["SLOW", "fast_parse", "fast_validated"]

#: Returned where only the strict parser may decide.
SLOW = object()
#: The integer-length limit jiter applies (Python's default ``sys.get_int_max_str_digits()``).
_JITER_INT_DIGITS = 4300


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


def fast_validated(text: str | None, validate: Callable | None, line: int, data: bytes | None = None):
    """``validate(value, line)`` of jiter's value, or ``SLOW`` (no validator, jiter refused, or invalid).

    The garbage collector stays paused until the decoded value is freed: a
    collection in between would traverse every one of its containers.
    """
    if validate is None:
        return SLOW
    with gc_paused():
        value = fast_parse(text, data)
        if value is SLOW or isinstance(value, list):
            return SLOW
        try:
            return validate(value, line)
        except ScenarioError:
            return SLOW  # the exact parser decides: an overflowing number is a JSON error
        finally:
            del value
