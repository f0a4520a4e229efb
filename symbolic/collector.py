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
from typing import Iterator

__all__ = ["gc_paused"]


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
