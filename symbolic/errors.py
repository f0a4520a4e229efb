"""Exception hierarchy of :mod:`symbolic` (and the project-wide root).

Every error raised on purpose by paratrace derives from :class:`ParatraceError`;
each package adds a small family under it.  Messages always carry the bad value
and where it was found (file, line, field path).
"""

from __future__ import annotations

__all__ = [
    "LocatedError",
    "GroundingError",
    "ParatraceError",
    "PriorityCycleWarning",
    "ScenarioError",
    "SymbolicError",
]


class ParatraceError(Exception):
    """Root of every error paratrace raises on purpose."""


class SymbolicError(ParatraceError):
    """Root of the errors of :mod:`symbolic`."""


class LocatedError(ParatraceError):
    """An error located in an input: file, 1-based line, field path, value.

    Its message reads ``file:line, field path: reason``; subclasses add the
    package they belong to.

    Parameters
    ----------
    message : str
        What is wrong, naming the bad value.
    file, line, field, value : optional
        Where the problem is and the offending value.

    Examples
    --------
    >>> str(LocatedError("unknown status 'maybe'", file="s.jsonl", line=2, field="gold.status"))
    "s.jsonl:2, field gold.status: unknown status 'maybe'"
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


class ScenarioError(LocatedError, SymbolicError, ValueError):
    """A scenario, suite file or object is malformed.

    Parameters
    ----------
    message : str
        What is wrong, naming the bad value.
    file : str, optional
        The file the object came from.
    line : int, optional
        1-based line number in a JSONL file.
    field : str, optional
        Dotted field path inside the record (``gold.rules.2.evidence.0``).
    value : object, optional
        The offending value.
    """


class GroundingError(SymbolicError, ValueError):
    """An object refers to evidence, rules or facts that do not exist."""


class PriorityCycleWarning(UserWarning):
    """The priority base contains a cycle; its rules lose their comparisons."""
