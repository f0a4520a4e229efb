"""The output contract: payload models, absent fields, hard failures, exported schemas."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pydantic import ValidationError

from scorer.contract import (
    CommonV1,
    Diagnostics,
    OutputRecord,
    RunMeta,
    TraceV2,
    json_schemas,
    schema_text,
)
from symbolic.engine.grounding import ground

SCHEMAS = Path(__file__).resolve().parents[2] / "scorer" / "schemas"

PENALTY_TRACE = {
    "facts": [{"id": "f1", "literal": "Delay(x)", "evidence": ["E-01"]},
              {"id": "f2", "literal": "ForceMajeure(x)", "evidence": ["E-02"]}],
    "rules": [{"id": "r1", "antecedents": ["Delay(x)"], "consequent": "Penalty(x)", "evidence": ["E-03"]},
              {"id": "r2", "antecedents": ["ForceMajeure(x)"], "consequent": "not Penalty(x)",
               "evidence": ["E-04"]}],
    "priorities": [{"stronger": "r2", "weaker": "r1", "basis": "exception", "evidence": ["E-04"]}],
    "edges": [{"source": "E-01", "target": "f1", "type": "grounding"}],
    "emitted_conclusions": ["not Penalty(x)"],
    "diagnostics": {"defect_class": "none"},
}


def test_common_normalizes_and_omits_absent_fields():
    c = CommonV1(final_status="Undetermined", evidence_ids=["Evidence 2"], conflict_detected=True)
    assert c.final_status.value == "undecidable"
    assert c.to_dict() == {"conflict_detected": True, "evidence_ids": ["E-02"],
                           "final_status": "undecidable", "schema_version": "common-v1"}
    assert "uncertainty" not in c.to_dict() and c.priority_applied is None


@pytest.mark.parametrize("bad", [{"final_status": "maybe"}, {}, {"final_status": "both", "uncertainty": 1.5},
                                 {"final_status": "both", "extra": 1}])
def test_common_rejects_bad_payloads(bad):
    with pytest.raises(ValidationError):
        CommonV1.model_validate(bad)


def test_common_is_frozen():
    c = CommonV1(final_status="both")
    with pytest.raises(ValidationError):
        c.final_status = "accepted"


def test_trace_reuses_symbolic_types_and_grounds():
    t = TraceV2.model_validate(PENALTY_TRACE)
    assert t.rules[1].consequent == "\u00acPenalty(x)"
    assert t.emitted_conclusions == ("\u00acPenalty(x)",)
    theory = ground({"E-01", "E-02", "E-03"}, t.analysis())
    assert [r.id for r in theory.rules] == ["r1"]
    assert {d.id for d in theory.dropped} == {"r2", "r2>r1"}
    assert not t.diagnostics.detected
    assert t.trace().edges[0].type.value == "grounding"


def test_trace_rejects_duplicate_ids():
    bad = dict(PENALTY_TRACE, rules=PENALTY_TRACE["rules"] + [PENALTY_TRACE["rules"][0]])
    with pytest.raises(ValidationError, match="duplicate id"):
        TraceV2.model_validate(bad)


def test_diagnostics_detected():
    assert Diagnostics(defect_class="attack_deletion", location="r2-rebut->r1").detected
    with pytest.raises(ValidationError):
        Diagnostics(defect_class="typo")


def test_record_round_trip_and_absent_trace():
    rec = OutputRecord(case_id="c1", configuration="engine", model="gpt", variant="v", repeat=2,
                       common={"final_status": "rejected", "evidence_ids": ["E-04"]},
                       trace=PENALTY_TRACE, meta={"prompt_tokens": 10, "latency_ms": 5.5})
    line = rec.to_json()
    assert json.loads(line)["meta"]["prompt_tokens"] == 10
    assert OutputRecord.model_validate_json(line) == rec
    assert rec.run_key == ("engine", "gpt", "v", 2) and rec.status.value == "rejected"
    black_box = OutputRecord(case_id="c1", configuration="direct", model="gpt",
                             common={"final_status": "both"})
    assert "trace" not in black_box.to_dict() and "variant" not in black_box.to_dict()


def test_hard_failure_keeps_raw_text_and_has_no_payload():
    rec = OutputRecord.failure(case_id="c1", configuration="direct", model="m",
                               raw_text="```json\n{\"final", reason="truncated JSON", latency_ms=3.0)
    assert rec.status is None and rec.meta.raw_text.startswith("```json")
    assert OutputRecord.model_validate_json(rec.to_json()) == rec
    with pytest.raises(ValidationError):
        OutputRecord(case_id="c1", configuration="d", model="m", common={"final_status": "both"},
                     meta={"hard_failure": True, "failure_reason": "x"})
    with pytest.raises(ValidationError, match="hard failure"):
        OutputRecord(case_id="c1", configuration="d", model="m")
    with pytest.raises(ValidationError, match="failure_reason"):
        RunMeta(hard_failure=True)


def test_json_schemas_describe_the_contract():
    schemas = json_schemas()
    assert set(schemas) == {"common-v1", "trace-v2", "output-record"}
    common = schemas["common-v1"]
    assert common["required"] == ["final_status"]
    assert set(common["properties"]) == {"schema_version", "final_status", "evidence_ids",
                                         "conflict_detected", "priority_applied", "uncertainty",
                                         "answer", "emitted_conclusions"}
    assert {"facts", "rules", "attacks", "priorities", "edges", "diagnostics", "rejected"} <= set(
        schemas["trace-v2"]["properties"])
    assert {"case_id", "configuration", "model", "common", "trace", "meta"} <= set(
        schemas["output-record"]["properties"])


@pytest.mark.parametrize("name", ["common-v1", "trace-v2", "output-record"])
def test_shipped_schema_files_are_current(name):
    path = SCHEMAS / f"{name}.schema.json"
    assert path.read_text(encoding="utf-8") == schema_text(name), (
        f"{path} is stale; regenerate with "
        "python -c 'from scorer.contract import write_schemas; write_schemas(\"scorer/schemas\")'")
