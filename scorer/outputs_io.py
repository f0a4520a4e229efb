"""Reading and writing outputs JSONL files (one :class:`~scorer.contract.OutputRecord`
a line), with typed errors naming file, line, field and value.

A run's own log (``runs/<name>/results.jsonl``: one record a line holding the
case's ``key``, its ``outcome`` and the ``output``) reads too: the latest
record of each case counts (a retried case has several), and a case whose
latest outcome is an infrastructure error or a token/time limit has no model
answer, so it is not scored (:data:`NOT_ANSWERED`), as in the runner.

Re-exported by :mod:`scorer.repair`.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any, Iterable, Mapping

from pydantic import ValidationError

from symbolic.suites._jsonread import scan_json_records as scan_records
from symbolic.errors import ScenarioError
from symbolic.support.fsio import write_atomic

from .contract import OutputRecord
from .errors import OutputFileError
from .repair_fields import short

__all__ = ["NOT_ANSWERED", "dump_outputs", "load_outputs"]

#: Outcomes of a run log's records that carry no model answer (the runner's
#: ``experiments.runner.engine.NOT_SCORED``): never scored, never a failure.
NOT_ANSWERED = ("infra_error", "limit")
_LOG_FIELDS = ("key", "outcome", "output")


def _validation_error(exc: ValidationError, file: str, line: int, record: Any) -> OutputFileError:
    err = exc.errors()[0]
    loc = ".".join(str(x) for x in err["loc"])
    msg = err["msg"]
    for prefix in ("Value error, ", "Assertion failed, "):
        msg = msg.removeprefix(prefix)
    if err["type"] == "missing":
        msg = "missing required field"
    elif err["type"] == "extra_forbidden":
        msg = f"unknown field {str(err['loc'][-1])!r}"
    value = err.get("input") if err["type"] != "missing" else None
    shown = "" if value is None or isinstance(value, Mapping) else f" (got {short(value)})"
    return OutputFileError(msg + shown, file=file, line=line, field=loc or None, value=value)


_RAW_META = ("prompt_tokens", "completion_tokens", "latency_ms", "calls")


def _is_raw(value: dict) -> bool:
    """A line with a run cell and ``meta.raw_text`` but no payload: still to be repaired."""
    meta = value.get("meta")
    return (value.get("common") is None and value.get("trace") is None and isinstance(meta, Mapping)
            and isinstance(meta.get("raw_text"), str) and not meta.get("hard_failure")
            and not meta.get("repair_log"))


def _repair_raw(value: dict, evidence, file: str, line: int) -> OutputRecord:
    from .repair import repair_record

    if evidence is None:
        raise OutputFileError("record has raw_text but no common payload; repairing it needs the suite",
                              file=file, line=line, field="common")
    case_id = value.get("case_id")
    if case_id not in evidence:
        raise OutputFileError(f"raw output for case {case_id!r}, which is not in the suite", file=file,
                              line=line, field="case_id", value=case_id)
    meta = value["meta"]
    extra = sorted(set(value) - {"schema_version", "case_id", "configuration", "model", "variant", "repeat",
                                 "meta", "common", "trace"})
    extra += [f"meta.{k}" for k in sorted(set(meta) - {"raw_text", "hard_failure", "failure_reason",
                                                        "repair_log", *_RAW_META})]
    if extra:
        raise OutputFileError(f"unknown field {extra[0]!r}", file=file, line=line, field=extra[0])
    try:
        return repair_record(meta["raw_text"], evidence_ids=evidence[case_id], case_id=case_id,
                             configuration=value.get("configuration"), model=value.get("model"),
                             variant=value.get("variant"), repeat=value.get("repeat", 0),
                             **{k: meta[k] for k in _RAW_META if meta.get(k) is not None})
    except ValidationError as exc:
        raise _validation_error(exc, file, line, value) from None


class _Refused(ScenarioError):
    """A line's :class:`OutputFileError`, carried through the JSON reader so that it re-reads the line strictly."""

    def __init__(self, error: OutputFileError):
        super().__init__(str(error))
        self.error = error


class _Logged:
    """A record of a run's log: the key of its case, its outcome and its output record."""

    __slots__ = ("key", "outcome", "record")

    def __init__(self, key: tuple, outcome: str, record: OutputRecord):
        self.key, self.outcome, self.record = key, outcome, record

    @property
    def meta(self):
        """The output's meta (checked like a plain record's)."""
        return self.record.meta


def _is_logged(value: dict) -> bool:
    """A line of a run's ``results.jsonl``: ``key``, ``outcome`` and ``output``."""
    return isinstance(value.get("key"), Mapping) and "outcome" in value and isinstance(value.get("output"), Mapping)


def _logged(value: dict, evidence, file: str, line: int) -> _Logged:
    key, outcome = value["key"], value["outcome"]
    if not isinstance(outcome, str) or not outcome:
        raise OutputFileError(f"expected an outcome name (got {short(outcome)})", file=file, line=line,
                              field="outcome", value=outcome)
    try:
        ident = tuple(sorted((str(k), str(v)) for k, v in key.items()))
    except TypeError:
        raise OutputFileError("expected an object of names", file=file, line=line, field="key") from None
    try:
        record = _record(value["output"], evidence, file, line)
    except OutputFileError as exc:
        raise OutputFileError(exc.reason, file=file, line=line,
                              field=f"output.{exc.field}" if exc.field else "output", value=exc.value) from None
    return _Logged(ident, outcome, record)


