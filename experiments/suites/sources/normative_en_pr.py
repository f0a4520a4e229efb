"""Internal-policy (``pol-NNN``) and regulatory (``reg-NNN``) scenarios of ``normative-en``.

Hand-written in plain professional English; the institutions, people,
documents and section numbers are fictional.  The authoring format is the
docstring of :mod:`experiments.suites.sources`: this module defines
``SCENARIOS``, a list of plain JSON-compatible dicts in the
:class:`symbolic.scenario.model.Scenario` schema without ``gold.trace``.  The helpers
below only assemble those dicts; each scenario's reasoning is written next to
it as a comment (what stands, what is attacked, why the status follows under
docs/semantics.md section 7).

Update pairs (``metadata.pair`` ``pr-pNN``) share their fragments: the update
package is the base package with fragments added (next free id), removed (the
id is left as a gap) or amended (same id).
"""

from __future__ import annotations

from ._pr_part1 import SCENARIOS as _PART1
from ._pr_part2 import SCENARIOS as _PART2
from ._pr_part3 import SCENARIOS as _PART3
from ._pr_part4 import SCENARIOS as _PART4
from ._pr_part5 import SCENARIOS as _PART5

__all__ = ["SCENARIOS"]

SCENARIOS: list[dict] = [*_PART1, *_PART2, *_PART3, *_PART4, *_PART5]
