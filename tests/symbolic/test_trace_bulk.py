"""The bulk construction of the trace skeleton against the one-by-one construction it replaces.

- :meth:`NodeStore.extend` against :meth:`NodeStore.node` called in the same order;
- :func:`symbolic.traces.trace_grounding.grounding_nodes` and :func:`symbolic.traces.trace_arguments.argument_nodes`
  in bulk against their one-by-one paths (the skeleton of :func:`trace_parts` with
  :meth:`NodeStore.extend` declining everything), on the seeded theories of
  ``test_skeleton_columns`` (odd characters, rules of equal content, shared evidence), on every
  generator of ``test_trace_naive`` and on arguments listed in adversarial orders;
- :meth:`Namer.literals`, :meth:`Namer.name_rules` and :meth:`Namer.name_arguments` against the
  per-object methods, with applicability references, reference cycles and odd characters.
"""

from __future__ import annotations

import dataclasses
import random
import warnings

import numpy as np
import pytest

from symbolic.scenario.labels import RuleKind
from symbolic.scenario.model import Analysis, Fact, NodeType, Rule
from symbolic.traces.naming import Namer
from symbolic.traces.skeleton import NodeStore
from symbolic.engine.status import evaluate_analysis
from symbolic.traces.tnf import normal_form
from symbolic.traces.trace import trace_parts

from test_skeleton_columns import WEIRD, _evaluations
from test_trace_naive import CASES


def _parts(evaluation, monkeypatch=None):
    """Nodes, edges and the store's ids and positions of the trace (one by one with ``monkeypatch``)."""
    if monkeypatch is None:
        skeleton, _ = trace_parts(evaluation, query="Why?")
    else:
        with monkeypatch.context() as patch:
            patch.setattr(NodeStore, "extend", lambda self, *a, **k: None)
            skeleton, _ = trace_parts(evaluation, query="Why?")
    store = skeleton.store
    return list(skeleton.nodes.items()), skeleton.edges, list(store.ids), list(store.positions.items()), \
        list(store.data.items())


def _same_both_ways(evaluation, monkeypatch):
    bulk, single = _parts(evaluation), _parts(evaluation, monkeypatch)
    for got, want, what in zip(bulk, single, ("nodes", "edges", "ids", "positions", "data")):
        assert got == want, what


@pytest.mark.parametrize("name, analysis, wild", WEIRD, ids=[c[0] for c in WEIRD])
def test_bulk_skeleton_equals_one_by_one_on_seeded_theories(name, analysis, wild, monkeypatch):
    for evaluation in _evaluations(analysis):
        _same_both_ways(evaluation, monkeypatch)


@pytest.mark.parametrize("name, analysis, target", CASES, ids=[c[0] for c in CASES])
def test_bulk_skeleton_equals_one_by_one_on_every_generator(name, analysis, target, monkeypatch):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        evaluation = normal_form(("E-01",), analysis, target).evaluation
    _same_both_ways(evaluation, monkeypatch)


@pytest.mark.parametrize("seed", range(12))
def test_arguments_in_adversarial_orders(seed, monkeypatch):
    """Sub-arguments after their argument, a repeated argument, an argument without a node of its
    rule: the bulk path declines and the result is the one-by-one one."""
    analysis = WEIRD[seed][1]
    rng = random.Random(seed)
    for evaluation in _evaluations(analysis):
        args = list(evaluation.arguments)
        for shuffled in (args[::-1], rng.sample(args, len(args)), args + args[:1]):
            _same_both_ways(dataclasses.replace(evaluation, arguments=tuple(shuffled)), monkeypatch)
        if args:
            odd = dataclasses.replace(args[-1], top_rule="no-such-rule", fact=None)
            _same_both_ways(dataclasses.replace(evaluation, arguments=tuple(args[:-1]) + (odd,)), monkeypatch)


def test_tame_theories_take_the_bulk_path(monkeypatch):
    calls = []
    extend = NodeStore.extend

    def spy(self, *args, **kwargs):
        calls.append(extend(self, *args, **kwargs))
        return calls[-1]

    monkeypatch.setattr(NodeStore, "extend", spy)
    analysis = Analysis(facts=[Fact(id="f1", literal="a", evidence=["E-01"]),
                               Fact(id="f2", literal="b", evidence=["E-02", "E-01"])],
                        rules=[Rule(id="r1", antecedents=["a"], consequent="p", evidence=["E-01"]),
                               Rule(id="r2", antecedents=["b", "p"], consequent="¬p", evidence=["E-03"])])
    trace_parts(evaluate_analysis(["E-01", "E-02", "E-03"], analysis, "p"))
    assert len(calls) == 3 and all(c is not None for c in calls)  # facts, rules, arguments


