"""One redaction layer for secrets: logs, console, MLflow params, tags, spans and artifacts.

Two kinds of text are masked as ``***``:

* the value of every environment variable whose name marks a credential
  (``*_API_KEY``, ``*_KEY``, ``*TOKEN*``, ``*SECRET*``, ``*PASSWORD*``...), plus
  any value given to :func:`register_secret` (a service's bearer token);
* key-shaped strings, wherever they come from: ``sk-...`` (OpenAI, Anthropic),
  ``AKIA...`` (AWS), ``ghp_...`` (GitHub), ``hf_...`` (Hugging Face),
  ``AIza...`` (Google), ``xox?-...`` (Slack), ``gsk_...`` (Groq) and the
  credential after ``Bearer``.

:func:`redact_text` masks a string, :func:`redact` a nested value (and drops
mapping entries whose key names a credential); :func:`install_log_redaction`
masks every log record of the process.  MLflow's spans are masked where tracking is
set up (:mod:`experiments.runner.span_redaction`).
"""

from __future__ import annotations

import logging
import os
import re
import threading
from typing import Any, Mapping

__all__ = [
    "MASK",
    "SECRET_NAME",
    "install_log_redaction",
    "redact",
    "redact_text",
    "register_secret",
    "secret_values",
]

MASK = "***"
SECRET_NAME = re.compile(r"(api[_-]?key|secret|password|passwd|authorization|bearer|token(?!s)|credential|"
                         r"access[_-]?key|_KEY$|^KEY$)", re.I)
_DROP_KEY = re.compile(r"(api[_-]?key|secret|password|passwd|authorization|bearer|access[_-]?token)", re.I)
_KEY_SHAPES = re.compile(
    r"(?<![A-Za-z0-9])(?:"
    r"sk-[A-Za-z0-9_\-]{20,}"           # OpenAI, Anthropic (sk-ant-...), OpenRouter (sk-or-...)
    r"|AKIA[0-9A-Z]{16}"                # AWS access key id
    r"|gh[pousr]_[A-Za-z0-9]{20,}"      # GitHub
    r"|github_pat_[A-Za-z0-9_]{20,}"
    r"|hf_[A-Za-z0-9]{20,}"             # Hugging Face
    r"|AIza[0-9A-Za-z_\-]{30,}"         # Google
    r"|xox[abprs]-[A-Za-z0-9\-]{10,}"   # Slack
    r"|gsk_[A-Za-z0-9]{20,}"            # Groq
    r"|r8_[A-Za-z0-9]{20,}"             # Replicate
    r")")
_BEARER = re.compile(r"(?i)(\bbearer\s+)[A-Za-z0-9._~+/=\-]{6,}")
_MIN_SECRET = 6
_registered: set[str] = set()
_lock = threading.Lock()
_cached: tuple | None = None  # (os.environ's data, registered values, values): secret_values' last scan
# Literal parts of the key shapes: the patterns are tried only on text holding one of them.
_SHAPE_HINTS = ("sk-", "AKIA", "ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_", "hf_", "AIza", "xox",
                "gsk_", "r8_")


def register_secret(value: str | None) -> None:
    """Mask ``value`` everywhere from now on (values shorter than 6 characters are ignored).

    >>> register_secret("tok-123456"); redact_text("auth tok-123456 ok")
    'auth *** ok'
    """
    if value and len(value) >= _MIN_SECRET:
        with _lock:
            _registered.add(value)


def secret_values(environ: Mapping[str, str] | None = None) -> list[str]:
    """The values to mask: credential-named environment variables and registered secrets, longest first.

    The scan of ``os.environ`` is cached until the environment or the registered values change.
    """
    global _cached
    data = getattr(os.environ, "_data", None) if environ is None else None
    with _lock:
        registered = frozenset(_registered)
        cached = _cached
    if data is not None and cached is not None and cached[1] == registered and cached[0] == data:
        return list(cached[2])
    environ = os.environ if environ is None else environ
    values = {v for k, v in environ.items() if SECRET_NAME.search(k) and v and len(v) >= _MIN_SECRET}
    values = sorted(values | registered, key=len, reverse=True)
    if data is not None:
        with _lock:
            _cached = (dict(data), registered, tuple(values))
    return values


def redact_text(text: str, environ: Mapping[str, str] | None = None) -> str:
    """``text`` with every secret value and key-shaped string replaced by ``***``.

    Examples
    --------
    >>> redact_text("Incorrect API key provided: sk-proj-abcdefgh12345678", {})
    'Incorrect API key provided: ***'
    >>> redact_text("key=hunter2hunter2", {"MY_PASSWORD": "hunter2hunter2"})
    'key=***'
    >>> redact_text("Authorization: Bearer abc.def-123456", {})
    'Authorization: Bearer ***'
    """
    if not isinstance(text, str) or not text:
        return text
    for secret in secret_values(environ):
        if secret in text:
            text = text.replace(secret, MASK)
    if any(hint in text for hint in _SHAPE_HINTS):
        text = _KEY_SHAPES.sub(MASK, text)
    if "bearer" in text.lower():
        text = _BEARER.sub(lambda m: m.group(1) + MASK, text)
    return text


def redact(value: Any, environ: Mapping[str, str] | None = None, *, drop_secret_keys: bool = True) -> Any:
    """A copy of ``value`` (nested mappings, lists, strings) with secrets masked.

    Mapping entries whose key names a credential (``api_key``, ``OPENAI_API_KEY``,
    ``password``; not ``max_tokens``) are dropped when ``drop_secret_keys``.

    >>> redact({"model": "openai/x", "api_key": "sk-1", "note": ["sk-abcdefghijkl0123456789"]}, {})
    {'model': 'openai/x', 'note': ['***']}
    """
    if isinstance(value, Mapping):
        return {k: redact(v, environ, drop_secret_keys=drop_secret_keys) for k, v in value.items()
                if not (drop_secret_keys and _DROP_KEY.search(str(k)))}
    if isinstance(value, (list, tuple)):
        return [redact(v, environ, drop_secret_keys=drop_secret_keys) for v in value]
    if isinstance(value, str):
        return redact_text(value, environ)
    return value


class _RedactingFactory:
    """A log record factory that masks the message, its arguments and any traceback text."""

    def __init__(self, inner):
        self.inner = inner

    def __call__(self, *args, **kwargs):
        record = self.inner(*args, **kwargs)
        try:
            message = record.getMessage()
        except Exception:  # noqa: BLE001 - a broken format string is the logger's business
            return record
        record.msg, record.args = redact_text(message), ()
        if record.exc_info and not record.exc_text:
            record.exc_text = redact_text(logging.Formatter().formatException(record.exc_info))
        return record


def install_log_redaction() -> None:
    """Mask secrets in every log record of this process (idempotent)."""
    current = logging.getLogRecordFactory()
    if not isinstance(current, _RedactingFactory):
        logging.setLogRecordFactory(_RedactingFactory(current))
