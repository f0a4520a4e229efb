"""Text-level deterministic repair: from raw model text to one JSON object
(paper Appendix A.8, steps 1-2).

Strip markdown fences, cut the first balanced JSON object out of surrounding
prose, and fix the few syntax slips that have exactly one reading (trailing
commas, Python ``True``/``False``/``None``).  A truncated object (unbalanced
brackets or an unterminated string) is *not* completed: completing it would
invent content, so it is a hard failure.
"""

from __future__ import annotations

import json
import re

__all__ = ["TextRepairError", "extract_json_object", "strip_fences"]

_FENCE = re.compile(r"```[ \t]*([A-Za-z0-9_+-]*)[^\n]*\n(.*?)(?:```|\Z)", re.DOTALL)
_PY_CONSTANTS = {"True": "true", "False": "false", "None": "null"}


class TextRepairError(ValueError):
    """The text holds no repairable JSON object; the message is the failure reason."""


def strip_fences(text: str) -> tuple[str, tuple[str, ...]]:
    """Return the content of the first fenced block that holds a ``{``.

    Parameters
    ----------
    text : str
        Raw model text.

    Returns
    -------
    (str, tuple of str)
        The unfenced text (``text`` itself when there is no fence) and the log.

    Examples
    --------
    >>> strip_fences('Here:\\n```json\\n{"a": 1}\\n```\\nDone.')
    ('{"a": 1}\\n', ('stripped markdown fence (json); dropped 10 character(s) outside it',))
    >>> strip_fences('{"a": 1}')
    ('{"a": 1}', ())
    """
    for match in _FENCE.finditer(text):
        body = match.group(2)
        if "{" in body:
            lang = match.group(1) or "no language"
            outside = len(text[:match.start()].strip()) + len(text[match.end():].strip())
            note = f"; dropped {outside} character(s) outside it" if outside else ""
            return body, (f"stripped markdown fence ({lang}){note}",)
    return text, ()


def _scan(text: str, start: int) -> int:
    """Index one past the brace closing the object opened at ``start``."""
    stack: list[str] = []
    in_string = escaped = False
    for i in range(start, len(text)):
        ch = text[i]
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "{[":
            stack.append("}" if ch == "{" else "]")
        elif ch in "}]":
            if not stack or stack[-1] != ch:
                raise TextRepairError(f"mismatched {ch!r} at character {i}")
            stack.pop()
            if not stack:
                return i + 1
    if in_string:
        raise TextRepairError("truncated JSON: unterminated string")
    raise TextRepairError(f"truncated JSON: {len(stack)} unclosed bracket(s)")


def _rewrite_outside_strings(text: str) -> tuple[str, list[str]]:
    """Drop trailing commas and map Python constants, never touching string contents."""
    out: list[str] = []
    log: list[str] = []
    i, n = 0, len(text)
    commas = constants = 0
    while i < n:
        ch = text[i]
        if ch == '"':
            j, escaped = i + 1, False
            while j < n:
                if escaped:
                    escaped = False
                elif text[j] == "\\":
                    escaped = True
                elif text[j] == '"':
                    break
                j += 1
            out.append(text[i:j + 1])
            i = j + 1
            continue
        if ch == ",":
            k = i + 1
            while k < n and text[k] in " \t\r\n":
                k += 1
            if k < n and text[k] in "}]":
                commas += 1
                i += 1
                continue
        if ch.isalpha():
            k = i
            while k < n and (text[k].isalnum() or text[k] == "_"):
                k += 1
            word = text[i:k]
            if word in _PY_CONSTANTS:
                constants += 1
                word = _PY_CONSTANTS[word]
            out.append(word)
            i = k
            continue
        out.append(ch)
        i += 1
    if commas:
        log.append(f"removed {commas} trailing comma(s)")
    if constants:
        log.append(f"replaced {constants} Python constant(s) with JSON true/false/null")
    return "".join(out), log


def extract_json_object(text: str) -> tuple[dict, tuple[str, ...]]:
    """Cut the first balanced JSON object out of ``text`` and decode it.

    Parameters
    ----------
    text : str
        Raw or unfenced model text.

    Returns
    -------
    (dict, tuple of str)
        The decoded object and the log of repairs applied.

    Raises
    ------
    TextRepairError
        No ``{`` at all, a truncated or mismatched object, or JSON that stays
        invalid after the syntax fixes.

    Examples
    --------
    >>> value, log = extract_json_object('Answer: {"final_status": "both",} Hope this helps.')
    >>> value
    {'final_status': 'both'}
    >>> log[0], log[2]
    ('removed 7 character(s) of prose before the JSON object', 'removed 1 trailing comma(s)')
    >>> extract_json_object('{"final_status": "acc')
    Traceback (most recent call last):
    ...
    scorer.repair_text.TextRepairError: truncated JSON: unterminated string
    """
    start = text.find("{")
    if start < 0:
        raise TextRepairError("no JSON object in the output")
    end = _scan(text, start)
    log: list[str] = []
    before, after = text[:start].strip(), text[end:].strip()
    if before:
        log.append(f"removed {len(before)} character(s) of prose before the JSON object")
    if after:
        log.append(f"removed {len(after)} character(s) of prose after the JSON object")
    body = text[start:end]
    try:
        return _loads(body), tuple(log)
    except ValueError:
        pass
    fixed, fixes = _rewrite_outside_strings(body)
    try:
        value = _loads(fixed)
    except ValueError as exc:
        raise TextRepairError(f"invalid JSON: {exc}") from None
    return value, tuple(log + fixes)


def _reject_constant(name):
    raise ValueError(f"{name} is not a JSON number")


def _loads(body: str) -> dict:
    try:
        value = json.loads(body, parse_constant=_reject_constant)
    except json.JSONDecodeError as exc:
        raise ValueError(f"{exc.msg} at character {exc.pos}") from None
    if not isinstance(value, dict):
        raise ValueError("expected a JSON object")
    return value
