"""The state of a run directory, validated before any call is spent.

A run directory (``runs/<name>/``) holds ``spec.json``, ``manifest.json`` and
``results.jsonl``.  :func:`read_state_json` reads the first two strictly;
:func:`check_results` reads every line of the log and finds what would make a
resume or the scoring fail later: a line that is not UTF-8 or not JSON, a
record whose key, outcome or output breaks the format (``repeat: "0"``,
``output: {"x": 1}``), a record for a case the spec does not plan, and two
records for one case (a duplicate, or a conflict when they differ).  Each
problem names its line.  With ``repair`` the offending lines are moved to
``results.quarantine.jsonl`` (with their line number, reason and bytes) and
their cases run again; without it the run stops with exit code 2 and says so.
A torn last line (no newline: a run killed while writing) is always moved
there, and reported.
"""

from __future__ import annotations

import base64
import json
import logging
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Collection, Iterator

from symbolic.suites._jsonread import parse_json
from symbolic.errors import ScenarioError
from symbolic.support.fsio import append_whole, check_output, read_bytes, write_atomic, write_failure

from ..errors import ExperimentError
from .spec import RunKey

__all__ = ["OUTCOMES", "QUARANTINE", "RETRIED_OUTCOMES", "ResultsCheck", "check_results", "compact_superseded",
           "read_state_json", "record_problem", "refuse_link"]

OUTCOMES = ("scored", "parse_failure", "infra_error", "limit")
#: Outcomes that are not results: ``--resume`` runs their cases again, and a later record replaces them.
RETRIED_OUTCOMES = ("infra_error",)
QUARANTINE = "results.quarantine.jsonl"
_KEY_TYPES = {name: (int if name == "repeat" else str) for name in RunKey._fields}
_MAX_STATE_BYTES = 64 * 1024 * 1024
_MAX_LOG_BYTES = 4 * 1024 * 1024 * 1024
_SHOWN = 5
_log = logging.getLogger("paratrace.run")


def read_state_json(path: Path, what: str, repair: str) -> dict:
    """A JSON object of the run state (``spec.json``, ``manifest.json``), read strictly.

    Parameters
    ----------
    path : Path
    what : str
        What the file is, for the message (``the frozen spec``).
    repair : str
        How to repair it, for the message.

    Raises
    ------
    ExperimentError
        If the file is not a regular file, not UTF-8, not one JSON object
        (a truncated file), naming the file, the reason and the repair.
    """
    try:
        value = parse_json(read_bytes(path, max_bytes=_MAX_STATE_BYTES, error=ScenarioError), file=str(path))
    except ScenarioError as exc:
        raise ExperimentError(f"{exc}: {what} is damaged; {repair}") from None
    if not isinstance(value, dict):
        raise ExperimentError(f"{path}: {what} is damaged (a JSON {type(value).__name__}, not an object); {repair}")
    return value


def record_problem(record, *, output: bool = True) -> str | None:
    """Why a decoded log line is not a valid result record, or ``None``.

    A record is an object with ``key`` (the six fields of
    :class:`~experiments.runner.spec.RunKey`, strings and an integer
    ``repeat``), ``outcome`` (one of :data:`OUTCOMES`) and ``output`` (an
    :class:`~scorer.contract.OutputRecord` of the same case, configuration
    and repeat); ``output=False`` checks only the key and the counts.

    Examples
    --------
    >>> key = {"suite": "s", "case": "c1", "configuration": "b4", "backbone": "m", "variant": "standard", "repeat": "0"}
    >>> record_problem({"key": key, "outcome": "scored", "output": {}})
    "field key.repeat: expected an integer, got '0'"
    """
    from pydantic import ValidationError

    from scorer.contract import OutputRecord

    if not isinstance(record, dict):
        return f"expected a JSON object, got {type(record).__name__}"
    key = record.get("key")
    if not isinstance(key, dict):
        return "field key: missing or not an object"
    missing = [name for name in RunKey._fields if name not in key]
    if missing:
        return f"field key.{missing[0]}: missing"
    extra = sorted(set(key) - set(RunKey._fields))
    if extra:
        return f"field key.{extra[0]}: unknown field"
    for name, kind in _KEY_TYPES.items():
        value = key[name]
        if kind is int and (type(value) is not int or value < 0):
            return f"field key.{name}: expected an integer, got {value!r}"
        if kind is str and (not isinstance(value, str) or not value):
            return f"field key.{name}: expected a non-empty string, got {value!r}"
    if not output:
        return None
    if record.get("outcome") not in OUTCOMES:
        return f"field outcome: expected one of {', '.join(OUTCOMES)}, got {record.get('outcome')!r}"
    for name in ("calls", "tokens", "attempts"):
        value = record.get(name, 0)
        if type(value) is not int or value < 0:
            return f"field {name}: expected a count, got {value!r}"
    output = record.get("output")
    if not isinstance(output, dict):
        return f"field output: expected an output record object, got {type(output).__name__}"
    try:
        out = OutputRecord.model_validate(output)
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(p) for p in err["loc"])
        return f"field output.{where}: {err['msg'].removeprefix('Value error, ')}"
    for name, want in (("case_id", key["case"]), ("configuration", key["configuration"]), ("repeat", key["repeat"])):
        if getattr(out, name) != want:
            return f"field output.{name}: {getattr(out, name)!r} does not match the key's {want!r}"
    return None


