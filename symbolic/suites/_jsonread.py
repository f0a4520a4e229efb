"""Bounded, precise reading of JSONL and JSON files (the byte level of :mod:`symbolic.suites.io`).

Shared by the suite loader and the peer importer.  Sizes are checked before
data is read, bytes must be UTF-8, JSON must be strict (no ``NaN``, no
duplicate keys), and every problem is a :class:`~symbolic.errors.ScenarioError`
naming the file, the 1-based line and the offending text.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import BinaryIO, Callable, Iterator

from symbolic.errors import ScenarioError
from symbolic.support.fsio import open_input

__all__ = [
    "DEFAULT_MAX_FILE_BYTES",
    "DEFAULT_MAX_LINE_BYTES",
    "parse_json",
    "scan_json_records",
]

DEFAULT_MAX_LINE_BYTES = 8 * 1024 * 1024
DEFAULT_MAX_FILE_BYTES = 512 * 1024 * 1024
_SNIPPET = 40


def _snippet(text: str, pos: int) -> str:
    start = max(0, pos - _SNIPPET // 2)
    piece = text[start:start + _SNIPPET]
    return ("\u2026" if start else "") + piece + ("\u2026" if start + _SNIPPET < len(text) else "")


def _pairs(pairs):
    obj = {}
    for key, value in pairs:
        if key in obj:
            raise _DuplicateKey(key)
        obj[key] = value
    return obj


class _DuplicateKey(Exception):
    def __init__(self, key):
        super().__init__(key)
        self.key = key


def _constant(name):
    raise _BadConstant(name)


def _finite(text: str) -> float:
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise _BadConstant(text[:40], overflow=True)
    return value


class _BadConstant(Exception):
    def __init__(self, name, overflow=False):
        super().__init__(name)
        self.name, self.overflow = name, overflow


class _LoneSurrogate(Exception):
    def __init__(self, text: str, char: str):
        super().__init__(char)
        self.text, self.char = text, char


def _no_lone_surrogate(value) -> None:
    """Raise :class:`_LoneSurrogate` for a string (or key) holding a ``\\ud800``-``\\udfff`` escape."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError as exc:
                raise _LoneSurrogate(item[:40], item[exc.start]) from None
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


def _decode(data: bytes, *, file, line) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        bad = data[exc.start:exc.start + 4].hex(" ")
        raise ScenarioError(f"not valid UTF-8: byte 0x{data[exc.start]:02x} at byte offset {exc.start}"
                            f" ({bad}\u2026)", file=file, line=line, value=data[exc.start:exc.start + 4]) from None


def parse_json(text, *, file=None, line=None):
    """Decode one strict JSON value.

    Parameters
    ----------
    text : str or bytes
        The JSON text (bytes must be UTF-8; a leading BOM is ignored).
    file : str, optional
        For error messages.
    line : int, optional
        1-based line of the start of ``text``; errors on later lines are offset.

    Returns
    -------
    object

    Raises
    ------
    ScenarioError
        On malformed JSON, duplicate object keys, ``NaN``/``Infinity``, overly
        deep nesting, integers too long to convert, non-UTF-8 bytes, or a
        string escape of a lone surrogate (``"\\ud800"``).

    Examples
    --------
    >>> parse_json('{"a": 1, "a": 2}', file="f.jsonl", line=2)
    Traceback (most recent call last):
    ...
    symbolic.errors.ScenarioError: f.jsonl:2: malformed JSON: duplicate key 'a' in an object
    """
    if isinstance(text, (bytes, bytearray)):
        text = _decode(bytes(text), file=file, line=line)
    if not isinstance(text, str):
        raise TypeError(f"parse_json expects str or bytes, got {type(text).__name__}")
    text = text.removeprefix("\ufeff")
    base = 1 if line is None else line

    def error(reason, at_line=None, value=None):
        shown = None if (line is None and at_line in (None, 1)) else base + (at_line or 1) - 1
        return ScenarioError(f"malformed JSON: {reason}", file=file, line=shown, value=value)

    if not text.strip():
        raise error("empty text, expected a JSON object")
    try:
        value = json.loads(text, object_pairs_hook=_pairs, parse_constant=_constant, parse_float=_finite)
        if "\\u" in text:
            _no_lone_surrogate(value)
        return value
    except _LoneSurrogate as exc:
        raise error(f"a string holds the lone surrogate \\u{ord(exc.char):04x}, which is not a Unicode "
                    "character (UTF-8 cannot encode it)", value=exc.text) from None
    except json.JSONDecodeError as exc:
        raise error(f"{exc.msg.removesuffix(' at')} at column {exc.colno}", exc.lineno, _snippet(text, exc.pos)) from None
    except _DuplicateKey as exc:
        raise error(f"duplicate key {exc.key!r} in an object", value=exc.key) from None
    except _BadConstant as exc:
        reason = f"the number {exc.name} overflows to infinity" if exc.overflow else f"{exc.name} is not a JSON number"
        raise error(reason, value=exc.name) from None
    except RecursionError:
        raise error("nested too deeply") from None
    except ValueError as exc:  # e.g. an integer literal beyond sys.get_int_max_str_digits()
        raise error(str(exc).split(";")[0]) from None


