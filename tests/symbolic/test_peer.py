"""The peer corpus importer (docs/semantics.md section 9)."""

from __future__ import annotations

import copy
import json
from collections import Counter
from pathlib import Path

import pytest

from symbolic.errors import ScenarioError
from symbolic.suites.io import dump_suite, load_suite
from symbolic.scenario.labels import Basis, Status
from symbolic.suites.peer import (
    PEER_PROJECTION,
    PeerLabelMismatch,
    import_peer_file,
    import_peer_record,
    peer_basis,
    project_status,
)
from symbolic.engine.status import evaluate_analysis

PEER_FILE = (Path(__file__).resolve().parents[2] / ".." / "shared" / "data" / "neuro_symbolic"
             / "controlled_benchmark_600.jsonl")

RECORD = {
    "case_id": "HAND_001", "dataset": "hand", "tier": 2, "phenomenon": "exception to exception",
    "query": "Is the penalty enforceable?", "target_literal": "Penalty(case)",
    "source_units": [
        {"source_unit_id": "HAND_001_SU1", "doc_id": "CONTRACT", "path": "clause.7",
         "span": {"start": 10, "end": 90}, "text": "A delay triggers the penalty."},
        {"source_unit_id": "HAND_001_SU2", "doc_id": "POLICY", "path": "s.2",
         "span": {"start": 0, "end": 40}, "text": "Force majeure excuses; gross negligence does not."},
    ],
    "facts": {"Delay(case)": True, "ForceMajeure(case)": True, "GrossNegligence(case)": True,
              "NoticeMissing(case)": False},
    "rules": [
        {"id": "r1", "antecedents": ["Delay(case)"], "consequent": "Penalty(case)",
         "type": "defeasible", "source": "HAND_001_SU1", "confidence": 0.9, "meta": {}},
        {"id": "r2", "antecedents": ["ForceMajeure(case)"], "consequent": "¬Penalty(case)",
         "type": "defeater", "source": "HAND_001_SU2"},
        {"id": "r3", "antecedents": ["ForceMajeure(case)", "GrossNegligence(case)"],
         "consequent": "Penalty(case)", "type": "defeasible", "source": "HAND_001_SU2"},
        {"id": "r4", "antecedents": ["NoticeMissing(case)"], "consequent": "¬Penalty(case)",
         "type": "defeater", "source": "HAND_001_SU2"},
    ],
    "priorities": [
        {"stronger": "r2", "weaker": "r1", "source": "HAND_001_SU2", "basis": "exception over general rule"},
        {"stronger": "r3", "weaker": "r2", "source": "HAND_001_SU2", "basis": "later amendment"},
    ],
    "gold_label": "Positive",
}


def record(**changes):
    rec = copy.deepcopy(RECORD)
    rec.update(changes)
    return rec


def test_projection_table():
    assert dict(PEER_PROJECTION) == {Status.ACCEPTED: "Positive", Status.REJECTED: "Negative",
                                     Status.BOTH: "Undetermined", Status.UNDECIDABLE: "Negative"}
    assert project_status("Both") == "Undetermined"
    assert project_status(Status.UNDECIDABLE) == "Negative"
    with pytest.raises(ValueError, match="unknown status label"):
        project_status("maybe")


@pytest.mark.parametrize("text, basis", [
    ("exception over general rule", Basis.EXCEPTION), ("exception to exception", Basis.EXCEPTION),
    ("procedural defeater", Basis.EXCEPTION), ("contractual waiver", Basis.EXCEPTION),
    ("lex superior", Basis.HIERARCHY), ("statute over contract", Basis.HIERARCHY),
    ("more specific clause", Basis.SPECIFICITY), ("later in time", Basis.TEMPORAL),
    ("amendment supersedes", Basis.TEMPORAL), ("issuing authority", Basis.AUTHORITY),
    ("Authority", Basis.AUTHORITY), (None, Basis.EXCEPTION), ("whim", Basis.EXCEPTION),
])
def test_peer_basis(text, basis):
    assert peer_basis(text) is basis


