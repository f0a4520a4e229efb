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
from typing import Any, TextIO

__all__ = ["LOGGER_NAME", "JsonFormatter", "configure_logging", "log_request"]

LOGGER_NAME = "paratrace.serve"
_LOGGER = logging.getLogger(LOGGER_NAME)


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
        return json.dumps(line, ensure_ascii=False, default=str)


def configure_logging(level: str = "info", stream: TextIO | None = None) -> logging.Handler:
    """Send the service's and uvicorn's logs to ``stream`` (stderr) as JSON lines.

    Parameters
    ----------
    level : str
        ``debug``, ``info``, ``warning`` or ``error``.
    stream : file, optional
        Where to write (default ``sys.stderr``).

    Returns
    -------
    logging.Handler
        The handler installed (remove it to undo).
    """
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(JsonFormatter())
    for name in (LOGGER_NAME, "uvicorn", "uvicorn.error"):
        logger = logging.getLogger(name)
        logger.handlers = [handler]
        logger.setLevel(level.upper())
        logger.propagate = False
    logging.getLogger("uvicorn.access").disabled = True  # the request line below replaces it
    return handler


def log_request(fields: dict[str, Any]) -> None:
    """Log one request line on ``paratrace.serve`` (``warning`` for 5xx, ``info`` otherwise)."""
    level = logging.WARNING if int(fields.get("status", 0)) >= 500 else logging.INFO
    _LOGGER.log(level, "request", extra={"fields": fields})
