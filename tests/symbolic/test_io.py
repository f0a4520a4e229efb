"""Suite I/O: loading with precise errors, normalization through the loader,
deterministic atomic dumping, the JSON Schema export."""

from __future__ import annotations

import json
import os
from pathlib import Path

import jsonschema
import pytest

import symbolic.suites._jsonread as jsonread
from symbolic.errors import ScenarioError
from symbolic.suites.io import (
    check_suite,
    dump_suite,
    iter_suite_lines,
    load_scenario_text,
    load_suite,
    scenario_json_schema,
    scenario_line,
)
from symbolic.scenario.labels import Status

from penalty_cases import write_case_json

FIXTURES = Path(__file__).resolve().parent / "fixtures"
SUITE = FIXTURES / "penalty_suite.jsonl"


def base() -> dict:
    """A small valid scenario record."""
    return {
        "id": "c1",
        "query": "Is a penalty due?",
        "target": "Penalty(x)",
        "evidence": [{"id": "E-01", "text": "Clause 1", "source": "Contract"}],
        "gold": {
            "status": "accepted",
            "facts": [{"id": "f1", "literal": "Delay(x)", "evidence": ["E-01"]}],
            "rules": [{"id": "r1", "antecedents": ["Delay(x)"], "consequent": "Penalty(x)",
                       "evidence": ["E-01"]}],
        },
    }


def write_lines(path: Path, *records) -> Path:
    path.write_text("".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in records),
                    encoding="utf-8")
    return path


def error_of(path, **kwargs) -> ScenarioError:
    with pytest.raises(ScenarioError) as info:
        load_suite(path, **kwargs)
    return info.value


# --- loading ---------------------------------------------------------------

def test_load_penalty_suite():
    scenarios = load_suite(SUITE)
    assert [s.id for s in scenarios][:2] == ["penalty-as-given", "penalty-no-r3-over-r2"]
    assert [s.gold.status for s in scenarios] == [
        Status.ACCEPTED, Status.BOTH, Status.REJECTED, Status.BOTH, Status.UNDECIDABLE,
        Status.BOTH, Status.REJECTED]


def test_single_json_document_loads_as_one_scenario(tmp_path):
    (scenario,) = load_suite(write_case_json(tmp_path))
    assert scenario == load_suite(SUITE)[0]


def test_json_array_reports_the_line_of_the_bad_element(tmp_path):
    bad = base() | {"id": "c2", "query": ""}
    text = "[\n" + json.dumps(base(), indent=1) + ",\n" + json.dumps(bad, indent=1) + "\n]\n"
    path = tmp_path / "suite.json"
    path.write_text(text, encoding="utf-8")
    err = error_of(path)
    assert err.line == 3 + json.dumps(base(), indent=1).count("\n")
    assert err.field == "query" and err.value == ""


def test_iter_suite_lines_gives_start_lines(tmp_path):
    path = write_lines(tmp_path / "s.jsonl", base(), "", "   ", base() | {"id": "c2"})
    assert [(line, s.id) for line, s in iter_suite_lines(path)] == [(1, "c1"), (4, "c2")]


# --- errors: each kind names file, line, field and value -------------------

def test_malformed_json(tmp_path):
    path = write_lines(tmp_path / "s.jsonl", base(), '{"id": "c2", "query": }')
    err = error_of(path)
    assert (err.file, err.line, err.field) == (str(path), 2, None)
    assert "malformed JSON" in err.reason and "Expecting value at column 23" in err.reason
    assert err.value.endswith("\"query\": }\n")
    assert str(err).startswith(f"{path}:2: malformed JSON")


def test_pretty_printed_jsonl_gets_a_hint(tmp_path):
    path = tmp_path / "s.jsonl"
    path.write_text(json.dumps(base(), indent=2), encoding="utf-8")
    err = error_of(path)
    assert err.line == 1 and ".json file name" in err.reason


@pytest.mark.parametrize("mutate, field, value, words", [
    (lambda r: r["gold"].__setitem__("status", 5), "gold.status", 5, "status label must be a string"),
    (lambda r: r["gold"].__setitem__("status", "maybe"), "gold.status", "maybe", "unknown status label"),
    (lambda r: r.__setitem__("colour", "red"), "colour", "red", "unknown field 'colour'"),
    (lambda r: r["evidence"][0].__setitem__("page", 3), "evidence.0.page", 3, "unknown field 'page'"),
    (lambda r: r["gold"]["rules"][0].__setitem__("kind", "maybe"), "gold.rules.0.kind", "maybe", "strict"),
    (lambda r: r["gold"]["facts"][0].__setitem__("evidence", "E-01"), "gold.facts.0.evidence", "E-01", "tuple"),
    (lambda r: r["gold"]["facts"][0].__setitem__("literal", "~~"), "gold.facts.0.literal", "~~", "empty literal"),
    (lambda r: r.pop("query"), "query", None, "missing required field"),
    (lambda r: r["evidence"].clear(), "evidence", [], "at least 1"),
])
def test_schema_violation_names_field_and_value(tmp_path, mutate, field, value, words):
    record = base()
    mutate(record)
    path = write_lines(tmp_path / "s.jsonl", base() | {"id": "c0"}, record)
    err = error_of(path)
    assert (err.file, err.line, err.field, err.value) == (str(path), 2, field, value)
    assert words in err.reason
    assert f":2, field {field}:" in str(err)


