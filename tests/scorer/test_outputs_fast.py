"""``load_outputs`` reads lines with the strict parser: its records and errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scorer.contract import OutputRecord
from scorer.defects import gold_output
from scorer.errors import OutputFileError
from scorer.outputs_io import load_outputs
from symbolic.suites._jsonread import parse_json
from symbolic.suites.io import load_suite

SUITE = Path(__file__).resolve().parents[2] / "experiments" / "suites" / "controlled-140.jsonl"
GOOD = {"case_id": "c1", "configuration": "b4", "model": "m", "common": {"final_status": "both"}}


def _strict(path: Path) -> list[OutputRecord]:
    """The records as the strict parser alone reads them."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return [OutputRecord.model_validate(parse_json(text, file=str(path), line=i + 1))
            for i, text in enumerate(lines) if text.strip()]


def _write(tmp_path: Path, *lines: str) -> Path:
    path = tmp_path / "outputs.jsonl"
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


def _error(path: Path) -> tuple:
    with pytest.raises(OutputFileError) as info:
        load_outputs(path)
    err = info.value
    return str(err), err.field, err.value


def test_records_equal_the_strict_parser_on_white_box_outputs(tmp_path):
    scenarios = load_suite(SUITE)[:25]
    path = _write(tmp_path, *(gold_output(s, configuration="b4").model_dump_json() for s in scenarios))
    fast = load_outputs(path)
    assert fast == _strict(path)
    assert [r.case_id for r in fast] == [s.id for s in scenarios]
    assert any(r.trace is not None and r.trace.edges for r in fast)


@pytest.mark.parametrize("number", ["1e999", "-1e999", "1E400"])
def test_an_overflowing_latency_is_the_strict_parsers_error(tmp_path, number):
    line = json.dumps({**GOOD, "meta": {"latency_ms": 0}}).replace('"latency_ms": 0', f'"latency_ms": {number}')
    message, _, value = _error(_write(tmp_path, json.dumps(GOOD), line))
    assert message == f"{tmp_path / 'outputs.jsonl'}:2: malformed JSON: the number {number} overflows to infinity"
    assert value == number


def test_an_overflowing_number_inside_the_trace_is_the_strict_parsers_error(tmp_path):
    line = ('{"case_id":"c1","configuration":"b4","model":"m","common":{"final_status":"both"},'
            '"trace":{"nodes":[{"id":"x","type":"fact","label":"a","round":1e999}],"edges":[]}}')
    message, _, _ = _error(_write(tmp_path, line))
    assert message.endswith(":1: malformed JSON: the number 1e999 overflows to infinity")


def test_contract_errors_name_line_field_and_value(tmp_path):
    bad = json.dumps({**GOOD, "common": {"final_status": "maybe"}})
    message, field, value = _error(_write(tmp_path, json.dumps(GOOD).replace("c1", "c0"), bad))
    assert message.startswith(f"{tmp_path / 'outputs.jsonl'}:2, field common.final_status: unknown status label")
    assert (field, value) == ("common.final_status", "maybe")


@pytest.mark.parametrize("line, expected", [
    ("[1]", "expected a JSON object, got list"),
    ("3", "expected a JSON object, got int"),
    ('{"case_id":"c1","case_id":"c2"}', "malformed JSON: duplicate key 'case_id' in an object"),
])
def test_non_records_are_refused_as_before(tmp_path, line, expected):
    message, _, _ = _error(_write(tmp_path, line))
    assert message == f"{tmp_path / 'outputs.jsonl'}:1: {expected}"


def test_a_duplicate_case_names_the_first_line(tmp_path):
    message, field, _ = _error(_write(tmp_path, json.dumps(GOOD), json.dumps(GOOD)))
    assert message.endswith(":2, field case_id: duplicate output for case 'c1' in run ('b4', 'm', '', 0) "
                            "(first at line 1)")
    assert field == "case_id"