def test_hand_made_record_maps_one_to_one():
    scenario = import_peer_record(RECORD, file="peer.jsonl", line=4)
    assert scenario.id == "HAND_001" and scenario.target == "Penalty(case)"
    assert [f.id for f in scenario.evidence] == ["E-01", "E-02", "E-03"]
    first = scenario.evidence[0]
    assert (first.source, first.clause, first.span.start, first.span.end, first.tags) == (
        "CONTRACT", "clause.7", 10, 90, ("peer_source_unit:HAND_001_SU1",))
    table = scenario.evidence[2]
    assert "synthetic" in table.tags and table.text.startswith("SYNTHETIC FRAGMENT")
    assert "NoticeMissing(case) = false" in table.text and "Delay(case) = true" in table.text
    gold = scenario.gold
    assert [(f.id, f.literal, f.evidence) for f in gold.facts] == [
        ("f1", "Delay(case)", ("E-03",)), ("f2", "ForceMajeure(case)", ("E-03",)),
        ("f3", "GrossNegligence(case)", ("E-03",))]
    assert [(r.id, r.kind.value, r.evidence) for r in gold.rules] == [
        ("r1", "defeasible", ("E-01",)), ("r2", "defeater", ("E-02",)), ("r3", "defeasible", ("E-02",)),
        ("r4", "defeater", ("E-02",))]
    assert gold.rules[2].antecedents == ("ForceMajeure(case)", "GrossNegligence(case)")
    assert [(p.id, p.basis, p.note) for p in gold.priorities] == [
        ("r2>r1", Basis.EXCEPTION, "exception over general rule"),
        ("r3>r2", Basis.TEMPORAL, "later amendment")]
    assert gold.status is Status.ACCEPTED
    assert scenario.metadata.tags == ("peer_id:HAND_001", "peer_label:Positive", "peer_dataset:hand",
                                      "peer_tier:2", "peer_phenomenon:exception to exception")
    assert scenario.metadata.priority and scenario.metadata.contradiction


@pytest.mark.parametrize("drop_priority, label, status", [
    (1, "Undetermined", Status.BOTH),     # r3 > r2 removed: both
    (None, "Positive", Status.ACCEPTED),
])
def test_gold_status_is_the_engine_status(drop_priority, label, status):
    rec = record(gold_label=label)
    if drop_priority is not None:
        del rec["priorities"][drop_priority]
    assert import_peer_record(rec).gold.status is status


def test_undecidable_projects_to_negative():
    rec = record(facts={"Delay(case)": False}, gold_label="Negative")
    scenario = import_peer_record(rec)
    assert scenario.gold.status is Status.UNDECIDABLE and scenario.gold.facts == ()


def test_label_mismatch_is_a_typed_error_naming_the_record():
    with pytest.raises(PeerLabelMismatch) as info:
        import_peer_record(record(gold_label="Negative"), file="peer.jsonl", line=9)
    err = info.value
    assert (err.file, err.line, err.field, err.value) == ("peer.jsonl", 9, "gold_label", "Negative")
    assert "peer record 'HAND_001'" in str(err) and "engine computes accepted" in str(err)


def test_missing_label_keeps_the_engine_status():
    rec = record()
    del rec["gold_label"]
    scenario = import_peer_record(rec)
    assert scenario.gold.status is Status.ACCEPTED
    assert not any(t.startswith("peer_label:") for t in scenario.metadata.tags)


def test_unknown_source_is_ungrounded():
    rec = record()
    rec["rules"][2]["source"] = "ELSEWHERE"
    rec["gold_label"] = "Negative"
    scenario = import_peer_record(rec)
    assert scenario.gold.rules[2].evidence == ("peer:ELSEWHERE",)
    evaluation = evaluate_analysis(scenario.evidence_ids(), scenario.gold, scenario.target)
    assert [(d.kind, d.id) for d in evaluation.theory.dropped][:1] == [("rule", "r3")]
    assert scenario.gold.status is Status.REJECTED