def test_extend_equals_node_by_node():
    rng = random.Random(5)
    for _ in range(200):
        ids = list(dict.fromkeys(f"x:{rng.randint(0, 40)}" for _ in range(rng.randint(0, 12))))
        extras = [f"e:{k}" for k in range(rng.randint(0, 5))]
        after = sorted(rng.randrange(len(ids)) for _ in extras) if ids else []
        extras = extras[:len(after)]
        one, bulk = NodeStore(), NodeStore()
        if rng.random() < 0.3:  # a node there already
            for store in (one, bulk):
                store.node("x:0", NodeType.FACT, "seed")
        attrs = [{"type": NodeType.FACT, "label": i, "names": ("n",)} for i in ids]
        extra_attrs = [{"type": NodeType.EVIDENCE, "label": e, "names": ()} for e in extras]
        placed = bulk.extend(ids, [dict(a) for a in attrs], extras, [dict(a) for a in extra_attrs], after)
        if "x:0" in one.positions and "x:0" in ids:
            assert placed is None and bulk.ids == one.ids and bulk.data == one.data
            continue
        want_own, want_extra = [], []
        k = 0
        for i, (node_id, a) in enumerate(zip(ids, attrs)):
            want_own.append(one.node(node_id, a["type"], a["label"], "n"))
            while k < len(after) and after[k] == i:
                want_extra.append(one.node(extras[k], NodeType.EVIDENCE, extras[k]))
                k += 1
        own, extra = placed
        assert own.tolist() == want_own and extra.tolist() == want_extra
        assert bulk.ids == one.ids and bulk.positions == one.positions
        assert list(bulk.data.items()) == list(one.data.items())
    store = NodeStore()
    assert store.extend(["a", "a"], [{}, {}]) is None and store.ids == [] and not store.data
    assert store.extend(["a"], [{}], ["a"], [{}], [0]) is None and not store.positions
    own, extra = store.extend([], [])
    assert own.dtype == extra.dtype == np.int64 and not len(own) and not len(extra)


ODD = ["a", "¬a", "applicable(r1)", "¬applicable(r2)", "applicable(nope)", "applicable()", "xapplicable(r1)",
       "applicable(r1)\n", "applicable(r\n1)", 'q"\\', "é→", "a)>(b", ""]


def _odd_rules(rng: random.Random) -> list[Rule]:
    ids = ["r1", "r2", "r3", "r\n1", "r(4)"]
    rules = []
    for rid in ids:
        body = rng.sample(ODD, rng.randint(0, 3)) + rng.sample(ODD, rng.randint(0, 1))
        kind = rng.choice(list(RuleKind))  # unvalidated: the literals as they are
        rules.append(Rule.model_construct(id=rid, antecedents=tuple(body), consequent=rng.choice(ODD), kind=kind))
    return rules


@pytest.mark.parametrize("seed", range(40))
def test_namer_bulk_equals_per_object(seed):
    rules = _odd_rules(random.Random(seed))
    one, bulk = Namer(rules), Namer(rules)
    assert bulk.literals(ODD) == [one.literal(x) for x in ODD]
    assert bulk.literals([]) == []
    bulk.name_rules()
    for rule in rules:
        assert bulk.rule_id(rule.id) == one.rule_id(rule.id)
        assert bulk.rule_label(rule.id) == one.rule_label(rule.id)
        assert bulk.rule_content(rule.id) == one.rule_content(rule.id)


@pytest.mark.parametrize("name, analysis, wild", WEIRD[::3], ids=[c[0] for c in WEIRD[::3]])
def test_name_arguments_equals_argument_id(name, analysis, wild):
    for evaluation in _evaluations(analysis):
        args = list(evaluation.arguments)
        for order in (args, args[::-1]):
            bulk, one = Namer(evaluation.theory.rules, order), Namer(evaluation.theory.rules, order)
            named = dict(bulk.name_arguments())
            assert named == {a.id: one.argument_id(a.id) for a in order}
            assert all(bulk.derivation(a.id) == one.derivation(a.id) for a in order)
