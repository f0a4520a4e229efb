"""GEPA feedback names the actual defect of constructed outputs (Algorithm 4 alignment)."""

from __future__ import annotations

import inspect
import json

import dspy
import pytest

from assistant.api import Assistant
from assistant.backends import Backbone
from assistant.scripted import Script, scripted_lm
from optimize.feedback import describe_edge, feedback_text
from optimize.objectives import Objective
from scorer.metrics._examples import penalty_output, penalty_scenario
from scorer.score import score_case

R3_OVER_R2 = "the priority (GrossNegligence(x)=>Penalty(x)) > (ForceMajeure(x)=>¬Penalty(x))"


def _feedback(variant: str, status: str, **flags) -> str:
    scenario = penalty_scenario(**flags)
    out = penalty_output(status, variant)
    return feedback_text(score_case(scenario, out, ncr=False), out)


def test_missing_priority_names_the_priority_and_the_attack_it_defeats():
    text = _feedback("no-r3>r2", "both", priority=True)
    assert text.splitlines()[0] == "Status both is wrong: the gold status is accepted."
    assert f"{R3_OVER_R2} grounded in fragment E-06 is missing" in text
    assert ("the rebut of an argument for ¬Penalty(x) on an argument for Penalty(x) should have been defeated by "
            + R3_OVER_R2) in text
    assert "required priority rule:GrossNegligence(x)=>Penalty(x) > rule:ForceMajeure(x)=>¬Penalty(x) is missing" \
        in text
    assert ("the rebut of an argument for ¬Penalty(x) on an argument for Penalty(x) is in your trace with the "
            "wrong state") in text  # present but still active: an attribute mismatch, not an absent edge
    # (the constructed output has objects only; an engine trace names the state, see below)


def test_inverted_priority_is_called_inverted_and_unsupported():
    text = _feedback("inverted", "both", priority=True)
    assert "priority rule:ForceMajeure(x)=>¬Penalty(x) > rule:GrossNegligence(x)=>Penalty(x) is inverted" in text
    assert ("your trace defeats the rebut of an argument for Penalty(x) on an argument for ¬Penalty(x) by the "
            "priority (ForceMajeure(x)=>¬Penalty(x)) > (GrossNegligence(x)=>Penalty(x))") in text


def test_invented_rule_is_unsupported_and_real_rules_are_missing():
    text = _feedback("unsupported", "both", contradiction=True)
    assert "rule Delay(x)&GrossNegligence(x)=>Penalty(x) grounded in fragment E-07 is not in the gold trace" in text
    assert "rule Delay(x)=>Penalty(x) grounded in fragment E-04 is missing" in text
    assert "Conflicts not located:" in text


def test_missing_exception_rule_is_named_with_its_fragment():
    text = _feedback("no-r2", "accepted", contradiction=True)
    assert "rule ForceMajeure(x)=>¬Penalty(x) grounded in fragment E-05 is missing" in text
    assert "rule:Delay(x)=>Penalty(x) vs rule:ForceMajeure(x)=>¬Penalty(x)" in text


def test_gold_trace_gets_no_defect():
    text = _feedback("gold", "accepted", priority=True, contradiction=True)
    assert text == "Status accepted is correct.\nThe trace matches the gold trace."


def test_ungrounded_object_rejected_by_the_validator_is_named_with_the_reason():
    scenario = penalty_scenario(priority=True)
    theory = {"facts": [{"id": f"f{i}", "literal": lit, "evidence": [f"E-0{i}"]}
                        for i, lit in ((1, "Delay(x)"), (2, "ForceMajeure(x)"), (3, "GrossNegligence(x)"))],
              "rules": [{"id": "r1", "antecedents": ["Delay(x)"], "consequent": "Penalty(x)", "evidence": ["E-04"]},
                        {"id": "r2", "antecedents": ["ForceMajeure(x)"], "consequent": "¬Penalty(x)",
                         "evidence": ["E-05"]},
                        {"id": "r3", "antecedents": ["GrossNegligence(x)"], "consequent": "Penalty(x)",
                         "evidence": []}],
              "attacks": [], "priorities": [{"stronger": "r2", "weaker": "r1", "basis": "exception",
                                             "evidence": ["E-05"]}]}
    script = Script([json.dumps({"theory": theory})])
    backbone = Backbone("scripted/t", scripted_lm("scripted/t", script), "scripted", True)
    pred = Assistant("b4", backbone=backbone).run_scenario(scenario).prediction
    scored = Objective([scenario]).score(scenario.id, pred)
    assert "- rule r3 was rejected: cites no evidence fragment." in scored.feedback
    assert "rule GrossNegligence(x)=>Penalty(x) grounded in fragment E-06 is missing" in scored.feedback
    assert ("the rebut of an argument for ¬Penalty(x) on an argument for Penalty(x) is active in your trace but "
            "the gold trace defeats it") in scored.feedback
    assert scored.score < 0.5


def test_gepa_metric_has_five_arguments_and_returns_score_and_feedback():
    scenario = penalty_scenario(priority=True)
    objective = Objective([scenario])
    inspect.signature(objective.gepa_metric).bind(None, None, None, None, None)
    out = penalty_output("both", "no-r3>r2")
    result = objective.gepa_metric(dspy.Example(case_id="penalty"), dspy.Prediction(common=out.common,
                                                                                     trace=out.trace))
    assert 0.0 <= result.score < 1.0 and R3_OVER_R2 in result.feedback


def test_hard_failure_feedback():
    scenario = penalty_scenario()
    scored = Objective([scenario]).score("penalty", None)
    assert scored.score == 0.0
    assert scored.feedback.startswith("The output failed validation (the module returned no answer)")


@pytest.mark.parametrize("edge, missing, expected", [
    ("grounding:evidence:E-01→fact:Delay(x)", True, "fact Delay(x) grounded in fragment E-01 is missing"),
    ("attack:undercut:arg:¬applicable[a=>p]@1f→arg:p@2e", False,
     "the undercut of an argument for ¬applicable[a=>p] on an argument for p is unsupported by the evidence"),
    ("status:conclusion:p→status:accepted", True, "p should have the status accepted"),
])
def test_edge_sentences(edge, missing, expected):
    assert describe_edge(edge, missing=missing) == expected