@pytest.mark.parametrize("change, field, value", [
    (dict(facts={"Delay(case)": "yes"}), "facts.Delay(case)", "yes"),
    (dict(facts=["Delay(case)"]), "facts", ["Delay(case)"]),
    (dict(rules=[{"id": "r1", "consequent": "P", "type": "presumptive"}]), "rules.0.type", "presumptive"),
    (dict(rules=[{"id": "r 1", "consequent": "P"}]), "rules.0.id", "r 1"),
    (dict(rules=[{"id": "r1", "consequent": ""}]), "rules.0.consequent", ""),
    (dict(rules="r1"), "rules", "r1"),
    (dict(priorities=[{"stronger": "r1"}]), "priorities.0.weaker", None),
    (dict(source_units=[{"doc_id": "D", "text": "t"}]), "source_units.0", None),
    (dict(source_units=[{"source_unit_id": "S", "text": ""}]), "source_units.0.text", ""),
    (dict(gold_label="Maybe"), "gold_label", "Maybe"),
    (dict(target_literal="¬"), "target_literal", "¬"),
    (dict(case_id="A B"), "case_id", "A B"),
])
def test_malformed_records_name_field_and_value(change, field, value):
    with pytest.raises(ScenarioError) as info:
        import_peer_record(record(**change), file="peer.jsonl", line=3)
    err = info.value
    assert (err.file, err.line, err.field) == ("peer.jsonl", 3, field)
    assert err.value == value
    assert not isinstance(err, PeerLabelMismatch)


def test_missing_case_id_and_non_object():
    rec = record()
    del rec["case_id"]
    with pytest.raises(ScenarioError, match="case_id must be a non-empty string"):
        import_peer_record(rec)
    with pytest.raises(ScenarioError, match="must be a JSON object"):
        import_peer_record(["not", "a", "record"])


def test_import_file_duplicates_empty_and_round_trip(tmp_path):
    path = tmp_path / "peer.jsonl"
    second = record(case_id="HAND_002")
    path.write_text(json.dumps(RECORD) + "\n\n" + json.dumps(second) + "\n", encoding="utf-8")
    scenarios = import_peer_file(path)
    assert [s.id for s in scenarios] == ["HAND_001", "HAND_002"]
    out = tmp_path / "suite.jsonl"
    dump_suite(scenarios, out)
    assert load_suite(out) == scenarios
    path.write_text(json.dumps(RECORD) + "\n" + json.dumps(RECORD) + "\n", encoding="utf-8")
    with pytest.raises(ScenarioError, match="duplicate case_id 'HAND_001'") as info:
        import_peer_file(path)
    assert info.value.line == 2
    path.write_text("\n", encoding="utf-8")
    with pytest.raises(ScenarioError, match="no peer records"):
        import_peer_file(path)
    path.write_text("{broken\n", encoding="utf-8")
    with pytest.raises(ScenarioError, match="malformed JSON") as info:
        import_peer_file(path)
    assert info.value.line == 1


@pytest.mark.skipif(not PEER_FILE.is_file(), reason="peer corpus copy not available")
def test_peer_conformance_600():
    """Every record of the public peer corpus gets its gold label under the projection."""
    records = [json.loads(line) for line in PEER_FILE.read_text(encoding="utf-8").splitlines() if line.strip()]
    scenarios = import_peer_file(PEER_FILE)  # raises PeerLabelMismatch on any disagreement
    assert len(scenarios) == len(records) == 600
    agree = sum(project_status(s.gold.status) == r["gold_label"] for s, r in zip(scenarios, records))
    assert agree == 600
    statuses = Counter(s.gold.status for s in scenarios)
    assert set(statuses) == set(Status)  # all four statuses occur
    assert statuses[Status.BOTH] == sum(r["gold_label"] == "Undetermined" for r in records)
