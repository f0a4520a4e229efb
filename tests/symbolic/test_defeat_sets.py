"""The integer-coded defeat sets (symbolic.traces.defeat_sets) against the class-by-class reference.

Every field of :class:`symbolic.traces.trace_attacks.AttackEdges` must be the same, the sets in the same
order, on seeded theories of every test generator, on the same theories with engine pairs that
are not among their class's pairs (attacks given as objects, not derived), and on every fallback
path (plain sorts instead of packed ones, sub-classes found by sorting, sets sorted by their ids).
"""

from __future__ import annotations

import dataclasses
import random

import numpy as np
import pytest

from symbolic.support.sorted_keys import distinct, find, sort_positions, unique
from symbolic.traces import attack_classes, defeat_set_members, trace_attacks
from symbolic.traces.naming import Namer
from symbolic.traces.trace_attacks import attack_edges

from reference_defeat_sets import reference_defeat_sets
from test_trace_naive import CASES, _form

_FIELDS = ("source", "target", "kind", "lic", "active", "explicit", "defeat_set")


def _edges(evaluation):
    return attack_edges(evaluation, Namer(evaluation.theory.rules, evaluation.arguments))


def _same(got, want) -> None:
    for name in _FIELDS:
        assert np.array_equal(getattr(got, name), getattr(want, name)), name
    assert got.node_ids == want.node_ids and got.rule_nodes == want.rule_nodes
    assert got.sets == want.sets  # the same sets, in the same order
    assert got.pairs == want.pairs


def _reference(evaluation, monkeypatch):
    with monkeypatch.context() as patch:
        patch.setattr(trace_attacks, "defeat_sets", reference_defeat_sets)
        return _edges(evaluation)


def _check(evaluation, monkeypatch) -> None:
    want = _reference(evaluation, monkeypatch)
    _same(_edges(evaluation), want)
    if getattr(evaluation.attacks, "defeat_keys", None) is not None:
        with monkeypatch.context() as patch:  # the engine pairs read from their names, not the builder's keys
            patch.setattr(evaluation.attacks, "defeat_keys", None)
            _same(_edges(evaluation), want)
    with monkeypatch.context() as patch:  # sub-classes by sorting
        patch.setattr(attack_classes, "_KEY_LIMIT", 0)
        _same(_edges(evaluation), want)
        patch.setattr(defeat_set_members, "_id_ranks", lambda *args: None)  # sets sorted by their ids
        _same(_edges(evaluation), want)


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


