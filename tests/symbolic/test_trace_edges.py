"""symbolic.traces.trace against the trace graph it stands in for.

``trace_edge_map`` must give exactly the edges of ``graph_to_trace(build_trace(...))``,
keyed by ``edge_id``, in the same order, with the same field values and fields set,
on every generator the trace tests use and on the shipped suites; ``trace_edge_attrs``
the same ids in the same order, each with ``(state, lic)`` of an attack edge and ``()``
of any other.
"""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest

from symbolic.suites.io import load_suite
from symbolic.scenario.model import EdgeType
from symbolic.traces.naming import edge_id
from symbolic.traces.tnf import normal_form
from symbolic.traces.trace import build_trace
from symbolic.traces.trace import trace_edge_attrs, trace_edge_map
from symbolic.traces.trace_graph import graph_to_trace

from test_trace_naive import CASES, E

SUITES = Path(__file__).resolve().parents[2] / "experiments" / "suites"


def _through_graph(evaluation, query=None) -> dict:
    return {edge_id(e): e for e in graph_to_trace(build_trace(evaluation, query=query)).edges}


def _same(evaluation, query=None) -> None:
    expected, got = _through_graph(evaluation, query), trace_edge_map(evaluation, query=query)
    assert list(got) == list(expected)
    assert list(got.values()) == list(expected.values())
    assert [e.model_fields_set for e in got.values()] == [e.model_fields_set for e in expected.values()]
    assert all(type(e) is type(x) for e, x in zip(got.values(), expected.values()))
    reduced = [(i, (e.state, e.lic) if e.type is EdgeType.ATTACK else ()) for i, e in expected.items()]
    assert list(trace_edge_attrs(evaluation, query=query).items()) == reduced


@pytest.mark.parametrize("name, analysis, target", CASES, ids=[c[0] for c in CASES])
def test_generated_theories(name, analysis, target):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _same(normal_form(E, analysis, target).evaluation, query="Is it so?")


@pytest.mark.parametrize("suite", ["controlled-140.jsonl", "normative-en.jsonl"])
def test_shipped_suites(suite):
    checked = 0
    for scenario in load_suite(SUITES / suite):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            form = normal_form(scenario.evidence_ids(), scenario.gold, scenario.target, query=scenario.query)
        _same(form.evaluation, scenario.query)
        checked += 1
    assert checked >= 80


def test_the_edges_are_sorted_by_id_and_typed():
    _, analysis, target = CASES[0]
    edges = trace_edge_map(normal_form(E, analysis, target).evaluation)
    assert list(edges) == sorted(edges)
    assert {e.type.value for e in edges.values()} >= {"attack", "derivation", "grounding", "status"}
    assert all(edge_id(e) == key for key, e in edges.items())
