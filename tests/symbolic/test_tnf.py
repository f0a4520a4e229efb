"""Trace normal form (docs/semantics.md section 12): the paper's Appendix C.1-C.3
cases on the penalty example, invariance under renaming and reordering, and
the JSON format."""

from __future__ import annotations

import json
import random
import warnings

import pytest

from symbolic.errors import PriorityCycleWarning
from symbolic.scenario.labels import Status
from symbolic.scenario.model import Analysis, AttackEdge, EdgeType, Fact, NodeType, Priority, Rule, Trace, TraceEdge
from symbolic.traces.records import RecordError
from symbolic.traces.tnf import (
    SCHEMA_VERSION,
    TraceFormatError,
    check_trace,
    edge_id,
    normal_form,
    tnf,
    tnf_equivalent,
    tnf_json,
    trace_from_json,
)

from penalty_cases import trace_case

CASE = trace_case()
EVIDENCE = tuple(CASE["evidence"])
PENALTY = Analysis.model_validate(CASE["analysis"])
TARGET = CASE["target"]


def with_(analysis: Analysis, **changes) -> Analysis:
    return Analysis(**{**{k: getattr(analysis, k) for k in ("facts", "rules", "attacks", "priorities")},
                       **changes})


def status_of(trace: Trace) -> str:
    return next(n.label for n in trace.nodes if n.type is NodeType.STATUS)


def attack_edges(trace: Trace) -> list[TraceEdge]:
    return [e for e in trace.edges if e.type is EdgeType.ATTACK]


BASE = tnf(EVIDENCE, PENALTY, TARGET, query=CASE["query"])


def test_penalty_tnf_has_the_expected_shape():
    assert status_of(BASE) == "accepted"
    types = {t: sum(n.type is t for n in BASE.nodes) for t in NodeType}
    assert types == {NodeType.QUERY: 1, NodeType.EVIDENCE: 6, NodeType.FACT: 3, NodeType.RULE: 3,
                     NodeType.PRIORITY: 2, NodeType.ARGUMENT: 6, NodeType.CONCLUSION: 5,
                     NodeType.STATUS: 1}
    ids = {n.id for n in BASE.nodes}
    assert {"rule:Delay(x)=>Penalty(x)", "rule:ForceMajeure(x)=>¬Penalty(x)", "fact:Delay(x)",
            "priority:(GrossNegligence(x)=>Penalty(x))>(ForceMajeure(x)=>¬Penalty(x))",
            "status:accepted", "query:Penalty(x)", "conclusion:Penalty(x)"} <= ids
    assert not any(i.startswith(("rule:r", "fact:f")) for i in ids)
    states = sorted(e.state for e in attack_edges(BASE))
    assert states == ["active", "defeated", "defeated", "defeated"]


def test_tnf_is_sorted_and_byte_identical_on_rerun():
    again = tnf(EVIDENCE, PENALTY, TARGET, query=CASE["query"])
    assert tnf_json(again) == tnf_json(BASE)
    assert [n.id for n in BASE.nodes] == sorted(n.id for n in BASE.nodes)
    assert [edge_id(e) for e in BASE.edges] == sorted(edge_id(e) for e in BASE.edges)
    assert len({edge_id(e) for e in BASE.edges}) == len(BASE.edges)
    check_trace(BASE)


# --- Appendix C.1: an attack as a serialized record vs as a typed edge -------------------

def test_c1_record_and_typed_edge_of_a_derivable_attack_are_equivalent():
    typed = with_(PENALTY, attacks=[AttackEdge(source="r2", target="r1", kind="rebut", evidence=["E-05"])])
    record = {"attacker": "r2", "attacked": "r1", "type": "rebuttal", "evidence": "E_05"}
    a = tnf(EVIDENCE, typed, TARGET, query=CASE["query"])
    b = tnf(EVIDENCE, PENALTY, TARGET, query=CASE["query"], raw_edges=[record])
    assert tnf_json(a) == tnf_json(b)
    assert tnf_equivalent(a, b)


def test_c1_stating_a_derived_rebuttal_on_a_conclusion_changes_nothing():
    typed = with_(PENALTY, attacks=[AttackEdge(source="r2", target="Penalty(x)", kind="rebut",
                                               evidence=["E-05"])])
    record = "r2 rebuts Penalty(x)"
    a = tnf(EVIDENCE, typed, TARGET, query=CASE["query"])
    assert tnf_json(a) == tnf_json(BASE)
    form = normal_form(EVIDENCE, PENALTY, TARGET, query=CASE["query"], raw_edges=[record])
    assert tnf_json(form.trace) == tnf_json(BASE)  # dropped (no evidence), and derived anyway


