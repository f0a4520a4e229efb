"""Exception hierarchy of :mod:`scorer`.

Every error derives from :class:`ScorerError`, itself a
:class:`symbolic.errors.ParatraceError`.  Errors about input files name the
file, the 1-based line, the field path and the offending value, so the CLI can
print one line and exit 2.
"""

from __future__ import annotations

from symbolic.errors import LocatedError, ParatraceError

__all__ = [
    "OutputFileError",
    "ReportError",
    "ScorerError",
    "ScoringError",
    "StatsError",
]


class ScorerError(ParatraceError):
    """Root of the errors of :mod:`scorer`."""


class OutputFileError(LocatedError, ScorerError, ValueError):
    """An outputs or suite file, or one record in it, is malformed.

    Parameters
    ----------
    message : str
        What is wrong, naming the bad value.
    file : str, optional
        The file the record came from.
    line : int, optional
        1-based line number in a JSONL file.
    field : str, optional
        Dotted field path inside the record (``common.final_status``).
    value : object, optional
        The offending value.

    Examples
    --------
    >>> str(OutputFileError("unknown status 'maybe'", file="out.jsonl", line=3,
    ...                     field="common.final_status", value="maybe"))
    "out.jsonl:3, field common.final_status: unknown status 'maybe'"
    """


class ScoringError(ScorerError, ValueError):
    """A scenario and an output cannot be scored together (e.g. unknown case id)."""


class StatsError(ScorerError, ValueError):
    """A statistic was asked for with invalid counts or unaligned samples."""


class ReportError(ScorerError):
    """A report cannot be written (unusable directory, nothing to report)."""
