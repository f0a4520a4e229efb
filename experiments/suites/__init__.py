"""Shipped scenario suites: the registry, the builds, the controlled-suite
generator and the suite checks.

``normative-en`` is hand-authored (:mod:`experiments.suites.sources`),
``controlled-140`` is generated from it (:mod:`experiments.suites.controlled`),
and the peer suite is imported from a local copy of the peer corpus.  Each
shipped suite has a card ``<name>.md`` next to its ``<name>.jsonl``.
"""

from .build import BuildResult, build_suite
from .checks import Finding, check_scenarios
from .controlled import generate_controlled
from .registry import SUITES, SuiteInfo, get_suite, load_suite, suite_names

__all__ = sorted([
    "BuildResult",
    "Finding",
    "SUITES",
    "SuiteInfo",
    "build_suite",
    "check_scenarios",
    "generate_controlled",
    "get_suite",
    "load_suite",
    "suite_names",
])
