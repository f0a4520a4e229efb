"""Grounded labelling (Algorithm 1) against a naive least fixpoint."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from symbolic.scenario.labels import AttackKind
from symbolic.engine.labelling import grounded_labelling, grounded_state
from symbolic.engine.results import Attack, Label


def naive_grounded(args, pairs):
    """Dung 1995, Def. 20: iterate F(S) = {a | every attacker of a is attacked by S} from the empty set."""
    attackers = {a: {x for x, y in pairs if y == a} for a in args}
    extension: set = set()
    while True:
        attacked = {y for x, y in pairs if x in extension}
        nxt = {a for a in args if attackers[a] <= attacked}
        if nxt == extension:
            break
        extension = nxt
    out = {y for x, y in pairs if x in extension}
    return {a: Label.IN if a in extension else Label.OUT if a in out else Label.UNDEC for a in args}


def _attacks(pairs, defeated=()):
    return [Attack(f"A{x}", f"A{y}", AttackKind.REBUT, f"A{y}", "r", defeated_by=d)
            for (x, y), d in zip(pairs, list(defeated) + [None] * len(pairs))]


@st.composite
def frameworks(draw):
    n = draw(st.integers(min_value=0, max_value=30))
    if n == 0:
        return 0, []
    pair = st.tuples(st.integers(0, n - 1), st.integers(0, n - 1))
    pairs = draw(st.lists(pair, max_size=3 * n))
    family = draw(st.sampled_from(["uniform", "acyclic", "cycles"]))
    if family == "acyclic":
        pairs = [(min(x, y), max(x, y)) for x, y in pairs if x != y] + pairs[: n // 10]
    elif family == "cycles":  # odd and even rings plus self-attacks
        k = draw(st.integers(1, n))
        pairs = pairs[: n // 3] + [(i, (i + 1) % k) for i in range(k)]
    return n, pairs


@settings(max_examples=300, derandomize=True, deadline=None)
@given(frameworks())
def test_worklist_equals_naive_fixpoint(framework):
    n, pairs = framework
    ids = [f"A{i}" for i in range(n)]
    expected = naive_grounded(ids, [(f"A{x}", f"A{y}") for x, y in pairs])
    assert dict(grounded_labelling(ids, _attacks(pairs)).labels) == expected


@settings(max_examples=200, derandomize=True, deadline=None)
@given(frameworks())
def test_grounded_properties(framework):
    n, pairs = framework
    ids = [f"A{i}" for i in range(n)]
    lab = grounded_labelling(ids, _attacks(pairs))
    labels = lab.labels
    attackers = {a: {f"A{x}" for x, y in pairs if f"A{y}" == a} for a in ids}
    for (x, y) in pairs:  # IN is conflict-free
        assert not (labels[f"A{x}"] is Label.IN and labels[f"A{y}"] is Label.IN)
    for a in ids:
        got = {labels[b] for b in attackers[a]}
        if labels[a] is Label.IN:
            assert got <= {Label.OUT}
        elif labels[a] is Label.OUT:
            assert Label.IN in got
        else:
            assert Label.UNDEC in got and Label.IN not in got
    # rounds: IN in even rounds, OUT in odd ones, each argument at most once, UNDEC never.
    seen = [a for r in lab.rounds for a in r]
    assert len(seen) == len(set(seen))
    for k, r in enumerate(lab.rounds):
        assert r and all(labels[a] is (Label.IN if k % 2 == 0 else Label.OUT) for a in r)
    assert set(seen) == {a for a in ids if labels[a] is not Label.UNDEC}


def test_rounds_follow_the_propagation():
    lab = grounded_labelling(["A1", "A2", "A3", "A4"], _attacks([(1, 2), (2, 3), (3, 4), (4, 4)]))
    assert lab.rounds == (("A1",), ("A2",), ("A3",), ("A4",))
    assert [lab.labels[a] for a in ("A1", "A2", "A3", "A4")] == [Label.IN, Label.OUT, Label.IN, Label.OUT]


def test_odd_cycle_and_self_attack_are_undec():
    lab = grounded_labelling(["A0", "A1", "A2", "A3", "A4"],
                             _attacks([(0, 1), (1, 2), (2, 0), (3, 3), (3, 4)]))
    assert set(lab.labels.values()) == {Label.UNDEC}
    assert lab.rounds == ()


def test_defeated_attacks_are_ignored():
    att = _attacks([(1, 2), (2, 1)], defeated=[("r9", "r")])
    lab = grounded_labelling(["A1", "A2"], att)
    assert lab.labels == {"A1": Label.OUT, "A2": Label.IN}


def test_unknown_argument_is_an_error():
    with pytest.raises(KeyError, match="A9"):
        grounded_labelling(["A1"], _attacks([(1, 9)]))


def test_integer_core_counts_repeated_attacks():
    # 0 attacks 2 twice, 1 attacks 2; 0 and 1 are attacked by 3 (IN): 2 comes IN once all are OUT.
    state, rounds = grounded_state(4, [0, 0, 1, 3, 3], [2, 2, 2, 0, 1])
    assert state.tolist() == [-1, -1, 1, 1]
    assert rounds == [[3], [0, 1], [2]]


def naive_rounds(n, pairs):
    """The rounds by their definition: IN the unlabelled arguments whose attackers are all OUT, then OUT
    the unlabelled ones some new IN argument attacks, and so on, recomputed from scratch each round."""
    attackers = [[x for x, y in pairs if y == c] for c in range(n)]
    state, rounds = [0] * n, []
    while True:
        new_in = [c for c in range(n) if state[c] == 0 and all(state[x] == -1 for x in attackers[c])]
        if not new_in:
            break
        for c in new_in:
            state[c] = 1
        rounds.append(new_in)
        new_out = [c for c in range(n) if state[c] == 0 and any(x in set(new_in) for x in attackers[c])]
        if not new_out:
            break
        for c in new_out:
            state[c] = -1
        rounds.append(new_out)
    return state, rounds


def _ordered(pairs, order, seed):
    """The edge list of ``pairs`` in one of the orders the kernel treats apart (sources sorted or not)."""
    import random

    if order == "by_source":
        return sorted(pairs)
    if order == "by_target":
        return sorted(pairs, key=lambda p: (p[1], p[0]))
    if order == "reversed":
        return sorted(pairs, reverse=True)
    shuffled = list(pairs)
    random.Random(seed).shuffle(shuffled)
    return shuffled


@st.composite
def deep_frameworks(draw):
    """A chain 0 -> 1 -> ... -> k-1 (k rounds) with a few other attacks, for the passes past the first rounds."""
    n = draw(st.integers(min_value=1, max_value=40))
    k = draw(st.integers(min_value=1, max_value=n))
    extra = draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=n // 4))
    return n, [(i, i + 1) for i in range(k - 1)] + extra


@settings(max_examples=600, derandomize=True, deadline=None)
@given(framework=st.one_of(frameworks(), deep_frameworks()), wide=st.booleans(),
       order=st.sampled_from(["as_drawn", "by_source", "by_target", "reversed", "shuffled"]), seed=st.integers(0, 9))
def test_worklist_gives_the_rounds_of_the_definition(framework, wide, order, seed):
    """The worklist, from the edge list in every order, gives the rounds of the definition."""
    import numpy as np

    n, pairs = framework
    pairs = pairs if order == "as_drawn" else _ordered(pairs, order, seed)
    dtype = np.int64 if wide else np.int32
    src = np.array([x for x, _ in pairs], dtype=dtype)
    dst = np.array([y for _, y in pairs], dtype=dtype)
    state, rounds = grounded_state(n, src, dst)
    expected_state, expected_rounds = naive_rounds(n, pairs)
    assert state.dtype == np.int8
    assert state.tolist() == expected_state
    assert rounds == expected_rounds
    assert all(type(a) is int for r in rounds for a in r)


@pytest.mark.parametrize("order", ["forward", "backward", "shuffled"])
def test_long_chain_needs_no_recursion(order):
    """A chain of 200,000 arguments has 200,000 rounds of one argument each."""
    import numpy as np

    n = 200_000
    src = np.arange(n - 1, dtype=np.int32)
    if order == "backward":
        src = src[::-1].copy()
    elif order == "shuffled":
        src = np.random.default_rng(0).permutation(src)
    dst = src + 1
    state, rounds = grounded_state(n, src, dst)
    expected = (np.arange(n) % 2 == 0).astype(np.int8) * 2 - 1
    assert np.array_equal(state, expected)
    assert rounds == [[i] for i in range(n)]


def test_edge_cases_of_the_worklist():
    import numpy as np

    assert grounded_state(0, [], [])[1] == [] and grounded_state(0, [], [])[0].shape == (0,)
    state, rounds = grounded_state(3, [], [])  # no edges: every argument IN in round 0
    assert state.tolist() == [1, 1, 1] and rounds == [[0, 1, 2]]
    # self-attacks and an odd cycle stay UNDEC; an even cycle too; a duplicate attack counts twice
    assert grounded_state(2, [0, 1], [0, 1])[1] == []
    assert grounded_state(3, [0, 1, 2], [1, 2, 0])[1] == []
    assert grounded_state(4, [0, 1, 2, 3], [1, 0, 3, 2])[1] == []
    state, rounds = grounded_state(4, [3, 0, 0, 3, 1], [0, 2, 2, 1, 2])
    assert (state.tolist(), rounds) == ([-1, -1, 1, 1], [[3], [0, 1], [2]])
    # int32 and int64 together, and strided (non-contiguous) views
    state, rounds = grounded_state(4, np.array([0, 1, 2, 3], dtype=np.int32), np.array([1, 2, 3, 3], dtype=np.int64))
    assert rounds == [[0], [1], [2], [3]]
    wide = np.array([[0, 9], [1, 9], [2, 9], [3, 9]], dtype=np.int64)
    narrow = np.array([1, 0, 2, 0, 3, 0, 3, 0], dtype=np.int32)
    assert not wide[:, 0].flags.c_contiguous and not narrow[::2].flags.c_contiguous
    assert grounded_state(4, wide[:, 0], narrow[::2])[1] == [[0], [1], [2], [3]]
    big_endian = np.array([0, 1, 2, 3], dtype=">i4")
    assert grounded_state(4, big_endian, big_endian[1:].tolist() + [3])[1] == [[0], [1], [2], [3]]


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int16", "uint32", "int64", "uint64"])
def test_any_integer_index_type(dtype):
    import numpy as np

    src, dst = np.array([0, 1, 2, 3], dtype=dtype), np.array([1, 2, 3, 3], dtype=dtype)
    state, rounds = grounded_state(4, src, dst)
    assert (state.tolist(), rounds) == ([1, -1, 1, -1], [[0], [1], [2], [3]])
    big_src, big_dst = np.arange(2000, dtype=dtype) % 100, (np.arange(2000, dtype=dtype) % 99) + 1
    assert grounded_state(101, big_src, big_dst)[1] == naive_rounds(101, list(zip(big_src.tolist(), big_dst.tolist())))[1]


def test_edge_list_core_rejects_bad_indices():
    with pytest.raises(ValueError, match=r"target index out of range 0..1: 2..2"):
        grounded_state(2, [0], [2])
    with pytest.raises(ValueError, match=r"target index out of range 0..1: -1..0"):
        grounded_state(2, [0, 1], [0, -1])
    with pytest.raises(ValueError, match=r"attacker index out of range 0..1: -1..0"):
        grounded_state(2, [-1, 0], [0, 1])
    with pytest.raises(ValueError, match=r"target index out of range"):
        grounded_state(2, [0, 1], [5])  # the range before the lengths
    with pytest.raises(ValueError, match="indices must be integers, got float64"):
        grounded_state(2, [0.0], [1])
    assert grounded_state(0, [], [])[1] == []
    with pytest.raises(ValueError, match="1 attackers but 0 targets"):
        grounded_state(2, [0], [])


def test_attack_table_and_attack_objects_give_the_same_labelling(theory):
    from symbolic.engine.arguments import build_arguments
    from symbolic.engine.attacks import derive_attacks
    from symbolic.engine.priorities import priority_order

    t = theory(facts={"f1": "a", "f2": "b", "f3": "c", "f4": "¬c", "f5": "d"},
               rules={"r1": "a => p", "r2": "b => ¬p", "r3": "c => ¬applicable(r2)", "r4": "p => q",
                      "r5": "d -> ¬b"},
               priorities=["r2>r1"])
    args = build_arguments(t)
    table = derive_attacks(t, args, priority_order(t))
    ids = [a.id for a in args]
    fast = grounded_labelling(ids, table)
    slow = grounded_labelling(ids, list(table))
    assert fast == slow
    assert set(fast.labels.values()) == {Label.IN, Label.OUT, Label.UNDEC}
    assert any(a.defeated_by for a in table)


def test_benchmark_peers_agree_with_the_engine():
    """benchmarks/peers.compare runs every peer on one framework and checks each against our labelling."""
    import sys
    from pathlib import Path

    import numpy as np

    bench = str(Path(__file__).resolve().parents[2] / "benchmarks")
    sys.path.insert(0, bench)
    try:
        import peers
    finally:
        sys.path.remove(bench)
    rng = np.random.default_rng(0)
    n = 300
    src = rng.integers(0, n, 2000)
    dst = np.minimum(src + rng.integers(1, 40, 2000), n - 1)  # mostly forward: several rounds
    row = peers.compare(n, src, dst, repeat=2)
    assert row["active_attacks"] == 2000
    checked = [name for name in ("c_worklist", "python_worklist", "networkx", "clingo") if "agrees" in row.get(name, {})]
    assert {"python_worklist", "networkx"} <= set(checked)
    assert all(row[name]["agrees"] for name in checked)
    expected = naive_rounds(n, list(zip(src.tolist(), dst.tolist())))[0]
    assert peers.python_worklist(n, src.tolist(), dst.tolist()) == expected
