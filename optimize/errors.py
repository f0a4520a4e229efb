"""Exception hierarchy of :mod:`optimize`.

Every error derives from :class:`OptimizeError`, itself a
:class:`symbolic.errors.ParatraceError`, so the CLI prints one line and exits 2.
Messages name the file, field or option and the offending value.
"""

from __future__ import annotations

from symbolic.errors import ParatraceError

__all__ = ["OptimizeError", "ProgramLoadError"]


class OptimizeError(ParatraceError):
    """Root of the errors of :mod:`optimize` (bad optimizer name, budget, weights...)."""


class ProgramLoadError(OptimizeError):
    """A saved program cannot be read: missing or malformed file, digest mismatch, unknown reference."""

