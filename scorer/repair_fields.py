"""Field-level deterministic repair (paper Appendix A.8, steps 3-4).

Canonical field names, evidence ids, status labels, booleans, literals and the
normative objects of a trace.  Every change is appended to a log as
``"<field path>: <what changed>"``.  An optional field whose value cannot be
read is dropped (and logged), never guessed; an unreadable *status* raises
:class:`FieldRepairError`, which the pipeline turns into a hard failure.
"""

from __future__ import annotations

import re
from typing import Any, Iterable, Mapping

from pydantic import ValidationError

from symbolic.scenario.labels import normalize_evidence_id, normalize_status
from symbolic.scenario.literals import normalize_literal
from symbolic.scenario.model import DefectClass, Fact, Priority, Rule

__all__ = [
    "COMMON_ALIASES",
    "FieldRepairError",
    "Log",
    "canonical_status",
    "normalize_ids",
    "repair_bool",
    "repair_conclusions",
    "repair_diagnostics",
    "repair_object",
    "repair_uncertainty",
    "short",
]

COMMON_ALIASES = {
    "final_status": ("final_status", "status", "final_label", "label", "verdict", "answer_status"),
    "evidence_ids": ("evidence_ids", "evidence", "cited_evidence", "citations", "evidence_used",
                     "cited_ids", "sources"),
    "conflict_detected": ("conflict_detected", "conflict", "has_conflict", "contradiction_detected"),
    "priority_applied": ("priority_applied", "priority_used", "applied_priority"),
    "uncertainty": ("uncertainty",),
    "answer": ("answer", "answer_text", "response"),
    "emitted_conclusions": ("emitted_conclusions", "conclusions"),
}

_EVIDENCE_KEYS = ("evidence", "evidence_ids", "sources", "cites", "citations", "source_ids")
_OBJECT_ALIASES = {
    "fact": {"id": ("id", "fact_id", "name"),
             "literal": ("literal", "statement", "atom", "proposition", "fact"),
             "evidence": _EVIDENCE_KEYS, "span": ("span",)},
    "rule": {"id": ("id", "rule_id", "name"),
             "antecedents": ("antecedents", "antecedent", "if", "conditions", "body", "premises"),
             "consequent": ("consequent", "then", "head", "conclusion"),
             "kind": ("kind", "rule_type", "type"),
             "evidence": _EVIDENCE_KEYS, "span": ("span",)},
    "priority": {"stronger": ("stronger", "higher", "superior", "winner", "prevails"),
                 "weaker": ("weaker", "lower", "inferior", "loser", "over"),
                 "basis": ("basis", "reason", "kind", "type"),
                 "evidence": _EVIDENCE_KEYS, "note": ("note", "justification")},
}
_MODELS = {"fact": Fact, "rule": Rule, "priority": Priority}
_PRIORITY_TEXT = re.compile(r"^\s*([^\s<>]+)\s*(>|<)\s*([^\s<>]+)\s*$")
_CANONICAL_WORDS = {"accepted", "rejected", "both", "undecidable"}
_NEGATIONS = {"not", "neither", "nor", "non"}
_TRUE = {"true", "yes", "y", "1"}
_FALSE = {"false", "no", "n", "0"}
_DEFECT_ALIASES = {"no_defect": DefectClass.NONE, "null": DefectClass.NONE, "": DefectClass.NONE,
                   "clean": DefectClass.NONE, "missing_attack": DefectClass.ATTACK_DELETION,
                   "deleted_attack": DefectClass.ATTACK_DELETION,
                   "inverted_priority": DefectClass.PRIORITY_INVERSION}


class FieldRepairError(ValueError):
    """A required field cannot be repaired; the message is the failure reason."""


class Log(list):
    """The ordered repair log of one output."""

    def add(self, where: str, what: str) -> None:
        """Record one repair at a field path."""
        self.append(f"{where}: {what}")


def short(value: Any, width: int = 60) -> str:
    """``repr`` cut to ``width`` characters, for log lines.

    >>> short("x" * 100, 10)
    "'xxxxxxxx…"
    """
    text = repr(value)
    return text if len(text) <= width else text[: width - 1] + "\u2026"


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z]+", text.lower())


def canonical_status(value: Any, where: str, log: Log) -> str:
    """Canonicalize a status label or raise :class:`FieldRepairError`.

    Accepts any spelling :func:`symbolic.scenario.labels.normalize_status` knows, the
    same wrapped in punctuation or markdown, ``{"label": ...}`` objects, and
    text naming exactly one of the four canonical labels with no negation
    word.  Anything else is refused rather than guessed.

    Examples
    --------
    >>> log = Log()
    >>> canonical_status("**Both.**", "common.final_status", log), log
    ('both', ["common.final_status: '**Both.**' -> 'both'"])
    >>> canonical_status("The status is accepted", "s", Log())
    'accepted'
    >>> canonical_status("not accepted", "s", Log())
    Traceback (most recent call last):
    ...
    scorer.repair_fields.FieldRepairError: s: unrecognized status label 'not accepted'
    """
    if isinstance(value, Mapping):
        for key in ("label", "status", "value"):
            if key in value:
                return canonical_status(value[key], where, log)
    if not isinstance(value, str):
        raise FieldRepairError(f"{where}: status must be a string, got {short(value)}")
    try:
        status = normalize_status(value).value
    except ValueError:
        status = None
    if status is None:
        stripped = value.strip().strip("*_`'\".,;:!()[] \t\n")
        try:
            status = normalize_status(stripped).value
        except ValueError:
            words = _words(value)
            named = {w for w in words if w in _CANONICAL_WORDS}
            if len(named) == 1 and not _NEGATIONS.intersection(words):
                status = named.pop()
    if status is None:
        raise FieldRepairError(f"{where}: unrecognized status label {short(value)}")
    if status != value:
        log.add(where, f"{short(value)} -> {status!r}")
    return status


