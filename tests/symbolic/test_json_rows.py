"""A long ``gold.attacks`` array read as columns from the bytes (:mod:`symbolic._jsonrows`) against the
plain load (jiter, or the strict parser, on the whole document).

The column read must give the same scenario, or the same error, as the plain load on seeded random
documents: unicode ids, escapes, extra and missing keys, values of the wrong type, duplicate keys and
edges, an empty list, whitespace and newlines, numbers where strings are expected.  Documents here are
small, so the size threshold of the column read is lowered for the test.
"""

from __future__ import annotations

import json
import random

import pytest

import symbolic._jsonfast as jsonfast
from symbolic._jsonrows import split_rows
from symbolic.attack_list import AttackList
from symbolic.columns import MIN_ROWS, RawRows
from symbolic.errors import ScenarioError
from symbolic.io import load_suite

IDS = ["a0", "a1", "a2", "b\u00e4", "\u65e5\u672c", "r1", "r2", "c{", "d]", "e,f", "g:h"]
KINDS = ["rebut", "undercut", "undermine"]


def scenario(attacks, facts=IDS) -> dict:
    """A scenario whose gold gives ``attacks`` (a list of entries) on the facts ``facts``."""
    return {"id": "af", "query": "Is a0 the case?", "target": "a0",
            "evidence": [{"id": "E-01", "text": "A clause.", "source": "test"}],
            "gold": {"status": "undecidable",
                     "facts": [{"id": f, "literal": f"p{i}", "evidence": ["E-01"]} for i, f in enumerate(facts)],
                     "attacks": attacks}}


def entries(rng: random.Random, n: int, *, lic=False, evidence=1, kinds=KINDS) -> list[dict]:
    rows = []
    for _ in range(n):
        row = {"source": rng.choice(IDS), "target": rng.choice(IDS), "kind": rng.choice(kinds)}
        if lic:
            row["lic"] = rng.choice([None, "a1"]) if lic == "mixed" else None
        row["evidence"] = ["E-01"] * evidence
        rows.append(row)
    return rows


def load(path, monkeypatch, columns: bool):
    """``load_suite(path)`` with the column read on (any size) or off; the scenario's dump, or the error."""
    monkeypatch.setattr(jsonfast, "SPLIT_MIN_BYTES", 0 if columns else 1 << 62)
    try:
        found = load_suite(path)
    except ScenarioError as exc:
        return "error", str(exc)
    return "ok", [(s, s.model_dump_json(), type(s.gold.attacks).__name__) for s in found]


def same(path, monkeypatch):
    """The column read and the plain load agree on ``path``; returns the plain outcome."""
    fast, plain = load(path, monkeypatch, True), load(path, monkeypatch, False)
    assert fast[0] == plain[0], (fast, plain)
    if fast[0] == "error":
        assert fast[1] == plain[1]
    else:
        assert [x[1:] for x in fast[1]] == [x[1:] for x in plain[1]]
        assert [x[0] for x in fast[1]] == [x[0] for x in plain[1]]
    return plain


def write(tmp_path, text: str, name="s.json"):
    path = tmp_path / name
    path.write_bytes(text.encode("utf-8"))
    return path


def test_a_long_list_is_read_as_columns_and_equals_the_plain_load(tmp_path, monkeypatch):
    rng = random.Random(0)
    text = json.dumps(scenario(entries(rng, 1500)), separators=(",", ":"), ensure_ascii=False)
    found = split_rows(text.encode("utf-8"), b"attacks", MIN_ROWS)
    assert found is not None and found[2].n == 1500
    start, end, rows = found
    assert rows.items() == json.loads(text.encode("utf-8")[start:end])
    outcome = same(write(tmp_path, text), monkeypatch)
    assert outcome[0] == "ok" and outcome[1][0][2] == "AttackList"
    scenario_ = load_suite(write(tmp_path, text))[0]
    assert isinstance(scenario_.gold.attacks, AttackList)


