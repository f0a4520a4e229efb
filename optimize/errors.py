"""Exception hierarchy of :mod:`optimize`.

Every error of this package derives from :class:`OptimizeError`, itself a
:class:`symbolic.errors.ParatraceError`, so the CLI prints one line and exits 2.
Messages name the file, field or option and the offending value.
:class:`~assistant.errors.ProgramLoadError` (a saved program that cannot be read) is the
assistant's, which loads saved programs; it is importable from here too.
"""

from __future__ import annotations

from assistant.errors import ProgramLoadError
from symbolic.errors import ParatraceError

__all__ = ["OptimizeError", "ProgramLoadError"]


class OptimizeError(ParatraceError):
    """Root of the errors of :mod:`optimize` (bad optimizer name, budget, weights...)."""
