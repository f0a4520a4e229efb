"""Priorities given as a long list, validated and stored as columns.

A dense theory states tens of thousands of priorities ``stronger > weaker``
(Definition 3), one JSON object each.  Making one pydantic object per entry
(and letting the cyclic garbage collector traverse them all) costs more than
the rest of the load; :func:`priority_list` validates the list column by
column instead (:mod:`symbolic.scenario.columns`: each distinct value once, by the
field's own pydantic validator) and returns a :class:`PriorityList`, a
read-only sequence of :class:`~symbolic.scenario.model.Priority` that keeps the
columns and builds the objects only when one is read.  It is the value of
:attr:`symbolic.scenario.model.Analysis.priorities` for long lists; the grounding
(:mod:`symbolic.engine.grounding`) and the priority order
(:mod:`symbolic.engine.priorities`) read its columns directly.

The fast path accepts exactly what per-entry validation accepts and gives
equal objects (same field values and the same ``model_fields_set``); when
any entry is not a plain object of known keys with valid values, it declines
(returns ``None``) and the caller validates entry by entry, so errors are the
usual ones.  Lists shorter than :data:`symbolic.scenario.columns.MIN_ROWS` are always
validated entry by entry (and stay tuples).
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import attrgetter

from symbolic.scenario import columns
from symbolic.scenario.column_list import ColumnList

__all__ = ["PriorityList", "priority_columns", "priority_entries", "priority_list"]

_NAMES = ("stronger", "weaker", "basis", "evidence", "note")


def priority_list(items, model) -> "PriorityList | None":
    """Validate a list of priority entries column by column.

    Parameters
    ----------
    items : object
        The ``priorities`` value as decoded from JSON.
    model : type
        The pydantic model of one entry (:class:`~symbolic.scenario.model.Priority`).

    Returns
    -------
    PriorityList or None
        ``None`` when ``items`` is not a list of at least
        :data:`symbolic.scenario.columns.MIN_ROWS` plain objects with only the entry's
        keys and valid values (validate entry by entry then, for the exact
        errors).

    Examples
    --------
    >>> from symbolic.scenario.model import Priority
    >>> items = [{"stronger": f"r{i + 1}", "weaker": f"r{i}", "basis": "Hierarchy"} for i in range(1024)]
    >>> ps = priority_list(items, Priority)
    >>> len(ps), ps[3].id, ps[3].basis.value, ps[3] == Priority(**items[3])
    (1024, 'r4>r3', 'hierarchy', True)
    """
    rows = columns.validate_rows(items, model)
    if rows is None or tuple(rows.columns) != _NAMES:
        return None
    return PriorityList(model, rows)


def priority_entries(model):
    """A pydantic wrap validator of ``priorities``: a :class:`PriorityList` as it is, a long list validated
    column by column (:func:`priority_list`), anything else entry by entry by ``handler``."""
    def validate(value, handler):
        if isinstance(value, PriorityList):
            return value
        found = priority_list(value, model)
        return handler(value) if found is None else found

    return validate


def priority_columns(priorities) -> tuple[Sequence, Sequence, Sequence, Sequence]:
    """The stronger rule, weaker rule, basis and evidence of each priority, as four sequences.

    A :class:`PriorityList` gives its columns (its objects stay unbuilt); any other sequence of
    priorities is read object by object.
    """
    if isinstance(priorities, PriorityList):
        return priorities.stronger, priorities.weaker, priorities.rows.column("basis"), priorities.evidences()
    return tuple(list(map(attrgetter(name), priorities)) for name in ("stronger", "weaker", "basis", "evidence"))


class PriorityList(ColumnList):
    """Priorities stored as columns: row ``i`` is the priority
    ``stronger[i] > weaker[i]`` with its basis, evidence and note.

    A column that holds one value for every row is stored once (as a
    1-tuple, as :class:`symbolic.scenario.columns.Rows` keeps it).  The objects are
    built, all at once, the first time one is read, and kept, so the sequence
    behaves as a tuple of them (equality, hashing and identity included).

    Parameters
    ----------
    model : type
        The model of one entry.
    rows : symbolic.scenario.columns.Rows
        The validated columns, in the model's field order.
    """

    __slots__ = ("model", "rows", "_objects")

    def __init__(self, model, rows: columns.Rows):
        self.model, self.rows, self._objects = model, rows, None

    def __len__(self) -> int:
        return self.rows.n

    @property
    def stronger(self) -> tuple:
        """The stronger rule of each row."""
        return self.rows.column("stronger")

    @property
    def weaker(self) -> tuple:
        """The weaker rule of each row."""
        return self.rows.column("weaker")

    def distinct(self, name: str) -> tuple:
        """The values of column ``name`` as stored: one per row, or one for every row."""
        return self.rows.columns[name]

    def evidences(self) -> tuple:
        """The cited fragments of each row."""
        return self.rows.column("evidence")

    def objects(self) -> tuple:
        """The rows as model objects (built on first use, then kept)."""
        if self._objects is None:
            self._objects = columns.build_models(self.model, self.rows)
        return self._objects

    def select(self, keep) -> "PriorityList":
        """The rows where ``keep`` (a sequence of bool, one per row) is true."""
        chosen = [i for i, flag in enumerate(keep) if flag]
        n = self.rows.n

        def pick(values):
            return values if len(values) != n else tuple(values[i] for i in chosen)

        picked = {name: pick(values) for name, values in self.rows.columns.items()}
        return PriorityList(self.model, columns.Rows(len(chosen), picked, pick(self.rows.fields)))

    def _key(self) -> tuple:
        return tuple(self.rows.column(name) for name in _NAMES)

    def _built(self) -> tuple:
        return self.objects()

    def _same(self, other) -> bool:
        return self is other or (len(self) == len(other) and self._key() == other._key())

    def __reduce__(self):
        return PriorityList, (self.model, self.rows)

    def __repr__(self) -> str:
        return f"PriorityList({len(self)} priorities)"