def test_c1_record_and_typed_edge_of_an_explicit_undercut_are_equivalent():
    typed = with_(PENALTY, attacks=[AttackEdge(source="r2", target="r1", kind="undercut", evidence=["E-05"])])
    spellings = [
        {"from": "r2", "to": "r1", "kind": "undercutting", "evidence_ids": ["e05"]},
        {"event": "attack", "source": "r2", "target": "r1", "attack_type": "Undercut", "cites": "E-05"},
        '{"attacker": "r2", "attacked": "r1", "type": "undercutter", "evidence": ["Evidence 5"]}',
    ]
    a = tnf(EVIDENCE, typed, TARGET)
    assert not tnf_equivalent(a, tnf(EVIDENCE, PENALTY, TARGET))  # the explicit undercut shows
    assert any(e.kind.value == "undercut" for e in attack_edges(a))
    for record in spellings:
        assert tnf_json(tnf(EVIDENCE, PENALTY, TARGET, raw_edges=[record])) == tnf_json(a)


def test_c1_record_without_evidence_is_dropped_as_ungrounded():
    form = normal_form(EVIDENCE, PENALTY, TARGET, raw_edges=["r2 undercuts r1"])
    assert tnf_json(form.trace) == tnf_json(tnf(EVIDENCE, PENALTY, TARGET))
    assert [(d.kind, d.reason) for d in form.dropped] == [("attack", "cites no evidence fragment")]


# --- Appendix C.2: proof aliases collapse ---------------------------------------------------

def test_c2_duplicate_rule_under_another_id_collapses():
    dup = Rule(id="r1_copy", antecedents=["Delay(x)"], consequent="Penalty(x)", evidence=["E-04"])
    variant = with_(PENALTY, rules=PENALTY.rules + (dup,))
    form = normal_form(EVIDENCE, variant, TARGET, query=CASE["query"])
    assert tnf_json(form.trace) == tnf_json(BASE)
    assert form.aliases == {"r1_copy": "r1"}
    assert any(d.id == "r1_copy" and "alias" in d.reason for d in form.dropped)


def test_c2_alias_inherits_priorities_and_exceptions():
    # the priority names the copy, the exception names the original: still one norm
    dup = Rule(id="r1b", antecedents=["Delay(x)"], consequent="Penalty(x)", evidence=["E-04"])
    rules = (PENALTY.rules[1], PENALTY.rules[2], dup, PENALTY.rules[0])
    priorities = (Priority(stronger="r2", weaker="r1b", basis="exception", evidence=["E-05"]),
                  PENALTY.priorities[1])
    assert tnf_json(tnf(EVIDENCE, with_(PENALTY, rules=rules, priorities=priorities), TARGET,
                        query=CASE["query"])) == tnf_json(BASE)


def test_c2_restated_fact_collapses():
    again = Fact(id="f9", literal="Delay( x )", evidence=["E_01"])
    variant = with_(PENALTY, facts=(again,) + PENALTY.facts)
    assert tnf_equivalent(tnf(EVIDENCE, variant, TARGET, query=CASE["query"]), BASE)


def test_c2_identity_proof_step_rule_and_step_events_collapse():
    step_rule = Rule(id="step7", antecedents=["Delay(x)"], consequent="Delay(x)", evidence=["E-01"])
    variant = with_(PENALTY, rules=PENALTY.rules + (step_rule,))
    events = [
        {"event": "derive", "id": "s1", "rule": "r2", "from": ["f2"], "conclusion": "¬Penalty(x)"},
        {"event": "derive", "id": "s2", "rule": "r1", "from": ["f1"], "conclusion": "Penalty(x)"},
        {"event": "attack", "from": "s1", "to": "s2", "kind": "rebut", "evidence": ["E-05"]},
        {"event": "defeat", "by": "r3>r2", "attack": "s1->s2"},
    ]
    form = normal_form(EVIDENCE, variant, TARGET, query=CASE["query"], raw_edges=events)
    typed = with_(PENALTY, attacks=[AttackEdge(source="r2", target="r1", kind="rebut", evidence=["E-05"])])
    assert tnf_json(form.trace) == tnf_json(tnf(EVIDENCE, typed, TARGET, query=CASE["query"]))
    assert tnf_json(tnf(EVIDENCE, variant, TARGET, query=CASE["query"])) == tnf_json(BASE)
    assert form.aliases["s1"] == "r2" and form.aliases["s2"] == "r1"
    assert any(d.id == "step7" and "proof step" in d.reason for d in form.dropped)


