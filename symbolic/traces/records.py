"""Serialized attack records and provenance events -> typed objects (TNF step ii,
docs/semantics.md section 12).

Each record becomes a typed object of :mod:`symbolic.scenario.model`:

- **attack records** -> :class:`~symbolic.scenario.model.AttackEdge`: ``{"attacker": "r2",
  "attacked": "r1", "type": "rebuttal"}``, ``{"from", "to", "kind"}``, ``{"source", "target"}``, an
  event ``{"event": "attack" | "rebuts", ...}``, JSON as text, or a sentence (``"r2 rebuts r1"``,
  ``"r2 -rebut-> r1"``, ``"r2 attacks r1 (undercut)"``); a list target yields one edge per item;
- **priority records** -> :class:`~symbolic.scenario.model.Priority`: ``{"stronger", "weaker",
  "basis"}``, ``{"priority": "r3 > r2", "basis": ..}`` or ``"r3 > r2 (hierarchy)"`` (a basis is needed);
- **proof steps** -> :class:`ProofStep` (``{"event": "derive", "id": "s3", "rule": "r1", ...}``): no
  normative content of their own; their ids are proof aliases of the rule or fact they apply, and
  records naming a step are resolved to it (:meth:`Records.resolved`);
- **grounding events** -> :class:`Grounding` (``{"event": "grounds", "from": "E_01", "to": "f1"}``):
  TNF adds the fragment to the object's evidence;
- **claims** -> :class:`Claim`: events restating a computed result (``defeat``, ``status``...).

Unknown keys are an error (a misspelt ``"atacker"`` must not lose the attacker), except free-text
and state keys that TNF recomputes (``id``, ``note``, ``state``, ``defeated_by``...).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, replace
from typing import Any, Iterable, Mapping

from pydantic import ValidationError

from symbolic.errors import ScenarioError
from symbolic.scenario.labels import AttackKind, normalize_basis, normalize_evidence_id
from symbolic.scenario.model import AttackEdge, Priority

__all__ = [
    "Claim",
    "Grounding",
    "ProofStep",
    "RecordError",
    "Records",
    "normalize_attack_kind",
    "parse_record",
    "parse_records",
]


# -- the typed content of records --------------------------------------------------------------

class RecordError(ScenarioError):
    """A serialized attack record or provenance event is malformed (names field and value)."""


@dataclass(frozen=True, slots=True)
class ProofStep:
    """A provenance event that restates one derivation step.

    Attributes
    ----------
    id : str or None
        The step's own id, if it has one (an alias of ``rule`` or ``fact``).
    rule, fact : str or None
        The rule applied, or the fact restated.
    premises : tuple of str
        What the step says it used.
    conclusion : str or None
        What the step says it derived.
    """

    id: str | None
    rule: str | None = None
    fact: str | None = None
    premises: tuple[str, ...] = ()
    conclusion: str | None = None

    @property
    def referent(self) -> str | None:
        """The rule or fact this step is an alias of."""
        return self.rule if self.rule is not None else self.fact


@dataclass(frozen=True, slots=True)
class Claim:
    """A provenance event restating a computed result; ``record`` is its sorted JSON."""

    event: str
    record: str


@dataclass(frozen=True, slots=True)
class Grounding:
    """A provenance event saying that evidence fragment ``fragment`` grounds object ``object``.

    ``object`` is a fact or rule id, a proof-step id, or a priority id ``rA>rB``.
    """

    fragment: str
    object: str


@dataclass(frozen=True, slots=True)
class Records:
    """The typed content of a batch of records."""

    attacks: tuple[AttackEdge, ...] = ()
    priorities: tuple[Priority, ...] = ()
    steps: tuple[ProofStep, ...] = ()
    claims: tuple[Claim, ...] = ()
    groundings: tuple[Grounding, ...] = ()

    def __add__(self, other: "Records") -> "Records":
        return Records(self.attacks + other.attacks, self.priorities + other.priorities,
                       self.steps + other.steps, self.claims + other.claims,
                       self.groundings + other.groundings)

    def aliases(self) -> dict[str, str]:
        """Map each proof-step id to the rule or fact it applies."""
        return {s.id: s.referent for s in self.steps if s.id is not None and s.referent is not None}

    def resolved(self) -> "Records":
        """These records with every proof-step id replaced by the rule or fact it stands for.

        Examples
        --------
        >>> from symbolic.traces.records import parse_records
        >>> r = parse_records([{"event": "derive", "id": "s1", "rule": "r2"},
        ...                    {"from": "s1", "to": "r1", "kind": "rebut"}]).resolved()
        >>> (r.attacks[0].source, r.attacks[0].target)
        ('r2', 'r1')
        """
        alias = self.aliases()

        def sub(name):
            return alias.get(name, name) if name is not None else None

        attacks = tuple(e.model_copy(update={"source": sub(e.source), "target": sub(e.target),
                                             "lic": sub(e.lic)}) for e in self.attacks)
        priorities = tuple(p.model_copy(update={"stronger": sub(p.stronger), "weaker": sub(p.weaker)})
                           for p in self.priorities)
        groundings = tuple(Grounding(g.fragment, sub(g.object)) for g in self.groundings)
        return replace(self, attacks=attacks, priorities=priorities, groundings=groundings)


# -- the vocabulary: key spellings, event names, attack-kind spellings, sentence forms ---------

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


# -- records -> typed objects ------------------------------------------------------------------


def _from_text(text: str, where: dict) -> dict:
    try:
        return text_record(text)
    except ValueError as exc:
        raise RecordError(str(exc), value=text, **where) from None


def _pick(record: dict, keys: Iterable[str]) -> tuple[str | None, Any]:
    for key in keys:
        if key in record and record[key] is not None:
            return key, record[key]
    return None, None


def _name(value, field: str, where: dict) -> str:
    if isinstance(value, bool) or not isinstance(value, (str, int)) or not str(value).strip():
        raise RecordError(f"expected an id, got {value!r}", field=field, value=value,
                          **{k: v for k, v in where.items() if k != "field"})
    return str(value).strip()


def _names(value, field: str, where: dict) -> tuple[str, ...]:
    items = value if isinstance(value, (list, tuple)) else [value]
    return tuple(_name(v, f"{field}.{i}" if isinstance(value, (list, tuple)) else field, where)
                 for i, v in enumerate(items))


def parse_record(record, *, field: str = "record", file=None, line=None) -> Records:
    """Convert one serialized record into typed objects (TNF step ii).

    Parameters
    ----------
    record : mapping, str, AttackEdge, Priority or ProofStep
        See the module docstring for the accepted shapes.
    field : str, optional
        Where the record sits (``raw_edges.3``), for error messages.
    file, line : optional
        The file and 1-based line it came from, for error messages.

    Returns
    -------
    Records
        Usually one object; a list-valued attack target yields several edges.

    Raises
    ------
    RecordError
        If the record's shape, kind, ids, basis or evidence cannot be read.

    Examples
    --------
    >>> r = parse_record({"attacker": "r2", "attacked": "r1", "type": "rebuttal", "evidence": "E_02"})
    >>> e = r.attacks[0]; (e.source, e.target, e.kind.value, e.evidence)
    ('r2', 'r1', 'rebut', ('E-02',))
    >>> parse_record("r3 > r2 (hierarchy)").priorities[0].id
    'r3>r2'
    >>> parse_record("r4 -undercut-> r1").attacks[0].kind.value
    'undercut'
    """
    where = {"field": field, "file": file, "line": line}
    if isinstance(record, AttackEdge):
        return Records(attacks=(record,))
    if isinstance(record, Priority):
        return Records(priorities=(record,))
    if isinstance(record, ProofStep):
        return Records(steps=(record,))
    if isinstance(record, str):
        record = _from_text(record, where)
    if not isinstance(record, Mapping):
        raise RecordError(f"a record must be an object or a string, got {type(record).__name__}",
                          value=record, **where)
    data = {normalize_key(k): v for k, v in record.items()}
    event_key, event = _pick(data, EVENT_KEYS)
    if event is None and "type" in data and not is_attack_kind(data["type"]):
        event_key, event = "type", data["type"]
    event = normalize_key(event) if isinstance(event, str) else event
    used = {event_key} if event_key else set()
    if event in GROUNDING_EVENTS:
        return _grounding(data, used, where, object_first=event in OBJECT_FIRST_EVENTS)
    if event in CLAIM_EVENTS:
        return Records(claims=(Claim(str(event), json.dumps(record, sort_keys=True, default=str)),))
    if event in STEP_EVENTS:
        return _step(data, used, where)
    if event in PRIORITY_EVENTS:
        return _priority(data, used, where)
    if event in ATTACK_EVENTS or (event is not None and is_attack_kind(event)):
        return _attack(data, used, where, kind=event if is_attack_kind(event) else None)
    if event_key == "type" and _pick(data, SOURCE_KEYS)[0] and _pick(data, TARGET_KEYS)[0]:
        return _attack(data, set(), where)  # "type" was meant as the attack kind
    if event is not None:
        raise RecordError(f"unknown event {event!r}; expected an attack, priority, derivation "
                          "or defeat/status event", field=f"{field}.{event_key}", value=event,
                          file=file, line=line)
    if _pick(data, SOURCE_KEYS)[0] and _pick(data, TARGET_KEYS)[0]:
        return _attack(data, used, where)
    if _pick(data, STRONGER_KEYS)[0] or "priority" in data:
        return _priority(data, used, where)
    if _pick(data, STEP_RULE_KEYS)[0] or _pick(data, STEP_FACT_KEYS)[0]:
        return _step(data, used, where)
    raise RecordError(f"cannot tell what this record is (keys: {', '.join(sorted(data))}); "
                      "an attack needs a source and a target, a priority stronger and weaker",
                      value=dict(record), **where)


def _check_keys(data: dict, used: set, where: dict) -> None:
    unknown = sorted(set(data) - used - set(IGNORED_KEYS))
    if unknown:
        raise RecordError(f"unknown key {unknown[0]!r} in record (keys: {', '.join(sorted(data))})",
                          field=f"{where['field']}.{unknown[0]}", value=data[unknown[0]],
                          file=where["file"], line=where["line"])


def _evidence(data: dict, used: set) -> tuple:
    key, value = _pick(data, EVIDENCE_KEYS)
    if key is None:
        return ()
    used.add(key)
    return tuple(value) if isinstance(value, (list, tuple)) else (value,)


def _attack(data: dict, used: set, where: dict, kind=None) -> Records:
    f = where["field"]
    skey, source = _pick(data, SOURCE_KEYS)
    tkey, target = _pick(data, TARGET_KEYS)
    if skey is None or tkey is None:
        raise RecordError(f"attack record lacks its {'source' if skey is None else 'target'} "
                          f"(keys: {', '.join(sorted(data))})", value=data, **where)
    used |= {skey, tkey}
    if kind is None:
        kkey, kind = next(((k, data[k]) for k in KIND_KEYS if k in data and k not in used), (None, None))
        if kkey is None:
            raise RecordError("attack record has no kind (rebut, undercut or undermine)",
                              value=data, **where)
        used.add(kkey)
        where_kind = f"{f}.{kkey}"
    else:
        where_kind = f
    try:
        kind = normalize_attack_kind(kind)
    except ValueError as exc:
        raise RecordError(str(exc), field=where_kind, value=kind, file=where["file"],
                          line=where["line"]) from None
    lkey, lic = _pick(data, LIC_KEYS)
    if lkey:
        used.add(lkey)
        lic = _name(lic, f"{f}.{lkey}", where)
    evidence = _evidence(data, used)
    _check_keys(data, used, where)
    src = _name(source, f"{f}.{skey}", where)
    edges = []
    for tgt in _names(target, f"{f}.{tkey}", where):
        try:
            edges.append(AttackEdge(source=src, target=tgt, kind=kind, lic=lic, evidence=evidence))
        except ValidationError as exc:
            raise _wrap(exc, where) from None
    return Records(attacks=tuple(edges))


def _priority(data: dict, used: set, where: dict) -> Records:
    f = where["field"]
    if "priority" in data and isinstance(data["priority"], str):
        used.add("priority")
        parsed = _from_text(data["priority"], {**where, "field": f"{f}.priority"})
        if "stronger" not in parsed:
            raise RecordError("expected 'stronger > weaker'", field=f"{f}.priority",
                              value=data["priority"], file=where["file"], line=where["line"])
        stronger, weaker, basis = parsed["stronger"], parsed["weaker"], parsed.get("basis")
    else:
        skey, stronger = _pick(data, STRONGER_KEYS)
        wkey, weaker = _pick(data, WEAKER_KEYS)
        if skey is None or wkey is None:
            raise RecordError("priority record needs a stronger and a weaker rule",
                              value=data, **where)
        used |= {skey, wkey}
        stronger = _name(stronger, f"{f}.{skey}", where)
        weaker = _name(weaker, f"{f}.{wkey}", where)
        basis = None
    bkey, value = _pick(data, BASIS_KEYS)
    if bkey is None and isinstance(data.get("kind"), str):
        bkey, value = "kind", data["kind"]
    if bkey is not None:
        used.add(bkey)
        basis = value
    if basis is None:
        raise RecordError(f"priority {stronger} > {weaker} has no basis (exception, hierarchy, "
                          "specificity, temporal or authority)", value=data, **where)
    try:
        basis = normalize_basis(basis)
    except ValueError as exc:
        raise RecordError(str(exc), field=f"{f}.{bkey or 'priority'}", value=basis,
                          file=where["file"], line=where["line"]) from None
    evidence = _evidence(data, used)
    _check_keys(data, used, where)
    try:
        return Records(priorities=(Priority(stronger=stronger, weaker=weaker, basis=basis,
                                            evidence=evidence),))
    except ValidationError as exc:
        raise _wrap(exc, where) from None


def _step(data: dict, used: set, where: dict) -> Records:
    f = where["field"]
    fields = {}
    for name, keys in (("id", STEP_ID_KEYS), ("rule", STEP_RULE_KEYS), ("fact", STEP_FACT_KEYS),
                       ("conclusion", CONCLUSION_KEYS)):
        key, value = _pick({k: v for k, v in data.items() if k not in used}, keys)
        if key is not None:
            used.add(key)
            fields[name] = _name(value, f"{f}.{key}", where)
    key, value = _pick({k: v for k, v in data.items() if k not in used}, PREMISES_KEYS)
    premises = ()
    if key is not None:
        used.add(key)
        premises = _names(value, f"{f}.{key}", where)
    _evidence(data, used)
    _check_keys(data, used, where)
    return Records(steps=(ProofStep(premises=premises, **{"id": None, **fields}),))


def _grounding(data: dict, used: set, where: dict, object_first: bool) -> Records:
    f = where["field"]
    skey, first = _pick(data, SOURCE_KEYS + EVIDENCE_KEYS)
    tkey, second = _pick({k: v for k, v in data.items() if k != skey}, TARGET_KEYS)
    if skey is None or tkey is None:
        raise RecordError("a grounding event needs a fragment and an object (from/to)",
                          value=data, **where)
    used |= {skey, tkey}
    _check_keys(data, used, where)
    first, second = _name(first, f"{f}.{skey}", where), _name(second, f"{f}.{tkey}", where)
    looks = [normalize_evidence_id(x) != x or x.startswith("E-") for x in (first, second)]
    if looks == [False, True] or (looks == [False, False] and object_first):
        first, second = second, first
    try:
        fragment = normalize_evidence_id(first)
    except ValueError as exc:
        raise RecordError(str(exc), field=f"{f}.{skey}", value=first, file=where["file"],
                          line=where["line"]) from None
    return Records(groundings=(Grounding(fragment, second),))


def _wrap(exc: ValidationError, where: dict) -> RecordError:
    error = exc.errors()[0]
    loc = ".".join(str(p) for p in error["loc"])
    return RecordError(error["msg"], field=f"{where['field']}.{loc}" if loc else where["field"],
                       value=error.get("input"), file=where["file"], line=where["line"])


def parse_records(records: Iterable, *, field: str = "raw_edges", file=None) -> Records:
    """Convert a batch of serialized records (TNF step ii).

    Parameters
    ----------
    records : iterable
        Records as accepted by :func:`parse_record`.
    field : str, optional
        Name of the batch, for error messages (``raw_edges.2.kind``).
    file : optional
        The file the batch came from.

    Returns
    -------
    Records

    Raises
    ------
    RecordError
        On the first malformed record, naming its index.

    Examples
    --------
    >>> r = parse_records(["r2 rebuts r1", {"event": "defeat", "by": "r3>r2"}])
    >>> len(r.attacks), len(r.claims)
    (1, 1)
    """
    if isinstance(records, (str, Mapping)):
        records = [records]
    out = Records()
    for i, record in enumerate(records):
        out = out + parse_record(record, field=f"{field}.{i}", file=file)
    return out
