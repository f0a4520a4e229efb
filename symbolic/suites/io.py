"""Scenario suites on disk: loading with precise errors, deterministic atomic dumping, and the JSON
Schema of a scenario.  A suite is a JSONL file, one :class:`~symbolic.scenario.model.Scenario` a line
(blank lines ignored), or a ``.json`` document holding one scenario or an array.  Every problem is a
:class:`~symbolic.errors.ScenarioError` naming the file, the 1-based line, the dotted field path
and the bad value; sizes are checked before data is read (:mod:`symbolic.suites._jsonread`).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Iterator

from pydantic import ValidationError

from symbolic.suites._jsonread import DEFAULT_MAX_FILE_BYTES, DEFAULT_MAX_LINE_BYTES, parse_json, scan_json_records
from symbolic.support.fsio import write_atomic
from symbolic.errors import ScenarioError
from symbolic.scenario.model import Scenario

__all__ = [
    "DEFAULT_MAX_FILE_BYTES",
    "DEFAULT_MAX_LINE_BYTES",
    "SuiteCheck",
    "check_suite",
    "dump_suite",
    "iter_suite",
    "iter_suite_lines",
    "load_scenario_text",
    "load_suite",
    "scenario_json_schema",
    "scenario_line",
    "validate_scenario",
]

_VALUE_WIDTH = 80


def _short(value) -> str:
    try:
        text = json.dumps(value, ensure_ascii=False, sort_keys=True, default=str)
    except (TypeError, ValueError, RecursionError):
        text = f"<{type(value).__name__}>"
    return text if len(text) <= _VALUE_WIDTH else text[: _VALUE_WIDTH - 1] + "\u2026"


def _reason(err: dict) -> tuple[str, bool]:
    """A readable reason for one pydantic error, and whether to show its input."""
    kind, msg = err["type"], err["msg"]
    if kind == "missing":
        return "missing required field", False
    if kind == "extra_forbidden":
        return f"unknown field {str(err['loc'][-1])!r}", True
    for prefix in ("Value error, ", "Assertion failed, "):
        if msg.startswith(prefix):
            msg = msg[len(prefix):]
    return msg[:1].lower() + msg[1:], bool(err["loc"])


def validate_scenario(obj, *, file=None, line=None) -> Scenario:
    """Validate one decoded JSON value as a scenario.

    The scenario comes with ids, literals and labels normalized; ``file`` and ``line`` are for
    messages.  A :class:`ScenarioError` names the first offending field (dotted path) and its value,
    and counts the further problems.

    Examples
    --------
    >>> validate_scenario({"id": "c1"}, file="s.jsonl", line=3)
    Traceback (most recent call last):
    ...
    symbolic.errors.ScenarioError: s.jsonl:3, field query: missing required field (and 3 more problems)
    """
    file = None if file is None else str(file)
    if not isinstance(obj, dict):
        raise ScenarioError(
            f"expected a JSON object (one scenario), got {_json_type(obj)} {_short(obj)}",
            file=file, line=line, value=obj,
        )
    try:
        return Scenario.model_validate(obj)
    except ValidationError as exc:
        errors = exc.errors(include_url=False)
        first = errors[0]
        field = ".".join(str(part) for part in first["loc"]) or None
        reason, show = _reason(first)
        value = first.get("input") if show else None
        if show:
            reason += f"; got {_short(value)}"
        if len(errors) > 1:
            more = len(errors) - 1
            reason += f" (and {more} more problem{'s' if more > 1 else ''})"
        raise ScenarioError(reason, file=file, line=line, field=field, value=value) from None


def _json_type(value) -> str:
    names = {dict: "object", list: "array", str: "string", bool: "boolean", int: "number",
             float: "number", type(None): "null"}
    return names.get(type(value), type(value).__name__)


def load_scenario_text(text, *, file=None, line=None) -> Scenario:
    """Parse and validate one scenario from JSON text.

    ``text`` is one JSON object (bytes must be UTF-8); ``file`` and ``line`` (1-based, where ``text``
    starts) are for messages.  Raises :class:`ScenarioError` on malformed JSON, non-UTF-8 bytes,
    duplicate keys, a non-object value or any schema violation.

    Examples
    --------
    >>> load_scenario_text('{"id": "c1",', file="x.jsonl", line=7)
    Traceback (most recent call last):
    ...
    symbolic.errors.ScenarioError: x.jsonl:7: malformed JSON: Expecting property name enclosed in double quotes at column 13
    """
    file = None if file is None else str(file)
    return validate_scenario(parse_json(text, file=file, line=line), file=file, line=line)


def _records(path, max_line_bytes, max_file_bytes, keep_going) -> Iterator[tuple[int, Scenario | ScenarioError]]:
    """(line, scenario or error); duplicate case ids are errors; empty is an error."""
    file = str(path)
    first_line: dict[str, int] = {}
    count = 0
    records = scan_json_records(path, max_line_bytes=max_line_bytes, max_file_bytes=max_file_bytes,
                                keep_going=keep_going,
                                validate=lambda value, line: validate_scenario(value, file=file, line=line))
    for line, scenario in records:
        count += 1
        if isinstance(scenario, ScenarioError):
            yield line, scenario
            continue
        if scenario.id in first_line:
            yield line, ScenarioError(
                f"duplicate case id {scenario.id!r} (first used at line {first_line[scenario.id]})",
                file=file, line=line, field="id", value=scenario.id,
            )
            continue
        first_line[scenario.id] = line
        yield line, scenario
    if count == 0:
        yield 0, ScenarioError("no scenarios (the file is empty or holds only blank lines)", file=file)


def iter_suite_lines(path, *, max_line_bytes: int = DEFAULT_MAX_LINE_BYTES,
                     max_file_bytes: int = DEFAULT_MAX_FILE_BYTES) -> Iterator[tuple[int, Scenario]]:
    """Yield ``(line, scenario)`` pairs of a suite, lazily, with the parameters of :func:`load_suite`.

    Raises
    ------
    ScenarioError
        At the first problem: missing file, directory, size limit, non-UTF-8 bytes, malformed JSON,
        schema violation, duplicate case id, or no scenario at all.
    """
    for line, item in _records(path, max_line_bytes, max_file_bytes, keep_going=False):
        if isinstance(item, ScenarioError):
            raise item
        yield line, item


def iter_suite(path, *, max_line_bytes: int = DEFAULT_MAX_LINE_BYTES,
               max_file_bytes: int = DEFAULT_MAX_FILE_BYTES) -> Iterator[Scenario]:
    """Yield the scenarios of a suite, lazily (see :func:`iter_suite_lines`)."""
    for _, scenario in iter_suite_lines(path, max_line_bytes=max_line_bytes,
                                        max_file_bytes=max_file_bytes):
        yield scenario


def load_suite(path, *, max_line_bytes: int = DEFAULT_MAX_LINE_BYTES,
               max_file_bytes: int = DEFAULT_MAX_FILE_BYTES) -> list[Scenario]:
    """Load every scenario of a suite.

    Parameters
    ----------
    path : str or path-like
        A JSONL suite (one scenario per line), or a ``.json`` document.
    max_line_bytes : int, default 8 MiB
        Longest accepted line, in bytes.
    max_file_bytes : int, default 512 MiB
        Largest accepted file, in bytes (checked from its size before reading).

    Returns
    -------
    list of Scenario

    Raises
    ------
    ScenarioError
        Naming file, line, field and value (see :func:`iter_suite_lines`).

    Examples
    --------
    >>> load_suite("/nonexistent/suite.jsonl")
    Traceback (most recent call last):
    ...
    symbolic.errors.ScenarioError: /nonexistent/suite.jsonl: no such file
    """
    return list(iter_suite(path, max_line_bytes=max_line_bytes, max_file_bytes=max_file_bytes))


@dataclass(frozen=True, slots=True)
class SuiteCheck:
    """The outcome of :func:`check_suite`: valid scenarios and every error found."""

    file: str
    scenarios: tuple[tuple[int, Scenario], ...]
    errors: tuple[ScenarioError, ...]

    @property
    def ok(self) -> bool:
        """Whether the suite has no error."""
        return not self.errors


def check_suite(path, *, max_errors: int = 100, max_line_bytes: int = DEFAULT_MAX_LINE_BYTES,
                max_file_bytes: int = DEFAULT_MAX_FILE_BYTES) -> SuiteCheck:
    """Validate a whole suite, collecting line-level errors (malformed JSON, non-UTF-8 line, schema
    violation, duplicate id) up to ``max_errors``; a file-level problem ends the scan.

    Examples
    --------
    >>> check_suite("/nonexistent.jsonl").errors[0].reason
    'no such file'
    """
    scenarios: list[tuple[int, Scenario]] = []
    errors: list[ScenarioError] = []
    try:
        for line, item in _records(path, max_line_bytes, max_file_bytes, keep_going=True):
            if isinstance(item, ScenarioError):
                errors.append(item)
                if len(errors) >= max_errors:
                    break
            else:
                scenarios.append((line, item))
    except ScenarioError as exc:
        errors.append(exc)
    return SuiteCheck(str(path), tuple(scenarios), tuple(errors))


def scenario_json_schema() -> dict:
    """The JSON Schema (draft 2020-12) of the canonical scenario record :func:`dump_suite` writes (the
    loader also accepts the spellings it normalizes: ``E_01``, ``not X``, ``Positive``...).

    Examples
    --------
    >>> schema = scenario_json_schema()
    >>> schema["$schema"], schema["title"], sorted(schema["required"])
    ('https://json-schema.org/draft/2020-12/schema', 'Scenario', ['evidence', 'gold', 'id', 'query', 'target'])
    """
    schema = Scenario.model_json_schema(mode="validation")
    return {"$schema": "https://json-schema.org/draft/2020-12/schema",
            "$id": "https://paratrace.invalid/schemas/scenario-v1.json", **schema}


def scenario_line(scenario: Scenario) -> str:
    """The canonical one-line JSON of a scenario: compact, sorted keys, no nulls.

    Examples
    --------
    >>> from symbolic.scenario.model import EvidenceFragment, Gold, Scenario
    >>> s = Scenario(id="c1", query="Penalty?", target="Penalty(x)",
    ...              evidence=[EvidenceFragment(id="e1", text="t", source="doc")],
    ...              gold=Gold(status="Accepted"))
    >>> scenario_line(s)[:60]
    '{"evidence":[{"id":"E-01","source":"doc","tags":[],"text":"t'
    """
    return json.dumps(scenario.model_dump(mode="json", exclude_none=True), sort_keys=True,
                      separators=(",", ":"), ensure_ascii=False)


def dump_suite(scenarios: Iterable[Scenario], path) -> str:
    """Write scenarios as a deterministic JSONL suite (one :func:`scenario_line` a line, UTF-8),
    atomically (:func:`symbolic.support.fsio.write_atomic`: a reader sees the old file or the new one).

    Parameters
    ----------
    scenarios : iterable of Scenario
    path : str or path-like

    Returns
    -------
    str
        The SHA-256 hex digest of the written bytes.

    Raises
    ------
    ScenarioError
        If an item is not a :class:`Scenario`, two scenarios share a case id,
        or there is no scenario (an empty suite could not be loaded back).
    OSError
        If the file cannot be written.

    Examples
    --------
    >>> dump_suite([], "/tmp/never-written.jsonl")
    Traceback (most recent call last):
    ...
    symbolic.errors.ScenarioError: /tmp/never-written.jsonl: refusing to write an empty suite
    """
    path = Path(path)
    lines, seen = [], {}
    for index, scenario in enumerate(scenarios):
        if not isinstance(scenario, Scenario):
            raise ScenarioError(f"item {index} is a {type(scenario).__name__}, not a Scenario",
                                file=str(path), value=scenario)
        if scenario.id in seen:
            raise ScenarioError(f"duplicate case id {scenario.id!r} (items {seen[scenario.id]} and {index})",
                                file=str(path), field="id", value=scenario.id)
        seen[scenario.id] = index
        lines.append(scenario_line(scenario) + "\n")
    if not lines:
        raise ScenarioError("refusing to write an empty suite", file=str(path))
    data = "".join(lines).encode("utf-8")
    write_atomic(path, data, error=ScenarioError)
    return hashlib.sha256(data).hexdigest()