@pytest.mark.parametrize("seed", range(16))
def test_random_layouts_and_whitespace(tmp_path, monkeypatch, seed):
    rng = random.Random(seed)
    lic = rng.choice([False, True, "mixed"])  # mixed: a string or null, two layouts (read the plain way)
    rows = entries(rng, rng.choice([MIN_ROWS - 1, MIN_ROWS, 1100]), lic=lic,
                   evidence=rng.choice([0, 1, 2]), kinds=rng.choice([KINDS, ["undermine"]]))
    doc = scenario(rows)
    if rng.random() < 0.5:
        text = json.dumps(doc, indent=rng.choice([1, 2, "\t"]), ensure_ascii=rng.random() < 0.5)
    else:
        text = json.dumps(doc, separators=rng.choice([(",", ":"), (", ", ": ")]), ensure_ascii=False)
    same(write(tmp_path, text), monkeypatch)
    data = text.encode("utf-8")
    found = split_rows(data, b"attacks", 2)
    if found is not None:
        assert found[2].items() == json.loads(data[found[0]:found[1]])
    elif "\\" not in text and lic != "mixed":
        pytest.fail("a uniform array without escapes was not read as columns")


def _mutations(rng: random.Random, text: str) -> tuple[str, bool]:
    """``text`` with one entry of its attacks array changed in a random way; whether the layout is kept."""
    starts = [m for m in range(len(text)) if text.startswith('{"source"', m)]
    at = starts[-1] if rng.random() < 0.3 else rng.choice(starts)  # the last entry is checked apart
    end = text.index("}", at) + 1
    row = json.loads(text[at:end])
    choice = rng.randrange(14)
    if choice == 0:
        new = json.dumps({**row, "note": "x"}, separators=(",", ":"), ensure_ascii=False)  # an extra key
    elif choice == 1:
        new = json.dumps({k: v for k, v in row.items() if k != "kind"}, separators=(",", ":"), ensure_ascii=False)  # a missing key
    elif choice == 2:
        new = json.dumps({**row, "kind": 1}, separators=(",", ":"), ensure_ascii=False)  # a number for a string
    elif choice == 3:
        new = json.dumps({**row, "source": 7}, separators=(",", ":"), ensure_ascii=False)
    elif choice == 4:
        new = json.dumps({**row, "evidence": "E-01"}, separators=(",", ":"), ensure_ascii=False)  # a string for a list
    elif choice == 5:
        new = text[at:end - 1] + ',"kind":"rebut"}'  # a duplicate key
    elif choice == 6:
        new = json.dumps({**row, "target": "a\"0"}, separators=(",", ":"), ensure_ascii=False)  # an escape
    elif choice == 7:
        new = json.dumps({**row, "target": "\u00e4\u0001"}, separators=(",", ":"), ensure_ascii=False)
    elif choice == 8:
        new = text[at:end].replace('"a', '"a\t', 1)  # a raw control character in a string
    elif choice == 9:
        new = json.dumps({**row, "kind": "sideways"}, separators=(",", ":"), ensure_ascii=False)  # an invalid value
    elif choice == 10:
        new = json.dumps({"target": row["target"], "source": row["source"], "kind": row["kind"],
                          "evidence": row["evidence"]}, separators=(",", ":"), ensure_ascii=False)  # another key order
    elif choice == 11:
        new = text[at:end].replace(":", " :\n ", 1)  # other whitespace
    elif choice == 12:
        new = json.dumps({**row, "source": " a1"}, separators=(",", ":"), ensure_ascii=False)  # an id with a space
    else:
        new = json.dumps({**row, "evidence": ["E_01"]}, separators=(",", ":"), ensure_ascii=False)  # normalized evidence
    return text[:at] + new + text[end:], choice in (9, 12, 13)


@pytest.mark.parametrize("seed", range(40))
def test_one_changed_entry_gives_the_plain_result(tmp_path, monkeypatch, seed):
    rng = random.Random(seed)
    text = json.dumps(scenario(entries(rng, 1100)), separators=(",", ":"), ensure_ascii=False)
    changed, uniform = _mutations(rng, text)
    same(write(tmp_path, changed), monkeypatch)
    if uniform:  # an invalid or normalized value in the same layout: read as columns, then validated
        assert split_rows(changed.encode("utf-8"), b"attacks", MIN_ROWS) is not None


