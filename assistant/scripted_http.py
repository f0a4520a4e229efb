"""The HTTP transport of the scripted LM: a stdlib OpenAI-compatible server on
``127.0.0.1`` (``POST /v1/chat/completions``) playing a
:class:`~assistant.scripted.Script`, for the litellm and OpenAI-compatible paths,
and :func:`dead_url`, an endpoint where nothing listens.
"""

from __future__ import annotations

import json
import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from .errors import BackendError, ScriptExhaustedError
from .scripted import Script, response_schema, estimate_tokens

__all__ = ["ScriptedServer", "dead_url"]


def dead_url() -> str:
    """An OpenAI-compatible base URL on ``127.0.0.1`` where nothing listens (a port just freed),
    for the connection-refused paths.

    >>> dead_url().startswith("http://127.0.0.1:") and dead_url().endswith("/v1")
    True
    """
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"


class _Handler(BaseHTTPRequestHandler):
    server: "_Server"

    def log_message(self, *args):  # silence the default stderr log
        pass

    def _send(self, code: int, body: dict):
        data = json.dumps(body).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):  # noqa: N802 (http.server naming)
        extra = self.server.routes.get(self.path)
        if extra is not None:
            self._send(200, extra())
        elif self.path in ("/health", "/v1/health"):
            self._send(200, {"status": "ok"})
        elif self.path == "/v1/models":
            self._send(200, {"object": "list", "data": [{"id": "scripted", "object": "model"}]})
        else:
            self._send(404, {"error": {"message": f"no route {self.path}"}})

    def do_POST(self):  # noqa: N802
        if not self.path.endswith("/chat/completions"):
            self._send(404, {"error": {"message": f"no route {self.path}"}})
            return
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
        self.server.headers.append({k.lower(): v for k, v in self.headers.items()})
        if self.server.api_key is not None and self.headers.get("Authorization") != f"Bearer {self.server.api_key}":
            self._send(401, {"error": {"message": "invalid api key", "type": "invalid_request_error",
                                       "code": "invalid_api_key"}})
            return
        self.server.bodies.append(body)
        messages = [{"role": m.get("role"), "content": m.get("content") if isinstance(m.get("content"), str)
                     else "".join(p.get("text", "") for p in m.get("content") or [])}
                    for m in body.get("messages", [])]
        try:
            text = self.server.script.next(messages, response_schema(body.get("response_format")))
        except ScriptExhaustedError as exc:
            self._send(500, {"error": {"message": str(exc)}})
            return
        except BackendError as exc:
            self._send(400, {"error": {"message": str(exc), "type": "invalid_request_error"}})
            return
        except Exception as exc:  # noqa: BLE001 - a failing responder answers 500, never drops the connection
            self._send(500, {"error": {"message": f"{type(exc).__name__}: {' '.join(str(exc).split())[:500]}",
                                       "type": "server_error"}})
            return
        prompt = sum(estimate_tokens(m["content"] or "") for m in messages)
        self._send(200, {
            "id": f"chatcmpl-{len(self.server.bodies)}", "object": "chat.completion", "created": 0,
            "model": body.get("model", "scripted"),
            "choices": [{"index": 0, "finish_reason": "stop",
                         "message": {"role": "assistant", "content": text}}],
            "usage": {"prompt_tokens": prompt, "completion_tokens": estimate_tokens(text),
                      "total_tokens": prompt + estimate_tokens(text)},
        })


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, script: Script, port: int = 0, routes=None, api_key: str | None = None):
        super().__init__(("127.0.0.1", port), _Handler)
        self.script = script
        self.routes = dict(routes or {})
        self.api_key = api_key
        self.bodies: list[dict] = []
        self.headers: list[dict[str, str]] = []


class ScriptedServer:
    """An OpenAI-compatible HTTP server on ``127.0.0.1`` playing a :class:`Script`.

    Use as a context manager; ``base_url`` ends in ``/v1``.  ``port`` 0 picks a
    free port; ``routes`` maps extra GET paths to callables returning JSON.

    Parameters
    ----------
    script : Script
        The replies to play.
    api_key : str, optional
        When given, a request without ``Authorization: Bearer <api_key>`` is
        answered 401 (as a hosted API would); by default no key is needed.

    Examples
    --------
    >>> import urllib.request
    >>> with ScriptedServer(Script(["hello"])) as srv:
    ...     urllib.request.urlopen(srv.base_url.replace("/v1", "/health")).status
    200
    """

    def __init__(self, script: Script, *, port: int = 0, routes=None, api_key: str | None = None):
        self.script = script
        self.port = port
        self.routes = dict(routes or {})
        self.api_key = api_key
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:PORT/v1``."""
        if self._server is None:
            raise BackendError("the scripted server is not running")
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    @property
    def bodies(self) -> list[dict]:
        """The JSON bodies of the requests received."""
        return self._server.bodies if self._server else []

    @property
    def headers(self) -> list[dict[str, str]]:
        """The headers of every request received (lower-case names), 401s included."""
        return self._server.headers if self._server else []

    def start(self) -> "ScriptedServer":
        """Bind a free port and serve in a daemon thread."""
        try:
            self._server = _Server(self.script, self.port, self.routes, self.api_key)
        except OSError as exc:
            raise BackendError(f"cannot listen on 127.0.0.1:{self.port} ({exc.strerror})") from None
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        """Shut the server down and close its socket."""
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._thread.join(timeout=5)
            self._server = None

    def __enter__(self) -> "ScriptedServer":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()
