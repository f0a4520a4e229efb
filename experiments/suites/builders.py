"""How each suite is made: ``normative-en`` from its sources, ``controlled-140``
from ``normative-en``, and a local ``peer`` suite from a copy of the peer corpus.

Each builder takes ``(source, seed)`` and returns the checked scenarios; they are
the factories of :data:`experiments.suites.registry.SUITES`.  Every build is
deterministic (the same inputs give the same scenarios), and a suite that fails
its checks raises instead of returning.
"""

from __future__ import annotations

import importlib
import warnings
from pathlib import Path
from typing import Sequence

from symbolic.errors import PriorityCycleWarning, ScenarioError
from symbolic.suites.io import load_suite as load_file
from symbolic.suites.io import validate_scenario
from symbolic.scenario.model import Scenario
from symbolic.suites.peer import import_peer_file

from ..errors import SuiteCheckError, SuiteError
from .checks import check_scenarios, gold_trace
from .controlled import SEED, generate_controlled

__all__ = ["SOURCE_MODULES", "SUITE_DIR", "build_controlled", "build_normative_en", "collect_sources",
           "from_corpus", "from_peer_corpus", "from_sources", "read_suite", "with_gold_trace"]

#: Where the shipped suites and their cards live (``<name>.jsonl``, ``<name>.md``).
SUITE_DIR = Path(__file__).resolve().parent

SOURCE_MODULES = (
    "experiments.suites.sources.normative_en_cbc",
    "experiments.suites.sources.normative_en_pr",
)


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


def read_suite(name: str, path: str | Path) -> list[Scenario]:
    """The scenarios of suite ``name`` stored at ``path``.

    Raises
    ------
    SuiteError
        If the file is missing or malformed (the message names the suite, file, line and field).
    """
    try:
        return load_file(path)
    except ScenarioError as exc:
        raise SuiteError(f"suite {name!r}: {exc}") from None


def from_sources(source: Path | None = None, seed: int = SEED) -> list[Scenario]:
    """``normative-en``: built from :data:`SOURCE_MODULES`; neither a source file nor a seed applies.

    Raises
    ------
    SuiteError
        If ``source`` is given or a source module is malformed.
    """
    if source is not None:
        raise SuiteError("normative-en is built from experiments/suites/sources; --from does not apply")
    return build_normative_en()


def from_corpus(source: Path | None = None, seed: int = SEED) -> list[Scenario]:
    """``controlled-140``: generated from ``source`` (default the shipped ``normative-en``) with ``seed``."""
    corpus = read_suite("normative-en", SUITE_DIR / "normative-en.jsonl" if source is None else source)
    return build_controlled(corpus, seed=seed)


def from_peer_corpus(source: Path | None = None, seed: int = SEED) -> list[Scenario]:
    """``peer``: projected from a local copy of the peer corpus (``source``, required).

    Raises
    ------
    SuiteError
        If ``source`` is not given or the corpus is malformed.
    """
    if source is None:
        raise SuiteError("the peer suite is built from a local copy of the peer corpus: "
                         "pass --from PATH (controlled_benchmark_600.jsonl)")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", PriorityCycleWarning)
            scenarios = list(import_peer_file(source))
    except ScenarioError as exc:
        raise SuiteError(f"peer corpus: {exc}") from None
    return _checked("peer", scenarios, smells=False, metadata=False)
