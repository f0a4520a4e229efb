"""Text for an HTML page: markup escaped and bidirectional controls made visible.

An id, a source, a fragment's text or a file name can carry Unicode
bidirectional formatting characters (U+202E RIGHT-TO-LEFT OVERRIDE, the
isolates U+2066-U+2069...) that make a reviewer read ``txt.exe`` for
``exe.txt`` or reorder a clause.  :func:`escape` is :func:`html.escape` that
also replaces each of them with a visible ``[U+202E]``, so the page shows what
is there.
"""

from __future__ import annotations

import html
import re

from symbolic.support.textsafe import BIDI_CONTROLS

__all__ = ["escape"]

_BIDI = re.compile(f"[{BIDI_CONTROLS}]")


def escape(text: str, quote: bool = True) -> str:
    """``html.escape(text, quote)`` with every bidi control shown as ``[U+XXXX]``.

    >>> escape("invoice\\u202egpj.exe <b>")
    'invoice[U+202E]gpj.exe &lt;b&gt;'
    """
    escaped = html.escape(text, quote)
    if _BIDI.search(escaped) is None:
        return escaped
    return _BIDI.sub(lambda m: f"[U+{ord(m.group()):04X}]", escaped)
