"""Vocabulary of serialized attack records and provenance events: the key
spellings, event names and attack-kind spellings that :mod:`symbolic.traces.records`
accepts, and the sentence forms (``"r2 rebuts r1"``, ``"r3 > r2 (hierarchy)"``).
"""

from __future__ import annotations

import json
import re
from typing import Any

from symbolic.scenario.labels import AttackKind

__all__ = [
    "ATTACK_EVENTS",
    "BASIS_KEYS",
    "CLAIM_EVENTS",
    "CONCLUSION_KEYS",
    "EVENT_KEYS",
    "EVIDENCE_KEYS",
    "GROUNDING_EVENTS",
    "IGNORED_KEYS",
    "KIND_KEYS",
    "LIC_KEYS",
    "OBJECT_FIRST_EVENTS",
    "PREMISES_KEYS",
    "PRIORITY_EVENTS",
    "SOURCE_KEYS",
    "STEP_EVENTS",
    "STEP_FACT_KEYS",
    "STEP_ID_KEYS",
    "STEP_RULE_KEYS",
    "STRONGER_KEYS",
    "TARGET_KEYS",
    "WEAKER_KEYS",
    "is_attack_kind",
    "normalize_attack_kind",
    "normalize_key",
    "text_record",
]


def normalize_key(text: Any) -> str:
    """Lower-case a key or label and join its words with ``_``.

    >>> normalize_key("Attack-Type"), normalize_key(" rebutting  attack ")
    ('attack_type', 'rebutting_attack')
    """
    return "_".join(re.sub(r"[-\s]+", " ", str(text)).strip().lower().split())


_KINDS = {
    AttackKind.REBUT: ("rebut", "rebuts", "rebuttal", "rebutting", "rebutter", "rebutted",
                       "contradicts", "contradiction"),
    AttackKind.UNDERCUT: ("undercut", "undercuts", "undercutting", "undercutter", "undercutted",
                          "exception"),
    AttackKind.UNDERMINE: ("undermine", "undermines", "undermining", "underminer", "undermined",
                           "premise_attack"),
}
_KIND_SPELLINGS = {s: kind for kind, spellings in _KINDS.items() for s in spellings}
_KIND_SUFFIXES = ("_attack", "_defeat", "_edge", "_relation")

SOURCE_KEYS = ("attacker", "from", "source", "src", "by", "attacking", "origin", "attacker_id",
           "from_id", "source_id")
TARGET_KEYS = ("attacked", "to", "target", "dst", "tgt", "on", "victim", "attacked_id", "to_id",
           "target_id")
KIND_KEYS = ("kind", "attack_kind", "attack_type", "type", "relation")
LIC_KEYS = ("lic", "licensing_rule", "licence", "license", "licensed_by", "via", "rule")
EVIDENCE_KEYS = ("evidence", "evidence_ids", "evidence_id", "fragments", "fragment", "fragment_ids",
             "grounding", "grounded_in", "cites", "citations", "source_ids")
EVENT_KEYS = ("event", "event_type", "op", "action", "step_type")
STRONGER_KEYS = ("stronger", "superior", "higher", "preferred", "winner", "dominant")
WEAKER_KEYS = ("weaker", "inferior", "lower", "loser", "dominated")
BASIS_KEYS = ("basis", "priority_basis", "ground")
STEP_ID_KEYS = ("id", "step", "step_id", "node", "name")
STEP_RULE_KEYS = ("rule", "rule_id", "via", "applies", "applied_rule")
STEP_FACT_KEYS = ("fact", "fact_id")
PREMISES_KEYS = ("premises", "from", "inputs", "uses", "using", "subs", "sub_steps", "antecedents")
CONCLUSION_KEYS = ("conclusion", "concludes", "to", "derives", "derived", "output", "result", "literal")
IGNORED_KEYS = ("id", "note", "notes", "comment", "text", "explanation", "rationale", "reason",
            "description", "confidence", "state", "status", "active", "defeated", "defeated_by",
            "label", "round", "explicit", "meta", "metadata")

ATTACK_EVENTS = {"attack", "attacks", "attacked", "attack_edge", "conflict"}
PRIORITY_EVENTS = {"priority", "prefer", "prefers", "preference", "precedence", "priority_edge",
                    "prevails", "prevails_over"}
STEP_EVENTS = {"derive", "derives", "derivation", "derived", "apply", "applies", "applied",
                "apply_rule", "rule_application", "infer", "infers", "inference", "proof_step",
                "step", "premise", "assert", "support", "supports"}
CLAIM_EVENTS = {"defeat", "defeats", "defeated", "neutralize", "neutralizes", "neutralise",
                 "neutralises", "neutralized", "neutralised", "override", "overrides", "overridden",
                 "block", "blocks", "blocked", "label", "labelled", "labeled", "status", "conclude",
                 "verdict"}
GROUNDING_EVENTS = {"grounds", "grounding", "grounded_by", "supported_by_evidence", "evidences",
                    "grounded", "grounded_in", "cites", "cite", "cited", "sourced_from"}
