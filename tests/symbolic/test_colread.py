"""The C reader and coder of explicit attack columns (:mod:`symbolic._colread`) against Python references.

``scan_strings`` and ``scan_rows`` must read exactly what ``json.loads`` reads from an array of plain
strings (no backslash) or of flat rows of one layout, and decline everything else; ``codes`` must code
as the plain Python reference (a dict lookup per value, first-seen order otherwise) does, whatever the
objects' identities.  The ``attack_table`` columns read from the bytes must give the scenario, or the
error, of the plain load.
"""

from __future__ import annotations

import json
import random
from itertools import chain

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import symbolic._jsonfast as jsonfast
from symbolic import _colread
from symbolic._jsonrows import split_rows, split_table
from symbolic.errors import ScenarioError
from symbolic.io import load_suite

WS = [" ", "\t", "\n", "\r", "", "  ", "\x0b", "\u00a0"]  # the last two are not JSON whitespace
TEXTS = ["a0", "a1", "", "b\u00e4", "\u65e5\u672c", "x\"y", "t\\n", "c\u0001", "\U0001f600", "e,f", "]", "g:h"]


def _reference_strings(data: bytes, pos: int):
    """What ``scan_strings`` must return: ``json.loads`` of the array at ``pos`` when it is a list of str
    written without a backslash, else ``None``."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = None
    if text is None:
        return None
    decoder = json.JSONDecoder()
    prefix = len(data[:pos].decode("utf-8"))
    try:
        value, end = decoder.raw_decode(text, prefix)
    except json.JSONDecodeError:
        return None
    if type(value) is not list or not all(type(x) is str for x in value) or "\\" in text[prefix:end]:
        return None
    return len(text[:end].encode("utf-8")), value


def _array(rng: random.Random) -> bytes:
    items = [rng.choice(TEXTS) for _ in range(rng.randrange(0, 12))]
    parts = [json.dumps(x, ensure_ascii=rng.random() < 0.3) for x in items]
    if parts and rng.random() < 0.2:
        parts[rng.randrange(len(parts))] = rng.choice(["1", "null", "[]", '"\t"', "{}", '"a'])
    ws = lambda: rng.choice(WS) if rng.random() < 0.5 else ""  # noqa: E731
    lead = "," if rng.random() < 0.05 else ""  # a comma before the first item
    text = "[" + ws() + lead + (ws() + "," + ws()).join(parts) + ws() + "]" + rng.choice(["", " ,", "]"])
    data = rng.choice(["", '{"k":', "\u00e4 "]).encode("utf-8") + text.encode("utf-8")
    if rng.random() < 0.1:
        at = rng.randrange(len(data))
        data = data[:at] + bytes([rng.choice([0xff, 0xc3, 0x22, 0x5c, 0x01, 0x5d])]) + data[at + 1:]
    return data


@pytest.mark.parametrize("seed", range(400))
def test_scan_strings_reads_what_json_reads(seed):
    rng = random.Random(seed)
    data = _array(rng)
    pos = max(data.find(b"["), 0)
    expected = _reference_strings(data, pos)
    found = _colread.scan_strings(data, pos)
    if expected is None:
        assert found is None, (data, found)
        return
    end, values, codes, distinct = found
    assert (end, list(values)) == expected
    assert distinct == list(dict.fromkeys(values))
    assert [distinct[c] for c in np.frombuffer(codes, dtype=np.int32)] == list(values)


def test_scan_strings_shares_one_object_per_distinct_string():
    _, values, _, distinct = _colread.scan_strings(b'["a","b","a","a"]', 0)
    assert values[0] is values[2] is values[3] is distinct[0]


@pytest.mark.parametrize("data, pos", [(b"", 0), (b"[", 0), (b'["a"', 0), (b'["a",]', 0), (b"[1]", 0),
                                       (b'["\\u0041"]', 0), (b'["a"]', 1), (b'["\xed\xa0\x80"]', 0)])
def test_scan_strings_declines(data, pos):
    assert _colread.scan_strings(data, pos) is None


def test_scan_arguments_are_checked():
    with pytest.raises(ValueError):
        _colread.scan_strings(b"[]", 5)
    with pytest.raises(ValueError):
        _colread.scan_rows(b"[]", 0, (b"{",), b",")
    with pytest.raises(TypeError):
        _colread.scan_rows(b"[]", 0, ("{", "}"), b",")


def _rows_text(rng: random.Random, n: int) -> str:
    keys = rng.sample(["source", "target", "kind", "lic", "evidence", "\u00e4"], rng.randrange(1, 5))
    kinds = {key: rng.choice(["str", "str", "null", "list"]) for key in keys}
    width = rng.randrange(0, 3)
    rows = []
    for _ in range(n):
        row = {}
        for key in keys:
            if kinds[key] == "str":
                row[key] = rng.choice(TEXTS[:5] if rng.random() < 0.97 else TEXTS)
            elif kinds[key] == "list":
                row[key] = [rng.choice(TEXTS[:5]) for _ in range(width)]
            else:
                row[key] = None
        rows.append(row)
    if rows and rng.random() < 0.1:
        rows[rng.randrange(n)][keys[0]] = rng.choice([1, None, [], {"x": "y"}])
    if rng.random() < 0.5:
        return json.dumps({"attacks": rows}, indent=rng.choice([None, 1, "\t"]), ensure_ascii=rng.random() < 0.5)
    return json.dumps({"attacks": rows}, separators=rng.choice([(",", ":"), (", ", ": ")]), ensure_ascii=False)


@pytest.mark.parametrize("seed", range(200))
def test_split_rows_reads_what_json_reads(seed):
    rng = random.Random(seed)
    text = _rows_text(rng, rng.randrange(0, 40))
    data = text.encode("utf-8")
    found = split_rows(data, b"attacks")
    if found is None:
        return
    start, end, rows = found
    assert rows.items() == json.loads(data[start:end]) == json.loads(text)["attacks"]
    assert "\\" not in data[start:end].decode("utf-8")


def _reference_codes(columns, known):
    """The plain Python coding (the engine's before the C pass)."""
    values = list(chain.from_iterable(columns))
    if known:
        try:
            return [known[v] for v in values], None
        except KeyError:
            pass
    distinct = list(dict.fromkeys(values))
    position = {v: i for i, v in enumerate(distinct)}
    return [position[v] for v in values], distinct


@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(st.sampled_from(["a", "b", "c", "d", "\u00e4", "e" * 20]), max_size=30), max_size=4),
       st.none() | st.dictionaries(st.sampled_from(["a", "b", "c", "d", "e"]), st.integers(0, 9), max_size=5),
       st.booleans())
