"""Explicit attack edges merged into the derived ones, column-wise: the speed machinery of
:func:`symbolic.engine.attacks.derive_attacks`, behind one function, :func:`merge_explicit`.

An explicit edge ``(source, target, kind, lic)`` stands for every attack of an argument with top
rule (or fact) ``source`` on each argument its ``target`` reaches (:func:`symbolic.engine.attacks.reach`,
where Definition 2 says what that is).  The work is done once per distinct source and per distinct
``(target, kind)``; the expansion, de-duplication and merge are numpy operations, so a million
explicit edges cost about as much as a derived framework of that size.
"""

from __future__ import annotations

import numpy as np

from symbolic.scenario.labels import AttackKind

__all__ = ["merge_explicit"]

_KIND_CODE = {AttackKind.REBUT: 0, AttackKind.UNDERCUT: 1, AttackKind.UNDERMINE: 2}
COLUMNS = ("attacker", "target", "on", "lic", "defeat", "kind", "shape", "explicit")
#: The ``lic`` code of a row that names no licensing rule (its source rule licenses it).
_DEFAULT_LIC = -2


def _parts(theory) -> list[tuple]:
    """``(sources, targets, kinds, lics)`` of each block of explicit edges: the list, then the table.

    ``kinds`` is one :class:`~symbolic.scenario.labels.AttackKind` for every row or one
    per row; ``lics`` is ``None`` when no row of the block names a licensing rule.
    """
    parts = []
    edges = theory.attacks
    if edges:
        lics = tuple(e.lic for e in edges)
        parts.append((tuple(e.source for e in edges), tuple(e.target for e in edges),
                      tuple(e.kind for e in edges), lics if any(x is not None for x in lics) else None))
    table = theory.attack_table
    if table is not None and len(table):
        parts.append((table.source, table.target, table.kind, table.lic))
    return parts


def _codes(columns, known: dict | None = None) -> tuple[np.ndarray, list]:
    """The integer code of each value of ``columns`` laid end to end, and the values the codes stand for.

    With ``known`` (value -> code, dense from 0) every value is looked up in it;
    if one is missing, or without ``known``, the distinct values are collected
    (first-seen order) and coded by position.
    """
    if known:
        try:
            return np.array([known[v] for column in columns for v in column], dtype=np.int32), list(known)
        except KeyError:
            pass
    number: dict = {}
    codes = [number.setdefault(v, len(number)) for column in columns for v in column]
    return np.array(codes, dtype=np.int32), list(number)


def _kind_codes(kinds, n: int) -> np.ndarray:
    """The code of each row's kind: ``kinds`` is one kind for every row or one per row."""
    if not isinstance(kinds, (tuple, list)):
        return np.full(n, _KIND_CODE[kinds], dtype=np.int8)
    if n and kinds.count(kinds[0]) == n:  # all one kind (checked at C speed)
        return np.full(n, _KIND_CODE[kinds[0]], dtype=np.int8)
    return np.fromiter(map(_KIND_CODE.__getitem__, kinds), dtype=np.int8, count=n)


def _lic_codes(lics, n: int, rule_code: dict) -> np.ndarray:
    """The code of each row's licensing rule, :data:`_DEFAULT_LIC` for none (``lics`` ``None``: none at all).

    Raises
    ------
    KeyError
        If a row names a licensing rule that is not a rule of the theory.
    """
    if lics is None:
        return np.full(n, _DEFAULT_LIC, dtype=np.int32)
    lookup = {None: _DEFAULT_LIC, **rule_code}
    return np.fromiter(map(lookup.__getitem__, lics), dtype=np.int32, count=n)


