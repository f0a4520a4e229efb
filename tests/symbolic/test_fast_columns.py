"""Long lists validated column by column (:mod:`symbolic.scenario.columns`, :mod:`symbolic.scenario.attack_list`)
against row-by-row validation, and the columnar attack list through grounding, aliases and validate.

Each fast path must give the same values, ``model_fields_set`` and errors as the plain one, on
random inputs.
"""

from __future__ import annotations

import copy
import json
import pickle
import random
import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import get_origin

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import TypeAdapter, ValidationError

from symbolic.scenario import columns as columns_module
from symbolic.traces.aliases import collapse_aliases
from symbolic.scenario.attack_list import AttackList, attack_list
from symbolic.scenario.columns import build_models, validate_rows
from symbolic.errors import ScenarioError
from symbolic.engine.grounding import ground
from symbolic.suites.io import load_scenario_text, load_suite
from symbolic.scenario.model import Analysis, AttackEdge, Fact, Priority, Rule, Scenario
from symbolic.scenario.priority_list import PriorityList

FIXTURES = Path(__file__).resolve().parent / "fixtures"
VALID = json.loads((FIXTURES / "penalty_suite.jsonl").read_text(encoding="utf-8").splitlines()[0])
E = ["E-01"]
FUZZ = settings(max_examples=200, derandomize=True, deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
EDGES = TypeAdapter(tuple[AttackEdge, ...])


@contextmanager
def columnar_from(rows: int):
    """Take the column-by-column path for lists of at least ``rows`` entries."""
    saved = columns_module.MIN_ROWS
    columns_module.MIN_ROWS = rows
    try:
        yield
    finally:
        columns_module.MIN_ROWS = saved


# -- long attacks lists, column by column -----------------------------------------------------------

ABSENT = object()
ids = st.sampled_from(["a1", "a2", "r1", " a1", "a 1", "", "¬p", 3, None, ["a1"]])
kinds = st.sampled_from(["rebut", "undercut", "undermine", "Rebut", "smash", 1, None])
lics = st.sampled_from([ABSENT, ABSENT, None, "r1", " r1", "r 1", 2])
citations = st.sampled_from([ABSENT, ["E-01"], ["E-01"], ["E_01", "E-02"], [], ["E-01", 1], "E-01", None, ["x y"]])


@st.composite
def entries(draw):
    """An attack entry, mostly valid, sometimes with a bad value, an unknown key or another shape."""
    def rarely():
        return draw(st.integers(0, 24)) == 0

    if rarely():
        return draw(st.sampled_from([["a1", "a2"], "a1", None, 7]))
    entry = {"source": draw(ids if rarely() else st.sampled_from(["a1", "a2", "r1"])),
             "target": draw(ids if rarely() else st.sampled_from(["a1", "a2", "r1", "¬p"])),
             "kind": draw(kinds if rarely() else st.sampled_from(["rebut", "undercut", "undermine"]))}
    for name, values, usual in (("lic", lics, st.sampled_from([ABSENT, ABSENT, None, "r1"])),
                                ("evidence", citations, st.sampled_from([ABSENT, E, E, ["E-01", "E-02"]]))):
        value = draw(values if rarely() else usual)
        if value is not ABSENT:
            entry[name] = value
    if rarely():
        entry["weight"] = 1
    if rarely():
        del entry[draw(st.sampled_from(["source", "target", "kind"]))]
    return entry


def _same_edges(fast, slow):
    assert isinstance(fast, AttackList)
    assert fast == slow and slow == fast and tuple(fast) == slow and hash(fast) == hash(slow)
    assert [e.model_fields_set for e in fast] == [e.model_fields_set for e in slow]
    assert [e.model_dump_json() for e in fast] == [e.model_dump_json() for e in slow]
    assert [e.__pydantic_extra__ for e in fast] == [e.__pydantic_extra__ for e in slow]


GOOD = {"source": "a1", "target": "a2", "kind": "rebut", "evidence": E}


@pytest.mark.parametrize("entry", [
    {**GOOD, "weight": 1}, {"target": "a2", "kind": "rebut"}, {"source": "a1", "kind": "rebut"},
    {"source": "a1", "target": "a2"}, ["a1", "a2", "rebut"], "a1 -rebut-> a2", None, {**GOOD, "source": "a 1"},
    {**GOOD, "source": ""}, {**GOOD, "source": 3}, {**GOOD, "target": ""}, {**GOOD, "target": ["a2"]},
    {**GOOD, "kind": "smash"}, {**GOOD, "kind": 1}, {**GOOD, "lic": "r 1"}, {**GOOD, "lic": 2},
    {**GOOD, "evidence": "E-01"}, {**GOOD, "evidence": ["E-01", 1]}, {**GOOD, "evidence": None},
    {**GOOD, "evidence": [["E-01"]]}, {**GOOD, "evidence": [""]},
])
def test_any_bad_entry_sends_the_list_entry_by_entry(entry):
    items = [GOOD, {**GOOD, "lic": "r1"}, entry, {"source": "a2", "target": "a1", "kind": "undercut"}]
    with pytest.raises(ValidationError):
        EDGES.validate_python(items)
    with columnar_from(1):
        assert attack_list(items, AttackEdge) is None


@pytest.mark.parametrize("entry", [
    {**GOOD, "source": " a1 "}, {**GOOD, "evidence": ["E_01", "e02"]}, {**GOOD, "evidence": []},
    {"source": "a1", "target": "¬ p", "kind": "undermine"}, {**GOOD, "lic": None}, {**GOOD, "lic": " r1"},
    {**GOOD, "kind": "undercut"}, {**GOOD, "evidence": ["x y"]},
])
def test_normalized_values_are_those_of_entry_by_entry(entry):
    items = [GOOD, {**GOOD, "lic": "r1"}, entry, {"source": "a2", "target": "a1", "kind": "undercut"}, entry]
    with columnar_from(1):
        _same_edges(attack_list(items, AttackEdge), EDGES.validate_python(items))


@settings(FUZZ, max_examples=600)
@given(st.lists(entries(), min_size=1, max_size=6), st.integers(1, 3))
def test_columns_validate_as_entry_by_entry(items, copies):
    items = items * copies
    with columnar_from(1):
        fast = attack_list(copy.deepcopy(items), AttackEdge)
        try:
            slow = EDGES.validate_python(items)
        except ValidationError:
            assert fast is None
            return
        if fast is not None:
            _same_edges(fast, slow)
        analysis = Analysis.model_validate({"attacks": items})
        assert analysis == Analysis.model_construct(attacks=slow)
        assert analysis.model_dump_json() == Analysis(attacks=slow).model_dump_json()


def test_a_uniform_list_takes_the_columnar_path_and_behaves_as_a_tuple():
    items = [{"source": f"a{i}", "target": f"a{i + 1}", "kind": "undermine", "evidence": ["E_01"]}
             for i in range(columns_module.MIN_ROWS)]
    analysis = Analysis.model_validate({"attacks": items})
    edges, slow = analysis.attacks, EDGES.validate_python(items)
    _same_edges(edges, slow)
    assert edges.evidence == (("E-01",),)  # normalized and shared
    assert edges[3] is edges[3] and edges[-1] == slow[-1] and edges[1:3] == slow[1:3] and slow[0] in edges
    assert edges + (slow[0],) == slow + (slow[0],) and (slow[0],) + edges == (slow[0],) + slow
    assert pickle.loads(pickle.dumps(analysis)) == analysis and analysis.model_copy(deep=True) == analysis
    assert Analysis(attacks=edges).attacks is edges  # an AttackList passes through unchanged
    short = Analysis.model_validate({"attacks": items[:10]})
    assert type(short.attacks) is tuple and short.attacks == slow[:10]


def test_a_bad_entry_of_a_long_list_is_reported_by_position():
    record = copy.deepcopy(VALID)
    record["gold"]["attacks"] = [{"source": "r1", "target": "r2", "kind": "undercut", "evidence": E}] * 1500
    record["gold"]["attacks"][1234] = {"source": "r1", "target": "r2", "kind": "smash", "evidence": E}
    with pytest.raises(ScenarioError) as err:
        load_scenario_text(json.dumps(record), file="s.jsonl", line=4)
    assert str(err.value).startswith("s.jsonl:4, field gold.attacks.1234.kind: input should be 'rebut', "
                                     "'undercut' or 'undermine'; got \"smash\"")


@st.composite
def theories(draw):
    """Facts and rules, some ungrounded, and attack entries between them (some dangling or ungrounded)."""
    facts = [{"id": f"f{i}", "literal": f"a{i}", "evidence": draw(st.sampled_from([E, E, ["E-09"], []]))}
             for i in range(draw(st.integers(1, 4)))]
    rules = [{"id": f"r{i}", "antecedents": [f"a{i % len(facts)}"], "consequent": draw(st.sampled_from(["p", "¬p"])),
              "evidence": draw(st.sampled_from([E, E, ["E-09"]]))} for i in range(draw(st.integers(1, 4)))]
    names = [f["id"] for f in facts] + [r["id"] for r in rules] + ["ghost"]
    attacks = [{"source": draw(st.sampled_from(names)), "target": draw(st.sampled_from(names + ["p", "¬p", "¬"])),
                "kind": draw(st.sampled_from(["rebut", "undercut", "undermine"])),
                "evidence": draw(st.sampled_from([E, E, E, ["E-09"]])),
                **({"lic": draw(st.sampled_from(names))} if draw(st.booleans()) else {})}
               for _ in range(draw(st.integers(1, 10)))]
    return {"facts": facts, "rules": rules, "attacks": attacks}


@FUZZ
@given(theories())
def test_grounding_a_columnar_list_keeps_and_drops_as_one_by_one(case):
    plain = Analysis.model_validate(case)
    with columnar_from(1):
        columnar = Analysis.model_validate(case)
    assert isinstance(columnar.attacks, AttackList)
    fast, slow = ground(E, columnar), ground(E, plain)
    assert tuple(fast.attacks) == slow.attacks and fast.dropped == slow.dropped


def test_scenario_with_a_long_list_dumps_as_before(tmp_path):
    record = copy.deepcopy(VALID)
    record["gold"]["attacks"] = [{"source": "r1", "target": f"x{i}", "kind": "undercut", "evidence": E}
                                 for i in range(columns_module.MIN_ROWS + 5)]
    scenario = Scenario.model_validate(record)
    assert isinstance(scenario.gold.attacks, AttackList)
    with columnar_from(10**9):
        plain = Scenario.model_validate(record)
    assert scenario == plain and scenario.model_dump_json() == plain.model_dump_json()
    assert hash(scenario) == hash(plain)


@st.composite
def alias_theories(draw):
    """Rules restated under second ids (proof aliases), proof steps, and edges naming them."""
    rules = [{"id": f"r{i}", "antecedents": [draw(st.sampled_from(["a", "b"]))],
              "consequent": draw(st.sampled_from(["p", "¬p", "a", "¬applicable(r0)"])), "evidence": E}
             for i in range(draw(st.integers(1, 5)))]
    facts = [{"id": "f1", "literal": "a", "evidence": E}, {"id": "f2", "literal": "a", "evidence": E},
             {"id": "f3", "literal": "b", "evidence": E}]
    names = [r["id"] for r in rules] + ["f1", "f2", "f3"]
    attacks = [{"source": draw(st.sampled_from(names)), "target": draw(st.sampled_from(names + ["p", "¬p", "¬a"])),
                "kind": draw(st.sampled_from(["rebut", "undercut", "undermine"])), "evidence": E,
                **({"lic": draw(st.sampled_from([r["id"] for r in rules]))} if draw(st.booleans()) else {})}
               for _ in range(draw(st.integers(1, 8)))]
    return {"facts": facts, "rules": rules, "attacks": attacks * draw(st.integers(1, 2))}


@FUZZ
@given(alias_theories())
def test_collapsing_aliases_of_a_columnar_list_is_as_one_by_one(case):
    plain = Analysis.model_validate(case)
    with columnar_from(1):
        columnar = Analysis.model_validate(case)
    (fast, fast_alias), (slow, slow_alias) = collapse_aliases(ground(E, columnar)), collapse_aliases(ground(E, plain))
    assert isinstance(fast.attacks, AttackList) and fast_alias == slow_alias
    assert tuple(fast.attacks) == slow.attacks and fast.dropped == slow.dropped and fast.rules == slow.rules
    assert [e.model_fields_set for e in fast.attacks] == [e.model_fields_set for e in slow.attacks]


@pytest.mark.parametrize("seed", range(4))
def test_first_rows_marks_the_first_of_each_group_of_equal_edges(seed):
    rng = random.Random(seed)
    names = ["r1", "r2", "f1", "p", "¬p", "ř1", "r1x"]
    items = [{"source": rng.choice(names), "target": rng.choice(names), "kind": rng.choice(["rebut", "undercut"]),
              "evidence": rng.choice([["E-01"], ["E-01", "E-02"], ["E-02"]]),
              **({"lic": rng.choice(names[:3])} if rng.random() < 0.5 else {})} for _ in range(3000)]
    edges = Analysis.model_validate({"attacks": items}).attacks
    assert isinstance(edges, AttackList)
    seen, expected = set(), []
    for edge in EDGES.validate_python(items):
        expected.append(edge not in seen)
        seen.add(edge)
    assert edges.first_rows().tolist() == expected and 0 < sum(expected) < len(items)


_LONG_LISTS = {  # field -> (row i, the columnar type, where the bad citation goes)
    "attacks": (lambda i: {"source": "r1", "target": f"x{i}", "kind": "undercut", "evidence": E}, AttackList, 1),
    "priorities": (lambda i: {"stronger": f"s{i}", "weaker": f"w{i}", "basis": "exception", "evidence": E},
                   PriorityList, 0),
}


@pytest.mark.parametrize("field", sorted(_LONG_LISTS))
def test_validate_reports_a_bad_citation_in_a_long_list(tmp_path, field):
    """A long list kept as columns is checked column-wise, with the message of a short list."""
    row, kept_as, at = _LONG_LISTS[field]
    record = copy.deepcopy(VALID)
    record["gold"][field] = [row(i) for i in range(columns_module.MIN_ROWS + 50)]
    record["gold"][field][1050]["evidence"] = ["E-01", "E-99"] if at else ["E-99"]
    path = tmp_path / "s.jsonl"
    path.write_text(json.dumps(record) + "\n", encoding="utf-8")
    assert isinstance(getattr(load_suite(path)[0].gold, field), kept_as)
    done = subprocess.run([sys.executable, "-c", "from optimize.root import main; main()", "validate", str(path)],
                          capture_output=True, text=True)
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        f"paratrace: error: {path}:1: case {record['id']!r}, field gold.{field}.1050.evidence.{at}: cites fragment "
        "'E-99', which is not in the evidence package (the engine drops the object as ungrounded; tag the case "
        "'ungrounded-gold' if that is intended)"]

