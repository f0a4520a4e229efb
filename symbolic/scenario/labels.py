"""Closed vocabularies and their normalization: status, rule kinds, attack
kinds, priority bases, evidence ids (docs/semantics.md sections 1, 7 and 10).
"""

from __future__ import annotations

import re
from enum import StrEnum

__all__ = [
    "AttackKind",
    "Basis",
    "RuleKind",
    "Status",
    "normalize_basis",
    "normalize_evidence_id",
    "normalize_status",
]


class Status(StrEnum):
    """The four-valued status of a target literal (Definition 5)."""

    ACCEPTED = "accepted"
    REJECTED = "rejected"
    BOTH = "both"
    UNDECIDABLE = "undecidable"


class RuleKind(StrEnum):
    """Kinds of rule (docs/semantics.md section 1)."""

    STRICT = "strict"
    DEFEASIBLE = "defeasible"
    DEFEATER = "defeater"


class AttackKind(StrEnum):
    """Kinds of attack (Definition 2)."""

    REBUT = "rebut"
    UNDERCUT = "undercut"
    UNDERMINE = "undermine"


class Basis(StrEnum):
    """The basis a priority is grounded on (Definition 3)."""

    EXCEPTION = "exception"
    HIERARCHY = "hierarchy"
    SPECIFICITY = "specificity"
    TEMPORAL = "temporal"
    AUTHORITY = "authority"


_STATUS_SPELLINGS = {
    "accepted": Status.ACCEPTED, "accept": Status.ACCEPTED, "positive": Status.ACCEPTED,
    "true": Status.ACCEPTED, "yes": Status.ACCEPTED, "holds": Status.ACCEPTED,
    "rejected": Status.REJECTED, "reject": Status.REJECTED, "negative": Status.REJECTED,
    "false": Status.REJECTED, "no": Status.REJECTED,
    "both": Status.BOTH, "conflict": Status.BOTH, "conflicted": Status.BOTH,
    "contradictory": Status.BOTH, "contradiction": Status.BOTH, "inconsistent": Status.BOTH,
    "undecidable": Status.UNDECIDABLE, "undecided": Status.UNDECIDABLE,
    "undetermined": Status.UNDECIDABLE, "unknown": Status.UNDECIDABLE,
    "indeterminate": Status.UNDECIDABLE, "neither": Status.UNDECIDABLE,
}

_BASIS_SPELLINGS = {
    "exception": Basis.EXCEPTION, "exceptions": Basis.EXCEPTION,
    "hierarchy": Basis.HIERARCHY, "hierarchical": Basis.HIERARCHY, "lex superior": Basis.HIERARCHY,
    "specificity": Basis.SPECIFICITY, "specific": Basis.SPECIFICITY, "lex specialis": Basis.SPECIFICITY,
    "temporal": Basis.TEMPORAL, "later in time": Basis.TEMPORAL, "later": Basis.TEMPORAL,
    "lex posterior": Basis.TEMPORAL, "recency": Basis.TEMPORAL,
    "authority": Basis.AUTHORITY,
}

_EVIDENCE_ID = re.compile(
    r"^\[?\s*(?:e|ev|evidence|frag|fragment)[\s_\-.#:]*0*(\d+)\s*\]?$", re.IGNORECASE
)


def _key(text: str) -> str:
    return " ".join(re.sub(r"[_\-]+", " ", text).lower().split())


def _canonical(label, kind, spellings: dict, what: str, expected: str):
    """``label`` as a member of ``kind``, read through ``spellings`` (case, spaces, ``_`` and ``-`` ignored)."""
    if isinstance(label, kind):
        return label
    if not isinstance(label, str):
        raise ValueError(f"a {what} must be a string, got {type(label).__name__} {label!r}")
    try:
        return spellings[_key(label)]
    except KeyError:
        raise ValueError(f"unknown {what} {label!r}; expected {expected}") from None


def normalize_status(label) -> Status:
    """Canonicalize a status label.

    Parameters
    ----------
    label : str or Status
        Any supported spelling (case, spaces, hyphens and underscores ignored).

    Returns
    -------
    Status

    Raises
    ------
    ValueError
        If the label names none of the four statuses.

    Examples
    --------
    >>> normalize_status("Accepted"), normalize_status("BOTH"), normalize_status("undetermined")
    (<Status.ACCEPTED: 'accepted'>, <Status.BOTH: 'both'>, <Status.UNDECIDABLE: 'undecidable'>)
    """
    return _canonical(label, Status, _STATUS_SPELLINGS, "status label", "accepted, rejected, both or undecidable")


def normalize_basis(label) -> Basis:
    """Canonicalize a priority basis.

    >>> normalize_basis("Later-in-time"), normalize_basis("lex_specialis")
    (<Basis.TEMPORAL: 'temporal'>, <Basis.SPECIFICITY: 'specificity'>)

    Raises
    ------
    ValueError
        If the label names none of the five bases.
    """
    return _canonical(label, Basis, _BASIS_SPELLINGS, "priority basis",
                      "exception, hierarchy, specificity, temporal or authority")


def normalize_evidence_id(text: str) -> str:
    """Canonicalize an evidence fragment id to ``E-NN``.

    Ids that do not look like an evidence number (``CTRL_T0_001_SU1``) are
    returned stripped and otherwise unchanged.

    Parameters
    ----------
    text : str
        An evidence id in any supported spelling.

    Returns
    -------
    str

    Raises
    ------
    ValueError
        If ``text`` is not a string or is blank.

    Examples
    --------
    >>> [normalize_evidence_id(x) for x in ("E_01", "e01", "Evidence 1", "[E-7]", "E-120")]
    ['E-01', 'E-01', 'E-01', 'E-07', 'E-120']
    """
    if not isinstance(text, str):
        raise ValueError(f"an evidence id must be a string, got {type(text).__name__} {text!r}")
    stripped = text.strip()
    if not stripped:
        raise ValueError(f"empty evidence id {text!r}")
    match = _EVIDENCE_ID.match(stripped)
    return f"E-{int(match.group(1)):02d}" if match else stripped
