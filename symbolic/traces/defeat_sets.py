"""Defeat sets of a trace's attack edges, computed over integer codes (Definition 4).

A defeated attack edge's *defeat set* is every pair of ``P+`` that neutralizes one of its attacks:
the engine's ``defeated_by`` plus each ``(t, lic)`` of ``P+`` with ``t`` in ``targetRules``.
``targetRules`` is fixed by an attack's *class* (for a rebut, the attacked conclusion; for an
undercut, the rule; for an undermine, the fact and the attacked argument) together with ``lic``,
so the attacks are grouped, with numpy, into *sub-classes* ``(class, engine pair)``
(:mod:`symbolic.traces.attack_classes`); each class looks its ``targetRules`` up once and finds the
pairs of ``P+`` among them in one vectorized look-up over integer codes of the pairs.  A sub-class whose engine pair is
not already among its class's pairs (only for attacks the engine did not derive) gets the class's
pairs plus that one.  Only then are the sets named, once per distinct set: each pair by its
priority node id (:meth:`symbolic.traces.naming.Namer.priority_id`), sorted by the ranks of the
rules' parts in it.

The sets are numbered as the sub-classes first use them, in the order of their keys
(:func:`defeat_sets`), which is what the trace's output lists.
"""

from __future__ import annotations

from itertools import repeat

import numpy as np

from symbolic.traces.attack_classes import by_engine_pair, by_sorting, class_keys
from symbolic.engine.attack_table import AttackTable
from symbolic.traces.defeat_set_members import DefeatSets, expand_runs, named_sets
from symbolic.traces.naming import Namer
from symbolic.engine.results import Evaluation
from symbolic.support.sorted_keys import distinct, find, sort_order, unique
from symbolic.engine.target_rules import NeutralizingPairs

__all__ = ["defeat_sets"]