@pytest.mark.parametrize("tail", ["]}}", "],\"priorities\":[]}}", "], \"attacks\":[]}}", "]}, \"x\": 1}",
                                  "]}} ", "]}}x", "], \"note\": -7306594133377720691}}", "]"])
def test_what_follows_the_array(tmp_path, monkeypatch, tail):
    rng = random.Random(1)
    rows = json.dumps(entries(rng, 1100), separators=(",", ":"))
    text = json.dumps(scenario([]), separators=(",", ":"))
    text = text[:text.rindex("[]")] + rows[:-1] + tail
    same(write(tmp_path, text), monkeypatch)


@pytest.mark.parametrize("attacks", [[], [{"source": "a1", "target": "a2", "kind": "rebut"}] * 1100,
                                     "many", None, [[1, 2]] * 1100])
def test_short_empty_and_odd_arrays(tmp_path, monkeypatch, attacks):
    text = json.dumps(scenario(attacks), separators=(",", ":"))
    same(write(tmp_path, text), monkeypatch)


def test_the_array_as_a_string_or_a_key_elsewhere_is_not_taken(tmp_path, monkeypatch):
    rng = random.Random(2)
    rows = json.dumps(entries(rng, 1100), separators=(",", ":"))
    doc = scenario(entries(rng, 3))
    doc["query"] = '"attacks":' + rows  # escaped quotes: never read as the array
    doc["evidence"][0]["attacks"] = json.loads(rows)  # a key of another object (not a scenario field)
    same(write(tmp_path, json.dumps(doc)), monkeypatch)


def test_jsonl_records_and_a_bom(tmp_path, monkeypatch):
    rng = random.Random(3)
    lines = [json.dumps(dict(scenario(entries(rng, 1100)), id=f"c{i}"), separators=(",", ":")) for i in range(2)]
    same(write(tmp_path, "\n".join(lines) + "\n", "s.jsonl"), monkeypatch)
    same(write(tmp_path, "\ufeff" + lines[0], "b.json"), monkeypatch)


def test_raw_rows_rebuild_the_list():
    rows = RawRows(3, {"source": ("a", "b", "c"), "kind": ("rebut",), "evidence": (["E-01"],)})
    assert rows.items() == [{"source": s, "kind": "rebut", "evidence": ["E-01"]} for s in "abc"]


@pytest.mark.parametrize("text", ['{"attacks":[{"s":"a"},{"s":"bbbbbbbbbbbb"},{"s":"c"}]}',
                                  '{"attacks": [{"s": "a", "t": null}, {"s": "", "t": null}]}',
                                  '{"attacks":[{"s":["x","y"]},{"s":["\u00e4","z"]},{"s":["x","y"]}]}'])
def test_split_rows_reads_the_array_as_the_exact_parser_does(text):
    data = text.encode("utf-8")
    start, end, rows = split_rows(data, b"attacks")
    assert rows.items() == json.loads(data[start:end]) == json.loads(text)["attacks"]


@pytest.mark.parametrize("text", ['{"attacks":[{"s":"a"},{"s":"b\\u0041"}]}', '{"attacks":[{"s":"a"},{"s":1}]}',
                                  '{"attacks":[{"s":"a"},{"s":"b","t":"c"}]}', '{"attacks":[{"s":"a"}]}',
                                  '{"attacks":[{"s":"a"},{"s":"b\tc"}]}', '{"attacks":[{"s":"a"}, {"s":"b"},{"s":"c"}]}',
                                  '{"attacks":[{"s":"a","s":"b"},{"s":"a","s":"b"}]}', '{"attacks":[]}',
                                  '{"attacks":[{"s":"a","t":null},{"s":"b","u":null}]}',
                                  '{"attacks":[{"s":"a","t":[]},{"s":"b","tt":[]}]}'])
def test_split_rows_declines_anything_else(text):
    assert split_rows(text.encode("utf-8"), b"attacks") is None
