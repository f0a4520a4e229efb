"""Structured logs of the service: one JSON object per line.

Every request produces exactly one ``request`` line on the ``paratrace.serve``
logger with its id, method, path, status, latency and, once known, the
configuration, model, time in the assistant and time queued.  Evidence text,
queries, prompts, LM replies and headers other than the request id are never
logged; a failure is logged by its kind (``timeout``, ``lm_failure``...) only.
"""

from __future__ import annotations

import json
import logging
import sys
import time
from typing import Any, Callable, TextIO

from symbolic.support.redact import redact_text

__all__ = ["JsonFormatter", "LOGGER_NAME", "configure_logging", "log_request"]

LOGGER_NAME = "paratrace.serve"
_LOGGER = logging.getLogger(LOGGER_NAME)
_QUIET = ("instructor", "LiteLLM", "LiteLLM Router", "LiteLLM Proxy", "litellm", "dspy", "openai", "httpx", "httpcore")


class JsonFormatter(logging.Formatter):
    """Format a record as one JSON line: time (UTC), level, logger, event and the record's ``fields``.

    Examples
    --------
    >>> rec = logging.LogRecord("paratrace.serve", logging.INFO, __file__, 1, "request", None, None)
    >>> rec.fields, rec.created = {"status": 200, "request_id": "r1"}, 0.0
    >>> JsonFormatter().format(rec)
    '{"ts": "1970-01-01T00:00:00.000Z", "level": "info", "logger": "paratrace.serve", "event": "request", "request_id": "r1", "status": 200}'
    """

    def format(self, record: logging.LogRecord) -> str:
        """One JSON object, keys of ``fields`` sorted after the fixed ones."""
        stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
        line: dict[str, Any] = {"ts": f"{stamp}.{int(record.created % 1 * 1000):03d}Z", "level": record.levelname.lower(),
                                "logger": record.name, "event": record.getMessage()}
        fields = getattr(record, "fields", None) or {}
        line.update(sorted(fields.items()))
        if record.exc_info and record.exc_info[0] is not None:
            line["exception"] = record.exc_info[0].__name__
        return redact_text(json.dumps(line, ensure_ascii=False, default=str))


def configure_logging(level: str = "info", stream: TextIO | None = None) -> Callable[[], None]:
    """Send the service's and uvicorn's logs to ``stream`` (stderr) as JSON lines.

    The loggers of the LM path (Instructor, LiteLLM, DSPy, OpenAI, httpx) are
    silenced: their messages quote prompts and replies, i.e. evidence text.
    Other libraries' warnings go through the root logger in the same format.

    Parameters
    ----------
    level : str
        ``debug``, ``info``, ``warning`` or ``error``.
    stream : file, optional
        Where to write (default ``sys.stderr``).

    Returns
    -------
    callable
        ``restore()`` puts the previous handlers, levels and propagation back.
    """
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(JsonFormatter())
    saved = []

    def setup(name: str | None, *, handlers, lvl, propagate=None, disabled=None):
        logger = logging.getLogger(name)
        saved.append((logger, list(logger.handlers), logger.level, logger.propagate, logger.disabled))
        if handlers is not None:
            logger.handlers = handlers
        logger.setLevel(lvl)
        if propagate is not None:
            logger.propagate = propagate
        if disabled is not None:
            logger.disabled = disabled

    for name in (LOGGER_NAME, "uvicorn", "uvicorn.error"):
        setup(name, handlers=[handler], lvl=level.upper(), propagate=False)
    setup(None, handlers=[handler], lvl=logging.WARNING)
    setup("uvicorn.access", handlers=None, lvl=logging.WARNING, disabled=True)  # our request line replaces it
    for name in _QUIET:
        setup(name, handlers=None, lvl=logging.CRITICAL + 1)

    def restore() -> None:
        for logger, handlers, lvl, propagate, disabled in reversed(saved):
            logger.handlers, logger.propagate, logger.disabled = handlers, propagate, disabled
            logger.setLevel(lvl)

    return restore


def log_request(fields: dict[str, Any]) -> None:
    """Log one request line on ``paratrace.serve`` (``warning`` for 5xx, ``info`` otherwise)."""
    level = logging.WARNING if int(fields.get("status", 0)) >= 500 else logging.INFO
    _LOGGER.log(level, "request", extra={"fields": fields})