def _record(value, evidence, file: str, line: int) -> OutputRecord:
    """The output record of one line's JSON value (a raw line repaired); :class:`OutputFileError` if it breaks the contract."""
    if not isinstance(value, dict):
        raise OutputFileError(f"expected a JSON object, got {type(value).__name__}",
                              file=file, line=line, value=value)
    if _is_raw(value):
        return _repair_raw(value, evidence, file, line)
    try:
        return OutputRecord.model_validate(value)
    except ValidationError as exc:
        raise _validation_error(exc, file, line, value) from None


def _validator(evidence, file: str):
    """``validate(value, line)`` for :func:`symbolic.suites._jsonread.scan_json_records`.

    The reader gives it the strict parser's value (which reports a number
    that overflows to infinity as a JSON error).
    """
    def validate(value, line: int) -> OutputRecord | _Logged:
        try:
            if isinstance(value, dict) and _is_logged(value):
                record = _logged(value, evidence, file, line)
            else:
                record = _record(value, evidence, file, line)
        except OutputFileError as exc:
            raise _Refused(exc) from None
        if not math.isfinite(record.meta.latency_ms or 0.0):  # the one unbounded float
            raise ScenarioError("a number overflows", file=file, line=line, field="meta.latency_ms")
        return record

    return validate


def load_outputs(path, *, evidence: Mapping[str, Iterable[str]] | None = None,
                 not_scored: list[OutputRecord] | None = None) -> list[OutputRecord]:
    """Read an outputs JSONL file (one :class:`~scorer.contract.OutputRecord` a line), or a run's log.

    A *raw* line -- a run cell and ``meta.raw_text`` with neither ``common``
    nor ``trace`` nor a repair log -- is repaired here
    (:func:`scorer.repair.repair_record`) against its case's evidence
    package, so the repair log and any hard failure are recorded per case.

    A run's ``results.jsonl`` (lines holding ``key``, ``outcome`` and
    ``output``) gives the output of the latest record of each case; a case
    whose latest outcome is in :data:`NOT_ANSWERED` gives none (it goes to
    ``not_scored``).

    Parameters
    ----------
    path : str or path-like
    evidence : mapping of str to iterable of str, optional
        Case id -> evidence ids of the suite; needed only for raw lines.
    not_scored : list, optional
        Receives the output records of a run log's cases that have no model
        answer (infrastructure errors, token/time limits).

    Returns
    -------
    list of OutputRecord
        In file order (a run log's: in the order of each case's first record).

    Raises
    ------
    OutputFileError
        Naming file, line, field and value: missing file, bad JSON, a record
        breaking the contract, a raw line without ``evidence`` (or for an
        unknown case), or the same run cell and case twice.

    Examples
    --------
    >>> load_outputs("/nonexistent/outputs.jsonl")
    Traceback (most recent call last):
    ...
    scorer.errors.OutputFileError: /nonexistent/outputs.jsonl: no such file
    """
    file = str(path)
    records: list[OutputRecord] = []
    first: dict[tuple, int] = {}
    logged: dict[tuple, tuple[int, _Logged]] = {}
    try:
        for line, record in scan_records(path, validate=_validator(evidence, file)):
            if isinstance(record, _Refused):
                raise record.error
            if isinstance(record, _Logged):
                logged[record.key] = (logged[record.key][0] if record.key in logged else line, record)
                continue  # the latest record of a case counts
            key = record.run_key + (record.case_id,)
            if key in first:
                raise OutputFileError(
                    f"duplicate output for case {record.case_id!r} in run {record.run_key!r} "
                    f"(first at line {first[key]})", file=file, line=line, field="case_id",
                    value=record.case_id)
            first[key] = line
            records.append(record)
    except ScenarioError as exc:
        raise OutputFileError(exc.reason, file=file, line=exc.line, field=exc.field,
                              value=exc.value) from None
    if logged and records:
        raise OutputFileError("mixes output records with a run log's records (key, outcome, output)",
                              file=file, line=min(first.values()))
    for line, entry in sorted(logged.values(), key=lambda item: item[0]):
        record = entry.record
        if entry.outcome in NOT_ANSWERED:
            if not_scored is not None:
                not_scored.append(record)
            continue
        key = record.run_key + (record.case_id,)
        if key in first:
            raise OutputFileError(
                f"two cases of the log give the output for case {record.case_id!r} in run {record.run_key!r} "
                f"(first at line {first[key]})", file=file, line=line, field="output.case_id",
                value=record.case_id)
        first[key] = line
        records.append(record)
    if not records and not logged:
        raise OutputFileError("no output records (the file is empty)", file=file)
    return records


def dump_outputs(records: Iterable[OutputRecord], path) -> str:
    """Write records as JSONL (sorted keys, one per line), atomically.

    Returns
    -------
    str
        The path written.

    Examples
    --------
    >>> import tempfile, os
    >>> rec = OutputRecord(case_id="c1", configuration="direct", model="m",
    ...                    common={"final_status": "both"})
    >>> p = dump_outputs([rec], os.path.join(tempfile.mkdtemp(), "o.jsonl"))
    >>> load_outputs(p) == [rec]
    True
    """
    path = Path(path)
    data = "".join(r.to_json() + "\n" for r in records).encode("utf-8")
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, data, error=OutputFileError)
    return str(path)
