"""Deterministic repair on a corpus of malformed outputs; hard failures are kept."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorer.contract import CommonV1, OutputRecord
from scorer.errors import OutputFileError
from scorer.outputs_io import dump_outputs, load_outputs
from scorer.repair import repair_output, repair_record

PACKAGE = frozenset({"E-01", "E-02", "E-03", "E-04", "CTRL_T0_001_SU1"})
GOOD = '{"final_status": "both", "evidence_ids": ["E-01", "E-02"], "conflict_detected": true}'

# (name, raw text, expected status or None for a hard failure, expected evidence ids,
#  a fragment of the log or of the failure reason)
CORPUS = [
    ("clean", GOOD, "both", ("E-01", "E-02"), None),
    ("json fence", f"```json\n{GOOD}\n```", "both", ("E-01", "E-02"), "stripped markdown fence (json)"),
    ("bare fence", f"Here you go:\n```\n{GOOD}\n```\nThanks", "both", ("E-01", "E-02"),
     "stripped markdown fence (no language)"),
    ("unclosed fence", f"```json\n{GOOD}", "both", ("E-01", "E-02"), "stripped markdown fence"),
    ("leading prose", f"Sure! The analysis: {GOOD}", "both", ("E-01", "E-02"), "prose before"),
    ("trailing prose", f"{GOOD}\n\nLet me know if you need anything else {{}}.", "both",
     ("E-01", "E-02"), "prose after"),
    ("trailing comma", '{"final_status": "both", "evidence_ids": ["E-01",],}', "both", ("E-01",),
     "removed 2 trailing comma(s)"),
    ("python constants", '{"final_status": "rejected", "conflict_detected": False, "uncertainty": None}',
     "rejected", None, "Python constant"),
    ("braces inside strings", '{"final_status": "accepted", "answer": "set {a} is } closed"} trailing',
     "accepted", None, "prose after"),
    ("id spellings", '{"final_status": "accepted", "evidence_ids": ["E_01", "e2", "Evidence 3", "[E-4]", "E-01"]}',
     "accepted", ("E-01", "E-02", "E-03", "E-04"), "dropped duplicate id 'E-01'"),
    ("bare numbers", '{"final_status": "accepted", "evidence_ids": [1, "2"]}', "accepted",
     ("E-01", "E-02"), "1 -> 'E-01'"),
    ("package id case", '{"final_status": "accepted", "evidence_ids": ["ctrl_t0_001_su1"]}', "accepted",
     ("CTRL_T0_001_SU1",), "'ctrl_t0_001_su1' -> 'CTRL_T0_001_SU1'"),
    ("single id string", '{"final_status": "accepted", "evidence_ids": "E1"}', "accepted", ("E-01",), None),
    ("status spelling", '{"final_status": "Undetermined"}', "undecidable", None, "-> 'undecidable'"),
    ("status markdown", '{"final_status": "**BOTH**."}', "both", None, "-> 'both'"),
    ("status sentence", '{"status": "The target is rejected"}', "rejected", None,
     "renamed field 'status' to 'final_status'"),
    ("status object", '{"final_status": {"label": "accepted", "confidence": 0.9}}', "accepted", None, None),
    ("string booleans", '{"final_status": "both", "conflict_detected": "yes", "priority_applied": "no"}',
     "both", None, "'yes' -> true"),
    ("unknown fields", '{"final_status": "both", "reasoning": "long musing"}', "both", None,
     "dropped unknown field(s) 'reasoning'"),
    ("nested common", '{"common": {"final_status": "accepted", "evidence_ids": ["E_3"]}}', "accepted",
     ("E-03",), "'E_3' -> 'E-03'"),
    # hard failures
    ("truncated", '{"final_status": "both", "evidence_ids": ["E-01", "E-0', None, None, "truncated JSON"),
    ("truncated after value", '```json\n{"final_status": "both", "evidence_ids": ["E-01"]', None, None,
     "truncated JSON: 1 unclosed bracket(s)"),
    ("no json", "The clause applies, so the penalty is accepted.", None, None, "no JSON object"),
    ("empty", "", None, None, "no JSON object"),
    ("no status", '{"evidence_ids": ["E-01"]}', None, None, "final_status: missing"),
    ("ambiguous status", '{"final_status": "accepted or rejected"}', None, None, "unrecognized status"),
    ("negated status", '{"final_status": "not accepted"}', None, None, "unrecognized status"),
    ("unknown status", '{"final_status": "probably"}', None, None, "unrecognized status"),
    ("array", '[{"final_status": "both"}]', "both", None, "prose before"),
    ("mismatched", '{"final_status": "both"]', None, None, "mismatched"),
    ("nan", '{"final_status": "both", "uncertainty": NaN}', None, None, "invalid JSON"),
]


@pytest.mark.parametrize("name,raw,status,ids,fragment", CORPUS, ids=[c[0] for c in CORPUS])
def test_corpus(name, raw, status, ids, fragment):
    result = repair_output(raw, evidence_ids=PACKAGE, case_id="c7")
    if status is None:
        assert result.hard_failure and result.common is None and result.trace is None
        assert result.failure.startswith("case c7: ")
        if fragment:
            assert fragment in result.failure
        return
    assert not result.hard_failure, result.failure
    assert result.common.final_status.value == status
    if ids is not None:
        assert result.common.evidence_ids == ids
    if fragment:
        assert any(fragment in line for line in result.log), result.log
    assert repair_output(raw, evidence_ids=PACKAGE, case_id="c7") == result  # deterministic


def test_clean_output_needs_no_repair():
    assert repair_output(GOOD, evidence_ids=PACKAGE).log == ()


def test_optional_fields_are_dropped_not_guessed():
    r = repair_output('{"final_status": "both", "uncertainty": "high", "conflict_detected": "maybe",'
                      ' "emitted_conclusions": ["not Penalty(x)", 3]}', evidence_ids=PACKAGE)
    assert r.common.uncertainty is None and r.common.conflict_detected is None
    assert r.common.emitted_conclusions == ("\u00acPenalty(x)",)
    assert any("dropped uncertainty 'high'" in line for line in r.log)
    assert repair_output('{"final_status": "both", "uncertainty": "35%"}',
                         evidence_ids=PACKAGE).common.uncertainty == pytest.approx(0.35)


TRACE_OUTPUT = {
    "final_status": "rejected",
    "evidence_ids": ["E-01", "E-02", "E-04"],
    "trace": {
        "facts": [{"id": "f1", "statement": "Delay(x)", "sources": ["E_01"]},
                  {"id": "f2", "literal": "ForceMajeure(x)", "evidence": "e2", "comment": "x"},
                  {"id": "f1", "literal": "Dup(x)", "evidence": ["E-01"]},
                  {"literal": "NoId(x)", "evidence": ["E-01"]}],
        "rules": [{"id": "r1", "if": ["Delay(x)"], "then": "Penalty(x)", "type": "Defeasible",
                   "evidence": ["E-03"]},
                  {"id": "r2", "conditions": "ForceMajeure(x)", "conclusion": "~Penalty(x)",
                   "evidence": ["E-04"]}],
        "priorities": [{"higher": "r2", "lower": "r1", "basis": "lex specialis", "evidence": ["E-04"]},
                       "r1 > r2"],
        "attacks": [{"attacker": "r2", "attacked": "r1", "type": "rebuttal", "evidence": ["E_04"]},
                    {"from": "r1", "to": "r2"}, "r2 undercuts r9",
                    {"atacker": "r1", "attacked": "r2", "kind": "rebut"}],
        "edges": [{"event": "grounds", "from": "E_01", "to": "f1"},
                  {"relation": "derives", "from": "f1", "to": "A1"},
                  {"relation": "rebuts", "from": "A2", "to": "A1", "via": "r2"},
                  {"from": "f2", "to": "A2", "type": "derivation"},
                  {"relation": "grounds", "from": "E-09", "to": "f9"},
                  {"relation": "derives", "from": "f9", "to": "A9"},
                  {"relation": "derives", "from": "ghost", "to": "A1"},
                  {"from": "x"}],
        "diagnostics": {"defect": "Priority Inversion", "where": "r2>r1"},
        "emitted_conclusions": ["¬Penalty(x)"],
    },
}


def test_trace_repair_converts_records_and_rejects_unsourced_edges():
    r = repair_output(json.dumps(TRACE_OUTPUT), evidence_ids=PACKAGE)
    t = r.trace
    assert [f.id for f in t.facts] == ["f1", "f2"] and t.facts[0].evidence == ("E-01",)
    assert [rule.consequent for rule in t.rules] == ["Penalty(x)", "\u00acPenalty(x)"]
    assert t.rules[1].antecedents == ("ForceMajeure(x)",)
    assert [(p.stronger, p.weaker, p.basis.value) for p in t.priorities] == [("r2", "r1", "specificity")]
    assert [(a.source, a.target, a.kind.value, a.evidence) for a in t.attacks] == [
        ("r2", "r1", "rebut", ("E-04",)), ("r2", "r9", "undercut", ())]
    kept = [(e.source, e.type.value, e.target) for e in t.edges]
    assert kept == [("E-01", "grounding", "f1"), ("f1", "derivation", "A1"), ("A2", "attack", "A1"),
                    ("f2", "derivation", "A2")]
    assert t.edges[2].kind.value == "rebut" and t.edges[2].lic == "r2"
    rejected = {(x.kind, x.id): x.reason for x in t.rejected}
    assert "duplicate id" in rejected[("fact", "f1")]
    assert "has no basis" in rejected[("priority", "priorities.1")]
    assert ("attack", "attacks.1") in rejected
    assert "keys: atacker, attacked, kind" in rejected[("attack", "attacks.3")]
    assert ("edge", "edges.7") in rejected
    for unsourced in ("E-09-grounding->f9", "f9-derivation->A9", "ghost-derivation->A1"):
        assert "no path from a cited evidence fragment" in rejected[("edge", unsourced)]
    assert t.diagnostics.defect_class.value == "priority_inversion" and t.diagnostics.location == "r2>r1"
    assert any("dropped unknown field(s) 'comment'" in line for line in r.log)
    assert any("trace.rejected: edge ghost-derivation->A1" in line for line in r.log)


def test_edge_from_ungrounded_fact_is_rejected():
    out = {"final_status": "accepted",
           "trace": {"facts": [{"id": "f1", "literal": "A", "evidence": ["E-77"]}],
                     "edges": [{"source": "f1", "target": "A1", "type": "derivation"}]}}
    t = repair_output(json.dumps(out), evidence_ids=PACKAGE).trace
    assert t.edges == () and t.facts[0].id == "f1"   # grounding, not repair, drops the fact
    assert t.rejected[0].kind == "edge"


def test_top_level_trace_fields_are_collected():
    out = {"final_status": "accepted", "facts": [{"id": "f1", "literal": "A", "evidence": ["E-01"]}]}
    r = repair_output(json.dumps(out), evidence_ids=PACKAGE)
    assert r.trace.facts[0].id == "f1" and "trace: collected top-level field(s) facts" in r.log


def test_repair_record_keeps_hard_failures_with_raw_text():
    raw = '```json\n{"final_status": "both", "evidence_ids": ["E-01"'
    rec = repair_record(raw, evidence_ids=PACKAGE, case_id="c1", configuration="direct", model="m",
                        repeat=1, prompt_tokens=12, latency_ms=40.0)
    assert rec.meta.hard_failure and rec.meta.raw_text == raw and rec.status is None
    assert rec.meta.repair_log == ("stripped markdown fence (json)",)
    assert rec.meta.prompt_tokens == 12 and rec.repeat == 1
    ok = repair_record(GOOD, evidence_ids=PACKAGE, case_id="c2", configuration="direct", model="m")
    assert ok.status.value == "both" and ok.meta.raw_text == GOOD and not ok.meta.hard_failure


def test_outputs_round_trip_and_typed_errors(tmp_path):
    recs = [repair_record(raw, evidence_ids=PACKAGE, case_id=f"c{i}", configuration="direct", model="m")
            for i, (_, raw, *_rest) in enumerate(CORPUS)]
    path = dump_outputs(recs, tmp_path / "out.jsonl")
    loaded = load_outputs(path)
    assert loaded == recs
    assert sum(r.meta.hard_failure for r in loaded) == sum(c[2] is None for c in CORPUS)

    bad = tmp_path / "bad.jsonl"
    line = json.loads(recs[0].to_json())
    line["common"]["final_status"] = "perhaps"
    bad.write_text(recs[1].to_json() + "\n" + json.dumps(line) + "\n", encoding="utf-8")
    with pytest.raises(OutputFileError) as err:
        load_outputs(bad)
    assert (err.value.line, err.value.field, err.value.value) == (2, "common.final_status", "perhaps")
    assert str(err.value).startswith(f"{bad}:2, field common.final_status: ")

    dup = tmp_path / "dup.jsonl"
    dup.write_text(recs[0].to_json() + "\n\n" + recs[0].to_json() + "\n", encoding="utf-8")
    with pytest.raises(OutputFileError, match="duplicate output for case 'c0'") as err:
        load_outputs(dup)
    assert err.value.line == 3

    broken = tmp_path / "broken.jsonl"
    broken.write_text('{"case_id": }\n', encoding="utf-8")
    with pytest.raises(OutputFileError) as err:
        load_outputs(broken)
    assert err.value.line == 1

    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n", encoding="utf-8")
    with pytest.raises(OutputFileError, match="no output records"):
        load_outputs(empty)


def test_record_validation_error_names_missing_field(tmp_path):
    path = tmp_path / "o.jsonl"
    path.write_text(json.dumps({"case_id": "c1", "model": "m", "common": {"final_status": "both"}}) + "\n")
    with pytest.raises(OutputFileError, match="missing required field") as err:
        load_outputs(path)
    assert err.value.field == "configuration"
    assert isinstance(OutputRecord, type)


_STATUS = st.sampled_from(["accepted", "rejected", "both", "undecidable"])
_COMMON = st.fixed_dictionaries(
    {"final_status": _STATUS},
    optional={"evidence_ids": st.lists(st.sampled_from(sorted(PACKAGE)), unique=True, max_size=4),
              "conflict_detected": st.booleans(), "priority_applied": st.booleans(),
              "uncertainty": st.floats(0, 1), "answer": st.text(max_size=40),
              "emitted_conclusions": st.lists(st.sampled_from(["Penalty(x)", "¬Penalty(x)", "Delay(x)"]),
                                              unique=True, max_size=3)})
_PROSE = st.text(alphabet=st.characters(blacklist_characters="{}`", blacklist_categories=("Cs",)), max_size=30)


@settings(max_examples=60, derandomize=True, deadline=None)
@given(_COMMON, _PROSE, _PROSE, st.booleans())
def test_valid_payload_survives_any_wrapping(payload, before, after, fenced):
    body = json.dumps(payload, ensure_ascii=False)
    raw = f"{before}\n```json\n{body}\n```\n{after}" if fenced else f"{before} {body} {after}"
    result = repair_output(raw, evidence_ids=PACKAGE)
    assert not result.hard_failure, result.failure
    assert result.common == CommonV1.model_validate(payload)
    assert all(line.startswith(("stripped markdown fence", "removed")) for line in result.log)


@settings(max_examples=60, derandomize=True, deadline=None)
@given(_COMMON, st.integers(1, 200))
def test_truncation_is_always_a_hard_failure(payload, cut):
    body = json.dumps(payload)
    raw = body[: max(1, len(body) - cut)]
    result = repair_output(raw, evidence_ids=PACKAGE)
    assert result.hard_failure and result.common is None


def test_raw_lines_are_repaired_at_load_time(tmp_path):
    path = tmp_path / "raw.jsonl"
    lines = [{"case_id": "c1", "configuration": "direct", "model": "m",
              "meta": {"raw_text": "```json\n{\"status\": \"Both\", \"evidence\": [\"e1\"]}\n```", "calls": 1}},
             {"case_id": "c2", "configuration": "direct", "model": "m", "repeat": 1,
              "meta": {"raw_text": "{\"final_status\": \"acc", "latency_ms": 20.0}}]
    path.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    evidence = {"c1": PACKAGE, "c2": PACKAGE}
    ok, failed = load_outputs(path, evidence=evidence)
    assert ok.status.value == "both" and ok.common.evidence_ids == ("E-01",) and ok.meta.calls == 1
    assert ok.meta.repair_log[0] == "stripped markdown fence (json)"
    assert failed.meta.hard_failure and failed.meta.raw_text == '{"final_status": "acc'
    assert failed.meta.latency_ms == 20.0 and failed.repeat == 1
    with pytest.raises(OutputFileError, match="needs the suite") as err:
        load_outputs(path)
    assert err.value.line == 1
    with pytest.raises(OutputFileError, match="not in the suite"):
        load_outputs(path, evidence={"c1": PACKAGE})


def test_layouts():
    nested = {"common": {"final_status": "both"}, "trace": {"facts": []}, "model_notes": "x"}
    r = repair_output(json.dumps(nested), evidence_ids=PACKAGE)
    assert r.trace is not None and "output: dropped unknown field(s) 'model_notes'" in r.log
    bad_trace = repair_output('{"final_status": "both", "trace": "see above"}', evidence_ids=PACKAGE)
    assert bad_trace.trace is None and "trace: dropped unreadable trace 'see above'" in bad_trace.log


def test_reported_rejections_are_kept_first_in_order():
    out = {"final_status": "both", "trace": {
        "rejected": [{"kind": "rule", "id": "r7", "reason": "cites unknown evidence E-12"},
                     {"kind": "fact", "id": "f9", "reason": "no citation"}, {"kind": "rule"}],
        "facts": [{"id": "f1", "literal": "A", "evidence": ["E-01"]}, {"id": "f1", "literal": "B",
                                                                       "evidence": ["E-01"]}]}}
    r = repair_output(json.dumps(out), evidence_ids=PACKAGE)
    assert [(x.kind, x.id) for x in r.trace.rejected] == [("rule", "r7"), ("fact", "f9"), ("fact", "f1")]
    assert any(line.startswith("trace.rejected.2: dropped unreadable rejection record") for line in r.log)