def test_codes_match_the_python_reference(columns, known, copies):
    if copies:  # equal strings that are other objects
        columns = [[("" + v + "!")[:-1] for v in column] for column in columns]
    columns = [tuple(c) if i % 2 else c for i, c in enumerate(columns)]
    codes, distinct = _colread.codes(columns, known or None)
    expected, expected_distinct = _reference_codes(columns, known)
    assert np.frombuffer(codes, dtype=np.int32).tolist() == expected
    assert distinct == expected_distinct


def test_codes_of_unhashable_values_and_bad_arguments():
    with pytest.raises(TypeError):
        _colread.codes([[["x"]]], None)
    with pytest.raises(TypeError):
        _colread.codes([["x"]], {"x": "not a number"})
    with pytest.raises(TypeError):
        _colread.codes([["x"]], [("x", 0)])
    with pytest.raises(TypeError):
        _colread.codes([3], None)


def test_take():
    codes = np.array([1, 0, 1], dtype=np.int32).tobytes()
    assert _colread.take(["p", "q"], codes) == ("q", "p", "q")
    with pytest.raises(IndexError):
        _colread.take(["p"], codes)
    with pytest.raises(ValueError):
        _colread.take(["p"], b"abc")


# ---- attack_table columns read from the bytes, against the plain load ----

