"""paratrace's response cache: one reply per exact request, on disk.

The key is a SHA-256 over everything that changes the answer: the model
string, the endpoint (:func:`endpoint_of`), the decoding parameters, the full
prompt (every message, re-ask turns included), the response format (the JSON
schema of constrained decoding) and the rollout id of a repeat.  Only replies
that passed validation are stored (:meth:`ResponseCache.put` is called by the
adapter after Instructor accepted the reply); transport errors, token-limit
truncations and invalid replies never are, so a rerun after fixing a server
asks the model again.

The cache is off unless a directory is configured with :func:`use_cache`
(the CLI does this: ``<workdir>/.paratrace-cache``, ``--no-cache`` turns it
off); DSPy's own cache, which ignores the endpoint, is never used for the
assistant's calls.

Examples
--------
>>> import tempfile
>>> cache = ResponseCache(tempfile.mkdtemp())
>>> key = request_key(model="openai/m", endpoint="http://127.0.0.1:8000/v1", params={"temperature": 0.0},
...                   messages=[{"role": "user", "content": "hi"}], response_format=None)
>>> cache.get(key) is None
True
>>> cache.put(key, {"choices": [{"message": {"content": "hello"}, "finish_reason": "stop"}]})
>>> cache.get(key).choices[0].message.content, len(cache)
('hello', 1)
>>> other = request_key(model="openai/m", endpoint="http://127.0.0.1:9000/v1", params={"temperature": 0.0},
...                     messages=[{"role": "user", "content": "hi"}], response_format=None)
>>> other == key, cache.clear()
(False, 1)
>>> cache.close()
"""

from __future__ import annotations

import hashlib
import json
import logging
import threading
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator, Mapping, Sequence

__all__ = [
    "CACHE_DIRNAME",
    "ResponseCache",
    "active_cache",
    "clear_cache",
    "endpoint_of",
    "request_key",
    "use_cache",
]

CACHE_DIRNAME = ".paratrace-cache"
_FORMAT = 2
_SECRET_PARAMS = ("api_key", "api_base", "base_url", "headers", "extra_headers")
# Client settings that do not change the reply: a run with another timeout replays the same answers.
_CLIENT_PARAMS = ("timeout", "num_retries")


def request_key(*, model: str, endpoint: str, params: Mapping[str, Any], messages: Sequence[Mapping],
                response_format: Any) -> str:
    """The cache key of one request (hex SHA-256); credentials never enter it."""
    clean = {k: v for k, v in params.items() if k not in _SECRET_PARAMS + _CLIENT_PARAMS and k != "messages"}
    payload = {"v": _FORMAT, "model": model, "endpoint": endpoint, "params": clean,
               "messages": list(messages), "response_format": response_format}
    data = json.dumps(payload, sort_keys=True, ensure_ascii=False, default=str, separators=(",", ":"))
    return hashlib.sha256(data.encode("utf-8")).hexdigest()


def endpoint_of(lm) -> str:
    """Where a DSPy LM's requests go, as a stable string for the cache key.

    The ``api_base`` when one is set; a custom engine's ``endpoint_id`` (the
    embedded model names its weights, not its port, which changes per start);
    else the provider's default endpoint, named by the provider.

    >>> import dspy
    >>> endpoint_of(dspy.LM("openai/m", api_base="http://127.0.0.1:8000/v1"))
    'http://127.0.0.1:8000/v1'
    >>> endpoint_of(dspy.LM("anthropic/claude"))
    'provider-default:anthropic'
    """
    kwargs = getattr(lm, "kwargs", {}) or {}
    base = kwargs.get("api_base") or kwargs.get("base_url")
    if base:
        return str(base).rstrip("/")
    engine = getattr(lm, "_engine_spec", None)
    ident = getattr(engine, "endpoint_id", None)
    if ident:
        return str(ident)
    if engine is not None and not isinstance(engine, str):
        return f"engine:{type(engine).__module__}.{type(engine).__qualname__}"
    return f"provider-default:{str(getattr(lm, 'model', '')).partition('/')[0]}"


class ResponseCache:
    """A disk cache of validated replies (``diskcache`` under ``directory``).

    Parameters
    ----------
    directory : str or Path
        Created when missing.
    """

    def __init__(self, directory: str | Path):
        import sqlite3

        import diskcache

        from .errors import AssistantError

        self.directory = Path(directory)
        self._unwritable = False
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            self._store = diskcache.Cache(str(self.directory))
        except (OSError, sqlite3.Error) as exc:  # a full disk, a read-only or damaged cache
            reason = getattr(exc, "strerror", None) or str(exc)
            raise AssistantError(f"{self.directory}: cannot open the response cache: {reason} (free space or "
                                 "repair it, or pass --no-cache)") from None

    def get(self, key: str):
        """The stored reply as a response object (``cache_hit`` set, usage empty), or ``None``."""
        from dspy.clients.call_result import attributes

        data = self._store.get(key)
        if not isinstance(data, str):
            return None
        try:
            reply = json.loads(data)
        except ValueError:
            self._store.delete(key)
            return None
        reply["cache_hit"] = True
        reply["usage"] = {}
        return attributes(reply)

    def put(self, key: str, response: Any) -> None:
        """Store a validated reply (a dict or an object with ``model_dump``)."""
        plain = response.model_dump() if hasattr(response, "model_dump") else dict(response)
        plain = {k: v for k, v in plain.items() if k not in ("cache_hit", "usage")}
        if self._unwritable:
            return
        import sqlite3

        try:
            self._store.set(key, json.dumps(plain, ensure_ascii=False, default=str))
        except (OSError, sqlite3.Error) as exc:  # a full disk: the reply is kept, only not cached
            self._unwritable = True
            logging.getLogger(__name__).warning("%s: replies are no longer cached: %s", self.directory,
                                                getattr(exc, "strerror", None) or exc)

    def clear(self) -> int:
        """Remove every entry; returns how many there were."""
        return int(self._store.clear())

    def __len__(self) -> int:
        return len(self._store)

    def close(self) -> None:
        """Close the underlying store."""
        self._store.close()


_STATE: dict[str, ResponseCache | None] = {"active": None}
_OPEN: dict[Path, ResponseCache] = {}
_LOCK = threading.Lock()


def active_cache() -> ResponseCache | None:
    """The cache configured with :func:`use_cache`, or ``None`` (no caching)."""
    return _STATE["active"]


@contextmanager
def use_cache(directory: str | Path | None) -> Iterator[ResponseCache | None]:
    """Cache the assistant's replies under ``directory`` inside the block (``None``: no cache).

    The setting is process-wide (the runner's worker threads and DSPy's
    parallel evaluation see it); the previous one is restored on exit.
    """
    cache = None
    with _LOCK:
        if directory is not None:
            path = Path(directory).resolve()
            cache = _OPEN.get(path) or _OPEN.setdefault(path, ResponseCache(path))
        previous, _STATE["active"] = _STATE["active"], cache
    try:
        yield cache
    finally:
        _STATE["active"] = previous


def clear_cache(workdir: str | Path = ".") -> tuple[Path, int]:
    """Empty ``<workdir>/.paratrace-cache``; returns the directory and the entries removed."""
    path = Path(workdir).resolve() / CACHE_DIRNAME
    if not path.exists():
        return path, 0
    with _LOCK:
        cache = _OPEN.get(path)
        if cache is not None:
            return path, cache.clear()
    cache = ResponseCache(path)
    try:
        return path, cache.clear()
    finally:
        cache.close()