def _open(path, max_file_bytes: int) -> tuple[BinaryIO, os.stat_result]:
    file = str(path)
    handle = open_input(path, error=ScenarioError)  # never blocks; a pipe or a device is refused on the descriptor
    info = os.fstat(handle.fileno())
    if info.st_size > max_file_bytes:
        handle.close()
        raise ScenarioError(f"file is {info.st_size} bytes, over the limit of {max_file_bytes} bytes",
                            file=file, value=info.st_size)
    return handle, info


def _validated(value, validate: Callable | None, line: int):
    """``validate(value, line)``, its :class:`ScenarioError` returned as the value."""
    if validate is None:
        return value
    try:
        return validate(value, line)
    except ScenarioError as exc:
        return exc


def _document(handle: BinaryIO, file: str, max_file_bytes: int, validate: Callable | None = None) -> Iterator[tuple[int, object]]:
    data = handle.read(max_file_bytes + 1)
    if len(data) > max_file_bytes:
        raise ScenarioError(f"file is over the limit of {max_file_bytes} bytes", file=file)
    text = _decode(data, file=file, line=None).removeprefix("\ufeff")
    start = text.count("\n", 0, len(text) - len(text.lstrip())) + 1
    value = parse_json(text, file=file, line=1)
    if not isinstance(value, list):
        yield start, _validated(value, validate, start)
        return
    # Re-walk the array to recover the line where each element starts.
    decoder, pos = json.JSONDecoder(object_pairs_hook=_pairs), text.index("[") + 1
    for item in value:
        while text[pos] in " \t\r\n,":
            pos += 1
        _, end = decoder.raw_decode(text, pos)
        line = text.count("\n", 0, pos) + 1
        yield line, _validated(item, validate, line)
        pos = end


def scan_json_records(path, *, max_line_bytes: int = DEFAULT_MAX_LINE_BYTES,
                      max_file_bytes: int = DEFAULT_MAX_FILE_BYTES,
                      keep_going: bool = False, validate: Callable | None = None) -> Iterator[tuple[int, object]]:
    """Yield ``(line, value)`` for each JSON record of a JSONL file (blank lines skipped) or of a
    ``*.json`` document (an array yields its elements).

    Parameters
    ----------
    path : str or path-like
    max_line_bytes, max_file_bytes : int
        A longer line is refused unread, a larger file from its size; only regular files are read.
    keep_going : bool, default False
        Yield a line's :class:`ScenarioError` as its value instead of raising
        it, and go on with the next line.  File-level errors always raise.
    validate : callable, optional
        ``validate(value, line)`` returns the validated record or raises
        :class:`ScenarioError`; its result (or its error, as the value) is
        yielded instead of the value.

    Yields
    ------
    tuple of (int, object)

    Raises
    ------
    ScenarioError
        Missing file, directory, permission, size limits; and with
        ``keep_going=False`` any line-level error.
    """
    file = str(path)
    handle, _ = _open(path, max_file_bytes)
    with handle:
        if Path(file).suffix.lower() == ".json":
            yield from _document(handle, file, max_file_bytes, validate)
            return
        total, number = 0, 0
        while True:
            chunk = handle.readline(max_line_bytes + 1)
            if not chunk:
                return
            number += 1
            total += len(chunk)
            if total > max_file_bytes:
                raise ScenarioError(f"file is over the limit of {max_file_bytes} bytes",
                                    file=file, line=number)
            if len(chunk) > max_line_bytes and not chunk.endswith(b"\n"):
                raise ScenarioError(f"line is longer than the limit of {max_line_bytes} bytes",
                                    file=file, line=number)
            if not chunk.strip():
                continue
            try:
                if number == 1:
                    chunk = chunk.removeprefix(b"\xef\xbb\xbf")
                text = _decode(chunk, file=file, line=number)
                try:
                    value = parse_json(text, file=file, line=number)
                except ScenarioError as exc:
                    if text.strip() in ("{", "["):
                        exc = ScenarioError(exc.reason + " (a pretty-printed JSON document needs a"
                                            " .json file name; JSONL holds one record per line)",
                                            file=file, line=number, value=exc.value)
                    raise exc from None
            except ScenarioError as exc:
                if not keep_going:
                    raise
                yield number, exc
                continue
            yield number, _validated(value, validate, number)
