"""The registry of paratrace's suites: names, builders and metadata.

:data:`SUITES` is a :class:`symbolic.support.registry.Registry` like the
configurations, baselines and optimizers: each :class:`~symbolic.support.registry.Entry`
has the suite's name, its builder (``(source, seed) -> scenarios``, from
:mod:`experiments.suites.builders`) and its metadata: description, whether it is
shipped, how it is built, what ``--from`` gives it (``source``), its version,
file and card, which checks ``paratrace suite check`` runs on it (``checks``,
the options of :func:`~experiments.suites.checks.check_scenarios`) and whether
``paratrace suite stats`` reports the corpus targets (``targets``).

Shipped suites live next to this module as ``<name>.jsonl`` with a card
``<name>.md``.  The peer suite is registered but never shipped: it is built
from a local copy of the peer corpus (see its card).
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from symbolic.scenario.model import Scenario
from symbolic.support.registry import Entry, Registry

from ..errors import SuiteError
from .builders import SUITE_DIR, from_corpus, from_peer_corpus, from_sources, read_suite

__all__ = ["SUITES", "SuiteBuilder", "get_suite", "load_suite", "suite_names"]

#: A suite's factory: ``(source, seed) -> scenarios``.
SuiteBuilder = Callable[[Path | None, int], list[Scenario]]


def _suite(name: str, builder: SuiteBuilder, *, description: str, shipped: bool, build: str,
           source: str | None, checks: dict[str, bool], targets: bool = False,
           version: int = 1) -> Entry[list[Scenario]]:
    """The entry of one suite; ``path`` is where a local build of an unshipped suite goes by default."""
    return Entry(name, builder, {
        "description": description, "shipped": shipped, "build": build, "source": source, "version": version,
        "checks": checks, "targets": targets,
        "path": SUITE_DIR / f"{name}.jsonl" if shipped else Path(f"{name}.jsonl"),
        "card": SUITE_DIR / f"{name}.md",
    })


SUITES: Registry[list[Scenario]] = Registry("suite", (
    _suite("normative-en", from_sources, shipped=True, source=None, targets=True,
           checks={"smells": True, "vocabulary": True, "metadata": True},
           description="hand-authored English scenarios: contracts, banking guarantees, compliance, "
                       "internal policies, regulatory",
           build="from experiments/suites/sources/*.py; gold traces from the engine"),
    _suite("controlled-140", from_corpus, shipped=True,
           checks={"smells": False, "vocabulary": False, "metadata": True},
           source="the corpus to generate from (default the shipped normative-en)",
           description="20 corpus scenarios, each clean and with one injected defect of each of the six classes",
           build="generated deterministically (seeded) from normative-en.jsonl"),
    _suite("peer", from_peer_corpus, shipped=False, source="the peer corpus JSONL (required)",
           checks={"smells": False, "vocabulary": False, "metadata": False},
           description="the peer corpus (thecontrey/neuro_symbolic), projected; not shipped",
           build="imported from a local copy: paratrace suite build peer --from PATH"),
))


def suite_names() -> tuple[str, ...]:
    """The registered suite names, sorted.

    >>> suite_names()
    ('controlled-140', 'normative-en', 'peer')
    """
    return tuple(sorted(SUITES))


def get_suite(name: str) -> Entry[list[Scenario]]:
    """The registered suite called ``name``.

    Raises
    ------
    SuiteError
        If no suite has that name (the message lists the known ones).

    Examples
    --------
    >>> get_suite("normative-en").metadata["path"].name
    'normative-en.jsonl'
    >>> get_suite("nope")
    Traceback (most recent call last):
    ...
    experiments.errors.SuiteError: unknown suite 'nope'; known suites: controlled-140, normative-en, peer
    """
    if name not in SUITES:
        raise SuiteError(f"unknown suite {name!r}; known suites: {', '.join(suite_names())}")
    return SUITES.entry(name)


def load_suite(name: str, *, file: str | Path | None = None) -> list[Scenario]:
    """Load a registered suite (or ``file``, a suite of that kind stored elsewhere).

    Raises
    ------
    SuiteError
        If the suite is unknown, not shipped and no ``file`` is given, or its
        file is missing or malformed (the message names file, line and field).

    Examples
    --------
    >>> cases = load_suite("controlled-140")
    >>> len(cases), cases[0].metadata.defect_class.value
    (140, 'none')
    """
    meta = get_suite(name).metadata
    if file is None and not meta["shipped"]:
        raise SuiteError(f"suite {name!r} is not shipped; build it with `paratrace suite build {name} "
                         f"--from PATH` and pass the result with --file")
    return read_suite(name, meta["path"] if file is None else file)
