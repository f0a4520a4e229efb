"""Deterministic repair of assistant output into the contract (paper Appendix A.8).

The pipeline, each step logged per case:

1. strip markdown fences;
2. extract the first balanced JSON object (prose around it removed; trailing
   commas and Python constants fixed; a truncated object is *not* completed);
3. map field aliases to the contract's names, drop unknown fields;
4. canonicalize the status label and normalize evidence ids (and literals);
5. convert attack records (through :func:`symbolic.traces.records.parse_record`, the
   TNF's own converter) and provenance events into typed edges;
6. reject trace edges without a valid cited-source path.

Output that cannot be repaired (no JSON object, truncated JSON, no readable
status) is a *hard failure*: :func:`repair_record` returns an
:class:`~scorer.contract.OutputRecord` that keeps the raw text and the reason
and that the scorer counts as incorrect.  Nothing is dropped.

Outputs JSONL files are read and written by :mod:`scorer.outputs_io`
(typed errors naming file, line, field and value), which repairs records
holding only raw text with :func:`repair_record`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Mapping

from pydantic import ValidationError

from symbolic.engine.grounding import ground
from symbolic.scenario.model import Analysis, TraceNode
from symbolic.traces.records import Records, parse_record

from .contract import CommonV1, OutputRecord, Rejected, TraceV2
from .repair_edges import reject_unsourced_edges, to_trace_edge
from .repair_fields import (
    COMMON_ALIASES,
    FieldRepairError,
    Log,
    canonical_status,
    normalize_ids,
    repair_bool,
    repair_conclusions,
    repair_diagnostics,
    repair_object,
    repair_uncertainty,
    short,
)
from .repair_text import TextRepairError, extract_json_object, strip_fences

__all__ = ["Repaired", "repair_output", "repair_record"]

# The outputs-file I/O lives in scorer.outputs_io; it is re-exported here.

_TYPED_ATTACK_KEYS = frozenset({"source", "target", "kind", "lic", "evidence"})
_TRACE_KEYS = ("facts", "rules", "attacks", "priorities", "nodes", "edges", "rejected",
               "diagnostics")


@dataclass(frozen=True, slots=True)
class Repaired:
    """The result of repairing one raw output.

    Attributes
    ----------
    common : CommonV1 or None
        ``None`` exactly when the repair failed.
    trace : TraceV2 or None
        ``None`` when the output carries no trace (or the repair failed).
    log : tuple of str
        Every repair applied, in order (``"<field>: <change>"``).
    failure : str or None
        Why the output is a hard failure.
    """

    common: CommonV1 | None
    trace: TraceV2 | None
    log: tuple[str, ...]
    failure: str | None = None

    @property
    def hard_failure(self) -> bool:
        """Whether the output could not be repaired."""
        return self.failure is not None


def _split_payload(payload: dict, log: Log) -> tuple[dict, dict | None]:
    """Split a decoded object into the common and trace sources.

    Layouts: nested ``{"common": {...}, "trace": {...}}`` or flat (common
    fields at the top); trace fields (``facts``, ``rules``...) found at the top
    level are collected into the trace.
    """
    common = payload.get("common")
    nested = isinstance(common, Mapping)
    if nested:
        common_src = dict(common)
        extra = sorted(k for k in payload if k not in ("common", "trace", "schema_version", *_TRACE_KEYS))
        if extra:
            log.add("output", "dropped unknown field(s) " + ", ".join(repr(k) for k in extra))
    else:
        common_src = {k: v for k, v in payload.items() if k not in _TRACE_KEYS and k != "trace"}
    trace = payload.get("trace")
    if isinstance(trace, Mapping):
        return common_src, dict(trace)
    if trace is not None:
        log.add("trace", f"dropped unreadable trace {short(trace)}")
    top = {k: payload[k] for k in _TRACE_KEYS if k in payload}
    if top:
        log.add("trace", "collected top-level field(s) " + ", ".join(sorted(top)))
    return common_src, top or None


def _repair_common(src: dict, package: frozenset[str], log: Log) -> CommonV1:
    fields: dict[str, Any] = {}
    used: set[str] = set()
    for field, names in COMMON_ALIASES.items():
        for name in names:
            if name in src and name not in used:
                used.add(name)
                if name != field:
                    log.add("common", f"renamed field {name!r} to {field!r}")
                fields[field] = src[name]
                break
    extra = sorted(str(k) for k in src if k not in used and k != "schema_version")
    if extra:
        log.add("common", "dropped unknown field(s) " + ", ".join(repr(k) for k in extra))
    if fields.get("final_status") is None:
        raise FieldRepairError("common.final_status: missing")
    fields["final_status"] = canonical_status(fields["final_status"], "common.final_status", log)
    if fields.get("evidence_ids") is not None:
        fields["evidence_ids"] = normalize_ids(fields["evidence_ids"], package, "common.evidence_ids", log)
    for key in ("conflict_detected", "priority_applied"):
        if fields.get(key) is not None:
            fields[key] = repair_bool(fields[key], f"common.{key}", log)
    if fields.get("uncertainty") is not None:
        fields["uncertainty"] = repair_uncertainty(fields["uncertainty"], "common.uncertainty", log)
    if fields.get("answer") is not None and not isinstance(fields["answer"], str):
        log.add("common.answer", f"dropped non-text answer {short(fields['answer'])}")
        fields["answer"] = None
    if fields.get("emitted_conclusions") is not None:
        fields["emitted_conclusions"] = repair_conclusions(
            fields["emitted_conclusions"], "common.emitted_conclusions", log)
    return CommonV1.model_validate({k: v for k, v in fields.items() if v is not None})


def _items(src: dict, key: str, log: Log) -> list:
    value = src.get(key)
    if value is None:
        return []
    if isinstance(value, Mapping):
        log.add(f"trace.{key}", "wrapped a single object in a list")
        return [value]
    if not isinstance(value, (list, tuple)):
        log.add(f"trace.{key}", f"dropped unreadable value {short(value)}")
        return []
    return list(value)


class _Rejections:
    """The objects a trace repair rejects, logged as they come."""

    def __init__(self, log: Log):
        self.items: list[Rejected] = []
        self.log = log

    def __call__(self, kind: str, ident: str, reason: str) -> None:
        self.items.append(Rejected(kind=kind, id=ident or "?", reason=reason))
        self.log.add("trace.rejected", f"{kind} {ident or '?'}: {reason}")


def _repair_objects(src: dict, package: frozenset[str], log: Log, reject: _Rejections) -> dict[str, list]:
    """Facts, rules and priorities, each validated on its own; duplicates rejected."""
    objects: dict[str, list] = {"facts": [], "rules": [], "priorities": []}
    seen: set[str] = set()
    for key, kind in (("facts", "fact"), ("rules", "rule"), ("priorities", "priority")):
        for i, item in enumerate(_items(src, key, log)):
            where = f"trace.{key}.{i}"
            if kind == "priority" and isinstance(item, str):
                try:
                    parsed = parse_record(item, field=where).priorities
                except ValueError as exc:
                    reject(kind, f"{key}.{i}", _first_line(exc))
                    continue
                log.add(where, f"converted priority text {short(item)} to a typed priority")
                item = parsed[0].model_dump(mode="json", exclude_none=True) if parsed else item
            try:
                obj = repair_object(kind, item, package, where, log)
            except FieldRepairError as exc:
                ident = item.get("id") if isinstance(item, Mapping) else None
                reject(kind, str(ident or f"{key}.{i}"), str(exc))
                continue
            if obj.id in seen:
                reject(kind, obj.id, f"{where}: duplicate id {obj.id!r}")
                continue
            seen.add(obj.id)
            objects[key].append(obj)
    return objects


def _repair_attacks(src: dict, package: frozenset[str], log: Log, reject: _Rejections,
                    priorities: list) -> list:
    """Attack records -> typed attack edges through :func:`symbolic.traces.records.parse_record`.

    Priorities found among the records are appended to ``priorities``.
    """
    records = Records()
    for i, item in enumerate(_items(src, "attacks", log)):
        try:
            parsed = parse_record(item, field=f"trace.attacks.{i}")
        except ValueError as exc:
            reject("attack", f"attacks.{i}", _first_line(exc))
            continue
        if not (isinstance(item, Mapping) and set(item) <= _TYPED_ATTACK_KEYS and "kind" in item):
            what = ", ".join(f"{len(v)} {k}" for k, v in (("attack edge(s)", parsed.attacks),
                                                           ("priority(ies)", parsed.priorities),
                                                           ("proof step(s)", parsed.steps),
                                                           ("claim(s)", parsed.claims)) if v)
            log.add(f"trace.attacks.{i}", f"converted record to typed objects: {what or 'nothing'}")
        records = records + parsed
    records = records.resolved()
    for claim in records.claims:
        log.add("trace.attacks", f"dropped claim {claim.event!r}: a computed result the engine recomputes")
    for prio in records.priorities:
        if prio.id in {p.id for p in priorities}:
            log.add("trace.attacks", f"dropped priority {prio.id} already listed in trace.priorities")
            continue
        priorities.append(_reground(prio, f"trace.priorities.{prio.id}", package, log))
    return [_reground(a, f"trace.attacks.{a.source}-{a.kind.value}->{a.target}", package, log)
            for a in records.attacks]


def _repair_graph(src: dict, log: Log, reject: _Rejections) -> tuple[list, list]:
    """Typed trace nodes, and trace edges from typed edges or provenance events."""
    nodes = []
    for i, item in enumerate(_items(src, "nodes", log)):
        try:
            nodes.append(TraceNode.model_validate(item))
        except (ValidationError, TypeError) as exc:
            reject("node", f"nodes.{i}", _first_line(exc))
    edges = []
    for i, item in enumerate(_items(src, "edges", log)):
        try:
            edge = to_trace_edge(item)
        except ValueError as exc:
            reject("edge", f"edges.{i}", _first_line(exc))
            continue
        if isinstance(item, Mapping) and item.get("type") != edge.type.value:
            log.add(f"trace.edges.{i}", f"converted provenance record to a typed {edge.type.value} edge")
        edges.append(edge)
    return nodes, edges


def _repair_trace(src: dict, package: frozenset[str], log: Log) -> TraceV2:
    reported: list[Rejected] = []
    for i, item in enumerate(_items(src, "rejected", log)):
        try:
            reported.append(Rejected.model_validate(item))
        except (ValidationError, TypeError) as exc:
            log.add(f"trace.rejected.{i}", f"dropped unreadable rejection record ({_first_line(exc)})")
    reject = _Rejections(log)
    objects = _repair_objects(src, package, log, reject)
    attacks = _repair_attacks(src, package, log, reject, objects["priorities"])
    nodes, edges = _repair_graph(src, log, reject)
    analysis = Analysis(facts=objects["facts"], rules=objects["rules"], attacks=attacks,
                        priorities=objects["priorities"])
    kept, dropped = reject_unsourced_edges(edges, theory=ground(package, analysis), nodes=nodes)
    for edge, reason in dropped:
        reject("edge", f"{edge.source}-{edge.type.value}->{edge.target}", reason)
    fields: dict[str, Any] = {"facts": objects["facts"], "rules": objects["rules"],
                              "attacks": attacks, "priorities": objects["priorities"],
                              "nodes": nodes, "edges": kept, "rejected": reported + reject.items}
    if src.get("emitted_conclusions") is not None:
        fields["emitted_conclusions"] = repair_conclusions(
            src["emitted_conclusions"], "trace.emitted_conclusions", log)
    if src.get("diagnostics") is not None:
        fields["diagnostics"] = repair_diagnostics(src["diagnostics"], "trace.diagnostics", log)
    known = set(_TRACE_KEYS) | {"emitted_conclusions", "schema_version"}
    extra = sorted(k for k in src if k not in known)
    if extra:
        log.add("trace", "dropped unknown field(s) " + ", ".join(repr(k) for k in extra))
    return TraceV2.model_validate({k: v for k, v in fields.items() if v is not None})


def _reground(obj, where: str, package: frozenset[str], log: Log):
    """``obj`` with its evidence ids matched against the package spelling."""
    ids = normalize_ids(list(obj.evidence), package, f"{where}.evidence", log)
    return obj if ids == obj.evidence else obj.model_copy(update={"evidence": ids})


def _first_line(exc: Exception) -> str:
    if isinstance(exc, ValidationError):
        err = exc.errors()[0]
        loc = ".".join(str(x) for x in err["loc"])
        return f"{loc}: {err['msg']}" if loc else err["msg"]
    return str(exc).splitlines()[0]


def repair_output(raw_text: str, *, evidence_ids: Iterable[str], case_id: str | None = None) -> Repaired:
    """Repair one raw assistant output into ``common-v1`` (and ``trace-v2``) payloads.

    Parameters
    ----------
    raw_text : str
        The model's raw text.
    evidence_ids : iterable of str
        Normalized ids of the case's evidence package.
    case_id : str, optional
        The case, for the failure reason.

    Returns
    -------
    Repaired
        Payloads and log; on a hard failure ``common`` and ``trace`` are
        ``None`` and ``failure`` says why.

    Examples
    --------
    >>> r = repair_output('```json\\n{"status": "Accepted", "evidence": ["E_1"]}\\n```',
    ...                   evidence_ids={"E-01"})
    >>> r.common.final_status.value, r.common.evidence_ids
    ('accepted', ('E-01',))
    >>> r.log
    ('stripped markdown fence (json)', "common: renamed field 'status' to 'final_status'", "common: renamed field 'evidence' to 'evidence_ids'", "common.final_status: 'Accepted' -> 'accepted'", "common.evidence_ids: 'E_1' -> 'E-01'")
    >>> repair_output('{"final_status": "both", "evidence_ids": ["E-0', evidence_ids={"E-01"}).failure
    'truncated JSON: unterminated string'
    """
    package = frozenset(evidence_ids)
    log = Log()
    prefix = f"case {case_id}: " if case_id else ""
    if not isinstance(raw_text, str):
        return Repaired(None, None, (), f"{prefix}raw output is not text ({type(raw_text).__name__})")
    try:
        text, fence_log = strip_fences(raw_text)
        log.extend(fence_log)
        payload, text_log = extract_json_object(text)
        log.extend(text_log)
        common_src, trace_src = _split_payload(payload, log)
        common = _repair_common(common_src, package, log)
        trace = None if trace_src is None else _repair_trace(trace_src, package, log)
    except (TextRepairError, FieldRepairError) as exc:
        return Repaired(None, None, tuple(log), f"{prefix}{exc}")
    except ValidationError as exc:
        return Repaired(None, None, tuple(log), f"{prefix}{_first_line(exc)}")
    return Repaired(common, trace, tuple(log))


def repair_record(raw_text: str, *, evidence_ids: Iterable[str], case_id: str, configuration: str,
                  model: str, variant: str | None = None, repeat: int = 0,
                  **meta: Any) -> OutputRecord:
    """Repair one raw output and wrap it in an :class:`~scorer.contract.OutputRecord`.

    Parameters
    ----------
    raw_text : str
        The model's raw text (kept in ``meta.raw_text``).
    evidence_ids : iterable of str
        Ids of the case's evidence package.
    case_id, configuration, model : str
        The run cell.
    variant : str, optional
    repeat : int
    **meta
        Further :class:`~scorer.contract.RunMeta` fields (``prompt_tokens``,
        ``completion_tokens``, ``latency_ms``, ``calls``).

    Returns
    -------
    OutputRecord
        A hard-failure record when the output cannot be repaired.

    Examples
    --------
    >>> rec = repair_record("I think it is accepted, but no JSON.", evidence_ids={"E-01"},
    ...                     case_id="c1", configuration="direct", model="m")
    >>> rec.meta.hard_failure, rec.meta.failure_reason, rec.meta.raw_text[:9]
    (True, 'case c1: no JSON object in the output', 'I think i')
    """
    result = repair_output(raw_text, evidence_ids=evidence_ids, case_id=case_id)
    cell = dict(case_id=case_id, configuration=configuration, model=model, variant=variant,
                repeat=repeat)
    raw = raw_text if isinstance(raw_text, str) else repr(raw_text)
    if result.hard_failure:
        return OutputRecord.failure(raw_text=raw, reason=result.failure, repair_log=result.log,
                                    **cell, **meta)
    return OutputRecord(common=result.common, trace=result.trace,
                        meta=dict(raw_text=raw, repair_log=result.log, **meta), **cell)
