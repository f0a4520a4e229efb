"""The ``paratrace`` console script: the process's thread defaults, then :func:`optimize.root.main`.

NumPy's OpenBLAS starts one worker thread per core when NumPy is imported, and
each worker spins for a while before it sleeps.  No command of ``paratrace``
runs a BLAS routine large enough to gain from threads, so that spinning is pure
cost: on a 2-core machine it was about 0.1 s of CPU per command, a quarter of
``paratrace status`` on one case (docs/performance.md, "Start-up").  The
variable has to be set before NumPy is imported, which is why this module
imports nothing else at its top and :mod:`optimize.root` only inside
:func:`main`.  A value the user set is kept.
"""

from __future__ import annotations

import os

__all__ = ["THREAD_DEFAULTS", "main"]

# Read by OpenBLAS (NumPy's and SciPy's builds) when it is loaded; llama.cpp's CPU threads are its own.
THREAD_DEFAULTS = {"OPENBLAS_NUM_THREADS": "1"}


def main() -> None:
    """Entry point of the ``paratrace`` console script.

    Sets each of :data:`THREAD_DEFAULTS` the user has not set, then runs
    :func:`optimize.root.main`.
    """
    for name, value in THREAD_DEFAULTS.items():
        os.environ.setdefault(name, value)
    from .root import main as run

    run()