def _rows(theory, rule_code: dict, ids):
    """Integer columns of every explicit edge, list rows before table rows.

    ``ids`` are the theory's fact and rule ids: sources and targets are coded
    by their position there when every one is an id (otherwise by first use).

    Returns
    -------
    tuple
        ``(source codes, distinct sources, target codes, distinct targets,
        kind codes, lic codes or None)``; ``None`` when no row names a
        licensing rule.
    """
    parts = _parts(theory)
    if not parts:
        return None
    ids = dict(zip(ids, range(len(ids))))
    source_code, sources = _codes([p[0] for p in parts], ids)
    target_code, targets = _codes([p[1] for p in parts], ids)
    kind_code = np.concatenate([_kind_codes(p[2], len(p[0])) for p in parts])
    given = None
    if any(p[3] is not None for p in parts):
        given = np.concatenate([_lic_codes(p[3], len(p[0]), rule_code) for p in parts])
    return source_code, sources, target_code, targets, kind_code, given


def _present(codes: np.ndarray, size: int) -> np.ndarray:
    """Whether each code in ``[0, size)`` occurs in ``codes``, as a bool array."""
    seen = np.zeros(size, dtype=bool)
    seen[codes] = True
    return seen


def _csr(lists) -> tuple[np.ndarray, np.ndarray]:
    """Start offsets and sizes of a list of lists laid end to end."""
    sizes = np.array([len(x) for x in lists], dtype=np.int64)
    return np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64), sizes


