"""Explicit attack edges merged into the derived ones, column-wise (Definition 2,
docs/semantics.md section 4).

An explicit edge ``(source, target, kind, lic)`` stands for every attack of an
argument with top rule (or fact) ``source`` on each argument its ``target``
reaches: a rule (rebut: the conclusions it draws, Definition 4's team
reading; otherwise every argument using it), a fact (every argument with that
premise) or a literal (every argument concluding it, and its super-arguments).
Edges come from :attr:`~symbolic.grounding.Theory.attacks` and from the
columns of :attr:`~symbolic.grounding.Theory.attack_table`; the work is done
once per distinct source and per distinct ``(target, kind)``, and the
expansion into attacks, the de-duplication and the merge with the derived
attacks are numpy operations, so an abstract framework of a million explicit
edges costs about as much as a derived one.
"""

from __future__ import annotations

import numpy as np

from .attack_list import AttackList
from .attack_table import SHAPE_ARGUMENT, SHAPE_FACT, SHAPE_RULE
from .labels import AttackKind
from .literals import normalize_literal

__all__ = ["merge_explicit"]

_KIND_CODE = {AttackKind.REBUT: 0, AttackKind.UNDERCUT: 1, AttackKind.UNDERMINE: 2}
COLUMNS = ("attacker", "target", "on", "lic", "defeat", "kind", "shape", "explicit")


def _rows(theory):
    """``(sources, targets, kinds, lics)`` of every explicit edge, edges before table rows.

    ``lics`` is ``None`` when no edge names its licensing rule.
    """
    edges = theory.attacks
    if isinstance(edges, AttackList):  # a long list, kept as columns
        sources, targets, kinds, lics = list(edges.source), list(edges.target), list(edges.kind), list(edges.lics())
        given = edges.lic is not None
    else:
        sources = [e.source for e in edges]
        targets = [e.target for e in edges]
        kinds = [e.kind for e in edges]
        lics = [e.lic for e in edges]
        given = any(x is not None for x in lics)
    table = theory.attack_table
    if table is not None and len(table):
        sources += table.source
        targets += table.target
        kinds += table.kinds()
        lics += table.lics()
        given = given or table.lic is not None
    return sources, targets, kinds, lics if given else None


def _reach(builder, target: str, kind: AttackKind) -> list[tuple[int, int, int, object]]:
    """``(attacked argument, on, shape, targetRules or None)`` of an edge on ``target`` (Definition 2)."""
    index = builder.index
    if target in builder.rule_code and kind is AttackKind.REBUT:
        # A rebut of rule rK attacks the conclusions rK draws: the same team
        # reading of targetRules as a derived rebut (Definition 4).
        return [(t, sub, SHAPE_ARGUMENT, builder.rebut_rules(sub))
                for sub in index.by_top.get(target, ()) if builder.rebuttable(sub)
                for t in index.containers[sub]]
    if target in builder.rule_code:
        on = builder.rule_code[target]
        return [(t, on, SHAPE_RULE, [target]) for t in index.users.get(target, ())]
    if target in builder.fact_code:
        on = builder.fact_code[target]
        return [(t, on, SHAPE_FACT, None) for t in index.premise_users.get(target, ())]
    literal = normalize_literal(target)
    # Only a sub-argument with a defeasible or defeater top rule can be rebutted;
    # other kinds of edge on a conclusion hit every one.
    return [(t, sub, SHAPE_ARGUMENT, builder.rebut_rules(sub))
            for sub in index.by_conclusion.get(literal, ())
            if kind is not AttackKind.REBUT or builder.rebuttable(sub)
            for t in index.containers[sub]]


def _codes(values) -> tuple[np.ndarray, list]:
    """Integer code of each value (first-seen order) and the distinct values."""
    distinct = list(dict.fromkeys(values))
    position = {v: i for i, v in enumerate(distinct)}
    return np.fromiter(map(position.__getitem__, values), dtype=np.int64, count=len(values)), distinct


def _kind_codes(kinds) -> np.ndarray:
    """The code of each kind, matched by identity (an enum member's hash is a Python call per row)."""
    ids = np.fromiter(map(id, kinds), dtype=np.int64, count=len(kinds))
    codes = np.full(len(kinds), -1, dtype=np.int64)
    for kind, code in _KIND_CODE.items():
        codes[ids == id(kind)] = code
    if (codes < 0).any():  # not the members themselves (e.g. strings): look each one up
        return np.fromiter(map(_KIND_CODE.__getitem__, kinds), dtype=np.int64, count=len(kinds))
    return codes


def _csr(lists) -> tuple[np.ndarray, np.ndarray]:
    """Start offsets and sizes of a list of lists laid end to end."""
    sizes = np.array([len(x) for x in lists], dtype=np.int64)
    return np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64), sizes


