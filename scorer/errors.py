"""Exception hierarchy of :mod:`scorer`.

Every error derives from :class:`ScorerError`, itself a
:class:`symbolic.errors.ParatraceError`.  Errors about input files name the
file, the 1-based line, the field path and the offending value, so the CLI can
print one line and exit 2.
"""

from __future__ import annotations

from symbolic.errors import ParatraceError

__all__ = [
    "OutputFileError",
    "ReportError",
    "ScorerError",
    "ScoringError",
    "StatsError",
]


class ScorerError(ParatraceError):
    """Root of the errors of :mod:`scorer`."""


class OutputFileError(ScorerError, ValueError):
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

    def __init__(self, message, *, file=None, line=None, field=None, value=None):
        self.file, self.line, self.field, self.value = file, line, field, value
        self.reason = message
        super().__init__(self._render())

    def _render(self):
        where = []
        if self.file is not None:
            where.append(str(self.file) + (f":{self.line}" if self.line is not None else ""))
        elif self.line is not None:
            where.append(f"line {self.line}")
        if self.field:
            where.append(f"field {self.field}")
        prefix = ", ".join(where)
        return f"{prefix}: {self.reason}" if prefix else self.reason


class ScoringError(ScorerError, ValueError):
    """A scenario and an output cannot be scored together (e.g. unknown case id)."""


class StatsError(ScorerError, ValueError):
    """A statistic was asked for with invalid counts or unaligned samples."""


class ReportError(ScorerError):
    """A report cannot be written (unusable directory, nothing to report)."""
