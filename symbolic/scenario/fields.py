"""Annotated pydantic field types of the scenario schema: identifiers, literals,
status labels and priority bases, normalized on construction
(:mod:`symbolic.scenario.literals`, :mod:`symbolic.scenario.labels`) so that two spellings of the
same object compare equal.  Normalizations of strings are remembered, since ids
and labels repeat across the objects of a theory.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import AfterValidator, BeforeValidator

from symbolic.scenario.labels import Basis, Status, normalize_basis, normalize_evidence_id, normalize_status
from symbolic.scenario.literals import normalize_literal

__all__ = ["BasisField", "EvidenceId", "LiteralStr", "ObjectId", "StatusField", "object_id"]


def object_id(value):
    """``value`` as an object id: one non-empty token without spaces (surrounding spaces dropped).

    Raises
    ------
    ValueError
        If ``value`` is not a string of exactly one token.

    Examples
    --------
    >>> object_id(" r1 ")
    'r1'
    """
    if type(value) is str and value.isidentifier():  # the common case: no whitespace, at C speed
        return value
    parts = value.split() if isinstance(value, str) else ()
    if len(parts) != 1:
        raise ValueError(f"an id must be a non-empty string without spaces, got {value!r}")
    return parts[0]


def _memo(normalize, size: int = 1 << 16):
    """``normalize`` with its results on strings remembered (ids and labels repeat across objects)."""
    seen: dict[str, object] = {}

    def cached(value):
        if type(value) is not str:
            return normalize(value)
        try:
            return seen[value]
        except KeyError:
            result = normalize(value)
            if len(seen) >= size:
                seen.clear()
            seen[value] = result
            return result

    cached.__doc__ = normalize.__doc__
    return cached


EvidenceId = Annotated[str, AfterValidator(_memo(normalize_evidence_id))]
LiteralStr = Annotated[str, AfterValidator(_memo(normalize_literal))]
ObjectId = Annotated[str, AfterValidator(object_id)]
StatusField = Annotated[Status, BeforeValidator(normalize_status)]
BasisField = Annotated[Basis, BeforeValidator(_memo(normalize_basis))]
