"""Columnar storage of attacks: a lazy, read-only sequence of :class:`Attack`.

Large theories have millions of attacks (Definition 2); storing them as
Python objects costs about a microsecond and a hundred bytes each.  An
:class:`AttackTable` keeps one numpy column per field and builds an
:class:`~symbolic.engine.results.Attack` only when one is accessed, while the
labelling (:mod:`symbolic.engine.labelling`) reads the integer columns directly.
"""

from __future__ import annotations

from typing import Iterator, Sequence, overload

import numpy as np

from symbolic.scenario.labels import AttackKind
from symbolic.engine.results import Attack

__all__ = ["AttackTable", "KINDS", "SHAPE_ARGUMENT", "SHAPE_FACT", "SHAPE_RULE"]

KINDS = (AttackKind.REBUT, AttackKind.UNDERCUT, AttackKind.UNDERMINE)
SHAPE_ARGUMENT, SHAPE_RULE, SHAPE_FACT = 0, 1, 2


class AttackTable(Sequence[Attack]):
    """A read-only sequence of attacks stored as integer columns.

    Parameters
    ----------
    argument_ids : tuple of str
        Names of the argument indices used by ``attacker``, ``target`` and
        ``on`` (when ``shape`` is :data:`SHAPE_ARGUMENT`).
    rule_ids, fact_ids : tuple of str
        Names of the rule indices (``lic``, ``on`` for :data:`SHAPE_RULE`) and of
        the fact indices (``on`` for :data:`SHAPE_FACT`).
    defeats : tuple of (str, str)
        The ``(stronger, weaker)`` pairs that ``defeat`` indexes.
    columns : dict of str to numpy.ndarray
        ``attacker``, ``target``, ``on``, ``lic`` (-1 for none) and ``defeat``
        (-1 for active) as int32; ``kind`` (index into :data:`KINDS`) and
        ``shape`` as int8; ``explicit`` as bool.  All of one length.

    Examples
    --------
    >>> cols = {"attacker": [0], "target": [1], "on": [1], "lic": [0], "defeat": [-1],
    ...         "kind": [0], "shape": [0], "explicit": [False]}
    >>> table = AttackTable(("A1", "A2"), ("r1",), (), (), cols)
    >>> len(table), table[0]
    (1, Attack(attacker='A1', target='A2', kind=<AttackKind.REBUT: 'rebut'>, on='A2', lic='r1', explicit=False, defeated_by=None))
    """

    __slots__ = ("argument_ids", "rule_ids", "fact_ids", "defeats", "attacker", "target", "on",
                 "lic", "defeat", "kind", "shape", "explicit")

    _INT32 = ("attacker", "target", "on", "lic", "defeat")
    _COLUMNS = ("attacker", "target", "on", "lic", "defeat", "kind", "shape", "explicit")

    def __init__(self, argument_ids, rule_ids, fact_ids, defeats, columns):
        self.argument_ids = tuple(argument_ids)
        self.rule_ids = tuple(rule_ids)
        self.fact_ids = tuple(fact_ids)
        self.defeats = tuple(defeats)
        for name in self._INT32:
            setattr(self, name, np.asarray(columns[name], dtype=np.int32))
        self.kind = np.asarray(columns["kind"], dtype=np.int8)
        self.shape = np.asarray(columns["shape"], dtype=np.int8)
        self.explicit = np.asarray(columns["explicit"], dtype=bool)
        lengths = {len(getattr(self, name)) for name in self._COLUMNS}
        if len(lengths) != 1:
            raise ValueError(f"attack columns have different lengths: {sorted(lengths)}")

    def __len__(self) -> int:
        return len(self.attacker)

    def _make(self, i: int) -> Attack:
        shape = self.shape[i]
        names = (self.argument_ids, self.rule_ids, self.fact_ids)[shape]
        lic = int(self.lic[i])
        defeat = int(self.defeat[i])
        return Attack(
            attacker=self.argument_ids[self.attacker[i]],
            target=self.argument_ids[self.target[i]],
            kind=KINDS[self.kind[i]],
            on=names[self.on[i]],
            lic=None if lic < 0 else self.rule_ids[lic],
            explicit=bool(self.explicit[i]),
            defeated_by=None if defeat < 0 else self.defeats[defeat],
        )

    @overload
    def __getitem__(self, index: int) -> Attack: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[Attack, ...]: ...

    def _rows(self, start: int, stop: int, step: int = 1) -> Iterator[Attack]:
        """Materialize a range of rows from Python lists (much faster than per-item numpy access)."""
        cut = slice(start, stop, step)
        names = (self.argument_ids, self.rule_ids, self.fact_ids)
        args, rules, defeats = self.argument_ids, self.rule_ids, self.defeats
        columns = [getattr(self, c)[cut].tolist()
                   for c in ("attacker", "target", "kind", "shape", "on", "lic", "explicit", "defeat")]
        for attacker, target, kind, shape, on, lic, explicit, defeat in zip(*columns):
            yield Attack(args[attacker], args[target], KINDS[kind], names[shape][on],
                         None if lic < 0 else rules[lic], explicit, None if defeat < 0 else defeats[defeat])

    def __getitem__(self, index):
        if isinstance(index, slice):
            start, stop, step = index.indices(len(self))
            return tuple(self._rows(start, stop, step))
        n = len(self)
        i = index.__index__()
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError(f"attack index {index} out of range for {n} attacks")
        return self._make(i)

    def __iter__(self) -> Iterator[Attack]:
        chunk = 1 << 14
        for start in range(0, len(self), chunk):
            yield from self._rows(start, min(start + chunk, len(self)))

    def __eq__(self, other) -> bool:
        """Equal to another table holding the same attacks in the same order."""
        if not isinstance(other, AttackTable):
            return NotImplemented
        if len(self) != len(other):
            return False
        if (self.argument_ids, self.rule_ids, self.fact_ids, self.defeats) == (
                other.argument_ids, other.rule_ids, other.fact_ids, other.defeats):
            return all(np.array_equal(getattr(self, c), getattr(other, c)) for c in self._COLUMNS)
        return tuple(self) == tuple(other)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        active = int(np.count_nonzero(self.defeat < 0))
        return f"AttackTable({len(self)} attacks, {active} active, {len(self.argument_ids)} arguments)"

    def active_pairs(self) -> tuple[np.ndarray, np.ndarray]:
        """``(attacker, target)`` index arrays of the active attacks."""
        mask = self.defeat < 0
        if mask.all():
            return self.attacker, self.target
        return self.attacker[mask], self.target[mask]

    def to_tuple(self) -> tuple[Attack, ...]:
        """Materialize every attack (about a microsecond and 150 bytes each)."""
        return self[:]