# -- facts, rules and priorities, column by column ---------------------------------------------------

strings = st.sampled_from(["r1", "r2", " r1", "r 1", "", "a", "not a", "~b", "¬applicable(r1)", "E_01", "E-01",
                           "Hierarchy", "lex superior", "smash", "strict", "Defeasible", "note", 3, None, True,
                           ["r1"], {"start": 0, "end": 1}])
string_lists = st.lists(st.sampled_from(["E-01", "E_02", "e03", "", "a", "not a", "x y", 1, None, ["E-01"]]),
                        max_size=3)


@st.composite
def records(draw, model):
    """A record of ``model``, mostly valid, sometimes with a bad value, a missing or unknown key."""
    def rarely():
        return draw(st.integers(0, 20)) == 0

    usual = {
        Fact: {"id": st.sampled_from(["f1", "f2"]), "literal": st.sampled_from(["a", "¬b", "not c"]),
               "evidence": st.sampled_from([E, ["E_01", "E-02"]]), "span": st.sampled_from([None])},
        Rule: {"id": st.sampled_from(["r1", "r2"]), "antecedents": st.sampled_from([[], ["a"], ["a", "not b"]]),
               "consequent": st.sampled_from(["p", "¬p", "¬applicable(r1)"]),
               "kind": st.sampled_from(["strict", "defeasible", "defeater"]), "evidence": st.sampled_from([E]),
               "span": st.sampled_from([None])},
        Priority: {"stronger": st.sampled_from(["r1", "r2"]), "weaker": st.sampled_from(["r2", "r3"]),
                   "basis": st.sampled_from(["hierarchy", "Lex Superior", "exception"]),
                   "evidence": st.sampled_from([E, []]), "note": st.sampled_from([None, "as agreed"])},
    }[model]
    if rarely():
        return draw(st.sampled_from([["r1"], "r1", None, 7]))
    record = {}
    for name, values in usual.items():
        required = model.model_fields[name].is_required()
        if not required and draw(st.booleans()):
            continue
        bad = string_lists if _sequence(model, name) else strings
        record[name] = draw(bad if rarely() else values)
    if rarely():
        record["weight"] = 1
    if rarely() and record:
        del record[draw(st.sampled_from(sorted(record)))]
    return record


