"""Attacks (Definition 2) and neutralization (Definition 4)."""

from __future__ import annotations

import warnings

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from symbolic.engine.arguments import build_arguments
from symbolic.engine.attacks import derive_attacks
from symbolic.engine.target_rules import applicable_rules
from symbolic.errors import PriorityCycleWarning
from symbolic.scenario.labels import Status
from symbolic.scenario.literals import complement, excepted_rule
from symbolic.engine.priorities import priority_order
from symbolic.engine.results import Label
from symbolic.engine.status import evaluate


def _run(t):
    args = build_arguments(t)
    name = {a.id: a.top_rule or a.fact for a in args}
    attacks = derive_attacks(t, args, priority_order(t))
    return args, name, attacks


def _edges(t):
    """Attacks as (attacker, target, kind, on, lic, explicit, defeated_by), arguments named by top rule/fact."""
    args, name, attacks = _run(t)
    on = lambda a: name.get(a.on, a.on)  # noqa: E731 - sub-argument ids shown by their rule
    return sorted((name[a.attacker], name[a.target], str(a.kind), on(a), a.lic, a.explicit, a.defeated_by)
                  for a in attacks)


def test_rebut_both_directions_between_defeasible_arguments(theory):
    t = theory(facts={"f1": "a"}, rules={"r1": "a => p", "r2": "a => ¬p"})
    assert _edges(t) == [
        ("r1", "r2", "rebut", "r2", "r1", False, None),
        ("r2", "r1", "rebut", "r1", "r2", False, None),
    ]


def test_strict_arguments_are_not_rebutted(theory):
    t = theory(facts={"f1": "a"}, rules={"s1": "a -> p", "r2": "a => ¬p"})
    assert _edges(t) == [("s1", "r2", "rebut", "r2", "s1", False, None)]
    assert evaluate(t, "p").status is Status.ACCEPTED


def test_strict_vs_strict_gives_no_attack_and_both(theory):
    t = theory(facts={"f1": "a", "f2": "b"}, rules={"s1": "a -> p", "s2": "b -> ¬p"})
    assert _edges(t) == []
    ev = evaluate(t, "p")
    assert ev.status is Status.BOTH and set(ev.labelling.labels.values()) == {Label.IN}


def test_rebut_on_a_sub_argument_propagates_to_super_arguments(theory):
    t = theory(facts={"f1": "a", "f2": "b"},
               rules={"r1": "a => p", "s2": "p -> q", "r3": "q => t", "r4": "b => ¬p"})
    edges = [e for e in _edges(t) if e[0] == "r4"]
    assert edges == [
        ("r4", "r1", "rebut", "r1", "r4", False, None),
        ("r4", "r3", "rebut", "r1", "r4", False, None),
        ("r4", "s2", "rebut", "r1", "r4", False, None),
    ]


def test_rebut_by_a_fact_is_never_neutralized(theory):
    t = theory(facts={"f1": "a", "f2": "¬p"}, rules={"r1": "a => p"}, priorities=[])
    edges = _edges(t)
    assert ("f2", "r1", "rebut", "r1", None, False, None) in edges
    # and the rule argument undermines the fact.
    assert ("r1", "f2", "undermine", "f2", "r1", False, None) in edges


def test_undercut_via_exception_rule_hits_every_user(theory):
    t = theory(facts={"f1": "a", "f2": "e"},
               rules={"r1": "a => p", "r2": "p => q", "x1": "e => ¬applicable(r1)"})
    assert _edges(t) == [
        ("x1", "r1", "undercut", "r1", "x1", False, None),
        ("x1", "r2", "undercut", "r1", "x1", False, None),
    ]
    ev = evaluate(t, "q")
    assert ev.status is Status.REJECTED  # arguments for q exist and none is IN


def test_undercut_is_neutralized_by_the_excepted_rule(theory):
    t = theory(facts={"f1": "a", "f2": "e"},
               rules={"r1": "a => p", "x1": "e => ¬applicable(r1)"}, priorities=["r1>x1"])
    assert _edges(t) == [("x1", "r1", "undercut", "r1", "x1", False, ("r1", "x1"))]
    assert evaluate(t, "p").status is Status.ACCEPTED


