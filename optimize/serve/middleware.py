"""ASGI middleware of the service: request ids with one log line per request,
and the request body size limit.

Both are plain ASGI callables (no ``BaseHTTPMiddleware``), so they add
microseconds, not a task per request.
"""

from __future__ import annotations

import json
import re
import time
import uuid

from starlette.exceptions import HTTPException

from .logs import log_request

__all__ = ["BodyLimit", "REQUEST_ID_HEADER", "RequestContext", "error_body"]

REQUEST_ID_HEADER = "X-Request-ID"
_HEADER = REQUEST_ID_HEADER.lower().encode()
_GOOD_ID = re.compile(r"[A-Za-z0-9._:-]{1,128}")
_LOGGED = ("config", "model", "assistant_ms", "queue_ms", "handoff_ms", "error")


def error_body(status: int, kind: str, reason: str, request_id: str, *, field: str | None = None,
               value=None) -> dict:
    """The JSON body of an error answer (see :class:`~optimize.serve.schemas.ErrorResponse`).

    Text values are cut to 80 characters.

    Examples
    --------
    >>> error_body(422, "invalid_request", "field required", "r1", field="query")
    {'error': {'status': 422, 'kind': 'invalid_request', 'reason': 'field required', 'request_id': 'r1', 'field': 'query'}}
    """
    detail = {"status": status, "kind": kind, "reason": reason, "request_id": request_id}
    if field is not None:
        detail["field"] = field
    if value is not None:
        detail["value"] = value[:77] + "..." if isinstance(value, str) and len(value) > 80 else value
    return {"error": detail}


class RequestContext:
    """Give every request an id, echo it in ``X-Request-ID`` and log one line when it ends.

    A client's ``X-Request-ID`` (1-128 characters of ``A-Za-z0-9._:-``) is
    kept; otherwise a fresh UUID4 hex is used.  The id is put in
    ``scope["state"]["request_id"]`` for the handlers; they may add ``config``,
    ``model``, ``assistant_ms``, ``queue_ms``, ``handoff_ms`` and ``error`` to the same dict
    for the log line.
    """

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        given = next((v.decode("latin-1") for k, v in scope.get("headers", ()) if k == _HEADER), "")
        request_id = given if _GOOD_ID.fullmatch(given) else uuid.uuid4().hex
        state = scope.setdefault("state", {})
        state["request_id"] = request_id
        started = time.perf_counter()
        status = {"code": 500}

        async def send_with_id(message):
            if message["type"] == "http.response.start":
                status["code"] = message["status"]
                headers = [(k, v) for k, v in message.get("headers", ()) if k.lower() != _HEADER]
                headers.append((_HEADER, request_id.encode()))
                message = {**message, "headers": headers}
            await send(message)

        try:
            await self.app(scope, receive, send_with_id)
        finally:
            fields = {"request_id": request_id, "method": scope.get("method", ""), "path": scope.get("path", ""),
                      "status": status["code"], "latency_ms": round((time.perf_counter() - started) * 1000.0, 3)}
            fields.update((k, state[k]) for k in _LOGGED if k in state)
            log_request(fields)


class _TooLarge(HTTPException):
    """Raised from ``receive``; FastAPI passes an ``HTTPException`` through to the app's handler."""

    def __init__(self, max_bytes: int):
        super().__init__(413, f"the body passed {max_bytes} bytes (the limit)")


class BodyLimit:
    """Answer 413 to a request whose body is larger than ``max_bytes``.

    A declared ``Content-Length`` over the limit is refused without passing
    the body on; a body without one (chunked) is counted as it arrives and
    refused as soon as it passes the limit.  The rest of the body is read and
    dropped (up to ``drain_bytes``, default ``max(8 x max_bytes, 8 MiB)``) so
    that the client, still sending, reads the 413 instead of a connection
    reset; beyond that the connection is closed after the answer.
    """

    def __init__(self, app, max_bytes: int, drain_bytes: int | None = None):
        self.app = app
        self.max_bytes = max_bytes
        self.drain_bytes = max(8 * max_bytes, 8 * 1_048_576) if drain_bytes is None else drain_bytes

    async def _drain(self, receive, seen: int, more: bool) -> bool:
        """Read and drop the body; whether it ended within ``drain_bytes``."""
        while more and seen <= self.drain_bytes:
            message = await receive()
            if message["type"] != "http.request":
                return False
            seen += len(message.get("body", b""))
            more = message.get("more_body", False)
        return not more

    async def _refuse(self, scope, send, reason: str, *, close: bool) -> None:
        state = scope.setdefault("state", {})
        state["error"] = "body_too_large"
        body = json.dumps(error_body(413, "body_too_large", reason, state.get("request_id", ""))).encode()
        headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
        await send({"type": "http.response.start", "status": 413,
                    "headers": headers + ([(b"connection", b"close")] if close else [])})
        await send({"type": "http.response.body", "body": body})

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = next((v for k, v in scope.get("headers", ()) if k == b"content-length"), None)
        if declared is not None:
            if not declared.isdigit():
                await self._refuse(scope, send, f"Content-Length {declared[:20].decode('latin-1')!r} is not a number",
                                   close=True)
                return
            if int(declared) > self.max_bytes:
                drained = int(declared) <= self.drain_bytes and await self._drain(receive, 0, True)
                await self._refuse(scope, send, f"the body has {int(declared)} bytes; the limit is {self.max_bytes}",
                                   close=not drained)
                return
        seen = {"bytes": 0, "started": False}

        async def counted_receive():
            message = await receive()
            if message["type"] == "http.request":
                seen["bytes"] += len(message.get("body", b""))
                if seen["bytes"] > self.max_bytes:
                    await self._drain(receive, seen["bytes"], message.get("more_body", False))
                    raise _TooLarge(self.max_bytes)
            return message

        async def tracked_send(message):
            if message["type"] == "http.response.start":
                seen["started"] = True
            await send(message)

        try:
            await self.app(scope, counted_receive, tracked_send)
        except _TooLarge as exc:
            if seen["started"]:
                raise
            await self._refuse(scope, send, exc.detail, close=True)