@dataclass
class ResultsCheck:
    """What :func:`check_results` found: the valid keys and every problem (line, reason)."""

    path: Path
    keys: set = field(default_factory=set)
    problems: list[tuple[int, str]] = field(default_factory=list)
    repaired: list[tuple[int, str]] = field(default_factory=list)

    def message(self, command: str = "paratrace run ... --resume --repair") -> str:
        """The error shown when problems remain: each line, then how to repair."""
        shown = "; ".join(f"line {n}: {reason}" for n, reason in self.problems[:_SHOWN])
        more = len(self.problems) - _SHOWN
        tail = f" (and {more} more)" if more > 0 else ""
        return (f"{self.path}: {len(self.problems)} damaged or conflicting record(s), found before any model "
                f"call: {shown}{tail}. Repair: `{command}` moves those lines to {QUARANTINE} (kept, not "
                "deleted) and runs their cases again; or delete the lines yourself")


def _lines(data: bytes) -> Iterator[tuple[int, bytes]]:
    for number, line in enumerate(data.split(b"\n"), 1):
        yield number, line


def check_results(path: Path, planned: Collection[RunKey] | None = None, *, repair: bool = False,
                  read_only: bool = False) -> ResultsCheck:
    """Validate ``results.jsonl`` whole; repair it when asked.

    Parameters
    ----------
    path : Path
        The log (absent: nothing to check).
    planned : collection of RunKey, optional
        The keys the spec plans; a record for another key is a problem.
    repair : bool
        Move every offending line to :data:`QUARANTINE` and rewrite the log
        without them (atomically), keeping the first valid record of a key.
    read_only : bool
        Change nothing, not even a torn last line (a dry run); problems
        still raise.

    Returns
    -------
    ResultsCheck
        ``problems`` is empty after a repair.

    Raises
    ------
    ExperimentError
        If the log is not a regular file; with problems and no ``repair``
        (the message names each line and the repair), even when ``read_only``.
    """
    path = Path(path)
    check = ResultsCheck(path)
    refuse_link(path)
    refuse_link(path.parent / QUARANTINE)
    if not path.exists():
        return check
    try:
        data = read_bytes(path, max_bytes=_MAX_LOG_BYTES, error=ScenarioError, follow_links=False)
    except ScenarioError as exc:
        raise ExperimentError(f"{exc}; the result log must be a regular file") from None
    torn = b""
    if data and not data.endswith(b"\n"):
        cut = data.rfind(b"\n") + 1
        data, torn = data[:cut], data[cut:]
    first: dict[RunKey, tuple[int, bytes, str | None]] = {}
    keep: list[bytes] = []
    bad: list[tuple[int, str, bytes]] = []
    planned = None if planned is None else set(planned)
    for number, raw in _lines(data):
        if not raw.strip():
            if raw:
                keep.append(raw)
            continue
        try:
            record = parse_json(raw, line=number)
            problem = record_problem(record)
        except ScenarioError as exc:
            problem = exc.reason
        if problem is None:
            key = RunKey(**record["key"])
            if planned is not None and key not in planned:
                problem = (f"a record for case {key.case!r} of {key.suite}/{key.configuration}/{key.backbone}/"
                           f"{key.variant}/r{key.repeat}, which this run does not plan")
            elif key in first and first[key][2] in RETRIED_OUTCOMES:
                first[key] = (number, raw, record.get("outcome"))  # a retry of a case that got no answer
            elif key in first:
                same = json.loads(first[key][1]) == record
                problem = (f"{'duplicate' if same else 'conflicting'} record for case {key.case!r} "
                           f"({key.configuration}/{key.backbone}/{key.variant}/r{key.repeat}; first at line "
                           f"{first[key][0]}{'' if same else ', with another output'})")
            else:
                first[key] = (number, raw, record.get("outcome"))
        if problem is None:
            keep.append(raw)
        else:
            bad.append((number, problem, raw))
    check.keys = {key for key, (_, _, outcome) in first.items() if outcome not in RETRIED_OUTCOMES}
    if torn:
        number = data.count(b"\n") + 1
        if not read_only:
            _quarantine(path, [(number, "torn last line (no newline: the run was stopped while writing it)", torn)])
            fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0))  # never through a link
            try:
                os.ftruncate(fd, len(data))
            finally:
                os.close(fd)
            _log.warning("%s: line %d was torn (the run was stopped while writing it); moved to %s, its case "
                         "runs again", path, number, QUARANTINE)
        check.repaired.append((number, "torn last line"))
    check.problems = [(n, reason) for n, reason, _ in bad]
    if bad and repair and not read_only:
        _quarantine(path, bad)
        write_atomic(path, b"".join(line + b"\n" for line in keep), error=ExperimentError)
        for number, reason, _ in bad:
            _log.warning("%s: line %d moved to %s (%s); its case runs again", path, number, QUARANTINE, reason)
        check.repaired += check.problems
        check.problems = []
    if check.problems:
        raise ExperimentError(check.message())
    return check


