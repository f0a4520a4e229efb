"""Import the public peer corpus format (thecontrey/neuro_symbolic) as scenarios; the mapping is
docs/semantics.md section 9: source units become fragments ``E-01``... (original id kept as the tag
``peer_source_unit:<id>``), the fact table one last synthetic fragment grounding each ``true``
literal, rules and priorities map one to one (a cited source that is no source unit is kept as
``peer:<id>``, hence dropped as ungrounded; a free-text basis goes through :func:`peer_basis` and is
kept in ``Priority.note``), and the gold status is the engine's, stored only if it projects
(:data:`PEER_PROJECTION`) to the peer's label, else :class:`PeerLabelMismatch`.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Mapping

from pydantic import ValidationError

from symbolic.suites._jsonread import DEFAULT_MAX_FILE_BYTES, DEFAULT_MAX_LINE_BYTES, scan_json_records
from symbolic.errors import ScenarioError
from symbolic.scenario.labels import Basis, RuleKind, Status, normalize_basis, normalize_status
from symbolic.scenario.literals import complement, normalize_literal
from symbolic.scenario.model import EvidenceFragment, Fact, Gold, Metadata, Priority, Rule, Scenario

__all__ = [
    "PEER_LABELS",
    "PEER_PROJECTION",
    "PeerLabelMismatch",
    "import_peer_file",
    "import_peer_record",
    "peer_basis",
    "project_status",
]

PEER_LABELS = ("Positive", "Negative", "Undetermined")
PEER_PROJECTION: Mapping[Status, str] = MappingProxyType({
    Status.ACCEPTED: "Positive",
    Status.REJECTED: "Negative",
    Status.BOTH: "Undetermined",
    Status.UNDECIDABLE: "Negative",
})

_BASIS_WORDS = (
    (Basis.EXCEPTION, ("exception", "waiver", "waive", "defeater", "proviso", "carve", "unless",
                       "override", "procedural")),
    (Basis.HIERARCHY, ("hierarch", "superior", "higher", "statut", "mandatory", "constitution",
                       "regulation", "law")),
    (Basis.SPECIFICITY, ("specific", "special")),
    (Basis.TEMPORAL, ("later", "temporal", "posterior", "recent", "amend", "supersed", "newer")),
    (Basis.AUTHORITY, ("authorit",)),
)


class PeerLabelMismatch(ScenarioError):
    """The engine's status of a peer record does not project to the record's gold label."""


def project_status(status) -> str:
    """The three-valued peer label of a four-valued status in any spelling (docs/semantics.md section 9).

    Raises
    ------
    ValueError
        If ``status`` names no status.

    Examples
    --------
    >>> [project_status(s) for s in ("accepted", "rejected", "both", "undecidable")]
    ['Positive', 'Negative', 'Undetermined', 'Negative']
    """
    return PEER_PROJECTION[normalize_status(status)]


def peer_basis(text) -> Basis:
    """Map a free-text priority basis onto one of the five bases.

    A canonical spelling (:func:`~symbolic.scenario.labels.normalize_basis`) wins; then
    the first keyword group that matches, in the order exception, hierarchy,
    specificity, temporal, authority; anything else is an exception, the
    commonest reason a contract ranks one clause over another.

    Examples
    --------
    >>> [peer_basis(t).value for t in ("exception over general rule", "contractual waiver",
    ...                                "lex superior", "later amendment", "")]
    ['exception', 'exception', 'hierarchy', 'temporal', 'exception']
    """
    try:
        return normalize_basis(text)
    except ValueError:
        pass
    words = str(text).lower() if text is not None else ""
    for basis, keys in _BASIS_WORDS:
        if any(key in words for key in keys):
            return basis
    return Basis.EXCEPTION


def _fail(message, record_id, *, file, line, field=None, value=None, cls=ScenarioError):
    prefix = f"peer record {record_id!r}: " if record_id else "peer record: "
    return cls(prefix + message, file=file, line=line, field=field, value=value)


def _build(cls, data, record_id, *, file, line, field):
    try:
        return cls.model_validate(data)
    except ValidationError as exc:
        err = exc.errors(include_url=False)[0]
        sub = ".".join(str(part) for part in err["loc"])
        msg = err["msg"].removeprefix("Value error, ")
        raise _fail(f"{msg}; got {err.get('input')!r}"[:300], record_id, file=file, line=line,
                    field=".".join(part for part in (field, sub) if part) or None,
                    value=err.get("input")) from None


def _text(record, key, record_id, *, file, line, required=True):
    value = record.get(key)
    if value is None and not required:
        return None
    if not isinstance(value, str) or not value.strip():
        raise _fail(f"{key} must be a non-empty string, got {value!r}", record_id,
                    file=file, line=line, field=key, value=value)
    return value


def _list(record, key, record_id, *, file, line):
    value = record.get(key, [])
    if not isinstance(value, list):
        raise _fail(f"{key} must be an array, got {value!r}", record_id, file=file, line=line,
                    field=key, value=value)
    for i, item in enumerate(value):
        if not isinstance(item, dict):
            raise _fail(f"{key}.{i} must be an object, got {item!r}", record_id, file=file,
                        line=line, field=f"{key}.{i}", value=item)
    return value


def _evidence(record, record_id, *, file, line):
    units = _list(record, "source_units", record_id, file=file, line=line)
    fragments, ids = [], {}
    for i, unit in enumerate(units):
        where = dict(file=file, line=line, field=f"source_units.{i}")
        unit_id = unit.get("source_unit_id")
        if not isinstance(unit_id, str) or not unit_id.strip():
            raise _fail(f"source unit {i} has no source_unit_id", record_id, value=unit_id, **where)
        if unit_id in ids:
            raise _fail(f"duplicate source_unit_id {unit_id!r}", record_id, value=unit_id, **where)
        ids[unit_id] = f"E-{i + 1:02d}"
        fragments.append(_build(EvidenceFragment, dict(
            id=ids[unit_id], text=unit.get("text"), source=unit.get("doc_id") or unit_id,
            clause=unit.get("path"), span=unit.get("span"), tags=(f"peer_source_unit:{unit_id}",),
        ), record_id, **where))
    return fragments, ids


def _facts(record, record_id, fact_fragment, *, file, line):
    table = record.get("facts", {})
    if not isinstance(table, dict):
        raise _fail(f"facts must be an object of literal -> boolean, got {table!r}", record_id,
                    file=file, line=line, field="facts", value=table)
    facts, rows = [], []
    for literal, value in table.items():
        if not isinstance(value, bool):
            raise _fail(f"fact {literal!r} must be true or false, got {value!r}", record_id,
                        file=file, line=line, field=f"facts.{literal}", value=value)
        rows.append(f"{literal} = {'true' if value else 'false'}")
        if value:
            facts.append(_build(Fact, dict(id=f"f{len(facts) + 1}", literal=literal, evidence=(fact_fragment,)),
                                record_id, file=file, line=line, field=f"facts.{literal}"))
    text = (f"SYNTHETIC FRAGMENT: the fact table of peer record {record_id}. The peer format gives facts "
            "no source link, so every fact is grounded here. Table: " + ("; ".join(rows) or "(empty)") + ".")
    return facts, text


def _cite(source, ids):
    if source is None or (isinstance(source, str) and not source.strip()):
        return ()
    if isinstance(source, str) and source in ids:
        return (ids[source],)
    return (f"peer:{str(source).strip()}",)


def _rules(record, record_id, ids, *, file, line):
    rules = []
    for i, rule in enumerate(_list(record, "rules", record_id, file=file, line=line)):
        kind = rule.get("type", "defeasible")
        if not isinstance(kind, str) or kind not in {k.value for k in RuleKind}:
            raise _fail(f"rule type {kind!r} is not strict, defeasible or defeater", record_id,
                        file=file, line=line, field=f"rules.{i}.type", value=kind)
        rules.append(_build(Rule, dict(id=rule.get("id"), antecedents=rule.get("antecedents", ()),
                                       consequent=rule.get("consequent"), kind=kind,
                                       evidence=_cite(rule.get("source"), ids)),
                            record_id, file=file, line=line, field=f"rules.{i}"))
    return rules


def _priorities(record, record_id, ids, *, file, line):
    out = []
    for i, pri in enumerate(_list(record, "priorities", record_id, file=file, line=line)):
        basis = pri.get("basis")
        out.append(_build(Priority, dict(stronger=pri.get("stronger"), weaker=pri.get("weaker"),
                                         basis=peer_basis(basis), evidence=_cite(pri.get("source"), ids),
                                         note=basis if isinstance(basis, str) and basis.strip() else None),
                          record_id, file=file, line=line, field=f"priorities.{i}"))
    return out


def _peer_label(record, record_id, *, file, line):
    label = record.get("gold_label")
    if label is None:
        return None
    for known in PEER_LABELS:
        if isinstance(label, str) and label.strip().lower() == known.lower():
            return known
    raise _fail(f"gold_label {label!r} is not Positive, Negative or Undetermined", record_id,
                file=file, line=line, field="gold_label", value=label)


def _contradiction(facts, rules) -> bool:
    conclusions = {f.literal for f in facts} | {r.consequent for r in rules}
    return any(complement(c) in conclusions for c in conclusions)


def import_peer_record(record: dict, *, file=None, line=None) -> Scenario:
    """Convert one peer corpus record into a scenario (docs/semantics.md section 9).

    ``record`` is a decoded peer record (``case_id``, ``query``, ``target_literal``, ``source_units``,
    ``facts``, ``rules``, ``priorities``, ``gold_label``); ``file`` and ``line`` are for messages.

    Raises
    ------
    ScenarioError
        If the record is malformed (naming the field and value).
    PeerLabelMismatch
        If the engine's status does not project to the record's gold label.

    Examples
    --------
    >>> rec = {"case_id": "P1", "query": "Penalty?", "target_literal": "Penalty(x)",
    ...        "source_units": [{"source_unit_id": "SU1", "doc_id": "D", "text": "clause 1"}],
    ...        "facts": {"Delay(x)": True, "ForceMajeure(x)": False},
    ...        "rules": [{"id": "r1", "antecedents": ["Delay(x)"], "consequent": "Penalty(x)",
    ...                   "type": "defeasible", "source": "SU1"}],
    ...        "priorities": [], "gold_label": "Positive"}
    >>> s = import_peer_record(rec)
    >>> s.gold.status.value, [f.id for f in s.evidence], s.gold.facts[0].evidence
    ('accepted', ['E-01', 'E-02'], ('E-02',))
    """
    from symbolic.engine.status import evaluate_analysis

    file = None if file is None else str(file)
    if not isinstance(record, dict):
        raise ScenarioError(f"a peer record must be a JSON object, got {record!r}"[:200], file=file,
                            line=line, value=record)
    record_id = _text(record, "case_id", None, file=file, line=line)
    where = dict(file=file, line=line)
    target = _text(record, "target_literal", record_id, **where)
    query = _text(record, "query", record_id, required=False, **where) or f"What is the status of {target}?"
    try:
        target = normalize_literal(target)
    except ValueError as exc:
        raise _fail(str(exc), record_id, field="target_literal", value=target, **where) from None
    evidence, ids = _evidence(record, record_id, **where)
    fact_fragment = f"E-{len(evidence) + 1:02d}"
    facts, table_text = _facts(record, record_id, fact_fragment, **where)
    evidence.append(EvidenceFragment(id=fact_fragment, text=table_text, source=f"peer record {record_id}",
                                     clause="facts", tags=("synthetic", "peer_fact_table")))
    rules = _rules(record, record_id, ids, **where)
    priorities = _priorities(record, record_id, ids, **where)
    label = _peer_label(record, record_id, **where)
    tags = [f"peer_id:{record_id}"] + ([f"peer_label:{label}"] if label else [])
    tags += [f"peer_{key}:{record[key]}" for key in ("dataset", "tier", "phenomenon")
             if isinstance(record.get(key), (str, int)) and not isinstance(record.get(key), bool)]
    try:
        draft = Gold(status=Status.UNDECIDABLE, facts=facts, rules=rules, priorities=priorities)
    except ValidationError as exc:
        err = exc.errors(include_url=False)[0]
        raise _fail(err["msg"].removeprefix("Value error, "), record_id, **where) from None
    status = evaluate_analysis(frozenset(f.id for f in evidence), draft, target).status
    if label is not None and PEER_PROJECTION[status] != label:
        raise _fail(f"the engine computes {status.value}, which projects to {PEER_PROJECTION[status]},"
                    f" but the record's gold label is {label}", record_id, field="gold_label",
                    value=label, cls=PeerLabelMismatch, **where)
    metadata = Metadata(priority=bool(priorities), contradiction=_contradiction(facts, rules), tags=tuple(tags))
    try:
        return Scenario(id=record_id, query=query, target=target, evidence=evidence,
                        gold=draft.model_copy(update={"status": status}), metadata=metadata)
    except ValidationError as exc:
        err = exc.errors(include_url=False)[0]
        field = {"id": "case_id", "query": "query"}.get(str(err["loc"][0]) if err["loc"] else "", None)
        raise _fail(f"{err['msg'].removeprefix('Value error, ')}; got {err.get('input')!r}"[:300], record_id,
                    field=field, value=err.get("input"), **where) from None


def import_peer_file(path, *, max_line_bytes: int = DEFAULT_MAX_LINE_BYTES,
                     max_file_bytes: int = DEFAULT_MAX_FILE_BYTES) -> list[Scenario]:
    """Import every record of a peer JSONL file (or ``.json`` array), with the size limits of
    :func:`symbolic.suites.io.load_suite`.

    Raises
    ------
    ScenarioError
        At the first malformed record, duplicate case id, or an empty file.
    PeerLabelMismatch
        If a record's engine status does not project to its gold label.

    Examples
    --------
    >>> import_peer_file("/nonexistent/peer.jsonl")
    Traceback (most recent call last):
    ...
    symbolic.errors.ScenarioError: /nonexistent/peer.jsonl: no such file
    """
    file = str(path)
    scenarios, first = [], {}
    for line, value in scan_json_records(path, max_line_bytes=max_line_bytes, max_file_bytes=max_file_bytes):
        scenario = import_peer_record(value, file=file, line=line)
        if scenario.id in first:
            raise ScenarioError(f"duplicate case_id {scenario.id!r} (first used at line {first[scenario.id]})",
                                file=file, line=line, field="case_id", value=scenario.id)
        first[scenario.id] = line
        scenarios.append(scenario)
    if not scenarios:
        raise ScenarioError("no peer records (the file is empty or holds only blank lines)", file=file)
    return scenarios

