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
    "E-01": {"role": "fact", "meets": ["E-04"]},
    "E-02": {"role": "fact", "meets": ["E-05"]},
    "E-03": {"role": "fact", "meets": ["E-06"]},
    "E-04": {"role": "rule", "condition": "Delay", "concludes": "yes", "over": [], "basis": "hierarchy"},
    "E-05": {"role": "rule", "condition": "ForceMajeure", "concludes": "no", "over": ["E-04"], "basis": "exception"},
    "E-06": {"role": "rule", "condition": "GrossNegligence", "concludes": "yes", "over": ["E-05"],
             "basis": "exception"},
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


def test_the_extraction_grammar_asks_for_every_fragment_and_links_only_other_fragments():
    schema = _schema(Extraction)
    out = schema["properties"]["out"]
    assert out["required"] == IDS
    rule, fact, none = out["properties"]["E-05"]["anyOf"]
    # A rule overrides only earlier fragments, so two rules can never override each other.
    assert rule["properties"]["over"]["items"]["enum"] == ["E-01", "E-02", "E-03", "E-04"]
    assert out["properties"]["E-01"]["anyOf"][0]["properties"]["over"]["maxItems"] == 0
    assert fact["properties"]["meets"]["items"]["enum"] == IDS and fact["properties"]["meets"]["minItems"] == 1
    assert none["required"] == ["role"]
    condition = re.compile(schema["$defs"]["condition"]["pattern"])
    assert condition.match("ForceMajeure") and condition.match("PenaltyWaived")
    assert not condition.match("Penalty") and not condition.match("Delay(x)") and not condition.match("late")


def test_a_by_fragment_reply_validates_into_the_penalty_theory_and_the_engine_accepts():
    theory = Extraction.model_validate(BY_FRAGMENT, context={"evidence": PACKAGE, "target": TARGET})
    assert [(r.id, r.antecedents, r.consequent) for r in theory.rules] == [
        ("r1", ["Delay(x)"], "Penalty(x)"), ("r2", ["ForceMajeure(x)"], "¬Penalty(x)"),
        ("r3", ["GrossNegligence(x)"], "Penalty(x)")]
    assert [(p.stronger, p.weaker, p.basis.value) for p in theory.priorities] == [("r2", "r1", "exception"),
                                                                                ("r3", "r2", "exception")]
    assert [(f.literal, f.evidence) for f in theory.facts] == [("Delay(x)", ["E-01"]), ("ForceMajeure(x)", ["E-02"]),
                                                               ("GrossNegligence(x)", ["E-03"])]
    evaluation = evaluate_analysis(PACKAGE.ids, to_analysis(theory), TARGET)
    assert evaluation.status.value == "accepted"
    assert theory.dropped == ()


@pytest.mark.parametrize("change, status", [
    ({"E-03": {"role": "none"}}, "rejected"),  # no gross negligence: the force-majeure exception stands
    ({"E-02": {"role": "none"}, "E-03": {"role": "none"}}, "accepted"),
    ({"E-05": {"role": "rule", "condition": "ForceMajeure", "concludes": "no", "over": [], "basis": "exception"},
      "E-03": {"role": "none"}}, "both"),  # the conflict without its priority stays unresolved
    ({"E-01": {"role": "none"}, "E-02": {"role": "none"}, "E-03": {"role": "none"}}, "undecidable"),
])
def test_each_status_is_reachable_from_the_roles(change, status):
    reply = {**BY_FRAGMENT, **change}
    theory = Extraction.model_validate(reply, context={"evidence": PACKAGE, "target": TARGET})
    assert evaluate_analysis(PACKAGE.ids, to_analysis(theory), TARGET).status.value == status


def test_links_to_a_fragment_without_a_rule_are_dropped_and_listed():
    reply = {**BY_FRAGMENT, "E-05": {**BY_FRAGMENT["E-05"], "over": ["E-01"]},  # E-01 reports a fact
             "E-02": {"role": "fact", "meets": ["E-03", "E-05"]}}
    theory = Extraction.model_validate(reply, context={"evidence": PACKAGE, "target": TARGET})
    assert [(p.stronger, p.weaker) for p in theory.priorities] == [("r3", "r2")]
    assert theory.dropped == ("E-02: meets the condition of E-03, which states no rule",
                              "E-05: prevails over E-01, which states no rule")


def test_two_rules_with_one_condition_name_keep_conditions_of_their_own():
    reply = {**BY_FRAGMENT, "E-06": {**BY_FRAGMENT["E-06"], "condition": "ForceMajeure"}}
    theory = Extraction.model_validate(reply, context={"evidence": PACKAGE, "target": TARGET})
    assert [r.antecedents for r in theory.rules][1:] == [["ForceMajeure(x)"], ["ForceMajeureE06(x)"]]
    assert theory.facts[2].literal == "ForceMajeureE06(x)"


def test_a_by_fragment_reply_without_a_target_is_refused():
    with pytest.raises(pydantic.ValidationError, match="needs the target literal"):
        Extraction.model_validate(BY_FRAGMENT, context={"evidence": PACKAGE})
    targeted = TargetedExtraction.model_validate({**BY_FRAGMENT, "target": "¬Penalty(x)"},
                                                 context={"evidence": PACKAGE})
    assert targeted.rules[0].consequent == "¬Penalty(x)" and targeted.target == "¬Penalty(x)"