def test_undercut_of_a_strict_rule(theory):
    t = theory(facts={"f1": "a", "f2": "e"}, rules={"s1": "a -> p", "x1": "e ~> ¬applicable(s1)"})
    assert _edges(t) == [("x1", "s1", "undercut", "s1", "x1", False, None)]


def test_undermine_of_a_fact_by_a_complementary_fact(theory):
    t = theory(facts={"f1": "a", "f2": "¬a"}, rules={"r1": "a => p"}, priorities=[])
    assert _edges(t) == [
        ("f1", "f2", "undermine", "f2", None, False, None),
        ("f2", "f1", "undermine", "f1", None, False, None),
        ("f2", "r1", "undermine", "f1", None, False, None),
    ]
    assert evaluate(t, "p").status is Status.BOTH  # p's only path is contested


def test_undermine_by_an_argument_and_its_neutralization(theory):
    t = theory(facts={"f1": "a", "f2": "b"},
               rules={"r1": "a => p", "r2": "p => q", "r9": "b => ¬a"}, priorities=["r2>r9"])
    edges = [e for e in _edges(t) if e[0] == "r9"]
    # targetRules = the rules of the attacked argument that depend on f1.
    assert edges == [
        ("r9", "f1", "undermine", "f1", "r9", False, None),
        ("r9", "r1", "undermine", "f1", "r9", False, None),
        ("r9", "r2", "undermine", "f1", "r9", False, ("r2", "r9")),
    ]


def test_defeater_attacks_but_never_supports(theory):
    t = theory(facts={"f1": "a", "f2": "b"}, rules={"r1": "a => p", "d1": "b ~> ¬p", "d2": "b ~> p"})
    edges = _edges(t)
    assert ("d1", "r1", "rebut", "r1", "d1", False, None) in edges
    assert ("d1", "d2", "rebut", "d2", "d1", False, None) in edges
    ev = evaluate(t, "p")
    assert ev.status is Status.BOTH
    only_defeater = theory(facts={"f2": "b"}, rules={"d2": "b ~> p"})
    assert evaluate(only_defeater, "p").status is Status.UNDECIDABLE
    assert evaluate(only_defeater, "¬p").status is Status.REJECTED


def test_team_reading_uses_every_applicable_rule_for_the_conclusion(theory):
    base = {"facts": {"f1": "a", "f2": "b", "f3": "c"},
            "rules": {"r1": "a => p", "r2": "b => ¬p", "r3": "c => p"}}
    edges = _edges(theory(**base, priorities=["r3>r2"]))
    assert ("r2", "r1", "rebut", "r1", "r2", False, ("r3", "r2")) in edges
    # r3 not applicable (no fact c): it no longer protects r1.
    no_c = {"facts": {"f1": "a", "f2": "b"}, "rules": base["rules"]}
    edges = _edges(theory(**no_c, priorities=["r3>r2"]))
    assert ("r2", "r1", "rebut", "r1", "r2", False, None) in edges


def test_defeated_by_prefers_the_attacked_top_rule(theory):
    edges = _edges(theory(facts={"f1": "a", "f2": "b", "f3": "c"},
                          rules={"r1": "a => p", "r2": "b => ¬p", "r3": "c => p"},
                          priorities=["r3>r2", "r1>r2"]))
    assert ("r2", "r1", "rebut", "r1", "r2", False, ("r1", "r2")) in edges
    assert ("r2", "r3", "rebut", "r3", "r2", False, ("r3", "r2")) in edges


