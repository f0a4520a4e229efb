"""The fallback for OpenAI-compatible servers that speak llama.cpp's dialect:
``response_format`` as ``{"type": "json_object", "schema": ...}`` instead of
``json_schema``, and the token bound as ``max_tokens`` instead of
``max_completion_tokens``.

llama-cpp-python's own server (the one the embedded model runs,
:mod:`assistant.llama_server`) answers 422 to a ``json_schema`` response
format and silently ignores ``max_completion_tokens``, so a case sent the
usual way either fails or runs unbounded.  A backbone named
``llamacpp/<served name>`` with an ``api_base`` goes through
:class:`JsonObjectEngine` instead: the request body is exactly the embedded
model's (:meth:`assistant.llama_engine.LlamaServerEngine.body`, one
definition of the rewrite) with the served model's name, sent with the key
when one is configured and the backbone's time bound.
"""

from __future__ import annotations

import json
import socket
import urllib.error
import urllib.request

from .errors import CallLimitError
from .llama_engine import LlamaServerEngine
from .local_limits import LOCAL_TIMEOUT_S

__all__ = ["JSON_OBJECT_PROVIDER", "JsonObjectEngine"]

#: The model-string prefix of backbones served through :class:`JsonObjectEngine`.
JSON_OBJECT_PROVIDER = "llamacpp"


class JsonObjectEngine(LlamaServerEngine):
    """A DSPy ``lm15`` engine for a llama.cpp-dialect OpenAI-compatible server.

    Parameters
    ----------
    base_url : str
        The server's ``/v1`` URL.
    model : str
        The served model's name (sent as ``model``).
    timeout : float, optional
        Seconds per request (the time bound of a call).
    api_key : str, optional
        Sent as ``Authorization: Bearer``; never saved with a program.

    Examples
    --------
    >>> engine = JsonObjectEngine("http://127.0.0.1:8080/v1/", "qwen", timeout=30)
    >>> engine.endpoint_id, engine.dump_state()
    ('http://127.0.0.1:8080/v1', {'base_url': 'http://127.0.0.1:8080/v1', 'model': 'qwen', 'timeout': 30})
    """

    def __init__(self, base_url: str, model: str, timeout: float = LOCAL_TIMEOUT_S, api_key: str | None = None):
        super().__init__(base_url, timeout=timeout)
        self.model = model
        self.api_key = api_key
        self.endpoint_id = self.base_url

    def dump_state(self) -> dict:
        """Saved with a program: URL, model name and time bound (never the key)."""
        return {"base_url": self.base_url, "model": self.model, "timeout": self.timeout}

    @classmethod
    def load_state(cls, state: dict) -> "JsonObjectEngine":
        """Rebuild from :meth:`dump_state` (without a key)."""
        return cls(**state)

    def body(self, request) -> dict:
        """The embedded model's request body (:meth:`LlamaServerEngine.body`) for the served model."""
        return {**super().body(request), "model": self.model}

    def complete(self, request):
        """Post one request; a timeout is the call's time bound, an error reply names its status and cause."""
        from dspy.lm15 import (InvalidRequestError, Message, Response, ServerError, TextPart, TransportError,
                               Usage)

        where = f"model {JSON_OBJECT_PROVIDER}/{self.model} at {self.base_url}"
        headers = {"Content-Type": "application/json"}
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        req = urllib.request.Request(f"{self.base_url}/chat/completions",
                                     data=json.dumps(self.body(request)).encode(), headers=headers)
        try:
            with urllib.request.urlopen(req, timeout=self.timeout) as resp:
                payload = json.loads(resp.read())
        except urllib.error.HTTPError as exc:
            detail = " ".join(exc.read(2000).decode("utf-8", "replace").split())[:500]
            kind = ServerError if exc.code >= 500 else InvalidRequestError
            raise kind(f"{where}: HTTP {exc.code}: {detail or exc.reason}", status=exc.code,
                       provider=JSON_OBJECT_PROVIDER) from None
        except (TimeoutError, socket.timeout) as exc:
            raise CallLimitError(f"{where}: no reply within the time bound of {self.timeout:g} s", kind="time",
                                 limit=self.timeout) from exc
        except urllib.error.URLError as exc:
            if isinstance(exc.reason, (TimeoutError, socket.timeout)):
                raise CallLimitError(f"{where}: no reply within the time bound of {self.timeout:g} s",
                                     kind="time", limit=self.timeout) from exc
            raise TransportError(f"{where}: {exc.reason}") from None
        except (OSError, ValueError) as exc:
            raise TransportError(f"{where}: {exc}") from None
        choice = payload["choices"][0]
        usage = payload.get("usage") or {}
        finish = choice.get("finish_reason") or "stop"
        return Response(id=payload.get("id"), model=self.model,
                        message=Message.assistant((TextPart(choice["message"].get("content") or ""),)),
                        finish_reason=finish if finish in ("stop", "length") else "stop",
                        usage=Usage(input_tokens=usage.get("prompt_tokens"),
                                    output_tokens=usage.get("completion_tokens")))
