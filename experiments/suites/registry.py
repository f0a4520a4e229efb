"""The registry of paratrace's suites: names, files, cards and how each is built.

Shipped suites live next to this module as ``<name>.jsonl`` with a card
``<name>.md``.  The peer suite is registered but never shipped: it is built
from a local copy of the peer corpus (see its card).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from symbolic.errors import ScenarioError
from symbolic.io import load_suite as _load_file
from symbolic.model import Scenario

from ..errors import SuiteError

__all__ = ["SUITES", "SUITE_DIR", "SuiteInfo", "get_suite", "load_suite", "suite_names"]

SUITE_DIR = Path(__file__).resolve().parent


@dataclass(frozen=True, slots=True)
class SuiteInfo:
    """One registered suite.

    Attributes
    ----------
    name : str
        The suite name used on the command line (``normative-en``).
    description : str
        One line on what it holds.
    shipped : bool
        Whether the JSONL file is part of the repository.
    build : str
        How ``paratrace suite build NAME`` makes it.
    version : int
        The suite's version (bumped when cases are changed, not only added).
    """

    name: str
    description: str
    shipped: bool
    build: str
    version: int = 1

    @property
    def path(self) -> Path:
        """The suite file (for the peer suite: where a local build goes by default)."""
        return SUITE_DIR / f"{self.name}.jsonl" if self.shipped else Path(f"{self.name}.jsonl")

    @property
    def card(self) -> Path:
        """The suite's card (``<name>.md``)."""
        return SUITE_DIR / f"{self.name}.md"


SUITES: dict[str, SuiteInfo] = {
    info.name: info for info in (
        SuiteInfo("normative-en", "hand-authored English scenarios: contracts, banking guarantees, "
                  "compliance, internal policies, regulatory", True,
                  "from experiments/suites/sources/*.py; gold traces from the engine"),
        SuiteInfo("controlled-140", "20 corpus scenarios, each clean and with one injected defect of "
                  "each of the six classes", True,
                  "generated deterministically (seeded) from normative-en.jsonl"),
        SuiteInfo("peer", "the peer corpus (thecontrey/neuro_symbolic), projected; not shipped", False,
                  "imported from a local copy: paratrace suite build peer --from PATH"),
    )
}


def suite_names() -> tuple[str, ...]:
    """The registered suite names, sorted.

    >>> suite_names()
    ('controlled-140', 'normative-en', 'peer')
    """
    return tuple(sorted(SUITES))


def get_suite(name: str) -> SuiteInfo:
    """The registered suite called ``name``.

    Raises
    ------
    SuiteError
        If no suite has that name (the message lists the known ones).

    Examples
    --------
    >>> get_suite("normative-en").path.name
    'normative-en.jsonl'
    >>> get_suite("nope")
    Traceback (most recent call last):
    ...
    experiments.errors.SuiteError: unknown suite 'nope'; known suites: controlled-140, normative-en, peer
    """
    try:
        return SUITES[name]
    except KeyError:
        raise SuiteError(f"unknown suite {name!r}; known suites: {', '.join(suite_names())}") from None


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
    info = get_suite(name)
    path = Path(file) if file is not None else info.path
    if file is None and not info.shipped:
        raise SuiteError(f"suite {name!r} is not shipped; build it with `paratrace suite build {name} "
                         f"--from PATH` and pass the result with --file")
    try:
        return _load_file(path)
    except ScenarioError as exc:
        raise SuiteError(f"suite {name!r}: {exc}") from None