IDS = ["a0", "a1", "a2", "b\u00e4", "r1"]


def _scenario(rng: random.Random, n: int) -> dict:
    table = {"source": [rng.choice(IDS) for _ in range(n)], "target": [rng.choice(IDS) for _ in range(n)],
             "kind": rng.choice(["undermine", ["rebut"] * n]), "evidence": ["E-01"]}
    if rng.random() < 0.3:
        table["lic"] = [rng.choice([None, "r1"]) for _ in range(n)]
    return {"id": "af", "query": "Is a0 the case?", "target": "a0",
            "evidence": [{"id": "E-01", "text": "A clause.", "source": "test"}],
            "gold": {"status": "undecidable",
                     "facts": [{"id": f, "literal": f"p{i}", "evidence": ["E-01"]} for i, f in enumerate(IDS[:4])],
                     "rules": [{"id": "r1", "type": "defeasible", "antecedents": ["p0"], "consequent": "q",
                                "evidence": ["E-01"]}],
                     "attack_table": table}}


def _load(path, monkeypatch, columns: bool):
    monkeypatch.setattr(jsonfast, "SPLIT_MIN_BYTES", 0 if columns else 1 << 62)
    monkeypatch.setattr(jsonfast, "MIN_ROWS", 3)
    try:
        return "ok", [s.model_dump_json() for s in load_suite(path)]
    except ScenarioError as exc:
        return "error", str(exc)


def _mutated(rng: random.Random, text: str) -> str:
    at = text.index('"attack_table"')
    choice = rng.randrange(9)
    if choice == 0:
        return text  # as written
    if choice == 1:
        return text[:at] + text[at:].replace('"a1"', '"a\\u0031"', 1)  # an escape
    if choice == 2:
        return text[:at] + text[at:].replace('"a1"', "1", 1)  # a number
    if choice == 3:
        return text[:at] + text[at:].replace('"a1"', '" a1"', 1)  # an id with a space (an error)
    if choice == 4:
        return text[:at] + text[at:].replace('"target"', '"source"', 1)  # a duplicate key
    if choice == 5:
        return text[:at] + text[at:].replace('"a1"', '""', 1)  # an empty target or source
    if choice == 6:
        return text.replace('"attack_table"', '"attack_table2"', 1)  # an unknown field
    if choice == 7:  # the table's name inside a string before it
        return text.replace('"A clause."', json.dumps('"attack_table":{"source":["a1","a2","a0"]}'), 1)
    return text[:at] + text[at:].replace('"target"', ' "target" \n', 1)  # other whitespace


@pytest.mark.parametrize("seed", range(60))
def test_attack_table_columns_give_the_plain_result(tmp_path, monkeypatch, seed):
    rng = random.Random(seed)
    doc = _scenario(rng, rng.choice([2, 3, 50]))
    if rng.random() < 0.3:
        doc["gold"]["attacks"] = [{"source": "a0", "target": "a1", "kind": "rebut", "evidence": ["E-01"]}] * 5
    text = _mutated(rng, json.dumps(doc, separators=rng.choice([(",", ":"), (", ", ": ")]), ensure_ascii=False))
    path = tmp_path / "s.json"
    path.write_bytes(text.encode("utf-8"))
    fast, plain = _load(path, monkeypatch, True), _load(path, monkeypatch, False)
    assert fast == plain


def test_split_table_reads_both_columns():
    data = json.dumps({"attack_table": {"source": ["a", "b", "a"], "kind": "rebut", "target": ["b", "a", "c"]}})
    data = data.encode("utf-8")
    found = split_table(data, 3)
    assert [(name, values) for _, _, name, values in found] == [("source", ("a", "b", "a")),
                                                                 ("target", ("b", "a", "c"))]
    assert all(json.loads(data[start:end]) == list(values) for start, end, _, values in found)
    assert split_table(data, 4) == []
