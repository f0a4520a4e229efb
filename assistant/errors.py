"""Exception hierarchy of :mod:`assistant`.

Every error derives from :class:`AssistantError`, itself a
:class:`symbolic.errors.ParatraceError`, so the CLI prints one line and exits 2.
Messages name the offending value and where it was found, and never contain an
API key.
"""

from __future__ import annotations

from symbolic.errors import ParatraceError

__all__ = [
    "AssistantError",
    "BackendError",
    "CallLimitError",
    "ConfigurationError",
    "InputLimitError",
    "LocalModelError",
    "ProgramLoadError",
    "ScriptExhaustedError",
    "ValidationFailure",
    "call_limit_in",
]


class AssistantError(ParatraceError):
    """Root of the errors of :mod:`assistant`."""


class ConfigurationError(AssistantError, ValueError):
    """An unknown configuration, variant, output contract or decoding option."""


class ProgramLoadError(AssistantError):
    """A saved program cannot be read: missing or malformed file, digest mismatch, unknown reference."""


class BackendError(AssistantError):
    """A backbone could not be resolved or reached (bad model string, no server)."""


class CallLimitError(AssistantError):
    """One LM call hit its token or time bound: no answer, not a model failure.

    Parameters
    ----------
    message : str
        Which bound, its value and the backbone.
    kind : {"tokens", "time"}
        The bound that was hit.
    limit : float
        Its value (tokens, or seconds).
    """

    def __init__(self, message: str, *, kind: str, limit: float):
        self.kind, self.limit = kind, limit
        super().__init__(message)


class LocalModelError(BackendError):
    """The embedded llama.cpp server could not be installed, started or stopped."""


class InputLimitError(AssistantError, ValueError):
    """A query or evidence package exceeds the configured size limits.

    Parameters
    ----------
    message : str
        What is too large, with the size and the limit.
    field : str, optional
        Dotted path of the offending input (``evidence.3.text``).
    """

    def __init__(self, message: str, *, field: str | None = None):
        self.field = field
        super().__init__(f"field {field}: {message}" if field else message)


class ScriptExhaustedError(AssistantError):
    """The scripted backend was asked for more replies than it holds."""


class ValidationFailure(AssistantError):
    """The LM output still failed validation after the bounded re-asks.

    Attributes
    ----------
    raw_text : str
        The last raw reply of the LM.
    errors : tuple of str
        The validation error of every failed attempt, in order.
    """

    def __init__(self, message: str, *, raw_text: str = "", errors: tuple[str, ...] = ()):
        self.raw_text = raw_text
        self.errors = tuple(errors)
        super().__init__(message)


def call_limit_in(exc: BaseException | None) -> "CallLimitError | None":
    """The :class:`CallLimitError` in the cause chain of ``exc``, if any (DSPy and
    Instructor wrap the errors of the calls they make).

    Examples
    --------
    >>> try:
    ...     try:
    ...         raise CallLimitError("512 tokens", kind="tokens", limit=512)
    ...     except CallLimitError as inner:
    ...         raise RuntimeError("wrapped") from inner
    ... except RuntimeError as outer:
    ...     str(call_limit_in(outer))
    '512 tokens'
    """
    seen = set()
    while exc is not None and id(exc) not in seen:
        if isinstance(exc, CallLimitError):
            return exc
        seen.add(id(exc))
        exc = exc.__cause__ or exc.__context__
    return None

