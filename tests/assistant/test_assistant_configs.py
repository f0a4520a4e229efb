"""Each configuration end to end on the scripted LM: prompts, parsing, engine,
output contract, audit mode and hard failures."""

from __future__ import annotations

import copy
import json

import pytest

from scorer.contract import OutputRecord

from assistant_cases import ANSWER, QUERY, TARGET, THEORY


def theory(**changes):
    t = copy.deepcopy(THEORY)
    t.update(changes)
    return t


def test_b1_one_call_answer_citations_status(make):
    assistant, script = make("b1", [{"result": ANSWER}])
    res = assistant.run(QUERY, _fragments(), target=TARGET)
    rec = res.record
    assert rec.common.final_status.value == "accepted"
    assert rec.common.evidence_ids == ("E-01", "E-04", "E-06")
    assert rec.common.conflict_detected and rec.common.priority_applied
    assert rec.trace is None and rec.meta.calls == 1 and len(script.requests) == 1
    assert OutputRecord.model_validate_json(rec.to_json()) == rec


def test_b2_self_check_pass_decides_the_final_status(make):
    draft = {**ANSWER, "status": "rejected", "cited": ["E-05"]}
    final = {"missing_exceptions": ["cl. 9.3 removes the force majeure excuse"], "contradictions": [],
             "unresolved": [], "uncovered": ["E-06"], "final": ANSWER}
    assistant, script = make("b2", [{"result": draft}, {"check": final}])
    rec = assistant.ask(QUERY, _fragments())
    assert rec.common.final_status.value == "accepted"
    assert rec.meta.calls == 2
    second = script.requests[1][-1]["content"]
    draft_field = second.split("[[ ## draft ## ]]", 1)[1]
    assert '"status": "rejected"' in draft_field and '"cited": ["E-05"]' in draft_field


def test_b3_extracts_facts_and_rules_then_answers(make):
    reply = {"analysis": {"facts": THEORY["facts"] + [{"id": "f9", "literal": "Storm(x)", "evidence": []}],
                          "rules": THEORY["rules"], "result": ANSWER}}
    assistant, _ = make("b3", [reply])
    rec = assistant.ask(QUERY, _fragments())
    assert rec.common.final_status.value == "accepted"
    assert [f.id for f in rec.trace.facts] == ["f1", "f2", "f3", "f9"]
    assert rec.trace.attacks == () and rec.trace.priorities == () and rec.trace.edges == ()
    assert [(r.id, r.reason) for r in rec.trace.rejected] == [("f9", "cites no evidence fragment")]
    assert "Storm(x)" in rec.common.emitted_conclusions
    assert rec.trace.facts[0].span is not None  # the quote was located inside E-01


@pytest.mark.parametrize("change, status", [
    ({}, "accepted"),
    ({"priorities": THEORY["priorities"][:1]}, "both"),
    ({"rules": THEORY["rules"][:2], "priorities": THEORY["priorities"][:1]}, "rejected"),
    ({"facts": []}, "undecidable"),
])
def test_b4_status_is_computed_by_the_engine(make, change, status):
    assistant, _ = make("b4", [{"theory": theory(**change)}])
    res = assistant.run(QUERY, _fragments(), target=TARGET)
    assert res.record.common.final_status.value == status
    assert res.engine_ms > 0 and res.prediction.evaluation.status.value == status


def test_b4_trace_contract_and_defeated_attacks(make):
    assistant, _ = make("b4", [{"theory": THEORY}])
    rec = assistant.ask(QUERY, _fragments(), target=TARGET)
    trace = rec.trace
    states = sorted(e.state for e in trace.edges if e.type.value == "attack")
    assert "defeated" in states
    assert any(e.type.value == "defeat" for e in trace.edges)
    assert rec.common.priority_applied and rec.common.conflict_detected
    assert "Decided by priority" in rec.common.answer
    assert {"E-05", "E-06"} <= set(rec.common.evidence_ids)


def test_b4_keeps_ungrounded_objects_as_rejected(make):
    t = theory(rules=THEORY["rules"] + [{"id": "r9", "antecedents": [], "consequent": "¬Penalty(x)",
                                          "evidence": []}])
    assistant, _ = make("b4", [{"theory": t}])
    rec = assistant.ask(QUERY, _fragments(), target=TARGET)
    assert rec.common.final_status.value == "accepted"
    assert [(r.kind, r.id) for r in rec.trace.rejected] == [("rule", "r9")]
    assert "¬Penalty(x)" in rec.trace.emitted_conclusions


def test_b4_without_target_asks_the_lm_for_it(make):
    assistant, script = make("b4", [{"theory": theory(target="Penalty(x)")}])
    res = assistant.run(QUERY, _fragments())
    assert res.prediction.target == "Penalty(x)"
    assert res.record.common.final_status.value == "accepted"
    assert "[[ ## target ## ]]" not in script.prompts[0]


def test_common_only_contract_drops_the_trace(make):
    assistant, _ = make("b4", [{"theory": THEORY}], variant="standard+common-v1")
    rec = assistant.ask(QUERY, _fragments(), target=TARGET)
    assert rec.trace is None and rec.variant == "standard+common-v1"