def test_restatement_from_another_source_is_not_an_alias_of_the_trace():
    # same content, other fragment: one rule node, but one more grounding edge
    dup = Rule(id="r1b", antecedents=["Delay(x)"], consequent="Penalty(x)", evidence=["E-01"])
    other = tnf(EVIDENCE, with_(PENALTY, rules=PENALTY.rules + (dup,)), TARGET, query=CASE["query"])
    assert not tnf_equivalent(other, BASE)
    assert status_of(other) == "accepted"
    extra = {edge_id(e) for e in other.edges} - {edge_id(e) for e in BASE.edges}
    assert extra == {"grounding:evidence:E-01→rule:Delay(x)=>Penalty(x)"}


# --- Appendix C.3: a missing neutralizing priority is not equivalent ------------------------

def test_c3_missing_priority_changes_tnf_and_status():
    missing = with_(PENALTY, priorities=PENALTY.priorities[:1])
    other = tnf(EVIDENCE, missing, TARGET, query=CASE["query"])
    assert not tnf_equivalent(other, BASE)
    assert (status_of(BASE), status_of(other)) == ("accepted", "both")
    base_states = {edge_id(e): e.state for e in attack_edges(BASE)}
    other_states = {edge_id(e): e.state for e in attack_edges(other)}
    assert base_states.keys() == other_states.keys()  # same attacks, aligned by id...
    flipped = {k for k in base_states if base_states[k] != other_states[k]}
    assert len(flipped) == 2  # ...but r2's two attacks are no longer neutralized
    assert all(other_states[k] == "active" for k in flipped)


# --- invariances -----------------------------------------------------------------------

RENAME = {"f1": "late_delivery", "f2": "strike", "f3": "negligence",
          "r1": "clause_7_1", "r2": "clause_7_4", "r3": "clause_7_5"}


def renamed(analysis: Analysis, names: dict) -> Analysis:
    def lit(text):
        for old, new in names.items():
            text = text.replace(f"applicable({old})", f"applicable({new})")
        return text

    return Analysis(
        facts=[f.model_copy(update={"id": names.get(f.id, f.id), "literal": lit(f.literal)})
               for f in analysis.facts],
        rules=[r.model_copy(update={"id": names.get(r.id, r.id), "consequent": lit(r.consequent),
                                    "antecedents": tuple(lit(a) for a in r.antecedents)})
               for r in analysis.rules],
        priorities=[p.model_copy(update={"stronger": names[p.stronger], "weaker": names[p.weaker]})
                    for p in analysis.priorities],
        attacks=[a.model_copy(update={"source": names.get(a.source, a.source),
                                      "target": names.get(a.target, a.target)})
                 for a in analysis.attacks],
    )


def test_renaming_rule_and_fact_ids_does_not_change_tnf():
    assert tnf_json(tnf(EVIDENCE, renamed(PENALTY, RENAME), TARGET, query=CASE["query"])) == tnf_json(BASE)


def test_renaming_is_invariant_through_exception_literals():
    exception = Rule(id="r4", antecedents=["Waiver(x)"], consequent="¬applicable(r1)", evidence=["E-06"])
    waiver = Fact(id="f4", literal="Waiver(x)", evidence=["E-03"])
    base = with_(PENALTY, facts=PENALTY.facts + (waiver,), rules=PENALTY.rules + (exception,))
    a = tnf(EVIDENCE, base, TARGET)
    b = tnf(EVIDENCE, renamed(base, {**RENAME, "r4": "waiver_clause", "f4": "w"}), TARGET)
    assert tnf_json(a) == tnf_json(b)
    ids = {n.id for n in a.nodes}
    assert "conclusion:¬applicable[Delay(x)=>Penalty(x)]" in ids
    assert "rule:Waiver(x)=>¬applicable[Delay(x)=>Penalty(x)]" in ids
    undercuts = [e for e in attack_edges(a) if e.kind.value == "undercut"]
    assert undercuts and all(e.state == "active" for e in undercuts)


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_order_of_objects_and_evidence_spelling_do_not_change_tnf(seed):
    rng = random.Random(seed)
    facts, rules, prios = list(PENALTY.facts), list(PENALTY.rules), list(PENALTY.priorities)
    for items in (facts, rules, prios):
        rng.shuffle(items)
    evidence = [e.replace("E-0", rng.choice(["E_0", "e0", "Evidence "])) for e in EVIDENCE]
    rng.shuffle(evidence)
    shuffled = Analysis(facts=facts, rules=rules, priorities=prios)
    assert tnf_json(tnf(evidence, shuffled, "Penalty( x )", query=CASE["query"])) == tnf_json(BASE)