def test_explicit_edges_are_normalized_and_merged(theory):
    t = theory(
        facts={"f1": "a", "f2": "b", "f3": "c"},
        rules={"r1": "a => p", "r2": "b -> ¬q", "r3": "p => s", "r4": "c => q"},
        attacks=[
            ("r2", "p", "rebut"),             # literal target: arguments for p and their supers
            ("f3", "r1", "undercut"),         # rule target: every user of r1
            ("r2", "f1", "undermine", "r4"),  # fact target with an explicit licensing rule
            ("r2", "q", "rebut"),             # duplicates the derived rebut of r4's argument
        ],
    )
    edges = _edges(t)
    assert ("r2", "r1", "rebut", "r1", "r2", True, None) in edges
    assert ("r2", "r3", "rebut", "r1", "r2", True, None) in edges
    assert ("f3", "r1", "undercut", "r1", None, True, None) in edges
    assert ("f3", "r3", "undercut", "r1", None, True, None) in edges
    assert ("r2", "f1", "undermine", "f1", "r4", True, None) in edges
    assert ("r2", "r3", "undermine", "f1", "r4", True, None) in edges
    merged = [e for e in edges if e[:2] == ("r2", "r4")]
    assert merged == [("r2", "r4", "rebut", "r4", "r2", True, None)]
    assert len(edges) == len(set(edges))


def test_explicit_edge_is_neutralized_like_a_derived_one(theory):
    t = theory(facts={"f1": "a", "f2": "b"}, rules={"r1": "a => p", "r2": "b => s"},
               priorities=["r1>r2"], attacks=[("r2", "p", "rebut")])
    assert _edges(t) == [("r2", "r1", "rebut", "r1", "r2", True, ("r1", "r2"))]


def test_explicit_edge_from_an_inapplicable_rule_yields_nothing(theory):
    t = theory(facts={"f1": "a"}, rules={"r1": "a => p", "r2": "zz => s"}, attacks=[("r2", "p", "rebut")])
    assert _edges(t) == []


def test_applicable_rules_ignore_defeater_support(theory):
    t = theory(facts={"f1": "a"}, rules={"d1": "a ~> b", "r1": "b => c", "r2": "a => c"})
    assert applicable_rules(t, build_arguments(t)) == {"d1", "r2"}


def test_attacks_are_deterministic(theory):
    kwargs = {"facts": {"f1": "a", "f2": "b", "f3": "¬a"},
              "rules": {"r1": "a => p", "r2": "b => ¬p", "r3": "p => q", "x": "b => ¬applicable(r3)"}}
    first = derive_attacks(theory(**kwargs), build_arguments(theory(**kwargs)), priority_order(theory(**kwargs)))
    second = derive_attacks(theory(**kwargs), build_arguments(theory(**kwargs)), priority_order(theory(**kwargs)))
    assert list(first) == list(second)


# --- the indexed, columnar derivation against a pairwise reading of Definitions 2 and 4 ---------

ATOMS = ["a", "b", "c", "d"]


@st.composite
def theories(draw):
    literal = st.sampled_from(ATOMS + ["¬" + x for x in ATOMS])
    n_rules = draw(st.integers(0, 7))
    rule_ids = [f"r{i}" for i in range(n_rules)]
    head = literal if not rule_ids else st.one_of(
        literal, literal, st.sampled_from([f"¬applicable({r})" for r in rule_ids]))
    rules = {}
    for r in rule_ids:
        body = draw(st.lists(literal, max_size=2))
        arrow = draw(st.sampled_from(["=>", "=>", "->", "~>"]))
        rules[r] = "; ".join(body) + f" {arrow} " + draw(head)
    facts = {f"f{i}": x for i, x in enumerate(draw(st.lists(literal, min_size=1, max_size=4)))}
    priorities = []
    if len(rule_ids) > 1:
        pairs = draw(st.lists(st.tuples(st.sampled_from(rule_ids), st.sampled_from(rule_ids)), max_size=6))
        priorities = sorted({f"{x}>{y}" for x, y in pairs if x != y})
    sources = list(facts) + rule_ids
    targets = st.one_of(st.sampled_from(sources), literal)
    edges = draw(st.lists(st.tuples(st.sampled_from(sources), targets,
                                    st.sampled_from(["rebut", "undercut", "undermine"])), max_size=3))
    return {"facts": facts, "rules": rules, "priorities": priorities, "attacks": edges}


