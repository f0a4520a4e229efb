"""Explicit attacks given as a list (``attacks``), validated and stored as columns.

A list of ``attacks`` entries is one JSON object per edge (Definition 2).  For
an abstract framework of a million edges, validating one pydantic object per
entry costs seconds; :func:`attack_list` validates the list column by column
instead (:mod:`symbolic.scenario.columns`: each distinct value once, by the field's own
pydantic validator) and returns an :class:`AttackList`, a read-only sequence of
:class:`~symbolic.scenario.model.AttackEdge` that keeps the columns and builds the
edge objects only when one is read.  It is the value of
:attr:`symbolic.scenario.model.Analysis.attacks` for long lists; the grounding
(:mod:`symbolic.engine.grounding`) and the engine (:mod:`symbolic.engine.explicit`) read
its columns directly.

The fast path accepts exactly what per-entry validation accepts and gives
equal edges (same field values and the same ``model_fields_set``); whenever
any entry is not a plain object of known keys with valid values, it declines
(returns ``None``) and the caller validates entry by entry, so errors are
the usual ones.  Lists shorter than :data:`symbolic.scenario.columns.MIN_ROWS` are
always validated entry by entry (and stay tuples).
"""

from __future__ import annotations


import numpy as np

from symbolic.scenario import columns
from symbolic.scenario.column_list import ColumnList
from symbolic.support.sorted_keys import value_codes

__all__ = ["AttackList", "attack_list"]


def attack_list(items, edge_type) -> "AttackList | None":
    """Validate a list of attack entries column by column (:func:`symbolic.scenario.columns.validate_rows`).

    Parameters
    ----------
    items : object
        The ``attacks`` value as decoded from JSON.
    edge_type : type
        The pydantic model of one entry (:class:`~symbolic.scenario.model.AttackEdge`).

    Returns
    -------
    AttackList or None
        The validated edges; ``None`` when ``items`` is not a list of at
        least :data:`symbolic.scenario.columns.MIN_ROWS` plain objects with only the
        entry's keys and valid values (validate entry by entry then, for the
        exact errors).
    """
    rows = columns.validate_rows(items, edge_type)
    if rows is None:
        return None
    lic = rows.columns["lic"]
    if all(x is None for x in lic):
        lic = None
    elif len(lic) != rows.n:
        lic = lic * rows.n
    return AttackList(edge_type, rows.column("source"), rows.column("target"), rows.column("kind"), lic,
                      rows.columns["evidence"], rows.fields)


class AttackList(ColumnList):
    """Explicit attacks stored as columns: row ``i`` is the edge
    ``(source[i], target[i], kind[i], lic[i], evidence[i])``.

    A column that holds one value for every row is stored once (``lic`` is
    ``None`` when no row names a licensing rule; ``evidence`` and ``fields``
    are 1-tuples when every row has the same).  The edge objects are built,
    all at once, the first time one is read, and kept, so the sequence
    behaves as a tuple of them (equality, hashing and identity included).

    Parameters
    ----------
    edge_type : type
        The model of one edge.
    source, target, kind : tuple
        One value per row.
    lic : tuple or None
        One licensing rule (or ``None``) per row, or ``None`` for none at all.
    evidence : tuple of tuple of str
        The cited fragments per row, or one tuple for every row.
    fields : tuple of frozenset
        The keys given per row (the edges' ``model_fields_set``), or one for every row.
    """

    __slots__ = ("edge_type", "source", "target", "kind", "lic", "evidence", "fields", "_edges")

    def __init__(self, edge_type, source, target, kind, lic, evidence, fields):
        self.edge_type, self.source, self.target, self.kind = edge_type, source, target, kind
        self.lic, self.evidence, self.fields, self._edges = lic, evidence, fields, None

    def __len__(self) -> int:
        return len(self.source)

    def _column(self, values: tuple) -> tuple:
        return values if len(values) == len(self.source) else values * len(self.source)

    def lics(self) -> tuple:
        """The licensing rule given for each row (``None``: the default)."""
        return self.lic if self.lic is not None else (None,) * len(self.source)

    def evidences(self) -> tuple:
        """The cited fragments of each row."""
        return self._column(self.evidence)

    def distinct(self, name: str) -> tuple:
        """The values of column ``name`` as stored: one per row, or one for every row (as
        :meth:`symbolic.scenario.priority_list.PriorityList.distinct`)."""
        return getattr(self, name)

    def edges(self) -> tuple:
        """The rows as edge objects (built on first use, then kept)."""
        if self._edges is None:
            values = {"source": self.source, "target": self.target, "kind": self.kind, "lic": self.lics(),
                      "evidence": self.evidence}
            self._edges = columns.build_models(self.edge_type, columns.Rows(len(self), values, self.fields))
        return self._edges

    def first_rows(self) -> np.ndarray:
        """Whether each row is the first of the rows equal to it (equal edges), as a bool array.

        Each column is numbered by its distinct values
        (:func:`symbolic.support.sorted_keys.value_codes`), the numbers combined into one
        integer key per row, and the first row of each key kept.
        """
        n = len(self.source)
        key, bound = np.zeros(n, dtype=np.int64), 1
        for column in (self.source, self.target, self.kind, self.lic, self.evidence):
            if column is None or len(column) != n:
                continue  # one value for every row
            codes, distinct = value_codes([column])
            width = max(len(distinct), 1)
            if bound * width >= 1 << 62:  # renumber before the combined key could overflow
                key = np.unique(key, return_inverse=True)[1].reshape(-1)
                bound = int(key.max(initial=0)) + 1
            key *= width
            key += codes
            bound *= width
        first = np.zeros(n, dtype=bool)
        first[np.unique(key, return_index=True)[1]] = True
        return first

    def select(self, keep) -> "AttackList":
        """The rows where ``keep`` (a sequence of bool) is true."""
        chosen = [i for i, flag in enumerate(keep) if flag]

        def pick(values):
            return values if len(values) != len(self.source) else tuple(values[i] for i in chosen)

        return AttackList(self.edge_type, pick(self.source), pick(self.target), pick(self.kind),
                          None if self.lic is None else pick(self.lic), pick(self.evidence), pick(self.fields))

    def _built(self) -> tuple:
        return self.edges()

    def _same(self, other) -> bool:
        return (len(self) == len(other) and self.source == other.source and self.target == other.target
                and self.kind == other.kind and self.lics() == other.lics() and self.evidences() == other.evidences())

    def __reduce__(self):
        return AttackList, (self.edge_type, self.source, self.target, self.kind, self.lic, self.evidence,
                            self.fields)

    def __repr__(self) -> str:
        return f"AttackList({len(self)} edges)"