def _sequence(model, name):
    return get_origin(model.model_fields[name].annotation) is tuple


@pytest.mark.parametrize("model", [Fact, Rule, Priority])
@settings(FUZZ, max_examples=300)
@given(data=st.data())
def test_records_validate_by_columns_as_one_by_one(model, data):
    items = data.draw(st.lists(records(model), min_size=1, max_size=6)) * data.draw(st.integers(1, 3))
    rows = validate_rows(copy.deepcopy(items), model, 1)
    try:
        slow = TypeAdapter(tuple[model, ...]).validate_python(items)
    except ValidationError:
        assert rows is None
        return
    if rows is not None:
        fast = build_models(model, rows)
        assert fast == slow and [o.model_fields_set for o in fast] == [o.model_fields_set for o in slow]
        assert [o.model_dump_json() for o in fast] == [o.model_dump_json() for o in slow]


def test_a_long_priority_list_is_validated_by_columns_with_the_same_errors():
    record = copy.deepcopy(VALID)
    record["gold"]["priorities"] = [{"stronger": "r1", "weaker": f"x{i}", "basis": "Hierarchy", "evidence": ["E_01"]}
                                    for i in range(columns_module.MIN_ROWS + 100)]
    fast = Scenario.model_validate(record)
    with columnar_from(10**9):
        plain = Scenario.model_validate(record)
    assert fast == plain and fast.model_dump_json() == plain.model_dump_json()
    assert [p.model_fields_set for p in fast.gold.priorities] == [p.model_fields_set for p in plain.gold.priorities]
    record["gold"]["priorities"][1100]["basis"] = "whim"
    with pytest.raises(ScenarioError, match=r"field gold\.priorities\.1100\.basis: "):
        load_scenario_text(json.dumps(record), file="s.jsonl", line=1)
