"""The paper's penalty example (docs/semantics.md section 8) as a scenario and as
assistant outputs, for the doctests and tests of the metrics.

Not part of the public API.
"""

from __future__ import annotations

from functools import lru_cache

from symbolic.model import Analysis, EvidenceFragment, Fact, Gold, Metadata, Priority, Rule, Scenario

from ..contract import CommonV1, Diagnostics, OutputRecord, TraceV2
from .context import CaseContext, build_context, gold_view

__all__ = ["penalty_analysis", "penalty_context", "penalty_output", "penalty_scenario"]

_TEXTS = {
    "E-01": "Delivery log: the goods arrived 12 days after the agreed date.",
    "E-02": "Supplier notice: a port strike prevented shipment (force majeure).",
    "E-03": "Audit report: the supplier ignored three strike warnings (gross negligence).",
    "E-04": "Clause 9.1: late delivery incurs a contractual penalty.",
    "E-05": "Clause 9.4: no penalty is due for delay caused by force majeure; 9.4 prevails over 9.1.",
    "E-06": "Clause 9.5: the force majeure exemption does not cover gross negligence; 9.5 prevails over 9.4.",
    "E-07": "Annex C: invoices are payable within 30 days.",
}


def penalty_analysis(variant: str = "gold") -> Analysis:
    """The penalty objects; ``variant`` is one of ``gold``, ``no-r2`` (rule r2 and its
    priorities omitted), ``inverted`` (``r2 > r3`` instead of ``r3 > r2``),
    ``no-r3>r2`` (that priority omitted), ``no-facts`` (undecidable), ``unsupported`` (the penalty derived
    by an invented rule ``r9`` cited to the unrelated annex E-07 instead of r1
    and r3)."""
    facts = [Fact(id="f1", literal="Delay(x)", evidence=["E-01"]),
             Fact(id="f2", literal="ForceMajeure(x)", evidence=["E-02"]),
             Fact(id="f3", literal="GrossNegligence(x)", evidence=["E-03"])]
    rules = [Rule(id="r1", antecedents=["Delay(x)"], consequent="Penalty(x)", evidence=["E-04"]),
             Rule(id="r2", antecedents=["ForceMajeure(x)"], consequent="¬Penalty(x)", evidence=["E-05"]),
             Rule(id="r3", antecedents=["GrossNegligence(x)"], consequent="Penalty(x)", evidence=["E-06"])]
    pris = [Priority(stronger="r2", weaker="r1", basis="exception", evidence=["E-05"]),
            Priority(stronger="r3", weaker="r2", basis="exception", evidence=["E-06"])]
    if variant == "gold":
        pass
    elif variant == "no-r2":
        rules, pris = [rules[0], rules[2]], []
    elif variant == "inverted":
        pris = [pris[0], Priority(stronger="r2", weaker="r3", basis="exception", evidence=["E-06"])]
    elif variant == "no-r3>r2":
        pris = [pris[0]]
    elif variant == "no-facts":
        facts = []
    elif variant == "unsupported":
        rules = [Rule(id="r9", antecedents=["Delay(x)", "GrossNegligence(x)"], consequent="Penalty(x)",
                      evidence=["E-07"]), rules[1]]
        pris = [Priority(stronger="r9", weaker="r2", basis="authority", evidence=["E-07"])]
    else:
        raise ValueError(f"unknown penalty variant {variant!r}")
    return Analysis(facts=facts, rules=rules, priorities=pris)


@lru_cache(maxsize=32)
def penalty_scenario(contradiction: bool = False, priority: bool = False,
                     defect: tuple[str, str | None] | None = None, status: str = "accepted",
                     variant: str = "gold") -> Scenario:
    """The penalty case with the given metadata flags."""
    gold = penalty_analysis(variant)
    md = Metadata(contradiction=contradiction, priority=priority,
                  defect_class=None if defect is None else defect[0],
                  defect_location=None if defect is None else defect[1])
    return Scenario(
        id="penalty", query="Is the contractual penalty due?", target="Penalty(x)",
        evidence=[EvidenceFragment(id=k, text=v, source="Supply Agreement 2024") for k, v in _TEXTS.items()],
        gold=Gold(**gold.model_dump(), status=status), metadata=md)


def penalty_output(status: str, trace: str | None = None, *, emitted=None, evidence_ids=None,
                   conflict_detected=None, priority_applied=None, diagnostics=None,
                   case_id: str = "penalty", hard_failure: bool = False) -> OutputRecord:
    """An assistant output on the penalty case (``trace`` names a :func:`penalty_analysis` variant)."""
    if hard_failure:
        return OutputRecord.failure(case_id=case_id, configuration="cfg", model="m", raw_text="{",
                                    reason="truncated JSON")
    common = CommonV1(final_status=status, evidence_ids=evidence_ids, conflict_detected=conflict_detected,
                      priority_applied=priority_applied,
                      emitted_conclusions=None if emitted is None else tuple(emitted))
    payload = None
    if trace is not None:
        a = penalty_analysis(trace)
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