class _Pairs:
    """The pairs a defeat set can hold, numbered: ``P+`` sorted by code, then engine pairs outside it.

    ``code`` numbers every rule name met (the table's rules first, so that ``lic`` indexes them);
    a pair's code is ``code[weak] * width + code[strong]``, so that the pairs of ``P+`` above one
    rule are one run of :attr:`keys`.  The pairs' tuples are read only for the pairs a set uses
    (:meth:`in_source_order`).
    """

    def __init__(self, rules: NeutralizingPairs, table: AttackTable):
        code = self.code = {}
        for name in table.rule_ids:
            code.setdefault(name, len(code))
        n_rules = len(table.rule_ids)
        # distinct rule ids: a rule's code is its index, as in the builder's defeat keys
        by_index = table.defeat_keys is not None and len(code) == n_rules
        self._tuples = [(s, w) for w, stronger in rules.target_rules.stronger_than.items() for s in stronger]
        names = list(dict.fromkeys(name for pair in self._tuples for name in pair))
        self._add(names)
        at = np.array(list(map(code.__getitem__, names)), dtype=np.int64)
        position = {name: i for i, name in enumerate(names)}
        strong = np.array([position[p[0]] for p in self._tuples], dtype=np.int64)
        weak = np.array([position[p[1]] for p in self._tuples], dtype=np.int64)
        engine = table.defeats
        if by_index and n_rules:
            e_strong, e_weak = np.divmod(table.defeat_keys, n_rules)
        else:
            engine_strong, engine_weak = zip(*engine) if engine else ((), ())
            e_strong, e_weak = self._codes(engine_strong), self._codes(engine_weak)
            if len(e_strong) and min(e_strong.min(), e_weak.min()) < 0:  # names outside the rules and P+
                self._add(list(engine_strong) + list(engine_weak))
                e_strong, e_weak = self._codes(engine_strong), self._codes(engine_weak)
        self.width = width = max(len(code), 1)
        self.lic = (np.arange(n_rules, dtype=np.int64) if by_index
                    else np.array([code[name] for name in table.rule_ids], dtype=np.int64))
        self.perm, self.keys = sort_order(at[weak] * width + at[strong], width * width)
        # The engine's pairs: their index here, those outside P+ appended (each once).
        engine_codes = e_weak * width + e_strong
        where = find(self.keys, engine_codes, width * width)
        outside = np.flatnonzero(where < 0)
        self._extra: list = []
        self._all_keys = self.keys
        if len(outside):
            extra_keys, first, index = distinct(engine_codes[outside], width * width)
            where[outside] = len(self.keys) + index
            self._extra = [tuple(engine[i]) for i in outside[first].tolist()]
            self._all_keys = np.concatenate([self.keys, extra_keys])
        self.engine = where
        self.names = list(code)  # by code

    def _add(self, names) -> None:
        code = self.code
        for name in sorted(set(names).difference(code)):
            code[name] = len(code)

    def _codes(self, names) -> np.ndarray:
        return np.array(list(map(self.code.get, names, repeat(-1))), dtype=np.int64)

    def codes_of(self, indices: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The rule codes ``(strong, weak)`` of pairs (indices here)."""
        keys = self._all_keys[indices]
        return keys % self.width, keys // self.width

    def in_source_order(self, indices: np.ndarray) -> tuple[np.ndarray, list]:
        """Pairs (indices here) reordered as ``P+`` lists them (the order their tuples, and the
        trace's priority ids, were made in: memory read in order), and their ``(strong, weak)`` tuples."""
        inside = len(self.keys)
        within, outside = indices[indices < inside], indices[indices >= inside]
        order, source = sort_order(self.perm[within], max(inside, 1))
        tuples = list(map(self._tuples.__getitem__, source.tolist()))
        tuples.extend(self._extra[i - inside] for i in outside.tolist())
        return np.concatenate([within[order], outside]), tuples

    def __len__(self) -> int:
        return len(self.keys) + len(self._extra)


def _class_pairs(rules: NeutralizingPairs, table: AttackTable, pairs: _Pairs, first: np.ndarray) -> np.ndarray:
    """The pairs of ``P+`` neutralizing each class (first row of each given), as sorted keys
    ``class * len(pairs) + pair``: every ``(t, lic)`` of ``P+`` with ``t`` in ``targetRules``.

    ``targetRules`` is looked up once per distinct :meth:`~NeutralizingPairs.target_class`; each
    class then goes through the shorter of its ``targetRules`` and the pairs of ``P+`` above its
    ``lic``, looking each up in the other.
    """
    names = (table.argument_ids, table.rule_ids, table.fact_ids)
    code, width, keys = pairs.code, pairs.width, pairs.keys
    groups: dict[tuple, int] = {}
    group_of: list[int] = []
    found: list[int] = []
    sizes: list[int] = []
    columns = zip(table.lic[first].tolist(), table.shape[first].tolist(), table.on[first].tolist(),
                  table.target[first].tolist())
    for lic, shape, on, target in columns:
        if lic < 0:  # a fact attacker is never neutralized (Definition 4)
            group_of.append(-1)
            continue
        key = rules.target_class(names[shape][on], table.argument_ids[target])
        g = groups.get(key)
        if g is None:
            g = groups[key] = len(groups)
            chosen = rules.targets_of_class(key)
            found.extend(map(code.get, chosen, repeat(-1)))
            sizes.append(len(chosen))
        group_of.append(g)
    n_groups = len(groups)
    if not n_groups:
        return np.zeros(0, dtype=np.int64)
    rule = np.array(found, dtype=np.int64)
    owner = np.repeat(np.arange(n_groups, dtype=np.int64), sizes)
    known = rule >= 0
    targets = unique(owner[known] * width + rule[known])  # group * width + rule, sorted
    t_start = np.searchsorted(targets, np.arange(n_groups + 1, dtype=np.int64) * width)
    group = np.array(group_of, dtype=np.int64)
    cls = np.flatnonzero(group >= 0)
    group = group[cls]
    weak = pairs.lic[table.lic[first[cls]]]
    s_start = np.searchsorted(keys, weak * width)
    s_size = np.searchsorted(keys, (weak + 1) * width) - s_start
    t_size = (t_start[1:] - t_start[:-1])[group]
    by_targets = t_size <= s_size
    n_pairs, out = len(pairs), []
    a = np.flatnonzero(by_targets)  # each target rule t: (t, lic) looked up in P+
    run, at = expand_runs(t_start[group[a]], t_size[a])
    hit = find(keys, weak[a][run] * width + targets[at] % width, width * width)
    out.append(cls[a][run][hit >= 0] * n_pairs + hit[hit >= 0])
    b = np.flatnonzero(~by_targets)  # each pair (t, lic) of P+: t looked up in targetRules
    run, at = expand_runs(s_start[b], s_size[b])
    hit = find(targets, group[b][run] * width + keys[at] % width, n_groups * width) >= 0
    out.append(cls[b][run][hit] * n_pairs + at[hit])
    return unique(np.concatenate(out))


def defeat_sets(evaluation: Evaluation, namer: Namer, table: AttackTable, order: np.ndarray,
                group: np.ndarray | None, active: np.ndarray, defeat: np.ndarray | None = None):
    """Defeat set of each attack edge (-1 when active), the sets, and the pairs they use.

    Parameters
    ----------
    evaluation : Evaluation
    namer : Namer
        Names of the evaluation's theory (priority ids).
    table : AttackTable
        The evaluation's attacks.
    order : numpy.ndarray of int
        The attacks in edge order.
    group : numpy.ndarray of int or None
        The edge of each position of ``order``; None when each attack is its own edge.
    active : numpy.ndarray of bool
        Whether each edge is active.
    defeat : numpy.ndarray of int, optional
        ``table.defeat[order]``, when the caller has it.

    Returns
    -------
    defeat_set : numpy.ndarray of int64
        Per edge, the index of its set in ``sets``, -1 for an active edge.
    sets : DefeatSets
        The sets some edge has, each its sorted priority node ids, in the order first used.
    pairs : frozenset of (str, str)
        Every pair of ``P+`` (or engine pair) in one of the sets.
    """
    if active.all():
        return np.full(len(active), -1, dtype=np.int64), DefeatSets.of_names(()), frozenset()
    keys = class_keys(evaluation, table)
    subs = by_engine_pair(keys, table) if group is None else None
    if subs is None:
        defeated = np.flatnonzero(~active if group is None else ~active[group])  # every attack there is defeated
        subs = by_sorting(keys, table, order[defeated])
    first, class_start, class_of = subs.first, subs.class_start, subs.class_of
    rules = NeutralizingPairs.of(evaluation)
    pairs = _Pairs(rules, table)
    n_pairs, n_classes = len(pairs), len(class_start)
    base = _class_pairs(rules, table, pairs, first[class_start])
    base_class, base_pair = base // n_pairs, base % n_pairs
    base_start = np.searchsorted(base_class, np.arange(n_classes + 1))
    # A sub-class uses its class's set when the engine pair is in it (always for derived attacks),
    # or when the class has no lic; otherwise that set plus the engine pair.
    engine = pairs.engine[table.defeat[first]]
    plain = (find(base, class_of * n_pairs + engine, n_classes * n_pairs) >= 0) | (table.lic[first] < 0)
    extra = np.flatnonzero(~plain)
    entry = class_of.copy()
    entry[extra] = n_classes + np.arange(len(extra))
    # Sets in the order the sub-classes first use them (a class's set: at its first plain sub-class).
    n_sub = len(first)
    at_plain = np.where(plain, np.arange(n_sub), n_sub)
    class_first = np.minimum.reduceat(at_plain, class_start)
    used_class = np.flatnonzero(class_first < n_sub)
    appear = np.concatenate([used_class, n_classes + np.arange(len(extra))])
    appear = appear[np.argsort(np.concatenate([class_first[used_class], extra]), kind="stable")]

    def members(e: int) -> np.ndarray:
        if e < n_classes:
            return base_pair[base_start[e]:base_start[e + 1]]
        s = extra[e - n_classes]
        c = class_of[s]
        return unique(np.concatenate([base_pair[base_start[c]:base_start[c + 1]], engine[s:s + 1]]))

    appear_list = appear.tolist()
    member_list = [members(e) for e in appear_list]
    if group is not None:  # an edge's attacks may fall in several sub-classes: the union of their sets
        groups = group[defeated]
        group_start, chosen = _edge_sets(entry[subs.per_row], groups, appear_list, member_list)
    # Name each set; equal names share one set, numbered as first named.
    named: dict = {}
    first_named: list[int] = []
    remap = np.full(n_classes + len(extra) + len(appear_list), -1, dtype=np.int64)
    set_keys, chosen_sets, used, tuples = named_sets(member_list, pairs, namer)
    for k, (e, ids) in enumerate(zip(appear_list, set_keys)):
        i = remap[e] = named.setdefault(ids, len(named))
        if i == len(first_named):
            first_named.append(k)
    if group is None:  # every set is some edge's
        sets = chosen_sets(first_named)
        if subs.pair_sub is not None:
            per_pair = np.full(len(subs.pair_sub), -1, dtype=np.int64)
            known = subs.pair_sub >= 0
            per_pair[known] = remap[entry][subs.pair_sub[known]]
            # The engine pair of each attack in edge order, -1 (the last) for an active one.
            defeat_set = per_pair[table.defeat[order] if defeat is None else defeat]
        else:
            defeat_set = np.full(len(active), -1, dtype=np.int64)
            defeat_set[defeated] = remap[entry][subs.per_row]
    else:
        kept = np.flatnonzero(np.bincount(remap[chosen], minlength=len(named)))
        compact = np.full(len(named), -1, dtype=np.int64)
        compact[kept] = np.arange(len(kept))
        defeat_set = np.full(len(active), -1, dtype=np.int64)
        defeat_set[groups[group_start]] = compact[remap[chosen]]
        sets = chosen_sets([first_named[i] for i in kept.tolist()])
        kept_entries = unique(chosen).tolist()
    if group is None:  # every set is some edge's: every pair named is used
        return defeat_set, sets, frozenset(tuples)
    index = {e: i for i, e in enumerate(appear_list)}
    kept_pairs = np.flatnonzero(np.bincount(np.concatenate([member_list[index[e]] for e in kept_entries]),
                                            minlength=n_pairs))
    position = np.zeros(n_pairs, dtype=np.int64)
    position[used] = np.arange(len(used))
    return defeat_set, sets, frozenset(map(tuples.__getitem__, position[kept_pairs].tolist()))


def _edge_sets(per_attack: np.ndarray, groups: np.ndarray, appear: list, members: list):
    """Each defeated edge's set (``groups``: the edge of each attack, sorted): its attacks' one set,
    or, for an edge whose attacks have several, their union (appended to ``appear`` and ``members``
    as a new set, once per distinct union).  Returns the edges' first attacks and their sets."""
    group_start = np.concatenate([[0], np.flatnonzero(groups[1:] != groups[:-1]) + 1])
    low = np.minimum.reduceat(per_attack, group_start)
    high = np.maximum.reduceat(per_attack, group_start)
    chosen = low.copy()
    member_of = dict(zip(appear, members))
    unions: dict[tuple, int] = {}
    next_entry = max(appear) + 1 if appear else 0
    for g in np.flatnonzero(low != high).tolist():
        stop = group_start[g + 1] if g + 1 < len(group_start) else len(groups)
        parts = tuple(sorted(set(per_attack[group_start[g]:stop].tolist())))
        if parts not in unions:
            unions[parts] = next_entry + len(unions)
            appear.append(unions[parts])
            members.append(unique(np.concatenate([member_of[p] for p in parts])))
        chosen[g] = unions[parts]
    return group_start, chosen
