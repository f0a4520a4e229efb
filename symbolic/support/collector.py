"""The garbage collector's policy of a command that works through a suite one scenario at a time.

The engine itself leaves the collector alone (docs/performance.md: pausing it in the engine, the
loader and the trace did not earn its place); a command loads what it keeps with the collector
off and freezes it, then collects between two scenarios instead of within one.
"""

from __future__ import annotations

import gc
from contextlib import contextmanager
from typing import Iterable, Iterator, TypeVar

__all__ = ["collected_between", "gc_paused"]

T = TypeVar("T")


@contextmanager
def gc_paused() -> Iterator[None]:
    """The cyclic garbage collector off for the block (a command loading what it keeps); its state restored.

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
