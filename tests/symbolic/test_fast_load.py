"""The fast parse of the scenario loader against the exact one: jiter before the strict JSON
parser (:mod:`symbolic._jsonread`), which decides on refusal or invalid records.

The fast path must give the same values and the same errors as the plain one, on random inputs
(the column-by-column validation is tested in ``test_fast_columns.py``).
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from symbolic._jsonfast import SLOW, fast_parse
from symbolic._jsonread import parse_json
from symbolic.errors import ScenarioError
from symbolic.io import load_scenario_text, load_suite, validate_scenario

FIXTURES = Path(__file__).resolve().parent / "fixtures"
VALID = json.loads((FIXTURES / "penalty_suite.jsonl").read_text(encoding="utf-8").splitlines()[0])
FUZZ = settings(max_examples=200, derandomize=True, deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


def typed(value):
    """A value with its JSON types spelled out (``1``, ``1.0`` and ``True`` differ)."""
    if isinstance(value, dict):
        return ("object", [(k, typed(v)) for k, v in value.items()])
    if isinstance(value, list):
        return ("array", [typed(v) for v in value])
    if isinstance(value, float):
        return ("float", repr(value))
    return (type(value).__name__, value)


def outcome(fn, *args, **kwargs):
    try:
        return "ok", fn(*args, **kwargs)
    except ScenarioError as exc:
        return "error", str(exc)


# -- JSON text: jiter first, the strict parser deciding -------------------------------------------

scalars = (st.none() | st.booleans() | st.integers(min_value=-(10**20), max_value=10**20)
           | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=8))
json_values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4)
                           | st.dictionaries(st.text(max_size=6), inner, max_size=4), max_leaves=16)
PIECES = ["1e400", "-1e999", "NaN", "Infinity", "\\ud800", "\\udc00x", "\\u00e9", '"a":1,"a":2', "\x01", "\ufeff",
          "9" * 4301, "9" * 4300, "1.5e308", "0.1e-400", "-0", "01", "[", "}", ",", ":", '"', "\\", " ", "\n",
          "\u2028", "true", "nul", "1.", ".5", "1e", "\ud800"]


@st.composite
def json_texts(draw):
    """A JSON text, sometimes broken or holding a number or escape the strict parser refuses."""
    text = json.dumps(draw(json_values), ensure_ascii=draw(st.booleans()))
    for _ in range(draw(st.integers(0, 3))):
        at = draw(st.integers(0, len(text)))
        text = text[:at] + draw(st.sampled_from(PIECES)) + text[at:]
    return text


@FUZZ
@given(json_texts())
def test_jiter_gives_the_strict_value_or_refuses(text):
    fast = fast_parse(text)
    exact = outcome(parse_json, text)
    if fast is SLOW:
        return
    if exact[0] == "ok":
        assert typed(fast) == typed(exact[1])
    else:  # only an overflowing number gets past jiter (as inf), and no scenario field takes a float
        assert "overflows to infinity" in exact[1]
        assert "inf" in repr(fast)


@FUZZ
@given(st.binary(max_size=40))
def test_random_bytes_load_as_with_the_strict_parser(data):
    exact = outcome(lambda: validate_scenario(parse_json(data)))
    assert outcome(load_scenario_text, data) == exact


def _paths(value, prefix=()):
    yield prefix
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, prefix + (key,))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _paths(item, prefix + (index,))


PATHS = [p for p in _paths(VALID) if p]
REPLACEMENTS = st.sampled_from([1e400, 1.0, 2, True, None, "", " r1 ", "E_01", "x", [], {}, 10**30, -1, "1e400"])


@FUZZ
@given(st.lists(st.tuples(st.sampled_from(PATHS), REPLACEMENTS), max_size=3), st.sampled_from(PIECES + [""]))
def test_scenarios_load_as_with_the_strict_parser(edits, piece):
    record = copy.deepcopy(VALID)
    for path, replacement in edits:
        holder = record
        try:
            for key in path[:-1]:
                holder = holder[key]
            holder[path[-1]] = replacement
        except (KeyError, IndexError, TypeError):
            continue
    text = json.dumps(record, ensure_ascii=False).replace("Infinity", "1e400")
    if piece:
        text = text.replace('"E-01"', f'"E-01{piece}"', 1) if len(piece) < 5 else text.replace("0", piece, 1)
    exact = outcome(lambda: validate_scenario(parse_json(text, file="s.jsonl", line=3), file="s.jsonl", line=3))
    assert outcome(load_scenario_text, text, file="s.jsonl", line=3) == exact


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


@FUZZ
@given(st.lists(st.tuples(st.sampled_from(PATHS), REPLACEMENTS), max_size=2), st.sampled_from(PIECES + [""]),
       st.sampled_from(["", "\n", "\n\n  ", " \t\r\n", "\x0c", "\ufeff", "\ufeff\n"]), st.booleans())
def test_json_documents_load_as_with_the_strict_parser(tmp_path, monkeypatch, edits, piece, lead, ascii_only):
    """A ``.json`` document (ASCII ones go to jiter undecoded) loads, or fails, as through the exact parser."""
    import symbolic._jsonread as jsonread

    record = copy.deepcopy(VALID)
    for path, replacement in edits:
        holder = record
        try:
            for key in path[:-1]:
                holder = holder[key]
            holder[path[-1]] = replacement
        except (KeyError, IndexError, TypeError):
            continue
    text = lead + json.dumps(record, ensure_ascii=ascii_only, indent=1).replace("Infinity", "1e400")
    if piece:
        text = text.replace('"E-01"', f'"E-01{piece}"', 1) if len(piece) < 5 else text.replace("0", piece, 1)
    path = tmp_path / "doc.json"
    path.write_bytes(text.encode("utf-8", "surrogatepass"))

    def loaded():
        return [s.model_dump() for s in load_suite(path)]

    fast = outcome(loaded)
    with monkeypatch.context() as patch:
        patch.setattr(jsonread, "fast_validated", lambda *args, **kwargs: SLOW)
        exact = outcome(loaded)
    assert fast == exact
