"""Shipped scenario suites.

``normative-en`` is hand-authored (:mod:`experiments.suites.sources`),
``controlled-140`` is generated from it (:mod:`experiments.suites.controlled`),
and the peer suite is imported from a local copy of the peer corpus.  Each
shipped suite has a card ``<name>.md`` next to its ``<name>.jsonl``.

The submodules, each the one place its names are imported from:
:mod:`~experiments.suites.registry` (the registered suites, :data:`SUITES`),
:mod:`~experiments.suites.builders` (how each suite is made),
:mod:`~experiments.suites.build` (``paratrace suite build``),
:mod:`~experiments.suites.checks`, :mod:`~experiments.suites.controlled`,
:mod:`~experiments.suites.stats` and :mod:`~experiments.suites.render`.
"""

__all__: list[str] = []
