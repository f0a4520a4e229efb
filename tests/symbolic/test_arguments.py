"""Argument construction (Definition 1)."""

from __future__ import annotations

import pytest

from symbolic.engine.arguments import ArgumentIndex, ArgumentLimitError, build_arguments


def _shape(args):
    return [(a.id, a.conclusion, a.top_rule, a.fact, a.subs) for a in args]


def test_facts_become_arguments(theory):
    args = build_arguments(theory(facts={"f1": "a", "f2": "¬b"}))
    assert _shape(args) == [("A1", "a", None, "f1", ()), ("A2", "¬b", None, "f2", ())]
    assert all(a.strict and not a.defeater and a.rules == frozenset() for a in args)
    assert args[0].premises == {"f1"}


def test_multi_step_derivation_records_rules_and_premises(theory):
    args = build_arguments(theory(
        facts={"f1": "a", "f2": "b"},
        rules={"r3": "c, b => d", "r1": "a => c", "r2": "d -> e"},
    ))
    assert _shape(args) == [
        ("A1", "a", None, "f1", ()),
        ("A2", "b", None, "f2", ()),
        ("A3", "c", "r1", None, ("A1",)),
        ("A4", "d", "r3", None, ("A3", "A2")),
        ("A5", "e", "r2", None, ("A4",)),
    ]
    top = args[-1]
    assert top.rules == {"r1", "r2", "r3"} and top.premises == {"f1", "f2"}
    assert not top.strict  # r3 and r1 are defeasible


def test_strict_flag_requires_every_rule_strict(theory):
    args = build_arguments(theory(facts={"f1": "a"}, rules={"s1": "a -> b", "s2": "b -> c"}))
    assert [a.strict for a in args] == [True, True, True]


def test_one_argument_per_combination_of_sub_arguments(theory):
    args = build_arguments(theory(
        facts={"f1": "a", "f2": "a", "f3": "b", "f4": "b"}, rules={"r1": "a, b => c"},
    ))
    combos = [a.subs for a in args if a.top_rule == "r1"]
    assert combos == [("A1", "A3"), ("A1", "A4"), ("A2", "A3"), ("A2", "A4")]


def test_cyclic_rules_terminate_and_never_reuse_a_rule(theory):
    args = build_arguments(theory(
        facts={"f1": "a"},
        rules={"r1": "a => b", "r2": "b => a", "r3": "b => b", "r4": "a, b => a"},
    ))
    assert len(args) == len({a.id for a in args})
    by_id = {a.id: a for a in args}
    for a in args:
        if a.top_rule is not None:
            assert all(a.top_rule not in by_id[s].rules for s in a.subs)
    # Worked by hand, round by round (height), rule order, then sub-argument ids.
    assert [(a.id, a.top_rule or a.fact, a.subs) for a in args] == [
        ("A1", "f1", ()),
        ("A2", "r1", ("A1",)),                                  # b {r1}
        ("A3", "r2", ("A2",)),                                  # a {r1,r2}
        ("A4", "r3", ("A2",)),                                  # b {r1,r3}
        ("A5", "r4", ("A1", "A2")),                             # a {r1,r4}
        ("A6", "r2", ("A4",)),                                  # a {r1,r2,r3}
        ("A7", "r4", ("A1", "A4")),
        ("A8", "r4", ("A3", "A2")),
        ("A9", "r4", ("A3", "A4")),
        ("A10", "r4", ("A6", "A2")),
        ("A11", "r4", ("A6", "A4")),
    ]


def test_defeater_arguments_never_support(theory):
    args = build_arguments(theory(facts={"f1": "a"}, rules={"d1": "a ~> b", "r1": "b => c"}))
    assert [(a.conclusion, a.defeater) for a in args] == [("a", False), ("b", True)]


def test_rule_without_antecedents_applies_once(theory):
    args = build_arguments(theory(rules={"r1": " => p", "r2": "p => q"}))
    assert _shape(args) == [("A1", "p", "r1", None, ()), ("A2", "q", "r2", None, ("A1",))]


def test_ids_are_deterministic(theory):
    kwargs = {"facts": {"f1": "a", "f2": "a"}, "rules": {"r1": "a => b", "r2": "b, a => c"}}
    assert build_arguments(theory(**kwargs)) == build_arguments(theory(**kwargs))


def test_limit_guards_the_blow_up(theory):
    facts = {f"f{i}{j}": f"a{i}" for i in range(4) for j in range(3)}
    t = theory(facts=facts, rules={"r1": "a0, a1, a2, a3 => b"})
    assert len(build_arguments(t)) == 12 + 81
    with pytest.raises(ArgumentLimitError, match="more than 50"):
        build_arguments(t, limit=50)


def test_super_arguments_include_self_and_every_container(theory):
    args = build_arguments(theory(facts={"f1": "a"}, rules={"r1": "a => b", "r2": "b => c", "r3": "a, c => d"}))
    index = ArgumentIndex(args)
    supers = {a: tuple(index.ids[j] for j in index.containers[i]) for i, a in enumerate(index.ids)}
    assert supers["A1"] == ("A1", "A2", "A3", "A4")
    assert supers["A2"] == ("A2", "A3", "A4")
    assert supers["A4"] == ("A4",)