def _reference(t, args, order):
    """Definitions 2 and 4 read pairwise over all arguments, without any index."""
    by_id = {a.id: a for a in args}
    kind = {r.id: r.kind.value for r in t.rules}
    literal_of = {f.id: f.literal for f in t.facts}
    supported = {a.conclusion for a in args if not a.defeater}
    applicable = [r.id for r in t.rules if all(x in supported for x in r.antecedents)]
    concluders = lambda lit: {r.id for r in t.rules if r.id in applicable and r.consequent == lit}  # noqa: E731

    def below(b):  # b and all its sub-arguments
        yield b
        for s in b.subs:
            yield from below(by_id[s])

    def depending(b, f):
        return {c.top_rule for c in below(b) if f in c.premises and c.top_rule}

    found = {}

    def add(a, b, k, on, lic, explicit, rules):
        key = (a.id, b.id, k, on, lic)
        defeated = any(order.stronger(r, lic) for r in rules) if lic else False
        found[key] = (found.get(key, (False, defeated))[0] or explicit, defeated, set(rules))

    for a in args:
        for b in args:
            for sub in below(b):
                if a.conclusion == complement(sub.conclusion) and sub.top_rule and kind[sub.top_rule] != "strict":
                    add(a, b, "rebut", sub.id, a.top_rule, False, concluders(sub.conclusion))
            if excepted_rule(a.conclusion) in b.rules:
                add(a, b, "undercut", excepted_rule(a.conclusion), a.top_rule, False, {excepted_rule(a.conclusion)})
            for f in b.premises:
                if a.conclusion == complement(literal_of[f]):
                    add(a, b, "undermine", f, a.top_rule, False, depending(b, f))
    for e in t.attacks:
        lic = e.lic or (e.source if e.source in kind else None)
        for a in args:
            if e.source not in (a.top_rule, a.fact):
                continue
            for b in args:
                rebuttable = {s.id: s for s in below(b)
                              if s.top_rule and kind[s.top_rule] != "strict"}
                if e.target in kind and e.kind.value == "rebut":
                    # a rebut of a rule is a rebut of the conclusions it draws (team reading)
                    for sub in (s for s in rebuttable.values() if s.top_rule == e.target):
                        add(a, b, "rebut", sub.id, lic, True, concluders(sub.conclusion))
                elif e.target in kind:
                    if e.target in b.rules:
                        add(a, b, e.kind.value, e.target, lic, True, {e.target})
                elif e.target in literal_of:
                    if e.target in b.premises:
                        add(a, b, e.kind.value, e.target, lic, True, depending(b, e.target))
                else:
                    pool = rebuttable.values() if e.kind.value == "rebut" else below(b)
                    for sub in {s.id: s for s in pool if s.conclusion == e.target}.values():
                        add(a, b, e.kind.value, sub.id, lic, True, concluders(sub.conclusion))
    return found


@settings(max_examples=250, derandomize=True, deadline=None)
@given(theories())
def test_derivation_matches_the_pairwise_reading(theory, kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PriorityCycleWarning)
        t = theory(**kw)
        order = priority_order(t)
    args = build_arguments(t)
    table = derive_attacks(t, args, order)
    expected = _reference(t, args, order)
    got = {}
    for a in table:
        key = (a.attacker, a.target, str(a.kind), a.on, a.lic)
        assert key not in got, f"duplicate attack {key}"
        got[key] = a
    assert set(got) == set(expected)
    for key, (explicit, defeated, rules) in expected.items():
        attack = got[key]
        assert attack.explicit == explicit, key
        assert (attack.defeated_by is not None) == defeated, key
        if defeated:
            strong, weak = attack.defeated_by
            assert weak == attack.lic and strong in rules and order.stronger(strong, weak)
    assert table[:] == tuple(table) and len(table) == len(expected)


def test_attack_table_is_a_read_only_sequence(theory):
    t = theory(facts={"f1": "a", "f2": "b"}, rules={"r1": "a => p", "r2": "b => ¬p"}, priorities=["r1>r2"])
    args = build_arguments(t)
    table = derive_attacks(t, args, priority_order(t))
    again = derive_attacks(t, args, priority_order(t))
    assert table == again and table != list(table)
    assert len(table) == 2 and table[-1] == table[1] and table[0:2] == tuple(table)
    assert list(reversed(table)) == [table[1], table[0]]
    assert table.index(table[1]) == 1 and table[0] in table
    with pytest.raises(IndexError, match="out of range"):
        table[2]
    assert "2 attacks, 1 active" in repr(table)
