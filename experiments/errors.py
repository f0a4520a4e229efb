"""Exception hierarchy of :mod:`experiments`."""

from __future__ import annotations

from symbolic.errors import ParatraceError

__all__ = ["ExperimentError", "SplitError", "SuiteCheckError", "SuiteError"]


class ExperimentError(ParatraceError):
    """Root of the errors of :mod:`experiments`: bad specs, logs and run state."""


class SuiteError(ExperimentError):
    """A suite is unknown, malformed, or fails its gold or smell checks."""


class SuiteCheckError(SuiteError):
    """A suite fails its gold, metadata or smell checks.

    Parameters
    ----------
    suite : str
        The suite name.
    findings : sequence of experiments.suites.checks.Finding
        Every problem found; the message shows the first few.
    """

    def __init__(self, suite, findings):
        self.suite, self.findings = suite, tuple(findings)
        shown = "; ".join(str(f) for f in self.findings[:3])
        more = len(self.findings) - 3
        tail = f" (and {more} more)" if more > 0 else ""
        super().__init__(f"suite {suite!r} fails {len(self.findings)} check(s): {shown}{tail}")


class SplitError(ExperimentError, ValueError):
    """A train/validation/test split cannot be made (too few scenarios or clusters, bad fractions)."""
