"""Defeat sets of a trace's attack edges (Definition 4, docs/performance.md "Defeat sets").

A defeated attack edge's defeat set is the union over its attacks of the pairs of ``P+`` that
neutralize them (:meth:`symbolic.engine.target_rules.NeutralizingPairs.pairs`, the one definition
:func:`symbolic.traces.trace.neutralizers` reads too), named by their priority node ids, sorted.
The pairs of an attack depend only on its ``targetRules`` class, ``lic`` and engine pair, so they
are looked up once per distinct combination (at the peer size, 590 k defeated attacks fall into a
few thousand).
"""

from __future__ import annotations

import hashlib

import numpy as np

from symbolic.engine.results import AttackTable, Evaluation
from symbolic.engine.target_rules import NeutralizingPairs
from symbolic.traces.naming import Namer

__all__ = ["defeat_set_id", "defeat_sets"]


def defeat_set_id(priorities) -> str:
    """The id of a defeat set: ``defeats:`` and 12 hex of the sha256 of its sorted priority ids.

    >>> defeat_set_id(["priority:(b=>¬p)>(a=>p)"])[:8]
    'defeats:'
    """
    return "defeats:" + hashlib.sha256("\n".join(sorted(priorities)).encode("utf-8")).hexdigest()[:12]


def _classes(rules: NeutralizingPairs, table: AttackTable, rows: np.ndarray) -> tuple[np.ndarray, list]:
    """The ``targetRules`` class of each attack at ``rows`` (:meth:`NeutralizingPairs.target_class`)
    as an index into the returned ``(on, attacked argument)`` of one attack per class."""
    names = (table.argument_ids, table.rule_ids, table.fact_ids)
    shape, on, target = (table.shape[rows].astype(np.int64), table.on[rows].astype(np.int64),
                         table.target[rows].astype(np.int64))
    place = shape * (1 + max(len(n) for n in names)) + on
    _, first, where = np.unique(place, return_index=True, return_inverse=True)
    where = where.reshape(-1)
    keys = [rules.target_class(names[k][o], "") for k, o in zip(shape[first].tolist(), on[first].tolist())]
    # an undermine's targetRules depends on the attacked argument too: its class is (place, target)
    needs = np.array([key[0] == 1 for key in keys], dtype=bool)
    sub = np.where(needs[where], target, -1)
    _, first, cls = np.unique(where * (len(table.argument_ids) + 1) + sub + 1, return_index=True,
                              return_inverse=True)
    codes: dict[tuple, int] = {}
    example: list[tuple[str, str]] = []
    remap = []
    for row in first.tolist():
        key = keys[where[row]]
        on_id, target_id = names[shape[row]][on[row]], table.argument_ids[target[row]]
        if key[0] == 1:
            key = rules.target_class(on_id, target_id)
        if key not in codes:
            codes[key] = len(example)
            example.append((on_id, target_id))
        remap.append(codes[key])
    return np.asarray(remap, dtype=np.int64)[cls.reshape(-1)], example


def defeat_sets(evaluation: Evaluation, namer: Namer, table: AttackTable, order: np.ndarray,
                group: np.ndarray | None, active: np.ndarray):
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
        Whether each edge is active (then every attack of a defeated edge is defeated).

    Returns
    -------
    defeat_set : numpy.ndarray of int64
        Per edge, the index of its set in ``sets``, -1 for an active edge.
    sets : tuple of tuple of str
        The sets some edge has, each its sorted priority node ids, in the order first used.
    pairs : frozenset of (str, str)
        Every pair of ``P+`` (or engine pair) in one of the sets.
    """
    defeat_set = np.full(len(active), -1, dtype=np.int64)
    edge_of = np.arange(len(order)) if group is None else group
    positions = np.flatnonzero(~active[edge_of])
    if not len(positions):
        return defeat_set, (), frozenset()
    rules = NeutralizingPairs.of(evaluation)
    rows = order[positions]
    cls, example = _classes(rules, table, rows)
    n_lic, n_defeat = len(table.rule_ids) + 1, len(table.defeats) + 1
    combos, index = np.unique((cls * n_lic + table.lic[rows] + 1) * n_defeat + table.defeat[rows] + 1,
                              return_inverse=True)
    index = index.reshape(-1)
    combos = zip((combos // (n_lic * n_defeat)).tolist(), (combos // n_defeat % n_lic - 1).tolist(),
                 (combos % n_defeat - 1).tolist())
    named: dict[frozenset, int] = {}
    sets: list[tuple[str, ...]] = []
    used: set[tuple[str, str]] = set()
    base: dict[tuple[int, int], frozenset] = {}
    set_of: dict[frozenset, int] = {}

    def number(pairs: frozenset) -> int:
        at = set_of.get(pairs)
        if at is None:
            ids = frozenset(namer.priority_id(s, w) for s, w in pairs)
            at = named.get(ids)
            if at is None:
                at = named[ids] = len(sets)
                sets.append(tuple(sorted(ids)))
            set_of[pairs] = at
            used.update(pairs)
        return at

    found: list[frozenset] = []
    for c, lic, defeat in combos:
        if lic < 0:  # a fact attacker is never neutralized (Definition 4)
            found.append(frozenset())
            continue
        pairs = base.get((c, lic))
        if pairs is None:  # every (t, lic) of P+ with t in targetRules
            pairs = base[(c, lic)] = rules.pairs(*example[c], table.rule_ids[lic], None)
        engine = tuple(table.defeats[defeat]) if defeat >= 0 else None
        found.append(pairs if engine is None or engine in pairs else pairs | {engine})
    edges = edge_of[positions]
    starts = np.flatnonzero(np.r_[True, edges[1:] != edges[:-1]])  # the attacks of one edge are adjacent
    low, high = np.minimum.reduceat(index, starts), np.maximum.reduceat(index, starts)
    chosen = np.empty(len(starts), dtype=np.int64)
    single = low == high  # the usual edge: its attacks share one group
    used_groups, at = np.unique(low[single], return_inverse=True)
    numbered = np.array([number(found[g]) for g in used_groups.tolist()], dtype=np.int64)
    chosen[single] = numbered[at.reshape(-1)]
    ends = np.r_[starts[1:], len(edges)]
    unions: dict[tuple, int] = {}
    for k in np.flatnonzero(~single).tolist():  # an edge of attacks of several groups: the union of their sets
        members = tuple(sorted(set(index[starts[k]:ends[k]].tolist())))
        if members not in unions:
            unions[members] = number(frozenset().union(*(found[m] for m in members)))
        chosen[k] = unions[members]
    defeat_set[edges[starts]] = chosen
    return defeat_set, tuple(sets), frozenset(used)