def normalize_ids(values: Any, package: Iterable[str], where: str, log: Log) -> tuple[str, ...]:
    """Normalize cited evidence ids against the package.

    Spellings ``E_01``, ``e1``, ``Evidence 1``, bare numbers (when ``E-NN``
    is in the package) and case variants of package ids are mapped to the
    package's spelling; duplicates are removed; blanks and non-ids dropped.
    Ids absent from the package are kept (grounding reports them).

    Examples
    --------
    >>> log = Log()
    >>> normalize_ids(["E_01", 3, "e01", "X-9"], {"E-01", "E-03"}, "common.evidence_ids", log)
    ('E-01', 'E-03', 'X-9')
    >>> log[1]
    "common.evidence_ids: 3 -> 'E-03'"
    """
    package = set(package)
    by_lower = {p.lower(): p for p in package}
    items = [values] if isinstance(values, (str, int)) and not isinstance(values, bool) else values
    if not isinstance(items, (list, tuple)):
        log.add(where, f"dropped unreadable evidence list {short(values)}")
        return ()
    out: list[str] = []
    for i, item in enumerate(items):
        if isinstance(item, bool) or not isinstance(item, (str, int)):
            log.add(f"{where}.{i}", f"dropped non-id {short(item)}")
            continue
        text = str(item).strip()
        if not text:
            log.add(f"{where}.{i}", "dropped blank id")
            continue
        new = normalize_evidence_id(f"E-{text}" if text.isdigit() else text)
        if new not in package and new.lower() in by_lower:
            new = by_lower[new.lower()]
        if text.isdigit() and new not in package:
            new = text
        if new != item:
            log.add(where, f"{short(item)} -> {new!r}")
        if new in out:
            log.add(where, f"dropped duplicate id {new!r}")
            continue
        out.append(new)
    return tuple(out)


def repair_bool(value: Any, where: str, log: Log) -> bool | None:
    """A boolean from ``true``/``"yes"``/``"false"``...; ``None`` (dropped) otherwise.

    >>> repair_bool("Yes", "c", Log()), repair_bool("maybe", "c", Log())
    (True, None)
    """
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in _TRUE | _FALSE:
        result = value.strip().lower() in _TRUE
        log.add(where, f"{short(value)} -> {str(result).lower()}")
        return result
    log.add(where, f"dropped unreadable boolean {short(value)}")
    return None


def repair_uncertainty(value: Any, where: str, log: Log) -> float | None:
    """A number in ``[0, 1]``; a percentage string ``"20%"`` is divided by 100.

    Words (``"high"``) and numbers outside ``[0, 1]`` are dropped, not mapped.

    >>> repair_uncertainty("20%", "u", Log()), repair_uncertainty("high", "u", Log())
    (0.2, None)
    """
    if isinstance(value, (int, float)) and not isinstance(value, bool) and 0 <= value <= 1:
        return float(value)
    if isinstance(value, str):
        text = value.strip()
        try:
            number = float(text[:-1]) / 100 if text.endswith("%") else float(text)
        except ValueError:
            number = None
        if number is not None and 0 <= number <= 1:
            log.add(where, f"{short(value)} -> {number!r}")
            return number
    log.add(where, f"dropped uncertainty {short(value)}: not a number in [0, 1]")
    return None


def repair_conclusions(value: Any, where: str, log: Log) -> tuple[str, ...] | None:
    """Normalized literals from a list of strings or ``{"literal": ...}`` objects.

    >>> repair_conclusions(["not Penalty( x )", {"literal": "Delay(x)"}, 7], "c", Log())
    ('¬Penalty(x)', 'Delay(x)')
    """
    items = [value] if isinstance(value, str) else value
    if not isinstance(items, (list, tuple)):
        log.add(where, f"dropped unreadable conclusions {short(value)}")
        return None
    out: list[str] = []
    for i, item in enumerate(items):
        if isinstance(item, Mapping):
            item = item.get("literal", item.get("conclusion"))
        try:
            literal = normalize_literal(item)
        except ValueError:
            log.add(f"{where}.{i}", f"dropped non-literal {short(item)}")
            continue
        if literal not in out:
            out.append(literal)
    return tuple(out)


