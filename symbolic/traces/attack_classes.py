"""Classes of defeated attacks: the attacks that share ``targetRules`` and ``lic`` (Definition 4).

An attack's class is what it is on (for a rebut of a sub-argument, its conclusion, unless the
argument's id is also a rule's or a fact's; the rule of an undercut; the fact of an undermine,
with the attacked argument) and its licensing rule; its *sub-class* adds the engine's
``defeated_by`` pair.  :mod:`symbolic.traces.defeat_sets` computes one set per sub-class.

Two ways to find the sub-classes, with the same result: :func:`by_engine_pair`, for the usual
case where every engine pair neutralizes attacks of one class only (a derived rebut's pair
``(t, lic)`` fixes both its conclusion and ``lic``), computes the class key of every defeated
attack with numpy (:func:`pair_keys`) and sorts only the engine pairs; :func:`by_sorting` sorts the attacks
by their full key.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from symbolic.engine.attack_table import SHAPE_FACT, SHAPE_RULE, AttackTable
from symbolic.engine.results import Evaluation
from symbolic.support.sorted_keys import distinct, sort_order

__all__ = ["ClassKeys", "SubClasses", "by_engine_pair", "by_sorting", "class_keys", "pair_keys"]

_KEY_LIMIT = 1 << 62  # class keys stay below this bound on the by_engine_pair path


class ClassKeys(NamedTuple):
    """How an attack's class key is computed from its columns.

    ``on_class[offset[shape] + on]`` numbers what the attack is on (``on_span`` values); the key
    is ``(that * (n_rules + 1) + lic + 1) * attacked_span + attacked``, where ``attacked`` is
    ``target + 1`` for an undermine and 0 otherwise (``attacked_span`` is 1 when no attack is an
    undermine).
    """

    on_class: np.ndarray
    offset: np.ndarray
    on_span: int
    lic_span: int
    attacked_span: int


class SubClasses(NamedTuple):
    """The sub-classes of the defeated attacks, sorted by class key, then by engine pair.

    Attributes
    ----------
    first : numpy.ndarray of int
        An attack (table row) of each sub-class.
    class_start : numpy.ndarray of int
        The first sub-class of each class.
    class_of : numpy.ndarray of int
        Each sub-class's class.
    per_row : numpy.ndarray of int or None
        :func:`by_sorting`: each given row's sub-class.
    pair_sub : numpy.ndarray of int or None
        :func:`by_engine_pair`: each engine pair's sub-class (-1 for none), and -1 once more at
        the end (for an active attack's ``defeat`` of -1).
    """

    first: np.ndarray
    class_start: np.ndarray
    class_of: np.ndarray
    per_row: np.ndarray | None
    pair_sub: np.ndarray | None


def class_keys(evaluation: Evaluation, table: AttackTable) -> ClassKeys:
    """The :class:`ClassKeys` of a table's attacks."""
    n_args, n_rules, n_facts = len(table.argument_ids), len(table.rule_ids), len(table.fact_ids)
    special = set(table.rule_ids) | set(table.fact_ids)
    literal_code: dict[str, int] = {}
    if special.isdisjoint(table.argument_ids):
        conclusion = [literal_code.setdefault(a.conclusion, len(literal_code)) for a in evaluation.arguments]
    else:
        conclusion = [literal_code.setdefault(a.conclusion, len(literal_code)) if a.id not in special else -1
                      for a in evaluation.arguments]
    n_literals = len(literal_code)
    on_class = np.arange(n_literals, n_literals + n_args + n_rules + n_facts, dtype=np.int64)
    if n_args:
        codes = np.array(conclusion, dtype=np.int64)
        on_class[:n_args] = np.where(codes >= 0, codes, on_class[:n_args])
    offset = np.zeros(3, dtype=np.int64)
    offset[SHAPE_RULE], offset[SHAPE_FACT] = n_args, n_args + n_rules
    attacked_span = n_args + 2 if bool((table.shape == SHAPE_FACT).any()) else 1
    return ClassKeys(on_class, offset, n_literals + len(on_class), n_rules + 1, attacked_span)


def _new_class(cls: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Starts of the runs of a sorted class array, and each position's run."""
    new = np.empty(len(cls), dtype=bool)
    new[:1] = True
    np.not_equal(cls[1:], cls[:-1], out=new[1:])
    return np.flatnonzero(new), np.cumsum(new) - 1


def by_engine_pair(keys: ClassKeys, table: AttackTable) -> SubClasses | None:
    """The sub-classes of every defeated attack of ``table``, when each engine pair is in one class.

    Returns
    -------
    SubClasses or None
        None when some engine pair neutralizes attacks of two classes (or the class keys are
        too wide); :func:`by_sorting` then applies.
    """
    n_pairs = len(table.defeats)
    span = keys.on_span * keys.lic_span * keys.attacked_span
    if not n_pairs or span >= _KEY_LIMIT:
        return None
    found = pair_keys(keys, table)
    if found is None:
        return None
    key_of, row_of = found
    used = np.flatnonzero(key_of >= 0)
    classes, _, cls = distinct(key_of[used], span)
    order, _ = sort_order(cls * n_pairs + used, len(classes) * n_pairs)
    class_start, class_of = _new_class(cls[order])
    pair_sub = np.full(n_pairs + 1, -1, dtype=np.int64)
    pair_sub[used[order]] = np.arange(len(order))
    return SubClasses(row_of[used[order]], class_start, class_of, None, pair_sub)


def pair_keys(keys: ClassKeys, table: AttackTable) -> tuple[np.ndarray, np.ndarray] | None:
    """The class key of each engine pair's attacks, and the first attack (table row) of each pair.

    Returns
    -------
    (key_of, row_of) or None
        Per engine pair, the class key of the attacks it neutralizes (-1 for a pair that
        neutralizes none) and its first attack; None when two attacks of one pair differ in
        their class key.

    Examples
    --------
    >>> import numpy as np
    >>> from types import SimpleNamespace
    >>> keys = ClassKeys(np.arange(4), np.array([0, 2, 3]), 4, 3, 1)
    >>> table = SimpleNamespace(defeats=((0, 1), (1, 0)), defeat=np.array([1, -1, 1]),
    ...                         shape=np.zeros(3, dtype=np.int8), on=np.array([1, 0, 1]),
    ...                         lic=np.array([0, 0, 0]), target=np.array([1, 0, 1]))
    >>> [x.tolist() for x in pair_keys(keys, table)]
    [[-1, 4], [0, 0]]
    """
    n_pairs = len(table.defeats)
    rows = np.flatnonzero(table.defeat >= 0)
    pair = table.defeat[rows].astype(np.int64)
    shape = table.shape[rows]
    key = keys.on_class[keys.offset[shape] + table.on[rows]] * keys.lic_span + table.lic[rows] + 1
    if keys.attacked_span > 1:
        key = key * keys.attacked_span + np.where(shape == SHAPE_FACT, table.target[rows].astype(np.int64) + 1, 0)
    key_of = np.full(n_pairs, -1, dtype=np.int64)
    row_of = np.zeros(n_pairs, dtype=np.int64)
    used, first = np.unique(pair, return_index=True)  # the first attack of each pair
    key_of[used], row_of[used] = key[first], rows[first]
    if not np.array_equal(key, key_of[pair]):
        return None
    return key_of, row_of


def _dense(values: np.ndarray, size: int) -> tuple[np.ndarray, int]:
    """``values`` (in ``[0, size)``) renumbered by rank among the values present, and how many are."""
    present = np.bincount(values, minlength=size) > 0
    rank = np.cumsum(present) - 1
    return rank[values], int(rank[-1]) + 1 if size else 0


def by_sorting(keys: ClassKeys, table: AttackTable, rows: np.ndarray) -> SubClasses:
    """The sub-classes of the attacks ``rows`` (all defeated), by sorting their keys."""
    shape = table.shape[rows]
    at = keys.offset[shape]
    at += table.on[rows]
    key, n_on = _dense(keys.on_class[at], keys.on_span)
    del at
    lic, n_lic = _dense(table.lic[rows] + 1, keys.lic_span)
    key *= n_lic
    key += lic
    del lic
    span = n_on * n_lic
    on_fact = np.flatnonzero(shape == SHAPE_FACT)
    del shape
    if len(on_fact):  # an undermine's class is also its attacked argument
        attacked = np.zeros(len(rows), dtype=np.int64)
        attacked[on_fact] = table.target[rows[on_fact]] + 1
        attacked, n_attacked = _dense(attacked, keys.attacked_span)
        key *= n_attacked
        key += attacked
        span *= n_attacked
        del attacked
    n_pairs = len(table.defeats)
    key *= n_pairs
    key += table.defeat[rows]
    subclass, first_at, per_row = distinct(key, span * n_pairs)
    del key
    class_start, class_of = _new_class(subclass // n_pairs)
    return SubClasses(rows[first_at], class_start, class_of, per_row, None)