def test_hard_failure_is_recorded_with_raw_text_and_scored_incorrect(make, scenario):
    bad = json.dumps({"theory": theory(priorities=[{"stronger": "r8", "weaker": "r1", "basis": "exception",
                                                     "evidence": ["E-05"]}])})
    assistant, script = make("b4", [bad] * 3, max_retries=2)
    rec = assistant.run_scenario(scenario).record
    assert rec.meta.hard_failure and rec.common is None and rec.trace is None
    assert rec.meta.raw_text == bad and rec.meta.calls == 3 and len(script.requests) == 3
    assert "r8" in rec.meta.failure_reason and len(rec.meta.repair_log) == 3
    assert rec.status is None and rec.status != scenario.gold.status
    assert OutputRecord.model_validate_json(rec.to_json()).meta.hard_failure


def test_reask_then_success_is_logged(make):
    bad = theory(facts=[{"id": "f1", "literal": "Delay(x)", "evidence": ["E-01"], "quote": "shipped on time"}])
    assistant, script = make("b4", [{"theory": bad}, {"theory": THEORY}])
    rec = assistant.ask(QUERY, _fragments(), target=TARGET)
    assert not rec.meta.hard_failure and rec.meta.calls == 2
    assert "does not occur in fragment E-01" in script.prompts[1]
    assert rec.meta.repair_log and rec.meta.repair_log[0].startswith("re-ask after call 1")


def test_b4_audit_finds_the_inverted_priority(make, scenario, candidate):
    assistant, _ = make("b4", [{"theory": THEORY}])
    rec = assistant.run_scenario(scenario.model_copy(update={"candidate": candidate})).record
    assert rec.trace.diagnostics.defect_class.value == "priority_inversion"
    assert rec.trace.diagnostics.location == "priority:r3>r2"  # the comparison as the evidence states it
    assert rec.common.final_status.value == "accepted"


def test_b4_audit_of_a_faithful_candidate_reports_none(make, scenario):
    from assistant.extraction import Extraction, to_analysis
    from symbolic.traces.trace_attacks import explicit_attack_edges
    from symbolic.engine.status import evaluate_analysis

    own = to_analysis(Extraction.model_validate(THEORY))
    edges = explicit_attack_edges(evaluate_analysis([f.id for f in scenario.evidence], own, TARGET))
    assistant, _ = make("b4", [{"theory": THEORY}, {"theory": THEORY}])
    faithful = own.model_copy(update={"attacks": edges})
    rec = assistant.run_scenario(scenario.model_copy(update={"candidate": faithful})).record
    assert rec.trace.diagnostics.defect_class.value == "none"
    deleted = own.model_copy(update={"attacks": edges[1:]})
    rec = assistant.run_scenario(scenario.model_copy(update={"candidate": deleted})).record
    gone = edges[0]
    assert rec.trace.diagnostics.defect_class.value == "attack_deletion"
    assert rec.trace.diagnostics.location == f"attack:{gone.source}-{gone.kind.value}->{gone.target}"


def test_b1_audit_reports_what_the_prompt_asks(make, scenario, candidate):
    verdict = {"defect_class": "priority_inversion", "location": "r2>r3", "explanation": "9.3 overrides 9.1",
               "corrected": ANSWER}
    assistant, script = make("b1", [{"audit": {**verdict, "location": "r5>r1"}}, {"audit": verdict}])
    rec = assistant.run_scenario(scenario.model_copy(update={"candidate": candidate})).record
    assert rec.trace.diagnostics.location == "priority:r2>r3" and rec.common.final_status.value == "accepted"
    assert "r2>r3 (exception) [E-06]" in script.prompts[0]
    assert "priority:r5>r1 orders no pair of candidate rules" in script.prompts[1]


def test_b2_and_b3_audit(make, scenario, candidate):
    verdict = {"defect_class": "priority_inversion", "location": "r2>r3", "corrected": ANSWER}
    check = {"final": ANSWER}
    b2, _ = make("b2", [{"audit": verdict}, {"check": check}])
    sc = scenario.model_copy(update={"candidate": candidate})
    assert b2.run_scenario(sc).record.trace.diagnostics.defect_class.value == "priority_inversion"
    b3, _ = make("b3", [{"analysis": {"facts": THEORY["facts"], "rules": THEORY["rules"], "result": ANSWER}},
                        {"audit": verdict}])
    rec = b3.run_scenario(sc).record
    assert rec.trace.diagnostics.location == "priority:r2>r3" and len(rec.trace.rules) == 3


def _fragments():
    from assistant_cases import FRAGMENTS

    return FRAGMENTS


def test_records_are_scored_by_the_scorer(make, scenario):
    from scorer.score import score_case

    ok, _ = make("b4", [{"theory": THEORY}])
    good = score_case(scenario, ok.run_scenario(scenario).record, ncr=False)
    assert good.correct and not good.hard_failure
    failing, _ = make("b4", ["{not json"] * 3)
    bad = score_case(scenario, failing.run_scenario(scenario).record, ncr=False)
    assert bad.hard_failure and not bad.correct
