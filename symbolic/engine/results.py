"""Value types the engine returns (Definitions 1-5): frozen records over string ids.  Large
theories have millions of attacks, so an :class:`AttackTable` keeps one numpy column per field and
builds an :class:`Attack` only when one is read; the labelling reads its integer columns directly.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Iterator, Mapping, Sequence, overload

import numpy as np

from symbolic.engine.grounding import Theory
from symbolic.scenario.labels import AttackKind, Status

__all__ = ["Argument", "Attack", "AttackTable", "Evaluation", "KINDS", "Label", "Labelling", "PriorityOrder",
           "SHAPE_ARGUMENT", "SHAPE_FACT", "SHAPE_RULE"]


class Label(StrEnum):
    """Grounded labels (Algorithm 1)."""

    IN = "IN"
    OUT = "OUT"
    UNDEC = "UNDEC"


@dataclass(frozen=True, slots=True)
class Argument:
    """An argument (Definition 1).

    Attributes
    ----------
    id : str
        Deterministic id (``A1``, ``A2``... in construction order).
    conclusion : str
        The normalized literal it concludes.
    top_rule : str or None
        The rule applied last; ``None`` for a fact argument.
    fact : str or None
        The fact id, for a fact argument.
    subs : tuple of str
        Ids of the immediate sub-arguments, one per antecedent, in order.
    rules : frozenset of str
        Every rule used.
    premises : frozenset of str
        Every fact used.
    defeater : bool
        Whether the top rule is a defeater (the argument never counts as support).
    strict : bool
        Whether every rule used is strict (a fact argument is strict).
    """

    id: str
    conclusion: str
    top_rule: str | None
    fact: str | None
    subs: tuple[str, ...]
    rules: frozenset[str]
    premises: frozenset[str]
    defeater: bool = False
    strict: bool = True


@dataclass(frozen=True, slots=True)
class Attack:
    """One attack of ``attacker`` on ``target`` (Definition 2).

    Attributes
    ----------
    attacker, target : str
        Argument ids.  ``target`` contains the internally attacked element.
    kind : AttackKind
    on : str
        What is attacked inside ``target``: a sub-argument id (rebut), a rule
        id (undercut) or a fact id (undermine).
    lic : str or None
        Licensing rule (``None`` for a fact attacker: never neutralized).
    explicit : bool
        Whether an explicit attack edge of the analysis produced it.
    defeated_by : tuple of (str, str) or None
        The pair ``(stronger, weaker)`` of ``P+`` that neutralized it
        (Definition 4); ``None`` when the attack is active.
    """

    attacker: str
    target: str
    kind: AttackKind
    on: str
    lic: str | None
    explicit: bool = False
    defeated_by: tuple[str, str] | None = None

    @property
    def active(self) -> bool:
        """Whether the attack takes part in the labelling."""
        return self.defeated_by is None


@dataclass(frozen=True, slots=True)
class PriorityOrder:
    """The priority base ``P0``, its unresolved cycles and the closure ``P+`` (Definition 3).

    Attributes
    ----------
    base : frozenset of (str, str)
        Grounded ``(stronger, weaker)`` pairs.
    cycles : tuple of tuple of str
        The rule sets of the unresolved components, each sorted.
    unresolved : frozenset of str
        Rules flagged ``unresolved_priority``.
    closure : frozenset of (str, str)
        ``P+``: the transitive closure of what remains.
    """

    base: frozenset[tuple[str, str]]
    cycles: tuple[tuple[str, ...], ...]
    unresolved: frozenset[str]
    closure: frozenset[tuple[str, str]]

    def stronger(self, a: str, b: str) -> bool:
        """``a >+ b``."""
        return (a, b) in self.closure


@dataclass(frozen=True, slots=True)
class Labelling:
    """A grounded labelling and the worklist rounds that produced it.

    ``rounds[k]`` holds the arguments labelled in round ``k`` (IN in even
    rounds, OUT in odd ones); UNDEC arguments appear in no round.
    """

    labels: Mapping[str, Label]
    rounds: tuple[tuple[str, ...], ...] = ()


@dataclass(frozen=True, slots=True)
class Evaluation:
    """Everything the engine computed for one target (Definition 5).

    ``support`` is ``s(p)`` and ``against`` is ``a(p)``.
    """

    target: str
    status: Status
    support: bool
    against: bool
    theory: Theory
    arguments: Sequence[Argument]
    attacks: Sequence[Attack]
    priorities: PriorityOrder
    labelling: Labelling
    extra: Mapping[str, object] = field(default_factory=dict)


KINDS = (AttackKind.REBUT, AttackKind.UNDERCUT, AttackKind.UNDERMINE)
SHAPE_ARGUMENT, SHAPE_RULE, SHAPE_FACT = 0, 1, 2


class AttackTable(Sequence[Attack]):
    """A read-only sequence of attacks stored as integer columns.

    Parameters
    ----------
    argument_ids, rule_ids, fact_ids : tuple of str
        What the indices name: arguments (``attacker``, ``target``, and ``on`` of
        :data:`SHAPE_ARGUMENT`), rules (``lic``, ``on`` of :data:`SHAPE_RULE`), facts (``on`` of
        :data:`SHAPE_FACT`).
    defeats : tuple of (str, str)
        The ``(stronger, weaker)`` pairs that ``defeat`` indexes.
    columns : dict of str to numpy.ndarray
        ``attacker``, ``target``, ``on``, ``lic`` (-1: none), ``defeat`` (-1: active), ``kind``
        (index into :data:`KINDS`), ``shape`` and ``explicit``, all of one length.

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
        return next(self._rows(i, i + 1))

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
