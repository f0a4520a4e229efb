"""The engine's previous implementations, kept as references for its fast paths.

Definition 1 (argument construction) and the rebut blocks of Definitions 2 and 4
exactly as the engine computed them before the per-rule and per-block fast paths
(plain loops over the arguments, one ``pair`` per override and row);
``tests/symbolic/test_engine_fast_paths.py`` checks that the engine gives the very
same arguments, attack columns and numbering of defeating pairs.
"""

from __future__ import annotations

from bisect import bisect_left
from itertools import product

import numpy as np

from symbolic.engine.results import SHAPE_ARGUMENT, Argument, AttackTable
from symbolic.engine.arguments import ArgumentIndex, ArgumentLimitError
from symbolic.engine.attacks import (_REBUTTABLE, Frame, _columns, _lics, neutralizer, reach, undercuts,
                                     undermines)
from symbolic.engine.explicit import merge_explicit
from symbolic.engine.grounding import Theory
from symbolic.scenario.labels import RuleKind
from symbolic.scenario.literals import complement
from symbolic.engine.target_rules import TargetRules

__all__ = ["previous_build", "previous_index", "previous_rebuts", "previous_table"]

_EMPTY: frozenset[str] = frozenset()
_DEFEATER, _STRICT = RuleKind.DEFEATER, RuleKind.STRICT


def _previous_combinations(pools, fresh_from, rule_id, args):
    """Sub-argument combinations with at least one member of height ``k - 1``.

    ``pools[i]`` lists the support arguments for antecedent ``i`` (ascending
    index); members with index ``>= fresh_from`` are the fresh ones.  The
    result is sorted and leaves out combinations that already use ``rule_id``.
    """
    cuts = [bisect_left(pool, fresh_from) for pool in pools]
    combos = []
    for i, pool in enumerate(pools):
        if cuts[i] == len(pool):
            continue
        parts = [p[:c] for p, c in zip(pools[:i], cuts[:i])] + [pool[cuts[i]:]] + pools[i + 1:]
        combos.extend(product(*parts))
    if len(pools) > 1:
        combos.sort()
    return [c for c in combos if not any(rule_id in args[s].rules for s in c)]


def previous_build(theory: Theory, limit: int = 2_000_000) -> tuple[Argument, ...]:
    """Definition 1, as :func:`symbolic.engine.arguments.build_arguments` computed it before its fast paths."""
    args: list[Argument] = []
    support: dict[str, list[int]] = {}
    rules = theory.rules
    watching: dict[str, list[int]] = {}
    for position, rule in enumerate(rules):
        for literal in dict.fromkeys(rule.antecedents):
            watching.setdefault(literal, []).append(position)

    def too_many(conclusion: str) -> ArgumentLimitError:
        return ArgumentLimitError(
            f"theory yields more than {limit} arguments (while building {conclusion!r})"
        )

    if len(theory.facts) > limit:
        raise too_many(theory.facts[limit].literal)
    for fact in theory.facts:
        args.append(Argument(f"A{len(args) + 1}", fact.literal, None, fact.id, (), _EMPTY,
                             frozenset((fact.id,))))
    fresh_from = 0
    candidates = {i for i, rule in enumerate(rules) if not rule.antecedents}
    initial = set(candidates)
    while True:
        for index in range(fresh_from, len(args)):
            if not args[index].defeater:
                literal = args[index].conclusion
                support.setdefault(literal, []).append(index)
                candidates.update(watching.get(literal, ()))
        start = len(args)
        for position in sorted(candidates):
            rule = rules[position]
            if position in initial:
                combos = [()]
            else:
                pools = [support.get(lit) for lit in rule.antecedents]
                if not all(pools):
                    continue
                combos = _previous_combinations(pools, fresh_from, rule.id, args)
            if len(args) + len(combos) > limit:
                raise too_many(rule.consequent)
            rule_id, head, own = rule.id, rule.consequent, frozenset((rule.id,))
            defeater, strict = rule.kind is _DEFEATER, rule.kind is _STRICT
            for combo in combos:
                if len(combo) == 1:  # the common case: share the sub-argument's sets
                    sub = args[combo[0]]
                    subs, used, premises = (sub.id,), own | sub.rules, sub.premises
                    all_strict = strict and sub.strict
                else:
                    parts = [args[i] for i in combo]
                    subs = tuple(p.id for p in parts)
                    used = own.union(*(p.rules for p in parts))
                    premises = frozenset().union(*(p.premises for p in parts))
                    all_strict = strict and all(p.strict for p in parts)
                args.append(Argument(f"A{len(args) + 1}", head, rule_id, None, subs, used, premises,
                                     defeater, all_strict))
        if len(args) == start:
            return tuple(args)
        fresh_from, candidates, initial = start, set(), set()


