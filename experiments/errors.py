"""Exception hierarchy of :mod:`experiments`."""

from __future__ import annotations

from symbolic.errors import ParatraceError

__all__ = ["ExperimentError", "SuiteError"]


class ExperimentError(ParatraceError):
    """Root of the errors of :mod:`experiments`: bad specs, logs and run state."""


class SuiteError(ExperimentError):
    """A suite is unknown, malformed, or fails its gold or smell checks."""