@pytest.mark.parametrize("seed", range(30))
def test_distinct_and_find_of_sorted_keys(seed):
    rng = np.random.default_rng(seed)
    span = int(rng.choice([1, 2, 7, 1000, 1 << 40]))
    n = int(rng.integers(0, 3000))
    key = rng.integers(0, span, n)
    positions, tied = sort_positions(key, span)
    assert (tied is None) == (len(np.unique(key)) == n)
    values, first, inverse = distinct(key, span)
    assert np.array_equal(key[first], values) and np.array_equal(values[inverse], key)
    assert values.tolist() == sorted(set(key.tolist())) and np.array_equal(unique(key), values)
    keys = np.unique(rng.integers(0, span, int(rng.integers(0, 50))))
    queries = rng.integers(0, span, int(rng.integers(0, 200)))
    if len(keys):
        queries[: len(queries) // 2] = rng.choice(keys, len(queries) // 2)
    want = [keys.tolist().index(q) if q in keys else -1 for q in queries.tolist()]
    assert find(keys, queries, span).tolist() == want


class _Parts:
    """A namer whose rules' parts are given."""

    def __init__(self, parts):
        self.parts = dict(parts)

    def priority_part(self, rule_id):
        return self.parts[rule_id]


@pytest.mark.parametrize("seed", range(40))
def test_id_ranks_order_pairs_as_their_priority_ids(seed):
    """The ranks of the pairs' ids from their parts' ranks: equal exactly for equal ids, in code-point
    order, or None when a part holding ``)>(`` makes one ``<part>)>(`` a proper prefix of another."""
    rng = random.Random(seed)
    alphabet = ["a", "b", "¬", "→"] + ([")>(", ")", "("] if seed % 2 else [])
    names = [f"r{i}" for i in range(rng.randint(1, 8))]
    parts = {name: "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 4))) for name in names}
    strong = np.array([rng.randrange(len(names)) for _ in range(30)], dtype=np.int64)
    weak = np.array([rng.randrange(len(names)) for _ in range(30)], dtype=np.int64)
    got = defeat_set_members._id_ranks(_Parts(parts), names, strong, weak)
    heads = {parts[n] + ")>(" for n in names}
    if got is None:
        assert any(a != b and b.startswith(a) for a in heads for b in heads)
        return
    rank, found, strong_part, weak_part = got
    ids = [f"priority:({parts[names[s]]})>({parts[names[w]]})" for s, w in zip(strong, weak)]
    assert [f"priority:({found[s]})>({found[w]})" for s, w in zip(strong_part, weak_part)] == ids
    for i in range(len(ids)):
        for j in range(len(ids)):
            assert (rank[i] < rank[j]) == (ids[i] < ids[j]) and (rank[i] == rank[j]) == (ids[i] == ids[j])


def _pair_keys_by_hand(defeat, shape, on, lic, target, on_class, offset, lic_span, attacked_span, fact_shape,
                       n_pairs):
    key_of, row_of = [-1] * n_pairs, [0] * n_pairs
    for i, p in enumerate(defeat.tolist()):
        if p < 0:
            continue
        key = int(on_class[offset[shape[i]] + on[i]]) * lic_span + int(lic[i]) + 1
        if attacked_span > 1:
            key = key * attacked_span + (int(target[i]) + 1 if shape[i] == fact_shape else 0)
        if key_of[p] < 0:
            key_of[p], row_of[p] = key, i
        elif key_of[p] != key:
            return False, None, None
    return True, key_of, row_of


@pytest.mark.parametrize("seed", range(40))
def test_pair_keys_reads_each_engine_pairs_class_key(seed):
    """attack_classes.pair_keys against the same keys by hand: one key per engine pair (its first
    attack's row), None when a pair has two."""
    from types import SimpleNamespace

    from symbolic.traces.attack_classes import ClassKeys, pair_keys

    rng = np.random.default_rng(seed)
    n, n_pairs, n_class = int(rng.integers(0, 60)), int(rng.integers(1, 8)), 12
    # few distinct (on, lic) per pair on even seeds, so that each pair has one key there
    pair = rng.integers(-1, n_pairs, n).astype(np.int32)
    on = (pair % 3 if seed % 2 == 0 else rng.integers(0, 4, n)).astype(np.int32)
    lic = (pair % 2 if seed % 2 == 0 else rng.integers(-1, 3, n)).astype(np.int32)
    shape = np.zeros(n, dtype=np.int8) if seed % 2 == 0 else rng.integers(0, 3, n).astype(np.int8)
    target = rng.integers(0, 5, n).astype(np.int32)
    on_class = rng.integers(0, 9, n_class).astype(np.int64)
    offset = np.array([0, 4, 8], dtype=np.int64)
    attacked_span = 1 if seed % 4 < 2 else 6
    table = SimpleNamespace(defeats=[None] * n_pairs, defeat=pair, shape=shape, on=on, lic=lic, target=target)
    got = pair_keys(ClassKeys(on_class, offset, n_class, 4, attacked_span), table)
    want_ok, want_key, want_row = _pair_keys_by_hand(pair, shape, on, lic, target, on_class, offset, 4,
                                                     attacked_span, 2, n_pairs)
    assert (got is not None) is want_ok
    if want_ok:
        assert got[0].tolist() == want_key and got[1].tolist() == want_row
