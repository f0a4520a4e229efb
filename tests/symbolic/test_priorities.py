"""The priority order P+ (Definition 3)."""

from __future__ import annotations

import warnings

import pytest

from symbolic.errors import PriorityCycleWarning
from symbolic.scenario.labels import Status
from symbolic.engine.priorities import priority_order, priority_order_from_pairs
from symbolic.engine.status import evaluate


def _quiet(pairs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PriorityCycleWarning)
        return priority_order_from_pairs(pairs)


def test_closure_is_transitive():
    order = priority_order_from_pairs([("r1", "r2"), ("r2", "r3"), ("r3", "r4")])
    assert order.closure == {("r1", "r2"), ("r1", "r3"), ("r1", "r4"), ("r2", "r3"), ("r2", "r4"), ("r3", "r4")}
    assert order.cycles == () and order.unresolved == frozenset()
    assert not order.stronger("r4", "r1")


def test_closure_holds_even_when_the_middle_rule_is_not_applicable(theory):
    t = theory(
        facts={"f1": "a", "f3": "c"},
        rules={"r1": "a => p", "r2": "b => ¬p", "r3": "c => ¬p"},  # r2 never applies (no b)
        priorities=["r1>r2", "r2>r3"],
    )
    assert priority_order(t).stronger("r1", "r3")
    ev = evaluate(t, "p")
    assert ev.status is Status.ACCEPTED
    assert {a.defeated_by for a in ev.attacks} == {("r1", "r3"), None}


def test_cycle_drops_every_comparison_of_its_rules():
    order = _quiet([("r1", "r2"), ("r2", "r1"), ("r2", "r3"), ("r4", "r1"), ("r5", "r6")])
    assert order.cycles == (("r1", "r2"),)
    assert order.unresolved == {"r1", "r2"}
    assert order.closure == {("r5", "r6")}  # r2 > r3 and r4 > r1 are gone too


def test_self_loop_is_a_cycle():
    order = _quiet([("r1", "r1"), ("r1", "r2"), ("r2", "r3")])
    assert order.cycles == (("r1",),)
    assert order.closure == {("r2", "r3")}


def test_several_cycles_are_reported_sorted():
    with pytest.warns(PriorityCycleWarning) as record:
        order = priority_order_from_pairs([("r9", "r8"), ("r8", "r9"), ("r3", "r2"), ("r2", "r1"), ("r1", "r3")])
    assert order.cycles == (("r1", "r2", "r3"), ("r8", "r9"))
    assert len(record) == 1 and "r8" in str(record[0].message) and "r1" in str(record[0].message)


def test_no_warning_without_cycle():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        priority_order_from_pairs([("r1", "r2"), ("r1", "r3"), ("r2", "r3")])


def test_base_keeps_every_grounded_pair(theory):
    t = theory(rules={"r1": "a => p", "r2": "a => ¬p"}, priorities=["r1>r2", "r2>r1"])
    with pytest.warns(PriorityCycleWarning):
        order = priority_order(t)
    assert order.base == {("r1", "r2"), ("r2", "r1")}


def test_priorities_of_ungrounded_rules_are_dropped_before(theory):
    t = theory(rules={"r1": "a => p"}, priorities=["r1>r9"])  # r9 does not exist
    assert t.priorities == ()
    assert priority_order(t).base == frozenset()
