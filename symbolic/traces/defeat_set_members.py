"""The defeat sets of a trace's attack edges and how a set is named (Definition 4,
docs/performance.md "Defeat sets: the summarized TNF").

A defeat set is a sorted tuple of priority node ids ``priority:(<strong>)>(<weak>)``, where
``<strong>`` and ``<weak>`` are the contents of two rules (:meth:`symbolic.traces.naming.Namer.priority_part`);
its id is ``defeats:`` and 12 hex of the sha256 of its ids joined by newlines (:func:`set_id`).
"""

from __future__ import annotations

import hashlib
from typing import Iterator, Sequence

import numpy as np

__all__ = ["DefeatSets", "set_id"]


def set_id(text: bytes) -> str:
    """The id of a defeat set from its members' ids joined by newlines (UTF-8): ``defeats:`` and
    12 hex of their sha256.

    >>> set_id(b"priority:(b=>p)>(a=>p)")[:8]
    'defeats:'
    """
    return "defeats:" + hashlib.sha256(text).hexdigest()[:12]


class DefeatSets(Sequence):
    """A sequence of defeat sets, each a tuple of priority node ids, sorted."""

    __slots__ = ("_names",)

    def __init__(self, sets: Sequence[tuple[str, ...]] = ()):
        self._names = tuple(sets)

    @classmethod
    def of_names(cls, sets: Sequence[tuple[str, ...]]) -> DefeatSets:
        """The sets given as tuples of ids."""
        return cls(sets)

    def __len__(self) -> int:
        return len(self._names)

    def __getitem__(self, i):
        return self._names[i]

    def __iter__(self) -> Iterator[tuple[str, ...]]:
        return iter(self._names)

    def __eq__(self, other) -> bool:
        if not isinstance(other, DefeatSets):
            return NotImplemented
        return self._names == other._names

    __hash__ = None

    def __repr__(self) -> str:
        return f"DefeatSets({len(self)} sets)"

    def names(self) -> tuple[tuple[str, ...], ...]:
        """Every set as a tuple of priority node ids."""
        return self._names

    def sizes(self) -> np.ndarray:
        """The number of ids in each set."""
        return np.array([len(s) for s in self._names], dtype=np.int64)

    def ids(self) -> list[str]:
        """Each set's id (:func:`set_id` of its members joined by newlines)."""
        return [set_id("\n".join(s).encode("utf-8")) for s in self._names]
