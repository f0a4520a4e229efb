"""Pausing Python's cyclic garbage collector around large, acyclic allocations.

The engine, the loader and the trace each build hundreds of thousands of
small containers (tuples, dicts, strings, pydantic models) that hold no
reference cycles.  With a large theory alive, every generational collection
those allocations trigger rescans all live objects, which can double the
time of the step; reference counting frees these objects anyway.
"""

from __future__ import annotations

import gc
from contextlib import contextmanager
from typing import Iterable, Iterator, TypeVar

__all__ = ["collected_between", "gc_paused"]

T = TypeVar("T")


@contextmanager
def gc_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector for the block; restore its state on exit.

    A cycle created meanwhile is collected once the collector runs again.

    Examples
    --------
    >>> import gc
    >>> with gc_paused():
    ...     gc.isenabled()
    False
    >>> gc.isenabled()
    True
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def collected_between(items: Iterable[T], *, min_objects: int = 100_000) -> Iterator[T]:
    """Yield ``items`` with the cyclic garbage collector off, collecting between two of them.

    For a command that works through its items one at a time (a suite's
    scenarios): each item's work runs without the collector's passes over
    what it builds.  Between two items, once ``min_objects`` container
    objects more have been allocated than freed since the last collection
    (:func:`gc.get_count`), one collection frees the cycles left behind, so
    memory stays bounded by about one item's work plus ``min_objects``
    objects; small items are not each followed by a collection.  The
    collector's state is restored when the iteration ends or is closed.

    Examples
    --------
    >>> import gc
    >>> [gc.isenabled() for _ in collected_between(range(2))], gc.isenabled()
    ([False, False], True)
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        for i, item in enumerate(items):
            if i and gc.get_count()[0] >= min_objects:
                gc.collect()
            yield item
    finally:
        if enabled:
            gc.enable()