# --- variants of docs/semantics.md section 8 -------------------------------------------------

def test_ungrounded_rule_is_dropped_from_the_trace():
    evidence = [e for e in EVIDENCE if e != "E-06"]
    form = normal_form(evidence, PENALTY, TARGET)
    assert status_of(form.trace) == "rejected"
    assert not any("GrossNegligence(x)=>" in n.id for n in form.trace.nodes)
    assert {d.id for d in form.dropped} == {"r3", "r3>r2"}


def test_priority_cycle_is_shown_unresolved_and_differs_from_no_priorities():
    cyclic = with_(PENALTY, priorities=PENALTY.priorities + (
        Priority(stronger="r1", weaker="r3", basis="temporal", evidence=["E-04"]),))
    with pytest.warns(PriorityCycleWarning):
        a = tnf(EVIDENCE, cyclic, TARGET)
    b = tnf(EVIDENCE, with_(PENALTY, priorities=()), TARGET)
    assert status_of(a) == status_of(b) == "both"
    assert not tnf_equivalent(a, b)
    labels = [n.label for n in a.nodes if n.type is NodeType.PRIORITY]
    assert len(labels) == 3 and all(label.endswith("unresolved]") for label in labels)
    assert not [e for e in a.edges if e.type is EdgeType.DEFEAT]


def test_no_facts_is_undecidable_and_keeps_the_rules():
    t = tnf(EVIDENCE, with_(PENALTY, facts=()), TARGET)
    assert status_of(t) == "undecidable"
    assert sum(n.type is NodeType.RULE for n in t.nodes) == 3
    assert not [n for n in t.nodes if n.type is NodeType.ARGUMENT]


def test_every_defeated_attack_carries_the_priority_that_defeated_it():
    attacks = {edge_id(e): e for e in attack_edges(BASE)}
    defeats = [e for e in BASE.edges if e.type is EdgeType.DEFEAT]
    assert {d.attack for d in defeats} == {k for k, e in attacks.items() if e.state == "defeated"}
    for d in defeats:
        assert attacks[d.attack].target == d.target
        attacker_rule = attacks[d.attack].lic[len("rule:"):]
        assert d.source.endswith(f">({attacker_rule})")
    by_priority = {d.source for d in defeats}
    assert by_priority == {"priority:(ForceMajeure(x)=>¬Penalty(x))>(Delay(x)=>Penalty(x))",
                           "priority:(GrossNegligence(x)=>Penalty(x))>(ForceMajeure(x)=>¬Penalty(x))"}


def test_closure_priority_gets_a_node_derived_from_the_base_chain():
    e = ["E-01"]
    analysis = Analysis(
        facts=[Fact(id="f1", literal="a", evidence=e), Fact(id="f2", literal="c", evidence=e)],
        rules=[Rule(id="r1", antecedents=["a"], consequent="p", evidence=e),
               Rule(id="r2", antecedents=["d"], consequent="z", evidence=e),
               Rule(id="r3", antecedents=["c"], consequent="¬p", evidence=e)],
        priorities=[Priority(stronger="r1", weaker="r2", basis="hierarchy", evidence=e),
                    Priority(stronger="r2", weaker="r3", basis="hierarchy", evidence=e)])
    t = tnf(e, analysis, "p")
    assert status_of(t) == "accepted"
    closure = "priority:(a=>p)>(c=>¬p)"
    node = next(n for n in t.nodes if n.id == closure)
    assert node.label.endswith("[closure]")
    into = sorted(x.source for x in t.edges if x.target == closure and x.type is EdgeType.DERIVATION)
    assert into == ["priority:(a=>p)>(d=>z)", "priority:(d=>z)>(c=>¬p)"]
    assert [x.source for x in t.edges if x.type is EdgeType.DEFEAT] == [closure]


