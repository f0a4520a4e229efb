"""The defeat sets of a trace as :mod:`symbolic.traces.trace_attacks` computed them before
:mod:`symbolic.traces.defeat_sets`: one class of attacks at a time, its pairs a Python set
(``NeutralizingPairs.pairs``), each set named by a set comprehension.  The tests compare the
integer-coded version with it, result for result and in the same order.
"""

from __future__ import annotations

import numpy as np

from symbolic.engine.results import SHAPE_FACT, SHAPE_RULE
from symbolic.engine.target_rules import NeutralizingPairs

__all__ = ["reference_defeat_sets"]


def reference_defeat_sets(evaluation, namer, table, order, group, active, defeat=None):
    """The defeat sets as computed before the integer-coded version (class by class, in Python;
    ``defeat``, the engine pairs in edge order, is not read)."""
    defeat_set = np.full(len(active), -1, dtype=np.int64)
    # Positions in ``order`` (``group``: their edge, None when each attack is its own edge).
    defeated = np.flatnonzero(~active if group is None else ~active[group])  # every attack there is defeated
    if not len(defeated):
        return defeat_set, (), frozenset()
    rows = order[defeated]
    n_args, n_rules, n_facts = len(table.argument_ids), len(table.rule_ids), len(table.fact_ids)
    # The class of an attack fixes its targetRules: the attacked conclusion (rebut on an argument),
    # the rule, or the fact together with the attacked argument.  ``on_class`` numbers what an attack
    # is on, per shape: ``offset[shape] + on`` indexes it.  Keys are built in place.
    literal_code: dict[str, int] = {}
    special = set(table.rule_ids) | set(table.fact_ids)
    conclusion = np.array([literal_code.setdefault(a.conclusion, len(literal_code)) if a.id not in special
                           else -1 for a in evaluation.arguments] if n_args else [], dtype=np.int64)
    n_literals = len(literal_code)
    on_class = np.arange(n_literals, n_literals + n_args + n_rules + n_facts, dtype=np.int64)
    on_class[:n_args] = np.where(conclusion >= 0, conclusion, on_class[:n_args])
    offset = np.zeros(3, dtype=np.int64)
    offset[SHAPE_RULE], offset[SHAPE_FACT] = n_args, n_args + n_rules
    shape = table.shape[rows]
    at = offset[shape]
    at += table.on[rows]
    key1 = on_class[at]
    del at
    key1 *= n_rules + 1
    key1 += table.lic[rows]
    key1 += 1
    on_fact = np.flatnonzero(shape == SHAPE_FACT)
    del shape
    key2 = np.zeros(len(rows), dtype=np.int64)
    key2[on_fact] = table.target[rows[on_fact]] + 1
    engine_pair = table.defeat[rows].astype(np.int64)
    engine_pair += 1
    width = n_literals + n_args + n_rules + n_facts
    pairs_span, key2_span = len(table.defeats) + 1, (n_args + 2 if len(on_fact) else 1)
    del on_fact
    if (width + 1) * (n_rules + 1) * key2_span * pairs_span < 1 << 62:  # one int64 key: one sort
        key = key1
        if key2_span > 1:
            key *= key2_span
            key += key2
        key *= pairs_span
        key += engine_pair
        del key1, key2, engine_pair
        subclass, first_at, per_row = np.unique(key, return_index=True, return_inverse=True)
        cls = subclass // pairs_span
        new_class = np.concatenate([[True], cls[1:] != cls[:-1]])
        first = rows[first_at]
        del key, subclass, cls
    else:
        by_class = np.lexsort((engine_pair, key2, key1))
        k1, k2, d = key1[by_class], key2[by_class], engine_pair[by_class]
        new_class = np.concatenate([[True], (k1[1:] != k1[:-1]) | (k2[1:] != k2[:-1])])
        class_start = np.flatnonzero(new_class | np.concatenate([[True], d[1:] != d[:-1]]))
        new_class, first = new_class[class_start], rows[by_class[class_start]]
        per_row = np.empty(len(rows), dtype=np.int64)
        per_row[by_class] = np.repeat(np.arange(len(class_start)), np.diff(np.append(class_start, len(rows))))
    rules = NeutralizingPairs.of(evaluation)
    names = (table.argument_ids, table.rule_ids, table.fact_ids)
    pair_sets: dict[frozenset, int] = {}
    class_set = np.empty(len(first), dtype=np.int64)
    base: frozenset = frozenset()
    # A class (same targetRules and lic) computes its pairs once; the engine's own pair, which
    # Definition 4 already puts among them, is added when it is not (one sub-class per engine pair).
    columns = zip(new_class.tolist(), table.lic[first].tolist(), table.defeat[first].tolist(),
                  table.shape[first].tolist(), table.on[first].tolist(), table.target[first].tolist())
    for c, (fresh, lic, pair, shape_of, on_of, target_of) in enumerate(columns):
        if lic < 0:  # a fact attacker is never neutralized (Definition 4)
            class_set[c] = pair_sets.setdefault(frozenset(), len(pair_sets))
            continue
        if fresh:
            base = rules.pairs(names[shape_of][on_of], table.argument_ids[target_of], table.rule_ids[lic], None)
        engine = tuple(table.defeats[pair]) if pair >= 0 else None
        found = base if engine is None or engine in base else base | {engine}
        class_set[c] = pair_sets.setdefault(found, len(pair_sets))
    by_index = list(pair_sets)
    if group is None:  # one attack per edge: its class's set
        groups, chosen, group_start = defeated, None, None
    else:
        per_attack = class_set[per_row]
        groups = group[defeated]
        group_start = np.concatenate([[0], np.flatnonzero(groups[1:] != groups[:-1]) + 1])
        low = np.minimum.reduceat(per_attack, group_start)
        high = np.maximum.reduceat(per_attack, group_start)
        chosen = low.copy()
        for g in np.flatnonzero(low != high).tolist():  # an edge whose attacks fall in several classes
            stop = group_start[g + 1] if g + 1 < len(group_start) else len(groups)
            union = frozenset().union(*(by_index[s] for s in set(per_attack[group_start[g]:stop].tolist())))
            chosen[g] = pair_sets.setdefault(union, len(pair_sets))
            if chosen[g] == len(by_index):
                by_index.append(union)
    # Name each set by its priority node ids; equal names share one set.
    named: dict[tuple[str, ...], int] = {}
    remap = np.empty(len(by_index), dtype=np.int64)
    priority_id = namer.priority_id
    for i, found in enumerate(by_index):
        ids = tuple(sorted({priority_id(*p) for p in found}))
        remap[i] = named.setdefault(ids, len(named))
    # Only the sets some edge uses are kept, in first-named order.
    if chosen is None:  # every class is some edge's set
        used = np.unique(class_set)
        kept = np.unique(remap[used])
    else:
        used = np.flatnonzero(np.bincount(chosen, minlength=len(by_index)))
        kept = np.flatnonzero(np.bincount(remap[chosen], minlength=len(named)))
    compact = np.full(len(named), -1, dtype=np.int64)
    compact[kept] = np.arange(len(kept))
    if chosen is None:
        defeat_set[groups] = compact[remap[class_set]][per_row]
    else:
        defeat_set[groups[group_start]] = compact[remap[chosen]]
    names_of = list(named)
    pairs = frozenset().union(*(by_index[i] for i in used.tolist()))
    return defeat_set, tuple(names_of[i] for i in kept.tolist()), pairs
