"""Fuzzing the loaders: whatever the input, they return scenarios or raise
:class:`ScenarioError`, never anything else."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from symbolic.errors import ScenarioError
from symbolic.suites.io import dump_suite, load_scenario_text, load_suite, scenario_line
from symbolic.scenario.model import Scenario
from symbolic.suites.peer import import_peer_record

FIXTURES = Path(__file__).resolve().parent / "fixtures"
VALID = json.loads((FIXTURES / "penalty_suite.jsonl").read_text(encoding="utf-8").splitlines()[0])

FUZZ = settings(max_examples=150, derandomize=True, deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])

scalars = (st.none() | st.booleans() | st.integers(min_value=-(10**6), max_value=10**6)
           | st.floats(allow_nan=False, allow_infinity=False)
           | st.text(max_size=12) | st.sampled_from(["E_01", "e01", "not P", "~~", "accepted", "",
                                                     "Evidence 1", "¬applicable(r1)", "r1", " "]))
json_values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
)


def _paths(value, prefix=()):
    """Every path into a JSON value (keys and indexes)."""
    yield prefix
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, prefix + (key,))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _paths(item, prefix + (index,))


PATHS = [p for p in _paths(VALID) if p]


def _mutate(record, path, replacement, delete):
    record = copy.deepcopy(record)
    parent = record
    for part in path[:-1]:
        parent = parent[part]
    if delete:
        del parent[path[-1]]
    else:
        parent[path[-1]] = replacement
    return record


def _accepts_or_scenario_error(text):
    try:
        scenario = load_scenario_text(text)
    except ScenarioError as exc:
        assert str(exc)
        return None
    assert isinstance(scenario, Scenario)
    # Whatever loads must round-trip through the canonical line.
    assert load_scenario_text(scenario_line(scenario)) == scenario
    return scenario


@FUZZ
@given(st.binary(max_size=300))
def test_random_bytes_in_a_file(tmp_path_factory, data):
    path = tmp_path_factory.mktemp("fuzz") / "suite.jsonl"
    path.write_bytes(data)
    try:
        load_suite(path, max_line_bytes=200)
    except ScenarioError as exc:
        assert exc.file == str(path)


@FUZZ
@given(json_values)
def test_random_json_values(value):
    _accepts_or_scenario_error(json.dumps(value))


@FUZZ
@given(st.text(max_size=200))
def test_random_text(text):
    _accepts_or_scenario_error(text)


@FUZZ
@given(st.sampled_from(PATHS), json_values, st.booleans())
def test_mutated_valid_scenarios(path, replacement, delete):
    _accepts_or_scenario_error(json.dumps(_mutate(VALID, path, replacement, delete)))


@FUZZ
@given(st.lists(st.sampled_from(PATHS), min_size=1, max_size=3), st.lists(json_values, min_size=3, max_size=3))
def test_multiply_mutated_scenarios_round_trip_through_files(tmp_path_factory, paths, values):
    record = VALID
    for path, value in zip(paths, values):
        try:
            record = _mutate(record, path, value, False)
        except (KeyError, IndexError, TypeError):
            break  # an earlier mutation removed this path
    scenario = _accepts_or_scenario_error(json.dumps(record))
    if scenario is not None:
        target = tmp_path_factory.mktemp("rt") / "s.jsonl"
        dump_suite([scenario], target)
        assert load_suite(target) == [scenario]


PEER = {"case_id": "P1", "query": "q", "target_literal": "Penalty(x)",
        "source_units": [{"source_unit_id": "SU1", "doc_id": "D", "path": "c.1", "text": "clause",
                          "span": {"start": 0, "end": 5}}],
        "facts": {"Delay(x)": True}, "gold_label": "Positive",
        "rules": [{"id": "r1", "antecedents": ["Delay(x)"], "consequent": "Penalty(x)",
                   "type": "defeasible", "source": "SU1"}],
        "priorities": [{"stronger": "r1", "weaker": "r2", "source": "SU1", "basis": "waiver"}]}
PEER_PATHS = [p for p in _paths(PEER) if p]


@FUZZ
@given(st.sampled_from(PEER_PATHS), json_values, st.booleans())
def test_mutated_peer_records(path, replacement, delete):
    record = _mutate(PEER, path, replacement, delete)
    try:
        scenario = import_peer_record(record, file="peer.jsonl", line=1)
    except ScenarioError as exc:
        assert exc.file == "peer.jsonl" and exc.line == 1
    else:
        assert load_scenario_text(scenario_line(scenario)) == scenario


@pytest.mark.parametrize("value", [[], 0, "x", None, {}, {"case_id": "P1"}])
def test_random_peer_values(value):
    with pytest.raises(ScenarioError):
        import_peer_record(value)