# events whose first endpoint is the object and whose second is the fragment
OBJECT_FIRST_EVENTS = {"grounded", "grounded_in", "cites", "cite", "cited", "sourced_from"}


def normalize_attack_kind(value) -> AttackKind:
    """Canonicalize an attack kind.

    Parameters
    ----------
    value : str or AttackKind
        ``rebuttal``, ``Undercutting``, ``undermines``, ``rebutting attack``...

    Returns
    -------
    AttackKind

    Raises
    ------
    ValueError
        If ``value`` names none of rebut, undercut, undermine.

    Examples
    --------
    >>> normalize_attack_kind("Rebuttal"), normalize_attack_kind("undercutting attack")
    (<AttackKind.REBUT: 'rebut'>, <AttackKind.UNDERCUT: 'undercut'>)
    """
    if isinstance(value, AttackKind):
        return value
    if not isinstance(value, str):
        raise ValueError(f"an attack kind must be a string, got {type(value).__name__} {value!r}")
    key = normalize_key(value)
    for suffix in _KIND_SUFFIXES:
        if key.endswith(suffix) and key[: -len(suffix)] in _KIND_SPELLINGS:
            key = key[: -len(suffix)]
    try:
        return _KIND_SPELLINGS[key]
    except KeyError:
        raise ValueError(f"unknown attack kind {value!r}; expected rebut, undercut or undermine") from None


def is_attack_kind(value) -> bool:
    """Whether ``value`` spells an attack kind.

    >>> is_attack_kind("rebuttal"), is_attack_kind("attack")
    (True, False)
    """
    try:
        normalize_attack_kind(value)
    except ValueError:
        return False
    return True


_ARROW_TEXT = re.compile(r"^(\S+)\s*[-=]+\s*\[?\s*([A-Za-z_ ]+?)\s*\]?\s*[-=]*>\s*(\S+)$")
_VERB_TEXT = re.compile(r"^(\S+)\s+([A-Za-z_]+)\s+(\S+)$")
_ATTACKS_TEXT = re.compile(r"^(\S+)\s+attacks\s+(\S+)\s*\(\s*([A-Za-z_ ]+?)\s*\)$", re.IGNORECASE)
_CALL_TEXT = re.compile(r"^attack\(\s*([^,\s]+)\s*,\s*([^,\s]+)\s*,\s*([A-Za-z_ ]+?)\s*\)$", re.IGNORECASE)
_PRIORITY_TEXT = re.compile(r"^(\S+)\s*(>|<)\s*(\S+)(?:\s*\(\s*([A-Za-z_ \-]+?)\s*\))?$")


def text_record(text: str) -> dict:
    """Read a record given as text: a JSON object or a sentence.

    Parameters
    ----------
    text : str
        ``{"attacker": ...}``, ``"r2 rebuts r1"``, ``"r2 -rebut-> r1"``,
        ``"r2 attacks r1 (rebut)"``, ``"attack(r2, r1, rebut)"``,
        ``"r3 > r2 (hierarchy)"`` or ``"r2 < r3"``.

    Returns
    -------
    dict
        The record as a mapping (``from``/``to``/``kind`` or
        ``stronger``/``weaker``/``basis``).

    Raises
    ------
    ValueError
        If the text is invalid JSON, a JSON non-object, or no known sentence.

    Examples
    --------
    >>> text_record("r2 -undercut-> r1")
    {'from': 'r2', 'to': 'r1', 'kind': 'undercut'}
    >>> text_record("r2 < r3 (temporal)")
    {'stronger': 'r3', 'weaker': 'r2', 'basis': 'temporal'}
    """
    stripped = text.strip()
    if stripped.startswith("{"):
        try:
            value = json.loads(stripped)
        except json.JSONDecodeError as exc:
            raise ValueError(f"record is not valid JSON ({exc.msg.removesuffix(' at')} at column {exc.colno})") from None
        if not isinstance(value, dict):
            raise ValueError("a JSON record must be an object")
        return value
    for pattern in (_ATTACKS_TEXT, _CALL_TEXT):
        match = pattern.match(stripped)
        if match:
            return {"from": match.group(1), "to": match.group(2), "kind": match.group(3)}
    for pattern in (_ARROW_TEXT, _VERB_TEXT):
        match = pattern.match(stripped)
        if match and is_attack_kind(match.group(2)):
            return {"from": match.group(1), "to": match.group(3), "kind": match.group(2)}
    match = _PRIORITY_TEXT.match(stripped)
    if match:
        a, op, b = match.group(1), match.group(2), match.group(3)
        stronger, weaker = (a, b) if op == ">" else (b, a)
        record = {"stronger": stronger, "weaker": weaker}
        if match.group(4):
            record["basis"] = match.group(4)
        return record
    raise ValueError("cannot read this text as an attack or priority record "
                     "(expected e.g. 'r2 rebuts r1', 'r2 -undercut-> r1' or 'r3 > r2 (hierarchy)')")
