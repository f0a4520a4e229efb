"""Build the shipped suites: ``normative-en`` from its sources, ``controlled-140``
from ``normative-en``, and a local ``peer`` suite from a copy of the peer corpus.

Every build is deterministic: the same inputs give the same bytes
(:func:`symbolic.io.dump_suite` writes sorted-key compact JSONL atomically), and
a suite that fails its checks is never written.
"""

from __future__ import annotations

import importlib
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from symbolic.errors import PriorityCycleWarning, ScenarioError
from symbolic.io import dump_suite, validate_scenario, write_atomic
from symbolic.model import Scenario

from ..errors import SuiteCheckError, SuiteError
from .checks import check_scenarios, gold_trace
from .controlled import SEED, generate_controlled
from .registry import get_suite, load_suite
from .stats import refresh_card, stats_markdown, suite_stats

__all__ = ["SOURCE_MODULES", "BuildResult", "build_controlled", "build_normative_en", "build_suite",
           "collect_sources", "with_gold_trace"]

SOURCE_MODULES = (
    "experiments.suites.sources.normative_en_cbc",
    "experiments.suites.sources.normative_en_pr",
)


@dataclass(frozen=True, slots=True)
class BuildResult:
    """What a build wrote."""

    name: str
    path: Path
    count: int
    sha256: str


def collect_sources(modules: Sequence[str] = SOURCE_MODULES) -> list[Scenario]:
    """Validate the ``SCENARIOS`` dicts of each source module, in module order.

    Raises
    ------
    SuiteError
        If a module cannot be imported, has no ``SCENARIOS`` list, or a dict is
        not a valid scenario (the message names the module, index and field),
        or two scenarios share an id.

    Examples
    --------
    >>> [s.id for s in collect_sources(["experiments.suites.sources.normative_en_cbc"])][:3]
    ['bank-001', 'bank-002', 'bank-003']
    >>> collect_sources(["experiments.suites.sources.nope"])
    Traceback (most recent call last):
    ...
    experiments.errors.SuiteError: source module experiments.suites.sources.nope cannot be imported: No module named 'experiments.suites.sources.nope'
    """
    out, seen = [], {}
    for name in modules:
        try:
            module = importlib.import_module(name)
        except ImportError as exc:
            raise SuiteError(f"source module {name} cannot be imported: {exc}") from None
        records = getattr(module, "SCENARIOS", None)
        if not isinstance(records, list):
            raise SuiteError(f"source module {name} has no SCENARIOS list")
        for index, record in enumerate(records):
            where = f"{name}.SCENARIOS[{index}]"
            if isinstance(record, dict) and isinstance(record.get("gold"), dict) and "trace" in record["gold"]:
                raise SuiteError(f"{where}: gold.trace must be left out; the build computes it")
            try:
                scenario = validate_scenario(record, file=where)
            except ScenarioError as exc:
                raise SuiteError(str(exc)) from None
            if scenario.id in seen:
                raise SuiteError(f"{where}: duplicate scenario id {scenario.id!r} (also in {seen[scenario.id]})")
            seen[scenario.id] = where
            out.append(scenario)
    return out


def with_gold_trace(scenario: Scenario) -> Scenario:
    """The scenario with ``gold.trace`` set to the engine's trace normal form."""
    gold = scenario.gold.model_copy(update={"trace": gold_trace(scenario)})
    return scenario.model_copy(update={"gold": gold})


def _checked(name: str, scenarios: list[Scenario], **options) -> list[Scenario]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PriorityCycleWarning)
        findings = check_scenarios(scenarios, **options)
    if findings:
        raise SuiteCheckError(name, findings)
    return scenarios


def build_normative_en(modules: Sequence[str] | None = None) -> list[Scenario]:
    """The ``normative-en`` scenarios, sorted by id, with gold traces, checked.

    Raises
    ------
    SuiteError
        If a source is malformed.
    SuiteCheckError
        If any gold, metadata or smell check fails.
    """
    sources = collect_sources(SOURCE_MODULES if modules is None else modules)
    scenarios = sorted((with_gold_trace(s) for s in sources), key=lambda s: s.id)
    return _checked("normative-en", scenarios)


def build_controlled(corpus: Sequence[Scenario], *, seed: int = SEED) -> list[Scenario]:
    """The ``controlled-140`` cases generated from ``corpus``, checked (gold and flags)."""
    return _checked("controlled-140", generate_controlled(corpus, seed=seed), smells=False, vocabulary=False)


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
    info = get_suite(name)
    path = Path(output) if output is not None else info.path
    if output is None and (seed != SEED or (name == "controlled-140" and source is not None)):
        raise SuiteError(f"a {name} built from another corpus or seed must not replace the shipped file: "
                         "pass --output")
    if name == "normative-en" and source is not None:
        raise SuiteError("normative-en is built from experiments/suites/sources; --from does not apply")
    if name == "normative-en":
        scenarios = build_normative_en()
    elif name == "controlled-140":
        corpus = load_suite("normative-en", file=source)
        scenarios = build_controlled(corpus, seed=seed)
    elif name == "peer":
        if source is None:
            raise SuiteError("the peer suite is built from a local copy of the peer corpus: "
                             "pass --from PATH (controlled_benchmark_600.jsonl)")
        from symbolic.peer import import_peer_file

        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", PriorityCycleWarning)
                scenarios = list(import_peer_file(source))
        except ScenarioError as exc:
            raise SuiteError(f"peer corpus: {exc}") from None
        scenarios = _checked("peer", scenarios, smells=False, metadata=False)
    else:  # a registered name without a builder
        raise SuiteError(f"suite {name!r} has no builder")
    try:
        digest = dump_suite(scenarios, path)
    except ScenarioError as exc:
        raise SuiteError(str(exc)) from None
    if info.shipped and path.resolve() == info.path.resolve() and info.card.is_file():
        card = info.card.read_text(encoding="utf-8")
        try:
            fresh = refresh_card(card, stats_markdown(suite_stats(scenarios), digest))
        except ValueError as exc:
            raise SuiteError(f"{info.card}: {exc}") from None
        if fresh != card:
            write_atomic(info.card, fresh.encode("utf-8"))
    return BuildResult(name, path, len(scenarios), digest)
