"""Literals: normalization and complement (docs/semantics.md section 1).

A literal is an atom such as ``Penalty(x)`` or its complement ``¬Penalty(x)``.
Every negation spelling (``not X``, ``NOT X``, ``~X``, ``-X``, ``!X``, ``¬X``)
normalizes to the single prefix ``¬``, and double negation cancels.
"""

from __future__ import annotations

import re

__all__ = [
    "NEG",
    "applicability_atom",
    "atom",
    "complement",
    "excepted_rule",
    "normalize_literal",
]

NEG = "\u00ac"
_WORD_NEG = re.compile(r"^(?:not)\s+(?=\S)", re.IGNORECASE)
_SYMBOL_NEG = ("\u00ac", "~", "!", "-")
_SPACE_AROUND = re.compile(r"\s*([(),])\s*")
_APPLICABLE = re.compile(r"^applicable\((.+)\)$")


def normalize_literal(text: str) -> str:
    """Return the canonical spelling of a literal.

    Parameters
    ----------
    text : str
        A literal in any supported negation spelling.

    Returns
    -------
    str
        The literal with at most one leading ``¬`` and no spaces around
        parentheses or commas.

    Raises
    ------
    ValueError
        If ``text`` is not a string, is empty, or is only negation signs.

    Examples
    --------
    >>> normalize_literal("not Penalty( x )")
    '¬Penalty(x)'
    >>> normalize_literal("~~ForceMajeure(x)")
    'ForceMajeure(x)'
    >>> normalize_literal("NOT -Delay(x, y)")
    'Delay(x,y)'
    """
    if not isinstance(text, str):
        raise ValueError(f"a literal must be a string, got {type(text).__name__} {text!r}")
    rest = " ".join(text.split())
    negations = 0
    while rest:
        match = _WORD_NEG.match(rest)
        if match:
            rest, negations = rest[match.end():], negations + 1
        elif rest[0] in _SYMBOL_NEG:
            rest, negations = rest[1:].lstrip(), negations + 1
        else:
            break
    rest = _SPACE_AROUND.sub(r"\1", rest).strip()
    if not rest:
        raise ValueError(f"empty literal {text!r}")
    return NEG + rest if negations % 2 else rest


def atom(literal: str) -> str:
    """The atom of a normalized literal (the literal without ``¬``).

    >>> atom("¬Penalty(x)")
    'Penalty(x)'
    """
    return literal[1:] if literal.startswith(NEG) else literal


def complement(literal: str) -> str:
    """``comp(l)``: the complement of a normalized literal.

    >>> complement("Penalty(x)"), complement("¬Penalty(x)")
    ('¬Penalty(x)', 'Penalty(x)')
    """
    return literal[1:] if literal.startswith(NEG) else NEG + literal


def applicability_atom(rule_id: str) -> str:
    """The atom ``applicable(rK)``; an exception to ``rK`` concludes its complement.

    >>> complement(applicability_atom("r1"))
    '¬applicable(r1)'
    """
    return f"applicable({rule_id})"


def excepted_rule(literal: str) -> str | None:
    """The rule id ``rK`` if ``literal`` is ``¬applicable(rK)``, else ``None``.

    >>> excepted_rule("¬applicable(r2)"), excepted_rule("Penalty(x)")
    ('r2', None)
    """
    if not literal.startswith(NEG):
        return None
    match = _APPLICABLE.match(literal[1:])
    return match.group(1) if match else None
