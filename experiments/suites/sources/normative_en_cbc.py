"""Contract (``cont-NNN``), banking-guarantee (``bank-NNN``) and compliance
(``comp-NNN``) scenarios of ``normative-en``.

Hand-written in plain professional English for paratrace; every party,
instrument, clause number and jurisdiction is fictional and no text is copied
from a real contract or statute.  The data live in three modules, one per
domain, each block preceded by the reasoning that gives its gold status
(docs/semantics.md section 7).  The authoring format is the docstring of
:mod:`experiments.suites.sources`.

Update pairs have ids ``cbc-pNN``: ``cbc-p01`` .. ``cbc-p05`` and ``cbc-p13``
contracts, ``cbc-p06`` .. ``cbc-p09`` banking guarantees, ``cbc-p10`` ..
``cbc-p12`` compliance.  ``cont-001``/``cont-002`` (penalty and force majeure) and
``bank-001``/``bank-002`` (demand after an amended deadline) are the paper's
Appendix B walkthroughs.

Examples
--------
>>> len(SCENARIOS) >= 32, len({s["id"] for s in SCENARIOS}) == len(SCENARIOS)
(True, True)
"""

from __future__ import annotations

from ._cbc_banking import BANKING
from ._cbc_compliance import COMPLIANCE
from ._cbc_contracts import CONTRACTS

__all__ = ["SCENARIOS"]

SCENARIOS: list[dict] = sorted(CONTRACTS + BANKING + COMPLIANCE, key=lambda s: s["id"])
