"""uvicorn's h11 protocol with a deadline on the request head.

uvicorn (0.54, h11) arms ``timeout_keep_alive`` only after a response, and any
byte from the client cancels it: a client that opens a connection and sends
nothing, or trickles a request's headers one byte at a time (slowloris), holds
the connection forever.  :class:`GuardedH11Protocol` gives every request head
``header_timeout_s`` seconds, counted from the connection (or from the end of
the previous response on a kept-alive connection) to the end of the headers;
past it the server answers 408 and closes the connection.  The body has its
own deadline (:class:`~optimize.serve.guard.RequestGuard`).
"""

from __future__ import annotations

import asyncio

from uvicorn.protocols.http.h11_impl import H11Protocol

__all__ = ["DEFAULT_HEADER_TIMEOUT_S", "GuardedH11Protocol", "guarded_protocol"]

DEFAULT_HEADER_TIMEOUT_S = 10.0
_TIMEOUT_ANSWER = (b"HTTP/1.1 408 Request Timeout\r\ncontent-type: text/plain\r\ncontent-length: 22\r\n"
                   b"connection: close\r\n\r\nrequest head too slow\n")


class GuardedH11Protocol(H11Protocol):
    """:class:`~uvicorn.protocols.http.h11_impl.H11Protocol` plus the request-head deadline."""

    header_timeout_s: float = DEFAULT_HEADER_TIMEOUT_S
    _head_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def _arm(self) -> None:
        self._disarm()
        self._head_timer = self.loop.call_later(self.header_timeout_s, self._head_timed_out)

    def _disarm(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def handle_events(self) -> None:
        before = self.cycle
        super().handle_events()
        if self.cycle is not None and self.cycle is not before:  # a request head is complete
            self._disarm()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing() and (self.cycle is None or self.cycle.response_complete):
            self._arm()  # the next request head on this kept-alive connection

    def connection_lost(self, exc) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _head_timed_out(self) -> None:
        self._head_timer = None
        if self.transport.is_closing():
            return
        if self.cycle is None or self.cycle.response_complete:
            self.transport.write(_TIMEOUT_ANSWER)
        self.transport.close()


def guarded_protocol(header_timeout_s: float = DEFAULT_HEADER_TIMEOUT_S) -> type[GuardedH11Protocol]:
    """A :class:`GuardedH11Protocol` class with this deadline, for ``uvicorn.Config(http=...)``.

    >>> guarded_protocol(2.5).header_timeout_s
    2.5
    """
    if not header_timeout_s > 0:
        raise ValueError(f"header_timeout_s must be positive, got {header_timeout_s}")
    return type("GuardedH11Protocol", (GuardedH11Protocol,), {"header_timeout_s": float(header_timeout_s)})
