"""The scenario loader's strict JSON parser (:mod:`symbolic.suites._jsonread`): escapes, numbers that
overflow, duplicate keys (the column-by-column validation is tested in ``test_fast_columns.py``).
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from symbolic.suites._jsonread import parse_json
from symbolic.errors import ScenarioError
from symbolic.suites.io import load_scenario_text, load_suite, validate_scenario

FIXTURES = Path(__file__).resolve().parent / "fixtures"
VALID = json.loads((FIXTURES / "penalty_suite.jsonl").read_text(encoding="utf-8").splitlines()[0])


def outcome(fn, *args, **kwargs):
    try:
        return "ok", fn(*args, **kwargs)
    except ScenarioError as exc:
        return "error", str(exc)


@pytest.mark.parametrize("escape", ["\\ud800", "\\udc00", "\\udfffx", "\\ud800\\u0041", "\\ud83d\\ude00"])
def test_surrogate_escapes_load_as_with_the_strict_parser(escape):
    text = json.dumps(VALID).replace('"query": "', '"query": "' + escape, 1)
    exact = outcome(lambda: validate_scenario(parse_json(text, file="s.jsonl", line=1), file="s.jsonl", line=1))
    assert outcome(load_scenario_text, text, file="s.jsonl", line=1) == exact
    assert (exact[0] == "ok") == (escape == "\\ud83d\\ude00")


def test_an_overflowing_number_is_still_a_json_error(tmp_path):
    record = copy.deepcopy(VALID)
    record["evidence"][0]["span"] = {"start": 0, "end": 5}
    text = json.dumps(record).replace('"end": 5', '"end": 5e400')
    path = tmp_path / "s.jsonl"
    path.write_text("\n" + text + "\n", encoding="utf-8")
    with pytest.raises(ScenarioError, match=r"s\.jsonl:2: malformed JSON: the number 5e400 overflows to infinity"):
        load_suite(path)
    single = tmp_path / "s.json"
    single.write_text(text, encoding="utf-8")
    with pytest.raises(ScenarioError, match="5e400 overflows to infinity"):
        load_suite(single)


def test_a_duplicate_key_is_still_refused_by_name():
    text = json.dumps(VALID).replace('"query":', '"target": "X", "query":', 1)
    with pytest.raises(ScenarioError, match="duplicate key 'target' in an object"):
        load_scenario_text(text, file="s.jsonl", line=1)


