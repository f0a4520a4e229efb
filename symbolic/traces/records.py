"""Serialized attack records and provenance events -> typed objects (TNF step ii,
docs/semantics.md section 12).

Assistants and annotators write attacks in many shapes.  This module turns
each record into the typed objects of :mod:`symbolic.scenario.model`:

- **attack records** -> :class:`~symbolic.scenario.model.AttackEdge`.  Accepted
  spellings: ``{"attacker": "r2", "attacked": "r1", "type": "rebuttal"}``,
  ``{"from": .., "to": .., "kind": ..}``, ``{"source": .., "target": ..}``,
  an event ``{"event": "attack", ...}`` or ``{"event": "rebuts", ...}``, a
  JSON object as text, or a sentence ``"r2 rebuts r1"``, ``"r2 -rebut-> r1"``,
  ``"r2 attacks r1 (undercut)"``.  A list target yields one edge per item.
- **priority records** -> :class:`~symbolic.scenario.model.Priority`:
  ``{"stronger": "r3", "weaker": "r2", "basis": "hierarchy"}``,
  ``{"priority": "r3 > r2", "basis": ..}`` or ``"r3 > r2 (hierarchy)"``.
  A priority needs a basis (Definition 3).
- **proof steps** -> :class:`ProofStep`: derivation events
  (``{"event": "derive", "id": "s3", "rule": "r1", "from": ["f1"],
  "conclusion": "Penalty(x)"}``).  They carry no normative content of their
  own: the engine rebuilds every derivation.  Their ids are *proof aliases*
  of the rule (or fact) they apply, and attack or priority records that name
  a step are resolved to it (:meth:`Records.resolved`).
- **grounding events** -> :class:`Grounding`: ``{"event": "grounds", "from":
  "E_01", "to": "f1"}`` or ``{"event": "grounded_in", "from": "f1", "to":
  "E-01"}``; TNF adds the fragment to the object's evidence.
- **claims** -> :class:`Claim`: events that restate a computed result
  (``defeat``, ``label``, ``status``...).  TNF recomputes them.

Unknown keys are an error (a misspelt ``"atacker"`` must not silently lose
the attacker), except for free-text and state keys that TNF recomputes
(``id``, ``note``, ``state``, ``defeated_by``, ``confidence``...).
"""

from __future__ import annotations

import json
from typing import Any, Iterable, Mapping

from pydantic import ValidationError

from symbolic.scenario.labels import normalize_basis, normalize_evidence_id
from symbolic.scenario.model import AttackEdge, Priority
from symbolic.traces.record_types import Claim, Grounding, ProofStep, RecordError, Records
from symbolic.traces.record_vocab import (
    ATTACK_EVENTS,
    BASIS_KEYS,
    CLAIM_EVENTS,
    CONCLUSION_KEYS,
    EVENT_KEYS,
    EVIDENCE_KEYS,
    GROUNDING_EVENTS,
    IGNORED_KEYS,
    KIND_KEYS,
    LIC_KEYS,
    OBJECT_FIRST_EVENTS,
    PREMISES_KEYS,
    PRIORITY_EVENTS,
    SOURCE_KEYS,
    STEP_EVENTS,
    STEP_FACT_KEYS,
    STEP_ID_KEYS,
    STEP_RULE_KEYS,
    STRONGER_KEYS,
    TARGET_KEYS,
    WEAKER_KEYS,
    is_attack_kind,
    normalize_attack_kind,
    normalize_key,
    text_record,
)

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
