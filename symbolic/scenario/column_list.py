"""The tuple behaviour shared by the column-stored lists of a theory.

:class:`~symbolic.scenario.attack_list.AttackList` (explicit attacks) and
:class:`~symbolic.scenario.priority_list.PriorityList` (priorities) keep long lists as
columns and build their model objects, all at once, the first time one is
read.  :class:`ColumnList` makes such a list behave as the tuple of those
objects: indexing, iteration, membership, equality and hashing with tuples,
concatenation, and copies (the list is immutable, so a copy is itself).
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Iterator, Sequence

__all__ = ["ColumnList"]


class ColumnList(Sequence):
    """A sequence stored as columns that behaves as the tuple of its objects.

    A subclass defines ``_built()`` (the objects, built once and kept) and
    ``_same(other)`` (equality with another list of its own class, from the
    columns, without building objects), and ``__len__``.
    """

    __slots__ = ()

    @abstractmethod
    def _built(self) -> tuple:
        """The objects of the rows, built on first use and then kept."""

    @abstractmethod
    def _same(self, other) -> bool:
        """Whether ``other``, a list of this class, holds the same rows (read from the columns)."""

    def __getitem__(self, index):
        return self._built()[index]

    def __iter__(self) -> Iterator:
        return iter(self._built())

    def __contains__(self, value) -> bool:
        return value in self._built()

    def __eq__(self, other) -> bool:
        if isinstance(other, type(self)):
            return self._same(other)
        if isinstance(other, tuple):
            return self._built() == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._built())

    def __add__(self, other):
        return self._built() + tuple(other) if isinstance(other, (tuple, type(self))) else NotImplemented

    def __radd__(self, other):
        return other + self._built() if isinstance(other, tuple) else NotImplemented

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self
