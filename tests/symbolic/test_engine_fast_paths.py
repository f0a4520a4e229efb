"""The engine's fast paths against its previous computation, on random seeded theories.

Arguments (Definition 1), the argument index, the rebut blocks and numbering of
defeating pairs (Definitions 2 and 4), ``P+`` of large bases (Definition 3) and
the ``targetRules`` the evaluation carries must be exactly what the previous
implementations (``previous_engine.py``, networkx for ``P+``) give.
"""

from __future__ import annotations

import json
import random
import sys
import warnings
from pathlib import Path

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings

from previous_engine import previous_build, previous_index, previous_table
from symbolic.engine.arguments import ArgumentIndex, build_arguments
from symbolic.engine.attacks import derive_attacks
from symbolic.errors import PriorityCycleWarning
from symbolic.engine.grounding import ground
from symbolic.scenario.model import Analysis
from symbolic.engine.priorities import priority_order, priority_order_from_pairs
from symbolic.engine.status import evaluate
from symbolic.engine.target_rules import NeutralizingPairs, TargetRules, target_rules_of
from test_attacks import theories

ROOT = Path(__file__).resolve().parents[2]
_COLUMNS = ("attacker", "target", "on", "lic", "defeat", "kind", "shape", "explicit")


def _family(name: str, seed: int, **options) -> tuple:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        import theories as generators
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    record = json.loads(json.dumps(generators.FAMILIES[name](seed=seed, **options)))
    gold = {k: v for k, v in record["gold"].items() if k != "status"}
    analysis = Analysis.model_validate(gold)
    return ground([e["id"] for e in record["evidence"]], analysis), record["target"]


def _seeded():
    """Small members of every derived family, several seeds and densities."""
    cases = []
    for seed in range(3):
        rng = random.Random(seed)
        cases.append(("dense", seed, {"k": rng.randint(3, 12), "groups": 2, "density": rng.choice([0.2, 0.5])}))
        cases.append(("dense", seed, {"k": 24, "groups": 2, "density": 0.5}))
        cases.append(("mixed", seed, {"k": rng.randint(4, 16), "groups": 4}))
        cases.append(("altderiv", seed, {"m": rng.randint(2, 6), "q": rng.randint(2, 6), "groups": 2}))
    return cases


def _check_engine(theory) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PriorityCycleWarning)
        args = build_arguments(theory)
        assert args == previous_build(theory)
        index, expected = ArgumentIndex(args), previous_index(args)
        for name, value in expected.items():
            assert getattr(index, name) == value, name
        order = priority_order(theory)
        previous = priority_order_from_pairs((p.stronger, p.weaker) for p in theory.priorities)
        assert order == previous
        rules = TargetRules(theory, args, order.closure)
        new = derive_attacks(theory, args, order, target_rules=rules)
        old = previous_table(theory, args, order)
    for name in _COLUMNS:
        assert np.array_equal(getattr(new, name), getattr(old, name)), name
    assert new.defeats == old.defeats


@pytest.mark.parametrize(("family", "seed", "options"), _seeded())
def test_seeded_families_match_the_previous_engine(family, seed, options):
    theory, _ = _family(family, seed, **options)
    _check_engine(theory)


@settings(max_examples=200, derandomize=True, deadline=None)
@given(theories())
def test_random_theories_match_the_previous_engine(theory, kw):
    _check_engine(theory(**kw))


def _networkx_order(pairs):
    graph = nx.DiGraph(sorted(set(pairs)))
    cycles = sorted(tuple(sorted(c)) for c in nx.strongly_connected_components(graph)
                    if len(c) > 1 or any(graph.has_edge(n, n) for n in c))
    unresolved = frozenset(r for c in cycles for r in c)
    graph.remove_nodes_from(unresolved)
    return tuple(cycles), unresolved, frozenset((n, w) for n in graph.nodes for w in nx.descendants(graph, n))


def _layered_pairs(rng: random.Random, shape: str) -> list[tuple[str, str]]:
    """Random priority bases of at least 256 pairs: layered and transitive, or broken in one way."""
    layers = [[f"r{d}_{i}" for i in range(rng.randint(16, 30))] for d in range(rng.randint(3, 4))]
    pairs = [(a, b) for d, upper in enumerate(layers) for lower in layers[d + 1:] for a in upper for b in lower
             if rng.random() < 0.6]
    if shape == "transitive":  # complete between layers where any pair exists
        pairs = [(a, b) for d, upper in enumerate(layers) for lower in layers[d + 1:] for a in upper for b in lower]
    elif shape == "cycle":
        pairs.append((layers[-1][0], layers[0][0]))
    elif shape == "self-loop":
        pairs.append((layers[0][1], layers[0][1]))
    elif shape == "deep":  # a chain deeper than the layers numpy peels
        chain = [f"c{i}" for i in range(21)]
        pairs += list(zip(chain, chain[1:]))
    pairs += rng.sample(pairs, min(10, len(pairs)))  # duplicates
    rng.shuffle(pairs)
    return pairs


@pytest.mark.parametrize("shape", ["transitive", "random", "cycle", "self-loop", "deep"])
@pytest.mark.parametrize("seed", range(4))
def test_priority_order_of_large_bases_matches_networkx(shape, seed):
    pairs = _layered_pairs(random.Random(seed), shape)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PriorityCycleWarning)
        order = priority_order_from_pairs(pairs)
    assert (order.cycles, order.unresolved, order.closure) == _networkx_order(pairs)
    assert order.base == frozenset(pairs)


def test_a_cycle_in_a_large_base_still_warns():
    pairs = _layered_pairs(random.Random(7), "cycle")
    with pytest.warns(PriorityCycleWarning):
        priority_order_from_pairs(pairs)


def test_the_evaluation_carries_its_target_rules(theory):
    t = theory(facts={"f1": "a", "f2": "b"}, rules={"r1": "a => p", "r2": "b => ¬p"}, priorities=["r1>r2"])
    ev = evaluate(t, "p")
    carried = ev.extra["target_rules"]
    assert target_rules_of(ev) is carried and NeutralizingPairs(ev).target_rules is carried
    assert NeutralizingPairs.of(ev) is NeutralizingPairs.of(ev)
    (attack,) = [a for a in ev.attacks if not a.active]
    assert NeutralizingPairs.of(ev).pairs(attack.on, attack.target, attack.lic, attack.defeated_by) == {("r1", "r2")}
    assert carried == TargetRules(ev.theory, ev.arguments, ev.priorities.closure)
    assert evaluate(t, "p") == ev
    # an evaluation put together by hand (or with other arguments) gets its own
    from dataclasses import replace

    other = replace(ev, arguments=list(ev.arguments))
    assert target_rules_of(other) is not carried and target_rules_of(other) == carried
    assert NeutralizingPairs.of(other) is not NeutralizingPairs.of(other)
    assert priority_order(t) == ev.priorities