def test_duplicate_case_ids(tmp_path):
    path = write_lines(tmp_path / "s.jsonl", base(), base() | {"query": "again?"})
    err = error_of(path)
    assert (err.line, err.field, err.value) == (2, "id", "c1")
    assert "duplicate case id 'c1' (first used at line 1)" in err.reason


def test_duplicate_json_keys_and_nan_are_refused(tmp_path):
    path = write_lines(tmp_path / "s.jsonl", '{"id": "c1", "id": "c2"}')
    assert "duplicate key 'id'" in error_of(path).reason
    path = write_lines(tmp_path / "t.jsonl", '{"id": NaN}')
    assert "NaN is not a JSON number" in error_of(path).reason


@pytest.mark.parametrize("content", [b"", b"\n\n  \n"])
def test_empty_files(tmp_path, content):
    path = tmp_path / "empty.jsonl"
    path.write_bytes(content)
    err = error_of(path)
    assert err.file == str(path) and "no scenarios" in err.reason


def test_non_utf8_bytes(tmp_path):
    path = tmp_path / "s.jsonl"
    path.write_bytes(json.dumps(base()).encode() + b"\n" + b'{"id": "caf\xe9"}\n')
    err = error_of(path)
    assert err.line == 2 and "not valid UTF-8: byte 0xe9 at byte offset 11" in err.reason
    assert err.value == b"\xe9\"}\n"


def test_non_object_record(tmp_path):
    path = write_lines(tmp_path / "s.jsonl", "[1, 2]")
    err = error_of(path)
    assert err.line == 1 and "expected a JSON object (one scenario), got array [1, 2]" in err.reason


def test_deep_nesting_is_a_scenario_error(tmp_path):
    path = write_lines(tmp_path / "s.jsonl", "[" * 100_000 + "]" * 100_000)
    assert "nested too deeply" in error_of(path).reason


def test_line_over_the_limit(tmp_path):
    path = write_lines(tmp_path / "s.jsonl", base(), base() | {"id": "c2", "query": "x" * 500})
    err = error_of(path, max_line_bytes=400)
    assert err.line == 2 and "longer than the limit of 400 bytes" in err.reason
    assert len(load_suite(path, max_line_bytes=len(path.read_bytes().splitlines()[1]))) == 2


def test_file_over_the_limit_is_refused_before_reading(tmp_path, monkeypatch):
    path = tmp_path / "huge.jsonl"
    with open(path, "wb") as handle:  # sparse: no disk used
        handle.truncate(600 * 1024 * 1024)
    monkeypatch.setattr(jsonread, "open", lambda *a, **k: pytest.fail("the file was opened"), raising=False)
    err = error_of(path)
    assert err.value == 600 * 1024 * 1024
    assert f"over the limit of {512 * 1024 * 1024} bytes" in err.reason
    small = write_lines(tmp_path / "s.jsonl", base())
    monkeypatch.undo()
    assert "over the limit of 10 bytes" in error_of(small, max_file_bytes=10).reason


def test_directory_and_missing_file(tmp_path):
    assert str(error_of(tmp_path)) == f"{tmp_path}: is a directory, expected a file"
    assert str(error_of(tmp_path / "nope.jsonl")) == f"{tmp_path / 'nope.jsonl'}: no such file"


def test_check_suite_collects_every_line_error(tmp_path):
    path = write_lines(tmp_path / "s.jsonl", base(), "{oops", base() | {"colour": 1}, base(),
                       base() | {"id": "c3"})
    check = check_suite(path)
    assert not check.ok
    assert [(e.line, e.field) for e in check.errors] == [(2, None), (3, "colour"), (4, "id")]
    assert [line for line, _ in check.scenarios] == [1, 5]


def test_load_scenario_text_offsets_lines():
    with pytest.raises(ScenarioError) as info:
        load_scenario_text('{\n"id": "c1",\n}', file="x.json", line=10)
    assert info.value.line == 12
    with pytest.raises(ScenarioError) as info:
        load_scenario_text(b"\xff{}")
    assert info.value.line is None and "UTF-8" in info.value.reason


# --- normalization through the loader --------------------------------------

