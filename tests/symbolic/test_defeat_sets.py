"""The defeat sets (symbolic.traces.defeat_sets) against a class-by-class reference.

Every field of :class:`symbolic.traces.trace_attacks.AttackEdges` must be the same and every edge
must have the same set (the sets' numbering is free), on seeded theories of every test generator
and on the same theories with engine pairs that are not among their class's pairs (attacks given
as objects, not derived).
"""

from __future__ import annotations

import dataclasses
import random

import numpy as np
import pytest

from symbolic.traces import trace_attacks
from symbolic.traces.naming import Namer
from symbolic.traces.trace_attacks import attack_edges

from reference_defeat_sets import reference_defeat_sets
from test_trace_naive import CASES, _form

_FIELDS = ("source", "target", "kind", "lic", "active", "explicit")


def _edges(evaluation):
    return attack_edges(evaluation, Namer(evaluation.theory.rules, evaluation.arguments))


def _same(got, want) -> None:
    for name in _FIELDS:
        assert np.array_equal(getattr(got, name), getattr(want, name)), name
    assert got.node_ids == want.node_ids and got.rule_nodes == want.rule_nodes
    assert [got.sets[i] if i >= 0 else None for i in got.defeat_set.tolist()] == \
        [want.sets[i] if i >= 0 else None for i in want.defeat_set.tolist()]
    assert sorted(got.sets) == sorted(want.sets)  # each set once, every one used
    assert got.pairs == want.pairs


def _reference(evaluation, monkeypatch):
    with monkeypatch.context() as patch:
        patch.setattr(trace_attacks, "defeat_sets", reference_defeat_sets)
        return _edges(evaluation)


def _check(evaluation, monkeypatch) -> None:
    _same(_edges(evaluation), _reference(evaluation, monkeypatch))


@pytest.mark.parametrize("name, analysis, target", CASES, ids=[c[0] for c in CASES])
def test_defeat_sets_equal_the_reference(name, analysis, target, monkeypatch):
    _check(_form(analysis, target).evaluation, monkeypatch)


def _rewired(evaluation, seed: int):
    """The evaluation with its attacks as objects and some engine pairs moved elsewhere: another
    pair of ``P+``, a pair of rules outside ``P+``, or a defeated fact attack; and some attacks
    twice, the copy with another ``lic`` and pair (one edge of attacks of several classes)."""
    rng = random.Random(seed)
    closure = sorted(evaluation.priorities.closure)
    rules = [r.id for r in evaluation.theory.rules]
    attacks = []
    for attack in evaluation.attacks:
        if attack.defeated_by is not None and rng.random() < 0.3:
            choice = rng.random()
            if choice < 0.4 and closure:
                attack = dataclasses.replace(attack, defeated_by=rng.choice(closure))
            elif choice < 0.7 and rules:
                attack = dataclasses.replace(attack, defeated_by=(rng.choice(rules), "zz-not-a-rule"))
            else:
                attack = dataclasses.replace(attack, lic=None)
        attacks.append(attack)
        if rules and rng.random() < 0.15:
            defeated_by = rng.choice(closure) if closure and rng.random() < 0.8 else None
            attacks.append(dataclasses.replace(attack, lic=rng.choice(rules), defeated_by=defeated_by))
    return dataclasses.replace(evaluation, attacks=attacks, extra={})


@pytest.mark.parametrize("name, analysis, target", CASES[::3], ids=[c[0] for c in CASES[::3]])
def test_engine_pairs_outside_their_class_equal_the_reference(name, analysis, target, monkeypatch):
    evaluation = _form(analysis, target).evaluation
    for seed in range(3):
        _check(_rewired(evaluation, seed), monkeypatch)
