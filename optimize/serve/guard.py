"""ASGI guards of the service: a bearer token, a deadline on the request body,
and strict JSON numbers.

* :class:`BearerAuth` answers 401 to a request without
  ``Authorization: Bearer <token>`` (compared in constant time; the token is
  never logged), except on the open paths (``/health``).
* :class:`RequestGuard` reads the body within ``body_timeout_s`` of the start
  of the request (a client that sends its body slowly, or never finishes it,
  gets 408 and the connection is closed), then answers 400 to a JSON body with
  a non-finite number (``NaN``, ``Infinity``, or a literal such as ``1e999``
  that overflows to infinity), which Python's JSON parser would accept.

Plain ASGI callables, like :mod:`optimize.serve.middleware`.
"""

from __future__ import annotations

import asyncio
import hmac
import json
import re
import time

from .middleware import error_body

__all__ = ["BearerAuth", "DEFAULT_BODY_TIMEOUT_S", "OPEN_PATHS", "RequestGuard", "lone_surrogate", "non_finite_number"]

DEFAULT_BODY_TIMEOUT_S = 30.0
OPEN_PATHS = frozenset({"/health"})
_MAYBE_NON_FINITE = re.compile(rb"NaN|Infinity|[eE]\+?[0-9]{3}|[0-9]{300}")


class _NonFinite(Exception):
    def __init__(self, token: str):
        super().__init__(token)
        self.token = token


def _constant(name: str):
    raise _NonFinite(name)


def _finite_float(text: str) -> float:
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise _NonFinite(text if len(text) <= 40 else text[:37] + "...")
    return value


def non_finite_number(body: bytes) -> str | None:
    """The first non-finite number of a JSON body, or ``None`` (also for a body that is not JSON).

    Examples
    --------
    >>> non_finite_number(b'{"a": [1, NaN]}'), non_finite_number(b'{"a": 1e999}'), non_finite_number(b'{"a": "NaN"}')
    ('NaN', '1e999', None)
    """
    if not _MAYBE_NON_FINITE.search(body):
        return None
    try:
        json.loads(body, parse_constant=_constant, parse_float=_finite_float)
    except _NonFinite as exc:
        return exc.token
    except (ValueError, RecursionError):
        return None  # malformed JSON: the app answers 400 with the parser's reason
    return None


_MAYBE_SURROGATE = re.compile(rb"\\u[dD][89a-fA-F]")
_SURROGATE = re.compile("[\ud800-\udfff]")


def lone_surrogate(body: bytes) -> str | None:
    """The field of a JSON body whose string holds a lone surrogate escape (``"\\ud800"``), or ``None``.

    A lone surrogate is no Unicode character: it cannot be encoded as UTF-8,
    so it is refused as malformed input (400) before any handler sees it.

    Examples
    --------
    >>> lone_surrogate(b'{"query": "a\\\\ud800b"}'), lone_surrogate(b'{"query": "\\\\ud83d\\\\ude00"}')
    ('query', None)
    >>> lone_surrogate(b'{"documents": [{"name": "x\\\\udfff.txt"}]}')
    'documents.0.name'
    """
    if not _MAYBE_SURROGATE.search(body):
        return None
    try:
        value = json.loads(body)
    except (ValueError, RecursionError):
        return None  # malformed JSON: the app answers 400 with the parser's reason
    stack = [((), value)]
    while stack:
        path, item = stack.pop()
        if isinstance(item, str) and _SURROGATE.search(item):
            return ".".join(map(str, path)) or "body"
        if isinstance(item, dict):
            for key, child in item.items():
                if _SURROGATE.search(key):
                    return ".".join(map(str, path + (key,)))
                stack.append((path + (key,), child))
        elif isinstance(item, list):
            stack.extend((path + (i,), child) for i, child in reversed(list(enumerate(item))))
    return None


async def _answer(send, scope, status: int, kind: str, reason: str, *, close: bool = False,
                  headers: list | None = None) -> None:
    state = scope.setdefault("state", {})
    state["error"] = kind
    body = json.dumps(error_body(status, kind, reason, state.get("request_id", ""))).encode()
    head = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    head += headers or []
    if close:
        head.append((b"connection", b"close"))
    await send({"type": "http.response.start", "status": status, "headers": head})
    await send({"type": "http.response.body", "body": body})


class BearerAuth:
    """Require ``Authorization: Bearer <token>`` on every path but ``open_paths``.

    Parameters
    ----------
    app : ASGI app
    token : str
        The expected token (non-empty).
    open_paths : collection of str, optional
        Paths answered without a token (default ``/health``).
    """

    def __init__(self, app, token: str, open_paths=OPEN_PATHS):
        if not token:
            raise ValueError("BearerAuth needs a non-empty token")
        self.app = app
        self._expected = token.encode("utf-8")
        self.open_paths = frozenset(open_paths)

    def _authorized(self, scope) -> bool:
        given = next((v for k, v in scope.get("headers", ()) if k == b"authorization"), b"")
        scheme, _, credential = given.partition(b" ")
        # compare_digest takes the same time whatever the credential holds
        return hmac.compare_digest(credential.strip() if scheme.lower() == b"bearer" else b"", self._expected)

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http" or scope.get("path") in self.open_paths or self._authorized(scope):
            await self.app(scope, receive, send)
            return
        await _answer(send, scope, 401, "unauthorized", "send 'Authorization: Bearer <token>'",
                      headers=[(b"www-authenticate", b'Bearer realm="paratrace"')])


class RequestGuard:
    """Read the body within ``body_timeout_s`` (408 beyond) and refuse non-finite JSON numbers (400).

    Parameters
    ----------
    app : ASGI app
    body_timeout_s : float, optional
        Seconds from the start of the request to the end of its body.
    """

    def __init__(self, app, body_timeout_s: float = DEFAULT_BODY_TIMEOUT_S):
        if not body_timeout_s > 0:
            raise ValueError(f"body_timeout_s must be positive, got {body_timeout_s}")
        self.app = app
        self.body_timeout_s = body_timeout_s

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http" or scope.get("method") in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, receive, send)
            return
        deadline = time.monotonic() + self.body_timeout_s
        chunks, more = [], True
        while more:
            try:
                message = await asyncio.wait_for(receive(), max(deadline - time.monotonic(), 0.0))
            except asyncio.TimeoutError:
                await _answer(send, scope, 408, "request_timeout",
                              f"the body did not arrive within {self.body_timeout_s:g} s", close=True)
                return
            if message["type"] != "http.request":  # the client went away
                return
            chunks.append(message.get("body", b""))
            more = message.get("more_body", False)
        body = b"".join(chunks)
        bad = non_finite_number(body)
        if bad is not None:
            await _answer(send, scope, 400, "invalid_json",
                          f"the body holds the non-finite number {bad}; JSON numbers must be finite")
            return
        where = lone_surrogate(body)
        if where is not None:
            await _answer(send, scope, 400, "invalid_json",
                          f"field {where}: a string holds a lone surrogate escape (\\ud800-\\udfff), which is "
                          "not a Unicode character")
            return
        replayed = False

        async def replay():
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)