def _expanded(frame, rows, reach, neutralize):
    """Every attack the explicit edges stand for, in edge order, then attacker, then target."""
    source_code, distinct_sources, target_code, distinct_targets, kind_of, given = rows
    index = frame.index
    n = len(source_code)
    attackers = [index.by_top.get(s, ()) for s in distinct_sources]
    rule_code = frame.rule_code
    lic_code = np.array([rule_code.get(s, -1) for s in distinct_sources], dtype=np.int32)[source_code]
    if given is not None:  # a given lic overrides the source rule
        lic_code = np.where(given == _DEFAULT_LIC, lic_code, given)
    # Each distinct (target, kind) pair is reached once; pairs are numbered densely in sorted order.
    kinds = np.flatnonzero(np.bincount(kind_of, minlength=3))
    if len(kinds) == 1:  # one kind: the pairs are the targets
        pairs = np.arange(len(distinct_targets)) * 3 + int(kinds[0])
        reach_code = target_code
    else:
        present = np.zeros(3 * len(distinct_targets), dtype=bool)
        pair_key = target_code * 3 + kind_of.astype(np.int32)
        present[pair_key] = True
        pairs = np.flatnonzero(present)
        reach_code = (np.cumsum(present, dtype=np.int32) - 1)[pair_key]
    by_code = {v: k for k, v in _KIND_CODE.items()}
    pair_used = _present(reach_code, len(pairs))  # with targets coded as ids, some pairs are not used
    reached = [reach(distinct_targets[p // 3], by_code[p % 3]) if used else []
               for p, used in zip(pairs.tolist(), pair_used.tolist())]
    a_off, a_size = _csr(attackers)
    r_off, r_size = _csr(reached)
    a_flat = np.fromiter((a for group in attackers for a in group), dtype=np.int32, count=int(a_size.sum()))
    r_flat = [(t, on, shape) for group in reached for t, on, shape, _ in group]
    r_rules = [rules for group in reached for *_, rules in group]
    r_cols = np.array(r_flat, dtype=np.int32).reshape(len(r_flat), 3).T.copy()
    per_edge = a_size[source_code] * r_size[reach_code]  # the attacks each edge stands for
    total = int(per_edge.sum())
    edge = np.repeat(np.arange(n), per_edge)
    within = np.arange(total) - np.repeat(np.cumsum(per_edge) - per_edge, per_edge)
    width = np.maximum(r_size[reach_code][edge], 1)
    attacker = a_flat[a_off[source_code[edge]] + within // width]
    reach_row = r_off[reach_code[edge]] + within % width
    kind_code, lic = kind_of[edge], lic_code[edge]
    target, on, shape = r_cols[0][reach_row], r_cols[1][reach_row], r_cols[2].astype(np.int8)[reach_row]
    defeat = np.full(total, -1, dtype=np.int32)
    beatable = [rule_code[r] for r in frame.target_rules.stronger_than if r in rule_code]
    if beatable and total:
        records = np.flatnonzero(_member(lic, np.array(beatable, dtype=np.int64)))
        if len(records):
            memo: dict[tuple[int, int], int] = {}
            for i in records.tolist():
                row, name = int(reach_row[i]), frame.rule_ids[int(lic[i])]
                key = (row, int(lic[i]))
                if key not in memo:
                    rules = r_rules[row]
                    if rules is None:
                        rules = frame.target_rules.of_undermine(index.ids[int(r_cols[0, row])],
                                                                 frame.fact_ids[int(r_cols[1, row])])
                    memo[key] = neutralize(rules, name)
                defeat[i] = memo[key]
    return {"attacker": attacker, "target": target, "on": on, "shape": shape, "kind": kind_code, "lic": lic,
            "defeat": defeat}


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

    The columns are combined one at a time (mixed radix, each shifted to start
    at 0; a column with one value throughout is left out); the partial key is
    re-numbered densely whenever the next column could overflow 62 bits.
    """
    sizes = [len(p["attacker"]) for p in parts]
    ids, bound = np.zeros(sum(sizes), dtype=np.int64), 1
    for name in _KEY:
        pieces = [p[name] for p in parts if len(p[name])]
        if not pieces:
            continue
        column = np.concatenate(pieces) if len(pieces) > 1 else pieces[0]
        low, high = int(column.min()), int(column.max())
        if low == high:
            continue
        width = high - low + 1
        if bound * width >= 1 << 62:  # renumber before the combined key could overflow
            ids = np.unique(ids, return_inverse=True)[1].reshape(-1)
            bound = int(ids.max(initial=0)) + 1
        ids *= width
        ids += column
        if low:
            ids -= low
        bound *= width
    return np.split(ids, np.cumsum(sizes)[:-1])


def _first_rows(key: np.ndarray) -> np.ndarray | None:
    """The rows holding the first occurrence of each value of ``key``, in row order; ``None`` when
    every value occurs once (the common case)."""
    _, first = np.unique(key, return_index=True)
    return None if len(first) == len(key) else np.sort(first)


def merge_explicit(frame, columns: dict[str, np.ndarray], reach, neutralize) -> dict[str, np.ndarray]:
    """Merge the explicit edges of ``frame.theory`` into the derived attack ``columns``.

    A derived attack that an explicit edge also names is marked ``explicit`` (keeping its derived
    neutralization); every other attack an edge stands for is appended once, in edge order.

    Parameters
    ----------
    frame : symbolic.engine.attacks.Frame
        The theory, its argument index and ``targetRules``.
    columns : dict of str to numpy.ndarray
        The derived attacks.
    reach : callable
        ``reach(target, kind)``: what an edge attacks (:func:`symbolic.engine.attacks.reach`).
    neutralize : callable
        ``neutralize(rules, lic)``: the numbered pair neutralizing an attack, or -1
        (:func:`symbolic.engine.attacks.neutralizer`).

    Returns
    -------
    dict of str to numpy.ndarray
        The merged columns.

    Raises
    ------
    KeyError
        If an edge's licensing rule is not a rule of the theory.
    """
    rows = _rows(frame.theory, frame.rule_code, frame.fact_ids + frame.rule_ids)
    if rows is None:
        return columns
    extra = _expanded(frame, rows, reach, neutralize)
    new_key, old_key = _group_ids([extra, columns])
    first = _first_rows(new_key)
    unique_key = new_key if first is None else new_key[first]
    keep = first
    named = _member(old_key, unique_key) if len(old_key) else np.zeros(0, dtype=bool)
    columns = dict(columns)
    columns["explicit"] = columns["explicit"] | named
    if named.any():
        fresh = ~_member(unique_key, old_key[named])
        keep = np.flatnonzero(fresh) if first is None else first[fresh]
    appended = {name: extra[name] if keep is None else extra[name][keep]
                for name in ("attacker", "target", "on", "lic", "defeat", "kind", "shape")}
    appended["explicit"] = np.ones(len(appended["attacker"]), dtype=bool)
    if not len(columns["attacker"]):
        return {name: appended[name].astype(columns[name].dtype, copy=False) for name in COLUMNS}
    return {name: np.concatenate([columns[name], appended[name].astype(columns[name].dtype)]) for name in COLUMNS}
