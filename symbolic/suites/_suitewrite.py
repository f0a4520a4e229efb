"""Deterministic, atomic writing of scenario suites (the output side of :mod:`symbolic.suites.io`)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Iterable

from symbolic.errors import ScenarioError
from symbolic.support.fsio import write_atomic as _write
from symbolic.scenario.model import Scenario

__all__ = ["dump_suite", "scenario_line", "write_atomic"]


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
    """Write scenarios as a deterministic JSONL suite, atomically.

    One compact, sorted-key JSON object per line, UTF-8, ``\\n`` line ends:
    the same scenarios always give the same bytes.  The file is written to a
    temporary file in the target directory and renamed over ``path``, so a
    reader never sees a half-written suite and a failure leaves any previous
    file untouched.

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
    write_atomic(path, data)
    return hashlib.sha256(data).hexdigest()


def write_atomic(path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file and a rename.

    A reader sees the old file or the new one, never a mix; on failure the
    temporary file is removed and any previous file is untouched.  The new
    file gets the usual permissions (``0o666`` minus the umask).  A symbolic
    link is followed (its target is written); a directory, device, pipe or
    socket at ``path`` is refused (:func:`symbolic.support.fsio.write_atomic`).

    Raises
    ------
    ScenarioError
        If ``path`` is not a regular file or a new path.
    OSError
        If the directory is missing or not writable.
    """
    _write(path, data, error=ScenarioError)
