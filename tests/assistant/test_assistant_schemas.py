"""Validators of the LM-facing schemas against the evidence package."""

from __future__ import annotations

import copy

import pytest
from pydantic import ValidationError

from assistant.evidence import EvidencePackage
from assistant.extraction import Extraction, StructuredAnswer, TargetedExtraction, to_analysis
from assistant.schemas import AuditVerdict, CitedAnswer
from assistant.signatures import CandidateAnalysis

from assistant_cases import ANSWER, FRAGMENTS, THEORY

CTX = {"evidence": EvidencePackage(fragments=FRAGMENTS)}


def _theory(**changes):
    t = copy.deepcopy(THEORY)
    t.update(changes)
    return t


def test_valid_theory_normalizes_ids_literals_and_locates_quotes():
    t = _theory(facts=[{"id": "f1", "literal": "not  Delay( x )", "evidence": ["e1"],
                        "quote": "\"made 12 DAYS after\""}])
    e = Extraction.model_validate(t, context=CTX)
    assert e.facts[0].literal == "¬Delay(x)" and e.facts[0].evidence == ["E-01"]
    assert e.facts[0].span.start == FRAGMENTS[0].text.index("made")
    assert to_analysis(e).facts[0].span == e.facts[0].span


@pytest.mark.parametrize("change, message", [
    ({"facts": [{"id": "f1", "literal": "Delay(x)", "evidence": ["E-12"]}]}, "not in the evidence package"),
    ({"facts": [{"id": "f1", "literal": "Delay(x)", "evidence": ["E-01"], "quote": "on time"}]},
     "does not occur in fragment E-01"),
    ({"priorities": [{"stronger": "r3", "weaker": "r7", "basis": "temporal", "evidence": ["E-06"]}]},
     "'r7' is not a rule id"),
    ({"priorities": [{"stronger": "r3", "weaker": "r3", "basis": "temporal", "evidence": ["E-06"]}]},
     "with itself"),
    ({"priorities": [{"stronger": "r3", "weaker": "r2", "basis": "seniority", "evidence": ["E-06"]}]},
     "unknown priority basis"),
    ({"rules": THEORY["rules"] + [{"id": "r4", "antecedents": [], "consequent": "¬applicable(r8)",
                                   "evidence": ["E-06"]}]},
     "exception to 'r8'"),
    ({"rules": THEORY["rules"] + [{"id": "f1", "antecedents": [], "consequent": "X(x)",
                                   "evidence": ["E-06"]}]}, "used twice"),
    ({"attacks": [{"source": "r5", "target": "r1", "kind": "undercut", "evidence": ["E-06"]}]},
     "not a fact or rule id"),
    ({"facts": [{"id": "f1", "literal": "¬", "evidence": ["E-01"]}]}, "empty literal"),
])
def test_invalid_objects_fail_with_a_message_for_the_lm(change, message):
    with pytest.raises(ValidationError) as info:
        Extraction.model_validate(_theory(**change), context=CTX)
    assert message in str(info.value)


def test_without_context_only_the_shape_is_checked():
    e = Extraction.model_validate(_theory(facts=[{"id": "f1", "literal": "A", "evidence": ["E-99"],
                                                  "quote": "anything"}]))
    assert e.facts[0].evidence == ["E-99"] and e.facts[0].span is None


def test_uncited_objects_pass_validation_for_the_parser_validator_to_drop():
    e = Extraction.model_validate(_theory(facts=[{"id": "f1", "literal": "Delay(x)", "evidence": []}]), context=CTX)
    assert e.facts[0].evidence == []
    with pytest.raises(ValidationError, match="evidence"):
        Extraction.model_validate(_theory(facts=[{"id": "f1", "literal": "Delay(x)"}]), context=CTX)


def test_targeted_extraction_and_structured_answer():
    t = TargetedExtraction.model_validate(_theory(target="~Penalty(x)"), context=CTX)
    assert t.target == "¬Penalty(x)"
    s = StructuredAnswer.model_validate({"facts": THEORY["facts"], "rules": THEORY["rules"], "result": ANSWER},
                                        context=CTX)
    assert s.result.status.value == "accepted"


def test_cited_answer_accepts_status_spellings_and_rejects_others():
    assert CitedAnswer.model_validate({**ANSWER, "status": "Undetermined"}).status.value == "undecidable"
    with pytest.raises(ValidationError):
        CitedAnswer.model_validate({**ANSWER, "status": "probably"})


def test_audit_location_must_name_a_candidate_object(candidate):
    ctx = {**CTX, "candidate": CandidateAnalysis(analysis=candidate)}
    ok = AuditVerdict.model_validate({"defect_class": "priority_inversion", "location": "r2 > r3",
                                      "corrected": ANSWER}, context=ctx)
    assert ok.location == "priority:r2>r3"
    typed = AuditVerdict.model_validate({"defect_class": "extraction_error", "location": "rule:r2",
                                         "corrected": ANSWER}, context=ctx)
    assert typed.location == "rule:r2"
    with pytest.raises(ValidationError, match="not a fact of the candidate"):
        AuditVerdict.model_validate({"defect_class": "extraction_error", "location": "fact:f7",
                                     "corrected": ANSWER}, context=ctx)
    with pytest.raises(ValidationError, match="has no kind"):
        AuditVerdict.model_validate({"defect_class": "extraction_error", "location": "f7", "corrected": ANSWER},
                                    context=ctx)
    deletion = AuditVerdict.model_validate({"defect_class": "attack_deletion", "location": "r4-undercut->r1",
                                            "corrected": ANSWER}, context=ctx)
    assert deletion.location == "attack:r4-undercut->r1"
    coverage = AuditVerdict.model_validate({"defect_class": "incomplete_coverage", "location": "target:Penalty(x)",
                                            "corrected": ANSWER}, context=ctx)
    assert coverage.location == "target:Penalty(x)"
    none = AuditVerdict.model_validate({"defect_class": "none", "location": "r1", "corrected": ANSWER}, context=ctx)
    assert none.location is None