def test_normalization_through_the_loader(tmp_path):
    record = base()
    record["evidence"] = [{"id": "E_01", "text": "a", "source": "s"},
                          {"id": "e02", "text": "b", "source": "s"},
                          {"id": "Evidence 3", "text": "c", "source": "s"}]
    record["target"] = "NOT Penalty( x )"
    record["gold"] = {
        "status": "Positive",
        "facts": [{"id": "f1", "literal": "~ForceMajeure(x)", "evidence": ["evidence 1"]},
                  {"id": "f2", "literal": "not not Delay(x)", "evidence": ["E-2"]}],
        "rules": [{"id": "r1", "antecedents": ["-ForceMajeure(x)", "!Delay(x)"],
                   "consequent": "¬Penalty(x)", "evidence": ["[E-03]"]}],
        "priorities": [{"stronger": "r1", "weaker": "r2", "basis": "lex specialis",
                        "evidence": ["E_3"]}],
    }
    (scenario,) = load_suite(write_lines(tmp_path / "s.jsonl", record))
    assert [f.id for f in scenario.evidence] == ["E-01", "E-02", "E-03"]
    assert scenario.target == "¬Penalty(x)"
    gold = scenario.gold
    assert gold.status is Status.ACCEPTED
    assert [(f.literal, f.evidence) for f in gold.facts] == [("¬ForceMajeure(x)", ("E-01",)),
                                                             ("Delay(x)", ("E-02",))]
    assert gold.rules[0].antecedents == ("¬ForceMajeure(x)", "¬Delay(x)")
    assert gold.priorities[0].basis.value == "specificity" and gold.priorities[0].evidence == ("E-03",)


@pytest.mark.parametrize("spelling, status", [
    ("Accepted", Status.ACCEPTED), ("REJECTED", Status.REJECTED), ("negative", Status.REJECTED),
    ("conflict", Status.BOTH), ("Both", Status.BOTH), ("undetermined", Status.UNDECIDABLE),
    ("unknown", Status.UNDECIDABLE), ("Undecidable", Status.UNDECIDABLE),
])
def test_status_spellings(spelling, status):
    record = base()
    record["gold"]["status"] = spelling
    assert load_scenario_text(json.dumps(record)).gold.status is status


# --- dumping ---------------------------------------------------------------

def test_dump_is_deterministic_and_round_trips(tmp_path):
    scenarios = load_suite(SUITE)
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    digest = dump_suite(scenarios, first)
    assert dump_suite(iter(load_suite(first)), second) == digest
    assert first.read_bytes() == second.read_bytes() == SUITE.read_bytes()
    lines = first.read_text(encoding="utf-8").splitlines()
    assert lines[0] == scenario_line(scenarios[0])
    assert json.dumps(json.loads(lines[0]), sort_keys=True, separators=(",", ":"),
                      ensure_ascii=False) == lines[0]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.jsonl", "b.jsonl"]


def test_dump_replaces_atomically_and_keeps_old_file_on_failure(tmp_path):
    path = tmp_path / "s.jsonl"
    path.write_text("old\n", encoding="utf-8")
    scenarios = load_suite(SUITE)[:2]
    with pytest.raises(ScenarioError, match="duplicate case id 'penalty-as-given'"):
        dump_suite([scenarios[0], scenarios[0]], path)
    with pytest.raises(ScenarioError, match="not a Scenario"):
        dump_suite([scenarios[0], {"id": "x"}], path)
    with pytest.raises(ScenarioError, match="empty suite"):
        dump_suite([], path)
    assert path.read_text(encoding="utf-8") == "old\n"
    dump_suite(scenarios, path)
    assert [s.id for s in load_suite(path)] == [s.id for s in scenarios]
    umask = os.umask(0)
    os.umask(umask)
    assert path.stat().st_mode & 0o777 == 0o666 & ~umask
    assert [p.name for p in tmp_path.iterdir()] == ["s.jsonl"]
    with pytest.raises(ScenarioError, match="missing-dir does not exist"):
        dump_suite(scenarios, tmp_path / "missing-dir" / "s.jsonl")


# --- JSON Schema -----------------------------------------------------------

def test_schema_validates_the_canonical_suite():
    schema = scenario_json_schema()
    validator = jsonschema.Draft202012Validator(schema)
    validator.check_schema(schema)
    for line in SUITE.read_text(encoding="utf-8").splitlines():
        validator.validate(json.loads(line))
    bad = json.loads(SUITE.read_text(encoding="utf-8").splitlines()[0])
    bad["gold"]["rules"][0]["kind"] = "maybe"
    del bad["id"]
    messages = sorted(e.message for e in validator.iter_errors(bad))
    assert any("'id' is a required property" in m for m in messages)
    assert any("'maybe' is not one of" in m for m in messages)
