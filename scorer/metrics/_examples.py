"""The paper's penalty example (:mod:`symbolic.scenario.examples`, docs/semantics.md
section 8) as a scored case and as assistant outputs, for the doctests and tests
of the metrics.

Not part of the public API.
"""

from __future__ import annotations

from functools import lru_cache

from symbolic.scenario import examples
from symbolic.scenario.model import Metadata, Scenario

from ..contract import CommonV1, Diagnostics, OutputRecord, TraceV2
from .context import CaseContext, build_context, gold_view

__all__ = ["penalty_context", "penalty_output", "penalty_scenario"]


@lru_cache(maxsize=32)
def penalty_scenario(contradiction: bool = False, priority: bool = False,
                     defect: tuple[str, str | None] | None = None, status: str = "accepted",
                     variant: str = "gold") -> Scenario:
    """The penalty case (id ``penalty``, facts numbered first, with the unrelated annex E-07) with the
    given metadata flags."""
    md = Metadata(contradiction=contradiction, priority=priority,
                  defect_class=None if defect is None else defect[0],
                  defect_location=None if defect is None else defect[1])
    return examples.penalty_scenario(variant, id="penalty", status=status, metadata=md, unrelated=True,
                                     facts_first=True)


def penalty_output(status: str, trace: str | None = None, *, emitted=None, evidence_ids=None,
                   conflict_detected=None, priority_applied=None, diagnostics=None,
                   case_id: str = "penalty", hard_failure: bool = False) -> OutputRecord:
    """An assistant output on the penalty case (``trace`` names a
    :func:`symbolic.scenario.examples.penalty_analysis` variant, facts numbered first)."""
    if hard_failure:
        return OutputRecord.failure(case_id=case_id, configuration="cfg", model="m", raw_text="{",
                                    reason="truncated JSON")
    common = CommonV1(final_status=status, evidence_ids=evidence_ids, conflict_detected=conflict_detected,
                      priority_applied=priority_applied,
                      emitted_conclusions=None if emitted is None else tuple(emitted))
    payload = None
    if trace is not None:
        a = examples.penalty_analysis(trace, facts_first=True)
        payload = TraceV2(facts=a.facts, rules=a.rules, priorities=a.priorities,
                          diagnostics=None if diagnostics is None else Diagnostics(
                              defect_class=diagnostics[0], location=diagnostics[1]))
    return OutputRecord(case_id=case_id, configuration="cfg", model="m", common=common, trace=payload)


@lru_cache(maxsize=8)
def _gold(contradiction, priority, defect, gold_status, variant):
    return gold_view(penalty_scenario(contradiction, priority, defect, gold_status, variant))


def penalty_context(status: str, trace: str | None = None, *, contradiction: bool = False,
                    priority: bool = False, defect=None, gold_status: str = "accepted",
                    gold_variant: str = "gold", expects_trace=None, **output) -> CaseContext:
    """A :class:`CaseContext` of :func:`penalty_output` against :func:`penalty_scenario`."""
    gold = _gold(contradiction, priority, defect, gold_status, gold_variant)
    out = penalty_output(status, trace, **output)
    return build_context(gold, out, expects_trace=expects_trace)