def _expanded(builder, sources, targets, kinds, lics):
    """Every attack the explicit edges stand for, in edge order, then attacker, then target."""
    index = builder.index
    source_code, distinct_sources = _codes(sources)
    attackers = [index.by_top.get(s, ()) for s in distinct_sources]
    rule_code = builder.rule_code
    lic_code = np.array([rule_code.get(s, -1) for s in distinct_sources], dtype=np.int64)[source_code]
    if lics is not None:  # a given lic overrides the source rule
        given = np.fromiter((-2 if x is None else rule_code[x] for x in lics), dtype=np.int64, count=len(lics))
        lic_code = np.where(given == -2, lic_code, given)
    target_code, distinct_targets = _codes(targets)
    kind_of = _kind_codes(kinds)
    pairs, reach_code = np.unique(target_code * 3 + kind_of, return_inverse=True)
    reach_code = reach_code.reshape(-1)
    by_code = {v: k for k, v in _KIND_CODE.items()}
    reached = [_reach(builder, distinct_targets[p // 3], by_code[p % 3]) for p in pairs.tolist()]
    a_off, a_size = _csr(attackers)
    r_off, r_size = _csr(reached)
    a_flat = np.fromiter((a for group in attackers for a in group), dtype=np.int64, count=int(a_size.sum()))
    r_flat = [(t, on, shape) for group in reached for t, on, shape, _ in group]
    r_rules = [rules for group in reached for *_, rules in group]
    r_cols = np.array(r_flat, dtype=np.int64).reshape(len(r_flat), 3)
    per_edge = a_size[source_code] * r_size[reach_code]
    total = int(per_edge.sum())
    if total == len(sources) and bool((per_edge == 1).all()):  # an abstract framework: one attack per edge
        attacker, reach_row = a_flat[a_off[source_code]], r_off[reach_code]
        kind_code, lic = kind_of, lic_code
    else:
        edge = np.repeat(np.arange(len(sources)), per_edge)
        within = np.arange(total) - np.repeat(np.cumsum(per_edge) - per_edge, per_edge)
        width = r_size[reach_code][edge]
        attacker = a_flat[a_off[source_code[edge]] + within // np.maximum(width, 1)]
        reach_row = r_off[reach_code[edge]] + within % np.maximum(width, 1)
        kind_code = kind_of[edge]
        lic = lic_code[edge]
    defeat = np.full(total, -1, dtype=np.int64)
    beatable = [rule_code[r] for r in builder.stronger_than if r in rule_code]
    if beatable and total:
        records = np.flatnonzero(_member(lic, np.array(beatable, dtype=np.int64)))
        if len(records):
            memo: dict[tuple[int, int], int] = {}
            for i in records.tolist():
                row, name = int(reach_row[i]), builder.rule_ids[int(lic[i])]
                key = (row, int(lic[i]))
                if key not in memo:
                    rules = r_rules[row]
                    if rules is None:
                        rules = builder.depending_rules(int(r_cols[row, 0]), builder.fact_ids[int(r_cols[row, 1])])
                    memo[key] = builder.first_stronger(rules, name)
                defeat[i] = memo[key]
    return {"attacker": attacker, "target": r_cols[reach_row, 0], "on": r_cols[reach_row, 1],
            "shape": r_cols[reach_row, 2], "kind": kind_code, "lic": lic, "defeat": defeat}


def _member(values: np.ndarray, pool: np.ndarray) -> np.ndarray:
    """Whether each of ``values`` is in ``pool`` (binary search; ``np.isin`` hashes huge keys slowly)."""
    if not len(values) or not len(pool):
        return np.zeros(len(values), dtype=bool)
    pool = np.sort(pool)
    where = np.minimum(np.searchsorted(pool, values), len(pool) - 1)
    return pool[where] == values


_KEY = ("attacker", "target", "kind", "shape", "on", "lic")


def _group_ids(parts: list[dict[str, np.ndarray]]) -> list[np.ndarray]:
    """One integer per distinct ``(attacker, target, kind, on, shape, lic)`` across ``parts``.

    The columns are combined one at a time (mixed radix); the partial key is
    re-numbered densely whenever the next column could overflow 63 bits.
    """
    sizes = [len(p["attacker"]) for p in parts]
    ids, bound = np.zeros(sum(sizes), dtype=np.int64), 1
    for name in _KEY:
        column = np.concatenate([p[name].astype(np.int64) for p in parts]) + 1
        width = int(column.max(initial=0)) + 1
        if bound * width >= 1 << 62:  # renumber before the combined key could overflow
            ids = np.unique(ids, return_inverse=True)[1].reshape(-1)
            bound = int(ids.max(initial=0)) + 1
        ids, bound = ids * width + column, bound * width
    return np.split(ids, np.cumsum(sizes)[:-1])


def merge_explicit(builder, columns: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Merge the explicit edges of ``builder.theory`` into the derived attack ``columns``.

    A derived attack that an explicit edge also names is marked ``explicit``
    (keeping its derived neutralization); every other attack an edge stands
    for is appended once, in edge order, neutralized per Definition 4.

    Parameters
    ----------
    builder : symbolic.attacks._Builder
        The attack builder of the theory (indexes, ``targetRules``, ``P+``).
    columns : dict of str to numpy.ndarray
        The derived attacks.

    Returns
    -------
    dict of str to numpy.ndarray
        The merged columns.

    Raises
    ------
    KeyError
        If an edge's licensing rule is not a rule of the theory.
    """
    sources, targets, kinds, lics = _rows(builder.theory)
    if not sources:
        return columns
    extra = _expanded(builder, sources, targets, kinds, lics)
    new_key, old_key = _group_ids([extra, columns])
    _, first = np.unique(new_key, return_index=True)
    first.sort()  # the first occurrence of each attack, in edge order
    unique_key = new_key[first]
    named = _member(old_key, unique_key)
    columns = dict(columns)
    columns["explicit"] = columns["explicit"] | named
    keep = first[~_member(unique_key, old_key[named])] if named.any() else first
    appended = {name: extra[name][keep] for name in ("attacker", "target", "on", "lic", "defeat", "kind", "shape")}
    appended["explicit"] = np.ones(len(keep), dtype=bool)
    return {name: np.concatenate([columns[name], appended[name].astype(columns[name].dtype)]) for name in COLUMNS}