def previous_index(arguments) -> dict:
    """The lookup tables of :class:`symbolic.engine.arguments.ArgumentIndex`, computed as before."""
    arguments = tuple(arguments)
    position = {a.id: i for i, a in enumerate(arguments)}
    tables: dict = {"by_conclusion": {}, "by_top": {}, "users": {}, "premise_users": {}}
    for i, a in enumerate(arguments):
        tables["by_conclusion"].setdefault(a.conclusion, []).append(i)
        tables["by_top"].setdefault(a.top_rule if a.top_rule is not None else a.fact, []).append(i)
        for rule in a.rules:
            tables["users"].setdefault(rule, []).append(i)
        for fact in a.premises:
            tables["premise_users"].setdefault(fact, []).append(i)
    subs = [[position[s] for s in a.subs] for a in arguments]
    supers = [{i} for i in range(len(arguments))]
    for i in range(len(arguments) - 1, -1, -1):
        for s in subs[i]:
            supers[s] |= supers[i]
    tables.update(ids=tuple(a.id for a in arguments), subs=subs, containers=[sorted(c) for c in supers],
                  top=[a.top_rule for a in arguments], conclusion=[a.conclusion for a in arguments])
    return tables


def _beaten_by(beatable: list[tuple[int, set[str]]], subs: int) -> dict[str, list[int]] | None:
    """Per rule, the attackers (ascending) whose licensing rule it beats; ``None`` when testing
    each of the ``subs`` sub-arguments against every beatable attacker is cheaper."""
    if sum(len(strong) for _, strong in beatable) >= subs * len(beatable):
        return None
    beaten: dict[str, list[int]] = {}
    for j, strong in beatable:
        for rule in strong:
            beaten.setdefault(rule, []).append(j)
    return beaten


def previous_rebuts(frame) -> list[tuple]:  # the previous version, verbatim but for the frame
    """Rebuts, one block per complementary pair of conclusions.

    ``targetRules`` depend only on the attacked conclusion, so one default
    row of defeats serves the whole block; a sub-argument whose own top
    rule beats an attacker overrides that entry (it is named first).
    """
    index, stronger_than, blocks = frame.index, frame.target_rules.stronger_than, []

    def pair(strong, weak):
        return frame.pairs.setdefault((strong, weak), len(frame.pairs))

    for literal, attackers in index.by_conclusion.items():
        subs = [b for b in index.by_conclusion.get(complement(literal), ())
                if index.top[b] is not None and frame.kind[index.top[b]] in _REBUTTABLE]
        if not subs:
            continue
        lic_names = [index.top[a] for a in attackers]
        rules = frame.target_rules.of_conclusion(complement(literal))
        default = [neutralizer(frame, rules, lic) for lic in lic_names]
        beatable = [(j, stronger_than[lic]) for j, lic in enumerate(lic_names)
                    if lic is not None and lic in stronger_than]
        beaten_by = _beaten_by(beatable, len(subs))
        targets, on, fixes = [], [], []
        for sub in subs:
            top = index.top[sub]
            if beaten_by is None:
                row_fixes = [(j, pair(top, lic_names[j])) for j, strong in beatable if top in strong]
            else:
                row_fixes = [(j, pair(top, lic_names[j])) for j in beaten_by.get(top, ())]
            for target in index.containers[sub]:
                if row_fixes:
                    fixes.extend((len(targets), j, value) for j, value in row_fixes)
                targets.append(target)
                on.append(sub)
        defeat = np.empty((len(targets), len(attackers)), dtype=np.int32)
        defeat[:] = np.asarray(default, dtype=np.int32)
        if fixes:
            rows, cols, values = zip(*fixes)
            defeat[list(rows), list(cols)] = values
        blocks.append((attackers, _lics(frame, attackers), targets, on, 0, SHAPE_ARGUMENT, defeat))
    return blocks


def previous_table(theory, arguments, order) -> AttackTable:
    """The attack table with the previous rebut blocks and ``targetRules`` built from ``P+``."""
    frame = Frame(theory, ArgumentIndex(arguments), TargetRules(theory, arguments, order.closure))
    blocks = [b for b in (*previous_rebuts(frame), *undercuts(frame), *undermines(frame)) if len(b[0]) and len(b[2])]
    columns = merge_explicit(frame, _columns(blocks), lambda t, k: reach(frame, t, k),
                             lambda rules, lic: neutralizer(frame, rules, lic))
    return AttackTable(frame.index.ids, frame.rule_ids, frame.fact_ids, tuple(frame.pairs), columns)
