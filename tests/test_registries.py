"""Configurations, baselines, optimizers, metrics and suites share one registry mechanism (symbolic.support.registry)."""

from __future__ import annotations

import pytest

from symbolic.support.registry import Entry, Registry


def test_a_registry_is_a_read_only_mapping_of_factories_with_metadata():
    reg = Registry("thing", [Entry("b", dict, {"n": 2}), Entry("a", list)])
    assert list(reg) == ["b", "a"] and reg["a"] is list and reg.get("zz") is None
    assert reg.entry("b").metadata == {"n": 2} and [e.name for e in reg.entries()] == ["b", "a"]
    with pytest.raises(TypeError):
        reg["c"] = set  # type: ignore[index]
    with pytest.raises(KeyError, match="unknown thing 'c'; expected one of a, b"):
        reg.entry("c")
    with pytest.raises(ValueError, match="two thing entries named 'a'"):
        Registry("thing", [Entry("a", list), Entry("a", dict)])


def test_every_registry_names_its_entries_and_describes_them():
    from assistant.baselines import BASELINES
    from assistant.configs import CONFIGURATIONS
    from optimize.optimizers import OPTIMIZERS

    for reg in (CONFIGURATIONS, BASELINES, OPTIMIZERS):
        assert isinstance(reg, Registry)
        for entry in reg.entries():
            assert entry.metadata["description"], (reg.kind, entry.name)
            assert getattr(entry.factory, "name", entry.name) == entry.name
    assert list(CONFIGURATIONS) == ["b1", "b2", "b3", "b4"]
    assert {e.metadata["paper"] for e in BASELINES.entries()} == {"Table 4"}


def test_the_suites_are_a_registry_of_builders():
    from experiments.errors import SuiteError
    from experiments.suites.registry import SUITES, get_suite

    assert isinstance(SUITES, Registry) and sorted(SUITES) == ["controlled-140", "normative-en", "peer"]
    for entry in SUITES.entries():
        assert entry.metadata["description"] and entry.metadata["build"], entry.name
        assert entry.metadata["card"].name == f"{entry.name}.md"
    assert [e.name for e in SUITES.entries() if e.metadata["shipped"]] == ["normative-en", "controlled-140"]
    with pytest.raises(SuiteError, match="unknown suite 'x'; known suites: controlled-140, normative-en, peer"):
        get_suite("x")
    with pytest.raises(SuiteError, match="--from PATH"):
        SUITES["peer"](None, 140)


def test_the_metrics_are_a_registry_of_per_case_functions_with_their_metadata():
    from scorer.metrics.registry import METRICS, Aggregation

    assert isinstance(METRICS, Registry) and list(METRICS)[:2] == ["ASA", "TGC"]
    for entry in METRICS.entries():
        assert set(entry.metadata) == {"higher_is_better", "aggregation", "denominator", "applicability",
                                       "quantity"}, entry.name
        assert isinstance(entry.metadata["aggregation"], Aggregation)
    with pytest.raises(KeyError, match="unknown metric 'XYZ'; expected one of ASA, BRA"):
        METRICS.entry("XYZ")