def test_a_theory_that_asserts_the_target_is_refused_as_a_shortcut():
    usual = {"facts": [{"id": "f1", "literal": "¬Penalty(x)", "evidence": ["E-01"]}], "rules": [],
             "attacks": [], "priorities": []}
    with pytest.raises(pydantic.ValidationError, match="shortcut: fact f1 asserts the proposition asked about"):
        Extraction.model_validate(usual, context={"evidence": PACKAGE, "target": TARGET})
    # Where the model names the target itself, a condition named after it is the same shortcut.
    targeted = {**BY_FRAGMENT, "E-04": {**BY_FRAGMENT["E-04"], "condition": "Penalty"}, "target": "Penalty(x)"}
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


def test_a_gold_theory_projects_into_the_by_fragment_form_with_its_status():
    """Demos for the by-fragment predictors come from gold theories (assistant.variants.demo_fields)."""
    from assistant.by_fragment import to_fragments
    from scorer.metrics._examples import penalty_scenario

    scenario = penalty_scenario()
    gold = scenario.gold
    roles = to_fragments(gold.facts, gold.rules, gold.priorities, scenario.target, [e.id for e in scenario.evidence])
    assert {"fact", "rule"} <= {e["role"] for e in roles.values()}
    package = EvidencePackage.of(scenario.evidence)
    theory = Extraction.model_validate(roles, context={"evidence": package, "target": scenario.target})
    status = evaluate_analysis(package.ids, to_analysis(theory), scenario.target).status
    assert status == gold.status


def test_under_the_grammar_extraction_demos_are_shown_in_the_by_fragment_form():
    """Gold demos (and optimizers' demos) hold the usual extraction; the prompt shows the decoded form."""
    import dspy

    from assistant.adapter import InstructorAdapter
    from assistant.scripted import Script, scripted_lm
    from assistant.variants import demo_fields
    from scorer.metrics._examples import penalty_scenario

    fields = demo_fields(penalty_scenario())["extract_by_fragment"]
    module = build("b4")
    module.extract_by_fragment.demos = [dspy.Example(**fields)]
    script = Script([{"theory": BY_FRAGMENT}])
    with dspy.context(lm=scripted_lm("scripted/test", script), adapter=InstructorAdapter(constrained=True)):
        module(query=QUERY, evidence=PACKAGE, target=TARGET)
    demo_reply = json.loads(script.requests[0][2]["content"])["theory"]
    assert {entry["role"] for entry in demo_reply.values()} >= {"rule", "fact"}
    assert "facts" not in demo_reply


def _audit_schema(candidate):
    from assistant.schemas import AuditVerdict
    from assistant.signatures import CandidateAnalysis

    return case_schema({"audit": AuditVerdict}, {"evidence": PACKAGE, "query": QUERY, "target": TARGET,
                                                 "candidate": CandidateAnalysis(analysis=candidate)})


def _penalty_candidate():
    theory = Extraction.model_validate(BY_FRAGMENT, context={"evidence": PACKAGE, "target": TARGET})
    return to_analysis(theory)


def test_the_audit_grammar_converts_and_names_only_places_the_candidate_has():
    """Without a grammar Gemma 270M wrote the location "None" on 22 of 24 controlled cases (parse failures)."""
    grammar_mod = pytest.importorskip("llama_cpp.llama_grammar")
    schema = _audit_schema(_penalty_candidate())
    converter = grammar_mod.SchemaConverter(prop_order={}, allow_fetch=False, dotall=False, raw_pattern=False)
    converter.visit(converter.resolve_refs(schema, ""), "")
    grammar_mod.LlamaGrammar.from_string(converter.format_grammar(), verbose=False)
    audit = schema["properties"]["audit"]
    assert audit["required"] == ["defect_class", "location", "explanation", "corrected"]
    whole, attack, null = audit["properties"]["location"]["anyOf"]
    assert null == {"type": "null"} and "None" not in whole["enum"] and not re.match(attack["pattern"], "None")
    assert {"rule:r2", "fact:f1", "priority:r3>r2", "priority:r2>r3", "evidence:E-06", "target:Penalty(x)"} \
        <= set(whole["enum"])
    assert "rule:r7" not in whole["enum"] and "fact:f9" not in whole["enum"]
    assert re.match(attack["pattern"], "attack:r2-rebut->Penalty(x)")
    assert not re.match(attack["pattern"], "attack:r9-rebut->Penalty(x)")


def test_every_gold_defect_location_of_controlled_140_is_one_the_audit_grammar_allows():
    from assistant.constrained import audit_locations
    from experiments.suites.registry import load_suite
    from symbolic.scenario.literals import normalize_literal

    located = [sc for sc in load_suite("controlled-140") if sc.metadata.defect_location is not None]
    assert len(located) == 120
    for sc in located:
        whole, attack = audit_locations([e.id for e in sc.evidence], normalize_literal(sc.target), sc.candidate)
        assert sc.metadata.defect_location in whole or re.match(attack, sc.metadata.defect_location), sc.id


def test_a_grammar_shaped_audit_validates_against_its_candidate():
    from assistant.schemas import AuditVerdict

    reply = {"defect_class": "priority_inversion", "location": "priority:r3>r2", "explanation": "inverted",
             "corrected": {"answer": "A penalty is due.", "cited": ["E-06"], "conflict": True,
                           "priority_applied": True, "status": "accepted"}}
    verdict = AuditVerdict.model_validate(reply, context={"candidate": _penalty_candidate(), "evidence": PACKAGE,
                                                          "target": TARGET})
    assert verdict.location == "priority:r3>r2"
