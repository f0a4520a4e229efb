"""One registry mechanism for every package: typed entries in a read-only mapping.

A :class:`Registry` maps names to factories in registration order, so it reads
like the plain dict it replaces (``sorted(reg)``, ``reg.get(name)``,
``name in reg``); :meth:`Registry.entry` gives the :class:`Entry` with its
metadata.  The configurations (:data:`assistant.configs.CONFIGURATIONS`), the
baselines (:data:`assistant.baselines.BASELINES`) and the optimizers
(:data:`optimize.optimizers.OPTIMIZERS`) are registries.

Examples
--------
>>> reg = Registry("shape", [Entry("square", lambda side: side * side, {"sides": 4})])
>>> sorted(reg), reg["square"](3), reg.entry("square").metadata["sides"]
(['square'], 9, 4)
>>> reg.entry("circle")
Traceback (most recent call last):
...
KeyError: "unknown shape 'circle'; expected one of square"
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Callable, Generic, Iterable, Iterator, Mapping, TypeVar

__all__ = ["Entry", "Registry"]

T = TypeVar("T")


@dataclass(frozen=True)
class Entry(Generic[T]):
    """One registered thing.

    Attributes
    ----------
    name : str
        The name it is looked up by.
    factory : callable
        Makes it (a class, or a function).
    metadata : mapping
        What callers may need to know without making it (description, paper reference ...).
    """

    name: str
    factory: Callable[..., T]
    metadata: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def of_class(cls, name: str, factory: Callable[..., T], **metadata: Any) -> "Entry[T]":
        """An entry whose ``description`` is the first line of ``factory``'s docstring.

        >>> Entry.of_class("entry", Entry, paper="none").metadata["description"]
        'One registered thing.'
        """
        doc = (getattr(factory, "__doc__", None) or "").strip().splitlines()
        return cls(name, factory, {"description": doc[0].strip() if doc else "", **metadata})


class Registry(Mapping[str, Callable[..., T]]):
    """Name -> factory, read-only, in registration order.

    Parameters
    ----------
    kind : str
        What is registered, for messages (``configuration``, ``optimizer``).
    entries : iterable of Entry

    Raises
    ------
    ValueError
        If two entries share a name.
    """

    def __init__(self, kind: str, entries: Iterable[Entry[T]]):
        table: dict[str, Entry[T]] = {}
        for item in entries:
            if item.name in table:
                raise ValueError(f"two {kind} entries named {item.name!r}")
            table[item.name] = item
        self.kind = kind
        self._entries = MappingProxyType(table)

    def __getitem__(self, name: str) -> Callable[..., T]:
        return self._entries[name].factory

    def __iter__(self) -> Iterator[str]:
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)

    def __repr__(self) -> str:
        return f"Registry({self.kind!r}, {list(self._entries)!r})"

    def entry(self, name: str) -> Entry[T]:
        """The entry called ``name``; ``KeyError`` naming the known ones otherwise."""
        try:
            return self._entries[name]
        except KeyError:
            raise KeyError(f"unknown {self.kind} {name!r}; expected one of {', '.join(sorted(self))}") from None

    def entries(self) -> tuple[Entry[T], ...]:
        """Every entry, in registration order."""
        return tuple(self._entries.values())