def _rename(record: Mapping, aliases: Mapping[str, tuple[str, ...]], where: str,
            log: Log) -> dict[str, Any]:
    out: dict[str, Any] = {}
    used: set[str] = set()
    for field, names in aliases.items():
        for name in names:
            if name in record and name not in used:
                used.add(name)
                if name != field:
                    log.add(where, f"renamed field {name!r} to {field!r}")
                out[field] = record[name]
                break
    extra = sorted(str(k) for k in record if k not in used and k != "schema_version")
    if extra:
        log.add(where, "dropped unknown field(s) " + ", ".join(repr(k) for k in extra))
    return out


def _split_antecedents(value: Any, where: str, log: Log) -> Any:
    if isinstance(value, str):
        parts = [p.strip() for p in re.split(r"\u2227|&", value) if p.strip()]
        if len(parts) > 1:
            log.add(where, f"split {short(value)} on a conjunction sign")
        return parts
    return value


def repair_object(kind: str, record: Any, package: Iterable[str], where: str,
                  log: Log):
    """Repair and validate one fact, rule or priority record.

    Returns the validated :mod:`symbolic.scenario.model` object.

    Raises
    ------
    FieldRepairError
        When the object stays invalid (the caller records it as rejected).

    Examples
    --------
    >>> log = Log()
    >>> r = repair_object("rule", {"id": "r1", "if": "Delay(x)", "then": "Penalty(x)",
    ...                            "type": "Defeasible", "sources": ["E_2"]}, {"E-02"}, "trace.rules.0", log)
    >>> r.antecedents, r.kind.value, r.evidence
    (('Delay(x)',), 'defeasible', ('E-02',))
    >>> repair_object("priority", "r3 > r2", {"E-01"}, "p", Log())
    Traceback (most recent call last):
    ...
    scorer.repair_fields.FieldRepairError: p: priority r3>r2 has no basis
    """
    if kind == "priority" and isinstance(record, str):
        match = _PRIORITY_TEXT.match(record)
        if not match:
            raise FieldRepairError(f"{where}: unreadable priority {short(record)}")
        a, op, b = match.groups()
        stronger, weaker = (a, b) if op == ">" else (b, a)
        raise FieldRepairError(f"{where}: priority {stronger}>{weaker} has no basis")
    if not isinstance(record, Mapping):
        raise FieldRepairError(f"{where}: expected an object, got {short(record)}")
    fields = _rename(record, _OBJECT_ALIASES[kind], where, log)
    if "evidence" in fields:
        fields["evidence"] = normalize_ids(fields["evidence"], package, f"{where}.evidence", log)
    if kind == "rule":
        if "antecedents" in fields:
            fields["antecedents"] = _split_antecedents(fields["antecedents"], f"{where}.antecedents", log)
        if isinstance(fields.get("kind"), str) and fields["kind"] != fields["kind"].strip().lower():
            log.add(f"{where}.kind", f"{short(fields['kind'])} -> {fields['kind'].strip().lower()!r}")
            fields["kind"] = fields["kind"].strip().lower()
    if kind == "priority" and "basis" not in fields:
        ident = f"{fields.get('stronger')}>{fields.get('weaker')}"
        raise FieldRepairError(f"{where}: priority {ident} has no basis")
    try:
        return _MODELS[kind].model_validate(fields)
    except ValidationError as exc:
        err = exc.errors()[0]
        loc = ".".join(str(x) for x in err["loc"])
        raise FieldRepairError(f"{where}{'.' + loc if loc else ''}: {err['msg']}") from None


def repair_diagnostics(value: Any, where: str, log: Log) -> dict | None:
    """A diagnostics dict with a canonical defect class; ``None`` (dropped) if unreadable.

    >>> repair_diagnostics({"defect": "Priority inversion", "where": "r3>r2"}, "d", Log())
    {'defect_class': 'priority_inversion', 'location': 'r3>r2'}
    """
    if not isinstance(value, Mapping):
        log.add(where, f"dropped unreadable diagnostics {short(value)}")
        return None
    fields = _rename(value, {"defect_class": ("defect_class", "defect", "class", "defect_type", "type"),
                             "location": ("location", "defect_location", "where", "object", "at"),
                             "explanation": ("explanation", "reason", "note")}, where, log)
    raw = fields.get("defect_class")
    label = "null" if raw is None else "_".join(str(raw).strip().lower().replace("-", " ").split())
    try:
        cls = DefectClass(label)
    except ValueError:
        cls = _DEFECT_ALIASES.get(label)
    if cls is None:
        log.add(where, f"dropped diagnostics with unknown defect class {short(raw)}")
        return None
    if cls.value != raw:
        log.add(f"{where}.defect_class", f"{short(raw)} -> {cls.value!r}")
    fields["defect_class"] = cls.value
    for key in ("location", "explanation"):
        if key in fields and fields[key] is not None and not isinstance(fields[key], str):
            log.add(f"{where}.{key}", f"dropped non-text value {short(fields[key])}")
            del fields[key]
    return {k: v for k, v in fields.items() if v is not None}
