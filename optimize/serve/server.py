"""Run the service under uvicorn: in the foreground (``paratrace serve``) with
graceful shutdown, or in a background thread on a free loopback port (tests,
benchmarks).

Graceful shutdown: on SIGINT or SIGTERM uvicorn stops accepting connections,
lets running requests finish for up to ``grace_s`` seconds, then runs the
app's lifespan shutdown, which drops queued calls
(:meth:`~optimize.serve.service.Service.close`).
"""

from __future__ import annotations

import socket
import threading
import time
from typing import Callable

from .errors import ServeError
from .logs import configure_logging
from .protocol import DEFAULT_HEADER_TIMEOUT_S, guarded_protocol

__all__ = ["BackgroundServer", "DEFAULT_KEEP_ALIVE_S", "run"]


DEFAULT_KEEP_ALIVE_S = 5.0


def _config(app, *, host: str, port: int, grace_s: float, limit_concurrency: int | None, log_level: str,
            header_timeout_s: float = DEFAULT_HEADER_TIMEOUT_S, keep_alive_s: float = DEFAULT_KEEP_ALIVE_S):
    import uvicorn

    return uvicorn.Config(app, host=host, port=port, log_config=None, access_log=False, lifespan="on",
                          timeout_graceful_shutdown=grace_s, limit_concurrency=limit_concurrency,
                          server_header=False, date_header=False, log_level=log_level,
                          http=guarded_protocol(header_timeout_s), timeout_keep_alive=keep_alive_s)


def run(app, *, host: str = "127.0.0.1", port: int = 8000, grace_s: float = 30.0,
        limit_concurrency: int | None = 256, log_level: str = "info",
        header_timeout_s: float = DEFAULT_HEADER_TIMEOUT_S, keep_alive_s: float = DEFAULT_KEEP_ALIVE_S,
        announce: Callable[[int], None] | None = None) -> None:
    """Serve ``app`` until SIGINT/SIGTERM, with JSON logs on stderr.

    Parameters
    ----------
    app : ASGI app
        Usually :func:`optimize.serve.app.create_app`'s.
    host : str, optional
        Interface to bind (loopback by default).
    port : int, optional
        TCP port.
    grace_s : float, optional
        Seconds running requests get to finish at shutdown.
    limit_concurrency : int, optional
        Open connections beyond which uvicorn answers 503 at once.
    log_level : str, optional
        ``debug``, ``info``, ``warning`` or ``error``.
    header_timeout_s : float, optional
        Seconds a client has to send a request head (408 and close beyond;
        :class:`~optimize.serve.protocol.GuardedH11Protocol`).
    keep_alive_s : float, optional
        Seconds an idle kept-alive connection stays open.
    announce : callable, optional
        ``announce(port)`` once the socket is bound, with the port it got
        (the real one for ``port=0``).

    Raises
    ------
    ServeError
        If the port cannot be bound (naming host, port and the reason).
    """
    import uvicorn

    configure_logging(log_level)
    sock = _bind(host, port)
    if announce is not None:
        announce(sock.getsockname()[1])
    uvicorn.Server(_config(app, host=host, port=port, grace_s=grace_s, limit_concurrency=limit_concurrency,
                           log_level=log_level, header_timeout_s=header_timeout_s,
                           keep_alive_s=keep_alive_s)).run(sockets=[sock])


def _bind(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # proto=IPPROTO_TCP matters: asyncio sets TCP_NODELAY only on sockets that say TCP, and without it
    # Nagle plus the client's delayed ACK add ~40 ms to every answer on a kept-alive connection
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        raise ServeError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    sock.listen(2048)
    sock.set_inheritable(True)
    return sock


class BackgroundServer:
    """The app served by uvicorn in a daemon thread on ``127.0.0.1`` and a free port.

    Parameters
    ----------
    app : ASGI app
    start_timeout_s : float, optional
        How long :meth:`start` waits for the server to accept connections.
    header_timeout_s, keep_alive_s : float, optional
        As in :func:`run`.

    Examples
    --------
    >>> import urllib.request
    >>> from assistant.api import Assistant
    >>> from optimize.serve.app import create_app
    >>> with BackgroundServer(create_app(lambda c: Assistant(c, "scripted/null"), workers=1)) as srv:
    ...     urllib.request.urlopen(srv.url + "/health").status
    200
    """

    def __init__(self, app, *, start_timeout_s: float = 30.0, limit_concurrency: int | None = 256,
                 header_timeout_s: float = DEFAULT_HEADER_TIMEOUT_S, keep_alive_s: float = DEFAULT_KEEP_ALIVE_S):
        self.app = app
        self.header_timeout_s = header_timeout_s
        self.keep_alive_s = keep_alive_s
        self.start_timeout_s = start_timeout_s
        self.limit_concurrency = limit_concurrency
        self._server = None
        self._thread: threading.Thread | None = None
        self.port = 0

    @property
    def url(self) -> str:
        """``http://127.0.0.1:PORT``."""
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> "BackgroundServer":
        """Bind a free loopback port and serve until :meth:`stop`.

        Raises
        ------
        ServeError
            If the server does not come up within ``start_timeout_s``.
        """
        import uvicorn

        sock = _bind("127.0.0.1", 0)
        self.port = sock.getsockname()[1]
        self._server = uvicorn.Server(_config(self.app, host="127.0.0.1", port=self.port, grace_s=5.0,
                                              limit_concurrency=self.limit_concurrency, log_level="warning",
                                              header_timeout_s=self.header_timeout_s,
                                              keep_alive_s=self.keep_alive_s))
        self._thread = threading.Thread(target=self._server.run, kwargs={"sockets": [sock]}, daemon=True,
                                        name="paratrace-serve-uvicorn")
        self._thread.start()
        deadline = time.monotonic() + self.start_timeout_s
        while not self._server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                self.stop()
                raise ServeError(f"the server on 127.0.0.1:{self.port} did not start "
                                 f"within {self.start_timeout_s:g} s")
            time.sleep(0.01)
        return self

    def stop(self) -> None:
        """Ask uvicorn to exit (graceful) and wait for its thread."""
        if self._server is not None:
            self._server.should_exit = True
            if self._thread is not None:
                self._thread.join(timeout=15)
            self._server = None

    def __enter__(self) -> "BackgroundServer":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()
