"""Per-case grammars (assistant.constrained), the by-fragment extraction (assistant.by_fragment)
and shortcut theories (scorer.shortcut): what a constrained decoder can and cannot produce, and
what the validator and the scorer make of a reply."""

from __future__ import annotations

import json
import re

import pydantic
import pytest

from assistant.configs import build
from assistant.constrained import case_schema, literal_pattern
from assistant.evidence import EvidencePackage
from assistant.extraction import Extraction, StructuredAnswer, TargetedExtraction
from assistant.schemas import CitedAnswer, SelfCheck
from symbolic.engine.status import evaluate_analysis
from assistant.extraction import to_analysis

from assistant_cases import FRAGMENTS, QUERY, TARGET

PACKAGE = EvidencePackage(fragments=FRAGMENTS)
IDS = [f.id for f in FRAGMENTS]

#: The penalty example in the by-fragment form: E-04/E-05/E-06 state the rules, E-01..E-03 the facts.
BY_FRAGMENT = {
    "E-01": {"facts": ["Delay(x)"], "rules": []},
    "E-02": {"facts": ["ForceMajeure(x)"], "rules": []},
    "E-03": {"facts": ["GrossNegligence(x)"], "rules": []},
    "E-04": {"facts": [], "rules": [{"if": ["Delay(x)"], "then": "Penalty(x)", "over": [], "basis": "hierarchy"}]},
    "E-05": {"facts": [], "rules": [{"if": ["ForceMajeure(x)"], "then": "¬Penalty(x)", "over": ["E-04"],
                                     "basis": "exception"}]},
    "E-06": {"facts": [], "rules": [{"if": ["GrossNegligence(x)"], "then": "Penalty(x)", "over": ["E-05"],
                                     "basis": "exception"}]},
}


def _schema(kind, target=TARGET):
    return case_schema({"out": kind}, {"evidence": PACKAGE, "query": QUERY, "target": target})


@pytest.mark.parametrize("kind", [CitedAnswer, Extraction, TargetedExtraction, StructuredAnswer, SelfCheck])
def test_every_case_schema_becomes_a_llama_cpp_grammar_without_falling_back_to_plain_json(kind):
    """llama-cpp-python silently serves plain JSON when a schema does not convert: convert it strictly."""
    grammar_mod = pytest.importorskip("llama_cpp.llama_grammar")
    converter = grammar_mod.SchemaConverter(prop_order={}, allow_fetch=False, dotall=False, raw_pattern=False)
    schema = _schema(kind)
    converter.visit(converter.resolve_refs(schema, ""), "")
    gbnf = converter.format_grammar()
    grammar_mod.LlamaGrammar.from_string(gbnf, verbose=False)
    assert "E-06" in gbnf  # the package's ids are in the grammar


def test_literals_have_the_targets_arguments_and_facts_cannot_assert_the_target():
    fact = re.compile(literal_pattern(TARGET, exclude_target=True))
    any_literal = re.compile(literal_pattern(TARGET))
    assert fact.match("Delay(x)") and fact.match("¬ForceMajeure(x)") and fact.match("PenaltyWaived(x)")
    assert not fact.match("Penalty(x)") and not fact.match("¬Penalty(x)")
    assert any_literal.match("¬Penalty(x)") and not any_literal.match("Delay(y)")
    assert not any_literal.match("the supplier was late(x)") and not any_literal.match("Delay(x) and more")


def test_the_extraction_grammar_asks_for_every_fragment_and_names_only_other_fragments():
    schema = _schema(Extraction)["properties"]["out"]
    assert schema["required"] == IDS
    rule = schema["properties"]["E-05"]["properties"]["rules"]["items"]
    assert rule["properties"]["over"]["items"]["enum"] == [i for i in IDS if i != "E-05"]
    exceptions = rule["properties"]["then"]["anyOf"][1]["enum"]
    assert "¬applicable(E-04)" in exceptions and "¬applicable(E-05)" not in exceptions


