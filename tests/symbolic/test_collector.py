"""The garbage collector's policy for the CLI's work (symbolic.support.collector)."""

from __future__ import annotations

import gc
import weakref
from pathlib import Path

import pytest

from symbolic.support.collector import collected_between


class Node:
    """An object that can sit in a reference cycle."""

    def __init__(self):
        self.other = None


def cycle() -> weakref.ref:
    a, b = Node(), Node()
    a.other, b.other = b, a
    return weakref.ref(a)


def test_cycles_of_one_item_are_collected_before_the_next():
    seen = []
    made = None
    for item in collected_between(["first", "second", "third"], min_objects=0):
        assert not gc.isenabled()
        if made is not None:
            seen.append(made() is None)  # the previous item's cycle is gone
        made = cycle()
    assert seen == [True, True]
    assert gc.isenabled()


def test_small_items_are_not_each_followed_by_a_collection():
    made = []
    for _ in collected_between(range(3), min_objects=10**9):
        made.append(cycle())
    assert all(ref() is not None for ref in made)  # no collection ran in between
    gc.collect()
    assert all(ref() is None for ref in made)


def test_the_collector_state_is_restored_when_the_consumer_stops_early():
    items = collected_between(range(5))
    with pytest.raises(RuntimeError):
        for i in items:
            if i == 1:
                raise RuntimeError("stop")
    items.close()
    assert gc.isenabled()
    gc.disable()
    try:
        list(collected_between(range(2)))
        assert not gc.isenabled()  # it was off before: it stays off
    finally:
        gc.enable()


def test_paratrace_status_in_process_restores_the_collector_after_an_error(monkeypatch):
    import optimize.root as root
    import optimize.status_outputs as formats
    from typer.testing import CliRunner

    suite = Path(__file__).resolve().parent / "fixtures" / "penalty_suite.jsonl"
    done = CliRunner().invoke(root.app, ["status", str(suite), "-f", "json"])
    assert done.exit_code == 0 and gc.isenabled()
    calls = []
    real = formats.scenario_normal_form

    def failing(*args, **kwargs):
        calls.append(1)
        if len(calls) == 2:
            raise RuntimeError("second scenario fails")
        return real(*args, **kwargs)

    monkeypatch.setattr(formats, "scenario_normal_form", failing)
    done = CliRunner().invoke(root.app, ["status", str(suite), "-f", "json"])
    assert done.exit_code != 0 and len(calls) == 2
    assert gc.isenabled()