def refuse_link(path: Path) -> None:
    """Refuse a run-state file that is a symbolic link: it is appended to and rewritten in place.

    Following the link would write the run's records into (and, on a repair,
    replace) whatever file it points to; the run's files must be regular
    files in its directory.

    Raises
    ------
    ExperimentError
        Naming the file and the link's target.
    """
    if os.path.islink(path):
        raise ExperimentError(f"{path}: is a symbolic link (to {os.readlink(path)!r}); a run writes its state "
                              "only to regular files in the run directory: replace the link with a copy of "
                              "its target, then resume")


def _quarantine(path: Path, lines: list[tuple[int, str, bytes]]) -> None:
    """Append the removed lines to the quarantine file next to ``path``: line, reason and the bytes."""
    target = path.parent / QUARANTINE
    refuse_link(target)
    check_output(target, error=ExperimentError)
    entries = []
    for number, reason, raw in lines:
        try:
            text = {"text": raw.decode("utf-8")}
        except UnicodeDecodeError:
            text = {"base64": base64.b64encode(raw).decode("ascii")}
        entries.append(json.dumps({"line": number, "reason": reason, **text}, ensure_ascii=False, sort_keys=True))
    data = "".join(e + "\n" for e in entries).encode("utf-8")
    try:
        append_whole(target, data)  # no partial entry; results.jsonl is not rewritten
    except OSError as exc:
        raise write_failure(target, exc, error=ExperimentError, kept="results.jsonl was left as it was",
                            then="resume again") from None


def compact_superseded(path: Path) -> int:
    """Drop the records of ``results.jsonl`` that a later record of the same case replaces.

    A case whose record is an outcome of :data:`RETRIED_OUTCOMES` (an
    infrastructure error) is run again by ``--resume``, and its new record is
    appended; the old one is then superseded.  The log is rewritten atomically
    without those lines, so every case keeps exactly one record.  Call it
    only while holding the run's lock and with no writer appending.

    Parameters
    ----------
    path : Path
        The log (absent: nothing to do).

    Returns
    -------
    int
        How many lines were dropped.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> log = pathlib.Path(tempfile.mkdtemp()) / "results.jsonl"
    >>> key = {"suite": "s", "case": "c1", "configuration": "b4", "backbone": "m", "variant": "standard", "repeat": 0}
    >>> _ = log.write_text(json.dumps({"key": key, "outcome": "infra_error"}) + "\\n"
    ...                    + json.dumps({"key": key, "outcome": "scored"}) + "\\n")
    >>> compact_superseded(log), [json.loads(x)["outcome"] for x in log.read_text().splitlines()]
    (1, ['scored'])
    """
    path = Path(path)
    if not path.exists() or path.is_symlink():
        return 0
    data = read_bytes(path, max_bytes=_MAX_LOG_BYTES, error=ExperimentError, follow_links=False)
    if not any(outcome.encode() in data for outcome in RETRIED_OUTCOMES):
        return 0  # nothing can be superseded
    lines = data.split(b"\n")
    last: dict[str, int] = {}
    parsed: list[tuple[str | None, str | None]] = []
    for number, raw in enumerate(lines):
        try:
            record = json.loads(raw) if raw.strip() else None
        except ValueError:
            record = None
        if not isinstance(record, dict) or not isinstance(record.get("key"), dict):
            parsed.append((None, None))
            continue
        key = json.dumps(record["key"], sort_keys=True)
        parsed.append((key, record.get("outcome")))
        last[key] = number
    drop = {number for number, (key, outcome) in enumerate(parsed)
            if key is not None and outcome in RETRIED_OUTCOMES and last[key] != number}
    if drop:
        write_atomic(path, b"\n".join(raw for number, raw in enumerate(lines) if number not in drop),
                     error=ExperimentError)
        _log.info("%s: %d superseded infrastructure-error record(s) removed (their cases were run again)",
                  path, len(drop))
    return len(drop)