def test_a_by_fragment_reply_validates_into_the_penalty_theory_and_the_engine_accepts():
    theory = Extraction.model_validate(BY_FRAGMENT, context={"evidence": PACKAGE, "target": TARGET})
    assert [(r.id, r.consequent) for r in theory.rules] == [("r1", "Penalty(x)"), ("r2", "¬Penalty(x)"),
                                                           ("r3", "Penalty(x)")]
    assert [(p.stronger, p.weaker, p.basis.value) for p in theory.priorities] == [("r2", "r1", "exception"),
                                                                                ("r3", "r2", "exception")]
    assert [f.evidence for f in theory.facts] == [["E-01"], ["E-02"], ["E-03"]]
    evaluation = evaluate_analysis(PACKAGE.ids, to_analysis(theory), TARGET)
    assert evaluation.status.value == "accepted"
    assert theory.dropped == ()


def test_exceptions_and_priorities_naming_a_fragment_without_rules_are_dropped_and_listed():
    reply = json.loads(json.dumps(BY_FRAGMENT))
    reply["E-05"]["rules"][0]["over"] = ["E-01"]  # E-01 states a fact, no rule
    reply["E-06"]["rules"].append({"if": [], "then": "¬applicable(E-02)", "over": [], "basis": "exception"})
    theory = Extraction.model_validate(reply, context={"evidence": PACKAGE, "target": TARGET})
    assert [(p.stronger, p.weaker) for p in theory.priorities] == [("r3", "r2")]
    assert len(theory.dropped) == 2 and "E-01" in theory.dropped[0] and "E-02" in theory.dropped[1]


def test_an_exception_to_a_fragment_becomes_an_undercutter_of_its_rule():
    reply = json.loads(json.dumps(BY_FRAGMENT))
    reply["E-06"]["rules"] = [{"if": ["GrossNegligence(x)"], "then": "¬applicable(E-05)", "over": [],
                               "basis": "exception"}]
    theory = Extraction.model_validate(reply, context={"evidence": PACKAGE, "target": TARGET})
    assert theory.rules[-1].consequent == "¬applicable(r2)"
    assert evaluate_analysis(PACKAGE.ids, to_analysis(theory), TARGET).status.value == "accepted"


def test_a_theory_that_asserts_the_target_is_refused_as_a_shortcut():
    reply = json.loads(json.dumps(BY_FRAGMENT))
    reply["E-01"]["facts"].append("¬Penalty(x)")
    with pytest.raises(pydantic.ValidationError, match="shortcut: fact f2 asserts the proposition asked about"):
        Extraction.model_validate(reply, context={"evidence": PACKAGE, "target": TARGET})
    targeted = {**reply, "target": "Penalty(x)"}
    with pytest.raises(pydantic.ValidationError, match="shortcut"):
        TargetedExtraction.model_validate(targeted, context={"evidence": PACKAGE})


def test_b4_runs_the_by_fragment_reply_of_a_constrained_backbone_end_to_end():
    """The scripted backbone decodes under the grammar and plays the by-fragment reply."""
    import dspy

    from assistant.adapter import InstructorAdapter
    from assistant.scripted import Script, scripted_lm

    script = Script([{"theory": BY_FRAGMENT}])
    with dspy.context(lm=scripted_lm("scripted/test", script), adapter=InstructorAdapter(constrained=True)):
        pred = build("b4")(query=QUERY, evidence=PACKAGE, target=TARGET)
    assert pred.common.final_status.value == "accepted"
    assert set(script.schemas[0]["properties"]["theory"]["required"]) == set(IDS)
    assert "For example" in script.requests[0][0]["content"]


def test_the_scorer_counts_a_shortcut_trace_as_incorrect_even_with_the_gold_status():
    from scorer.contract import OutputRecord, TraceV2
    from scorer.metrics._examples import penalty_scenario
    from scorer.score import score_case
    from symbolic.scenario.model import Fact

    scenario = penalty_scenario()
    shortcut = Fact(id="f9", literal=scenario.target, evidence=[scenario.evidence[0].id])
    record = OutputRecord(case_id=scenario.id, configuration="b4", model="m",
                          common={"final_status": scenario.gold.status.value},
                          trace=TraceV2(facts=[shortcut]))
    result = score_case(scenario, record)
    assert result.shortcut and not result.correct and result.metrics["ASA"].value == 0.0
    assert "shortcut" in result.metrics["ASA"].explanation
    assert result.to_dict()["shortcut"] is True
