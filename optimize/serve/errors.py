"""Errors of :mod:`optimize.serve`, each mapped to one HTTP status.

:class:`ServeError` derives from :class:`optimize.errors.OptimizeError` (hence
from :class:`symbolic.errors.ParatraceError`), so the CLI prints one line and
exits 2 when the service cannot start.  A :class:`RequestFailure` is what a
request ends in when it cannot be answered; its ``reason`` is safe to show to
the client and to log (it never holds evidence text, prompts or API keys).
"""

from __future__ import annotations

from typing import Any

from optimize.errors import OptimizeError

__all__ = ["RequestFailure", "ServeError"]


class ServeError(OptimizeError):
    """Root of the errors of :mod:`optimize.serve` (bad option, unusable program)."""


class RequestFailure(ServeError):
    """A request that ends in an HTTP error.

    Parameters
    ----------
    status : int
        The HTTP status (4xx for the client's fault, 5xx for ours or the LM's).
    kind : str
        A stable short name: ``body_too_large``, ``invalid_json``,
        ``invalid_request``, ``input_limit``, ``unknown_config``, ``busy``,
        ``timeout``, ``lm_failure``, ``lm_rate_limited``, ``internal``.
    reason : str
        One line for humans.
    field : str, optional
        Dotted path of the offending input (``evidence.0.text``).
    value : Any, optional
        The offending value (shortened by the app before it is shown).

    Examples
    --------
    >>> e = RequestFailure(413, "body_too_large", "the body has 9 bytes; the limit is 4")
    >>> e.status, str(e)
    (413, 'the body has 9 bytes; the limit is 4')
    """

    def __init__(self, status: int, kind: str, reason: str, *, field: str | None = None, value: Any = None):
        self.status = status
        self.kind = kind
        self.reason = reason
        self.field = field
        self.value = value
        super().__init__(reason)
