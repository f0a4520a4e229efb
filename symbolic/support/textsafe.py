"""Text that is safe to show: on a terminal (no control sequences) and as one line.

A file name, an id or a provider's error can carry control characters: an
escape sequence (``ESC ] 0 ; title BEL`` retitles a terminal, ``ESC [ 2 J``
clears it), a carriage return that overwrites the line, or a Unicode
bidirectional control (U+202E RIGHT-TO-LEFT OVERRIDE, U+2066-U+2069 isolates)
that shows ``exe.txt`` for ``txt.exe``.  :func:`escape_controls` writes each of
them as a visible escape (``\\x1b``, ``\\u202e``) instead, so what is shown is
what is there; :func:`one_line` also folds line breaks and runs of white space.
"""

from __future__ import annotations

import re

__all__ = ["BIDI_CONTROLS", "escape_controls", "one_line"]

#: Unicode bidirectional formatting characters (ALM, LRM, RLM, embeddings, overrides, isolates).
BIDI_CONTROLS = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
_CONTROLS = re.compile(f"[\\x00-\\x1f\\x7f-\\x9f\\u2028\\u2029{BIDI_CONTROLS}]")


def _escape(match: re.Match) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def escape_controls(text: str, keep: str = "") -> str:
    """``text`` with every control and bidi formatting character written as a visible escape.

    Parameters
    ----------
    text : str
    keep : str, optional
        Control characters left as they are (a newline and a tab in a multi-line report).

    Examples
    --------
    >>> escape_controls("report\\x1b]0;pwned\\x07.pdf")
    'report\\\\x1b]0;pwned\\\\x07.pdf'
    >>> escape_controls("invoice\\u202egpj.exe")
    'invoice\\\\u202egpj.exe'
    """
    if keep:
        return _CONTROLS.sub(lambda m: m.group() if m.group() in keep else _escape(m), text)
    return _CONTROLS.sub(_escape, text)


def one_line(text) -> str:
    """``str(text)`` as one line: white space runs folded to one space, controls escaped.

    >>> one_line("a\\n  b\\tc\\r\\x1b[2J")
    'a b c \\\\x1b[2J'
    """
    return escape_controls(" ".join(str(text).split()))
