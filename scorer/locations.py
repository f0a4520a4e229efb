"""Typed defect locations: one vocabulary for the controlled suite's annotations,
the assistant's audit reports and the scorer's DLA (paper Table 6, docs/metrics.md B6).

A location is ``kind:ident``:

========== ===================================== ===================================
kind       ident                                 example
========== ===================================== ===================================
evidence   a fragment id                         ``evidence:E-03``
fact       a fact id                             ``fact:f1``
rule       a rule id (exceptions included)       ``rule:r2``
priority   ``stronger>weaker``                   ``priority:r3>r2``
attack     ``source-kind->target``               ``attack:r2-rebut->Penalty(x)``
target     the target literal                    ``target:Penalty(x)``
status     a status label                        ``status:accepted``
========== ===================================== ===================================

:func:`parse_location` also reads the untyped spellings an LM or an older file
uses (``r2``, ``r3 > r2``, ``E_03``, ``exception:r4``): a bare fragment id,
priority or attack is recognised by its form; a bare fact or rule id is typed
by looking it up in the candidate analysis the location refers to.

Two locations are the same (:func:`same_location`) when kind and ident agree
after normalization; a priority location names the *pair* of rules it orders,
so ``priority:r3>r2`` and ``priority:r2>r3`` name the same defect (an inverted
priority is the same comparison pointing the wrong way).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from symbolic.scenario.labels import normalize_evidence_id, normalize_status
from symbolic.scenario.literals import normalize_literal

__all__ = [
    "LOCATION_KINDS",
    "Location",
    "LocationError",
    "attack_location",
    "parse_location",
    "priority_location",
    "same_location",
]

#: The location kinds, in the order of the table above.
LOCATION_KINDS = ("evidence", "fact", "rule", "priority", "attack", "target", "status")
_ALIASES = {"exception": "rule", "fragment": "evidence", "clause": "evidence", "edge": "attack",
            "query": "target", "conclusion": "target"}
_ATTACK = re.compile(r"^(?P<source>[^-\s>]+)\s*-\s*(?P<kind>rebut|undercut|undermine)\s*->\s*(?P<target>.+)$")
_EVIDENCE = re.compile(r"^(e|evidence)[\s_\-]*\d+$", re.IGNORECASE)


class LocationError(ValueError):
    """A location that cannot be read or typed."""


@dataclass(frozen=True, slots=True)
class Location:
    """A typed location ``kind:ident`` (ident already normalized).

    Examples
    --------
    >>> str(Location("priority", "r3>r2")), Location("rule", "r2").kind
    ('priority:r3>r2', 'rule')
    """

    kind: str
    ident: str

    def __str__(self) -> str:
        return f"{self.kind}:{self.ident}"

    def key(self) -> tuple:
        """The comparison key (a priority's pair is unordered)."""
        if self.kind == "priority":
            return self.kind, frozenset(self.ident.split(">", 1))
        return self.kind, self.ident.lower() if self.kind in ("fact", "rule", "status") else self.ident


def priority_location(stronger: str, weaker: str) -> str:
    """``priority:stronger>weaker``.

    >>> priority_location("r3", "r2")
    'priority:r3>r2'
    """
    return f"priority:{stronger}>{weaker}"


def attack_location(source: str, kind: str, target: str) -> str:
    """``attack:source-kind->target``.

    >>> attack_location("r2", "rebut", "Penalty(x)")
    'attack:r2-rebut->Penalty(x)'
    """
    return f"attack:{source}-{kind}->{target}"


def _literal(text: str) -> str:
    try:
        return normalize_literal(text)
    except ValueError:
        return "".join(text.split())


def _ident(kind: str, text: str) -> str:
    text = text.strip()
    if kind == "evidence":
        return normalize_evidence_id(text)
    if kind == "priority":
        stronger, sep, weaker = text.partition(">")
        if not sep or not stronger.strip() or not weaker.strip():
            raise LocationError(f"priority location {text!r} is not 'stronger>weaker'")
        return f"{stronger.strip()}>{weaker.strip()}"
    if kind == "attack":
        match = _ATTACK.match(text)
        if match is None:
            raise LocationError(f"attack location {text!r} is not 'source-kind->target'")
        return f"{match['source']}-{match['kind']}->{_literal(match['target'])}"
    if kind == "target":
        return _literal(text)
    if kind == "status":
        return normalize_status(text).value
    if not text or any(c.isspace() for c in text):
        raise LocationError(f"{kind} location {text!r} is not an object id")
    return text


def parse_location(text: str, candidate=None) -> Location:
    """Read a location, typed (``rule:r2``) or untyped (``r2``, ``r3 > r2``, ``E_03``).

    Parameters
    ----------
    text : str
        The location as written.
    candidate : Analysis, optional
        The analysis the location refers to; types a bare fact or rule id.

    Returns
    -------
    Location

    Raises
    ------
    LocationError
        For an unknown kind, a malformed ident, or a bare id that names no
        fact or rule of ``candidate`` (or any bare id when there is no candidate).

    Examples
    --------
    >>> str(parse_location("priority: r3 > r2")), str(parse_location("E_3")), str(parse_location("exception:r4"))
    ('priority:r3>r2', 'evidence:E-03', 'rule:r4')
    >>> str(parse_location("r2-rebut->not Penalty(x)"))
    'attack:r2-rebut->¬Penalty(x)'
    """
    if not isinstance(text, str) or not text.strip():
        raise LocationError(f"empty location {text!r}")
    text = text.strip()
    head, sep, rest = text.partition(":")
    kind = _ALIASES.get(head.strip().lower(), head.strip().lower()) if sep else ""
    if sep and kind in LOCATION_KINDS:
        try:
            return Location(kind, _ident(kind, rest))
        except LocationError:
            raise
        except ValueError as exc:
            raise LocationError(f"location {text!r}: {exc}") from None
    if sep and re.fullmatch(r"[A-Za-z_]+", head.strip()) and not _ATTACK.match(text):
        raise LocationError(f"unknown location kind {head.strip()!r} in {text!r}; expected one of "
                            + ", ".join(LOCATION_KINDS))
    if _ATTACK.match(text):
        return Location("attack", _ident("attack", text))
    if ">" in text:
        return Location("priority", _ident("priority", text))
    if _EVIDENCE.match(text):
        return Location("evidence", _ident("evidence", text))
    if candidate is not None:
        analysis = getattr(candidate, "analysis", candidate)
        if any(f.id == text for f in analysis.facts):
            return Location("fact", text)
        if any(r.id == text for r in analysis.rules):
            return Location("rule", text)
    raise LocationError(f"location {text!r} has no kind; write it as kind:id with kind one of "
                        + ", ".join(LOCATION_KINDS))


def same_location(predicted: str | None, gold: str | None, candidate=None) -> bool:
    """Whether a reported location names the gold one (a missing gold location matches anything).

    Examples
    --------
    >>> same_location("rule:r2", "rule:r2"), same_location("r3 > r2", "priority:r2>r3")
    (True, True)
    >>> same_location("fact:f1", "rule:f1"), same_location(None, "rule:r2"), same_location("x y", "rule:r2")
    (False, False, False)
    """
    if gold is None:
        return True
    if predicted is None:
        return False
    try:
        return parse_location(predicted, candidate).key() == parse_location(gold, candidate).key()
    except ValueError:  # LocationError included
        return False
