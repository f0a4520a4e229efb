"""Serialized attack records and provenance events -> typed objects (TNF step ii)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from symbolic.errors import ParatraceError, ScenarioError
from symbolic.scenario.labels import AttackKind, Basis
from symbolic.scenario.model import AttackEdge, Priority
from symbolic.traces.records import (
    Claim,
    ProofStep,
    RecordError,
    Records,
    normalize_attack_kind,
    parse_record,
    parse_records,
)

EXPECTED = AttackEdge(source="r2", target="r1", kind="rebut", evidence=["E-05"])


@pytest.mark.parametrize("record", [
    {"attacker": "r2", "attacked": "r1", "type": "rebuttal", "evidence": "E_05"},
    {"from": "r2", "to": "r1", "kind": "rebut", "evidence": ["e05"]},
    {"source": "r2", "target": "r1", "attack_type": "Rebutting attack", "evidence_ids": ["Evidence 5"]},
    {"Attacker": "r2", "Attacked": "r1", "Relation": "REBUTS", "cites": "E-05"},
    {"event": "attack", "by": "r2", "on": "r1", "kind": "rebuttal", "fragments": ["E-5"]},
    {"type": "attack", "src": "r2", "dst": "r1", "attack-kind": "rebut", "evidence": "E-05"},
    {"event": "rebuts", "from": "r2", "to": "r1", "evidence": "E-05", "note": "free text is ignored",
     "state": "defeated", "defeated_by": ["r3", "r2"]},
    '{"attacker": "r2", "attacked": "r1", "type": "rebuttal", "evidence": "E-05"}',
    EXPECTED,
])
def test_attack_spellings_give_one_typed_edge(record):
    assert parse_record(record) == Records(attacks=(EXPECTED,))


@pytest.mark.parametrize("text, kind", [
    ("r2 rebuts r1", "rebut"),
    ("r4 undercuts r1", "undercut"),
    ("r5 undermines f1", "undermine"),
    ("r2 -rebut-> r1", "rebut"),
    ("r4 --undercut--> r1", "undercut"),
    ("r4 -[undercutting]-> r1", "undercut"),
    ("r2 attacks r1 (rebuttal)", "rebut"),
    ("attack(r2, r1, undermine)", "undermine"),
])
def test_sentence_records(text, kind):
    (edge,) = parse_record(text).attacks
    assert (edge.source, edge.kind.value, edge.evidence) == (text.split()[0].split("(")[-1].rstrip(","),
                                                             kind, ())


def test_literal_target_and_list_target_and_lic():
    r = parse_record({"attacker": "r2", "attacked": ["r1", "not Penalty( x )"], "type": "rebut",
                      "licensing_rule": "r2"})
    assert [(e.target, e.lic) for e in r.attacks] == [("r1", "r2"), ("not Penalty( x )", "r2")]


@pytest.mark.parametrize("record, stronger, weaker, basis", [
    ({"stronger": "r3", "weaker": "r2", "basis": "hierarchy", "evidence": "E_08"}, "r3", "r2", Basis.HIERARCHY),
    ({"superior": "r3", "inferior": "r2", "basis": "lex specialis"}, "r3", "r2", Basis.SPECIFICITY),
    ({"priority": "r3 > r2", "basis": "temporal"}, "r3", "r2", Basis.TEMPORAL),
    ({"event": "priority", "priority": "r2 < r3", "kind": "authority"}, "r3", "r2", Basis.AUTHORITY),
    ("r3 > r2 (exception)", "r3", "r2", Basis.EXCEPTION),
    ("r2 < r3 (later in time)", "r3", "r2", Basis.TEMPORAL),
])
def test_priority_records(record, stronger, weaker, basis):
    (p,) = parse_record(record).priorities
    assert (p.stronger, p.weaker, p.basis) == (stronger, weaker, basis)


def test_priority_evidence_is_normalized():
    (p,) = parse_record({"stronger": "r3", "weaker": "r2", "basis": "hierarchy", "evidence": "E_08"}).priorities
    assert p == Priority(stronger="r3", weaker="r2", basis="hierarchy", evidence=["E-08"])


def test_proof_steps_claims_and_alias_resolution():
    records = parse_records([
        {"event": "derive", "id": "s1", "rule": "r2", "from": ["f2"], "conclusion": "¬Penalty(x)"},
        {"event": "proof_step", "step": "s0", "fact": "f1"},
        {"rule": "r9", "premises": ["f1"], "concludes": "Q(x)"},
        {"event": "attack", "from": "s1", "to": "s0", "kind": "undermine", "evidence": "E-01"},
        {"stronger": "s1", "weaker": "r1", "basis": "exception"},
        {"event": "defeat", "by": "r3>r2", "attack": "s1->s2"},
        {"type": "status", "literal": "Penalty(x)", "value": "accepted"},
    ])
    assert records.steps[0] == ProofStep(id="s1", rule="r2", premises=("f2",), conclusion="¬Penalty(x)")
    assert records.steps[2] == ProofStep(id=None, rule="r9", premises=("f1",), conclusion="Q(x)")
    assert records.aliases() == {"s1": "r2", "s0": "f1"}
    assert [c.event for c in records.claims] == ["defeat", "status"]
    assert isinstance(records.claims[0], Claim)
    resolved = records.resolved()
    assert (resolved.attacks[0].source, resolved.attacks[0].target) == ("r2", "f1")
    assert (resolved.priorities[0].stronger, resolved.priorities[0].weaker) == ("r2", "r1")


@pytest.mark.parametrize("record, field, message", [
    ({"atacker": "r2", "attacked": "r1", "type": "rebut"}, None, "cannot tell what this record is"),
    ({"attacker": "r2", "attacked": "r1", "type": "rebut", "weight": 3}, "raw_edges.0.weight", "unknown key 'weight'"),
    ({"attacker": "r2", "attacked": "r1", "type": "smash"}, "raw_edges.0.type", "unknown attack kind 'smash'"),
    ({"attacker": "r2", "attacked": "r1", "kind": "smash"}, "raw_edges.0.kind", "unknown attack kind 'smash'"),
    ({"attacker": "r2", "attacked": "r1"}, "raw_edges.0", "has no kind"),
    ({"event": "teleport", "from": "r2"}, "raw_edges.0.event", "unknown event 'teleport'"),
    ({"stronger": "r3", "weaker": "r2"}, "raw_edges.0", "has no basis"),
    ({"stronger": "r3", "weaker": "r2", "basis": "vibes"}, "raw_edges.0.basis", "unknown priority basis"),
    ({"attacker": "r2", "attacked": "r1", "type": "rebut", "evidence": ["  "]}, "raw_edges.0.evidence.0",
     "empty evidence id"),
    ({"attacker": "r 2", "attacked": "r1", "type": "rebut"}, "raw_edges.0.source", "without spaces"),
    ({"attacker": ["r2"], "attacked": "r1", "type": "rebut"}, "raw_edges.0.attacker", "expected an id"),
    ("r2 loves r1", "raw_edges.0", "cannot read this text"),
    ('{"attacker": "r2",', "raw_edges.0", "not valid JSON"),
    (42, "raw_edges.0", "must be an object or a string"),
])
def test_malformed_records_name_field_and_value(record, field, message):
    with pytest.raises(RecordError, match=message) as info:
        parse_records([record])
    assert isinstance(info.value, ScenarioError) and isinstance(info.value, ParatraceError)
    if field is not None:
        assert info.value.field == field


def test_record_error_names_file_and_line():
    with pytest.raises(RecordError) as info:
        parse_record({"attacker": "r2"}, field="edges.3", file="trace.json", line=7)
    assert str(info.value).startswith("trace.json:7, field edges.3: ")


def test_parse_records_accepts_a_single_record():
    assert parse_records("r2 rebuts r1").attacks[0].target == "r1"
    assert parse_records({"from": "r2", "to": "r1", "kind": "rebut"}).attacks[0].source == "r2"


def test_normalize_attack_kind_rejects_non_strings():
    with pytest.raises(ValueError, match="must be a string"):
        normalize_attack_kind(3)
    assert normalize_attack_kind(AttackKind.UNDERMINE) is AttackKind.UNDERMINE


_SOURCE = st.sampled_from(["attacker", "from", "source", "src", "by"])
_TARGET = st.sampled_from(["attacked", "to", "target", "dst", "on"])
_KIND = st.sampled_from(["type", "kind", "attack_type", "relation"])
_SPELLING = st.sampled_from(["undercut", "Undercuts", "UNDERCUTTING", "undercutter", "undercutting attack"])
_EVID = st.sampled_from(["E-04", "E_04", "e04", "Evidence 4", "[E-4]"])
_CASE = st.sampled_from([str.lower, str.upper, str.title])


@settings(max_examples=60, derandomize=True, deadline=None)
@given(_SOURCE, _TARGET, _KIND, _SPELLING, _EVID, _CASE)
def test_any_key_spelling_gives_the_same_edge(src, tgt, kind_key, kind, evidence, case):
    record = {case(src): "r4", case(tgt): "r1", case(kind_key): kind, "evidence": [evidence]}
    assert parse_record(record).attacks == (
        AttackEdge(source="r4", target="r1", kind="undercut", evidence=["E-04"]),)


def test_grounding_events_in_both_directions():
    r = parse_records([{"event": "grounds", "from": "E_01", "to": "f1"},
                       {"event": "grounded_in", "from": "r1", "to": "Evidence 4"},
                       {"event": "cites", "source": "s1", "target": "e7"},
                       {"event": "derive", "id": "s1", "rule": "r2"}])
    assert [(g.fragment, g.object) for g in r.groundings] == [("E-01", "f1"), ("E-04", "r1"), ("E-07", "s1")]
    assert [(g.fragment, g.object) for g in r.resolved().groundings][-1] == ("E-07", "r2")
    with pytest.raises(RecordError, match="needs a fragment and an object"):
        parse_record({"event": "grounds", "from": "E-01"})
