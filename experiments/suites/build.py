"""``paratrace suite build``: make a registered suite with its builder and write it.

The builder comes from :data:`experiments.suites.registry.SUITES`; the file is
written by :func:`symbolic.suites.io.dump_suite` (sorted-key compact JSONL, atomically),
so the same inputs give the same bytes, and a suite that fails its checks is
never written.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from symbolic.errors import ScenarioError
from symbolic.suites.io import dump_suite
from symbolic.support.fsio import write_atomic

from ..errors import SuiteError
from .controlled import SEED
from .registry import get_suite
from .stats import refresh_card, stats_markdown, suite_stats

__all__ = ["BuildResult", "build_suite"]


@dataclass(frozen=True, slots=True)
class BuildResult:
    """What a build wrote."""

    name: str
    path: Path
    count: int
    sha256: str


def build_suite(name: str, *, output: str | Path | None = None, source: str | Path | None = None,
                seed: int = SEED) -> BuildResult:
    """Build a registered suite and write it.

    Parameters
    ----------
    name : str
        ``normative-en``, ``controlled-140`` or ``peer``.
    output : path, optional
        Where to write; default the registered path (``peer.jsonl`` in the
        current directory for the peer suite, which is never shipped).
    source : path, optional
        For ``peer``: the peer corpus JSONL (required).  For ``controlled-140``:
        the corpus to generate from (default the shipped ``normative-en``).
    seed : int, default 140
        The controlled suite's seed.

    Returns
    -------
    BuildResult

    Notes
    -----
    Writing a shipped suite to its registered path also refreshes the
    generated statistics block of its card.

    Raises
    ------
    SuiteError
        If the suite is unknown, a required source is missing, or its inputs
        are malformed; :class:`SuiteCheckError` if the result fails its checks.
    """
    entry = get_suite(name)
    meta = entry.metadata
    path = Path(output) if output is not None else meta["path"]
    if output is None and (seed != SEED or (meta["shipped"] and meta["source"] is not None and source is not None)):
        raise SuiteError(f"a {name} built from another corpus or seed must not replace the shipped file: "
                         "pass --output")
    scenarios = entry.factory(None if source is None else Path(source), seed)
    try:
        digest = dump_suite(scenarios, path)
    except ScenarioError as exc:
        raise SuiteError(str(exc)) from None
    card = meta["card"]
    if meta["shipped"] and path.resolve() == meta["path"].resolve() and card.is_file():
        text = card.read_text(encoding="utf-8")
        try:
            fresh = refresh_card(text, stats_markdown(suite_stats(scenarios), digest))
        except ValueError as exc:
            raise SuiteError(f"{card}: {exc}") from None
        if fresh != text:
            write_atomic(card, fresh.encode("utf-8"), error=ScenarioError)
    return BuildResult(name, path, len(scenarios), digest)