def test_all_neutralizing_priorities_are_shown_whatever_the_rule_order():
    e = ["E-01"]
    facts = [Fact(id="f1", literal="a", evidence=e), Fact(id="f2", literal="b", evidence=e),
             Fact(id="f3", literal="c", evidence=e)]
    rules = [Rule(id="r1", antecedents=["a"], consequent="p", evidence=e),
             Rule(id="r2", antecedents=["b"], consequent="¬p", evidence=e),
             Rule(id="r3", antecedents=["c"], consequent="p", evidence=e)]
    prios = [Priority(stronger="r1", weaker="r2", basis="hierarchy", evidence=e),
             Priority(stronger="r3", weaker="r2", basis="hierarchy", evidence=e)]
    a = tnf(e, Analysis(facts=facts, rules=rules, priorities=prios), "p")
    b = tnf(e, Analysis(facts=facts, rules=rules[::-1], priorities=prios[::-1]), "p")
    assert tnf_json(a) == tnf_json(b)
    defeats = [x for x in a.edges if x.type is EdgeType.DEFEAT]
    assert len(defeats) == 4  # r2's two attacks, each neutralized by both priorities


# --- JSON ---------------------------------------------------------------------------------

def test_json_round_trip_and_format():
    text = tnf_json(BASE)
    data = json.loads(text)
    assert list(data) == ["edges", "nodes", "schema_version"] and data["schema_version"] == SCHEMA_VERSION
    assert all(edge["id"] == edge_id(TraceEdge(**{k: v for k, v in edge.items() if k != "id"}))
               for edge in data["edges"])
    assert text == json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    assert "¬" in text  # UTF-8, not \\u escapes
    back = trace_from_json(text)
    assert back == BASE and tnf_json(back) == text


@pytest.mark.parametrize("mutate, message", [
    (lambda d: d.update(schema_version="tnf-v0"), "unknown schema_version"),
    (lambda d: d["edges"][0].update(id="grounding:x→y"), "does not match its content"),
    (lambda d: d["edges"][0].update(type="teleport"), "edges.0.type"),
    (lambda d: d["nodes"].pop(), "unknown"),
    (lambda d: d["edges"].append(dict(d["edges"][0])), "duplicate edge id"),
])
def test_trace_from_json_rejects_bad_input(mutate, message):
    data = json.loads(tnf_json(BASE))
    mutate(data)
    with pytest.raises(TraceFormatError, match=message):
        trace_from_json(json.dumps(data, ensure_ascii=False))


def test_trace_from_json_rejects_inconsistent_defeat_edge():
    data = json.loads(tnf_json(BASE))
    defeat = next(e for e in data["edges"] if e["type"] == "defeat")
    active = next(e for e in data["edges"] if e.get("state") == "active")
    defeat["attack"] = active["id"]
    del defeat["id"]
    with pytest.raises(TraceFormatError, match="must be defeated"):
        trace_from_json(json.dumps(data, ensure_ascii=False))
    with pytest.raises(TraceFormatError, match="not valid JSON"):
        trace_from_json("{nodes: []")


def test_bad_raw_record_is_a_record_error_naming_the_field():
    with pytest.raises(RecordError, match=r"raw_edges\.1\.kind"):
        tnf(EVIDENCE, PENALTY, TARGET, raw_edges=["r2 rebuts r1", {"from": "r2", "to": "r1", "kind": "smash"}])


def test_status_label_matches_the_engine():
    form = normal_form(EVIDENCE, PENALTY, TARGET)
    assert form.evaluation.status is Status.ACCEPTED
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        tnf(EVIDENCE, PENALTY, TARGET)


def test_bad_evidence_id_or_target_names_the_field():
    with pytest.raises(RecordError) as info:
        tnf(["E-01", "  "], PENALTY, TARGET)
    assert info.value.field == "evidence_ids.1"
    with pytest.raises(RecordError) as info:
        tnf(EVIDENCE, PENALTY, "¬¬")
    assert info.value.field == "target" and info.value.value == "¬¬"


def test_normal_form_aliases_are_read_only():
    form = normal_form(EVIDENCE, PENALTY, TARGET)
    with pytest.raises(TypeError):
        form.aliases["r9"] = "r1"


def test_grounding_events_ground_objects_that_cite_nothing():
    bare = Analysis(facts=[f.model_copy(update={"evidence": ()}) for f in PENALTY.facts],
                    rules=PENALTY.rules, priorities=PENALTY.priorities)
    events = [{"event": "grounds", "from": f"E_0{i}", "to": f"f{i}"} for i in (1, 2, 3)]
    events.append({"event": "grounds", "from": "E-02", "to": "f99"})
    form = normal_form(EVIDENCE, bare, TARGET, query=CASE["query"], raw_edges=events)
    assert tnf_json(form.trace) == tnf_json(BASE)
    assert form.unmatched == ("grounding event E-02 -> f99: no fact, rule or priority has this id",)
    assert status_of(tnf(EVIDENCE, bare, TARGET)) == "undecidable"  # without the events: no facts
