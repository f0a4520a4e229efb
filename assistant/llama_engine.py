"""The DSPy engine of the embedded model: posts to llama.cpp's OpenAI-compatible
server with JSON-schema constrained decoding and a time bound per call; see
:mod:`assistant.local_llm` for the server itself."""

from __future__ import annotations

import json
import socket
import sys
import urllib.error
import urllib.request

from .errors import CallLimitError
from .local_limits import LOCAL_TIMEOUT_S
from .local_models import DEFAULT_LOCAL_MODEL, local_model

__all__ = ["LlamaServerEngine"]


def server_failure(base_url: str) -> str | None:
    """:func:`assistant.local_llm.server_failure` (the server's process records live there)."""
    from .local_llm import server_failure as why

    return why(base_url)


class LlamaServerEngine:
    """A DSPy ``lm15`` engine for llama.cpp's server, with JSON-schema constrained decoding.

    Parameters
    ----------
    base_url : str
        ``http://127.0.0.1:PORT/v1``.
    timeout : float, optional
        Seconds per request (the time bound of a call).
    model : str, optional
        The ``local/...`` model the server serves.
    """

    def __init__(self, base_url: str, timeout: float = LOCAL_TIMEOUT_S, model: str = DEFAULT_LOCAL_MODEL):
        self.base_url = base_url.rstrip("/")
        self.timeout = timeout
        self.model = local_model(model).name
        self.alias = local_model(model).alias
        #: The endpoint as messages and the response cache name it.
        self.endpoint_id = f"embedded llama.cpp server ({self.alias})"

    def dump_state(self) -> dict:
        """Saved with a program: the URL, the time bound and the model."""
        return {"base_url": self.base_url, "timeout": self.timeout, "model": self.model}

    @classmethod
    def load_state(cls, state: dict) -> "LlamaServerEngine":
        """Rebuild from :meth:`dump_state`."""
        return cls(**state)

    def body(self, request) -> dict:
        """The ``/chat/completions`` body for a canonical request."""
        messages = []
        if request.system is not None:
            system = request.system if isinstance(request.system, str) else "".join(p.text for p in request.system)
            messages.append({"role": "system", "content": system})
        messages.extend({"role": m.role, "content": m.text or ""} for m in request.messages)
        cfg = request.config
        body = {"model": self.alias, "messages": messages}
        for key in ("max_tokens", "temperature", "top_p", "seed"):
            if getattr(cfg, key, None) is not None:
                body[key] = getattr(cfg, key)
        if cfg.stop:
            body["stop"] = list(cfg.stop)
        fmt = cfg.response_format
        if isinstance(fmt, dict):
            schema = fmt.get("schema") or (fmt.get("json_schema") or {}).get("schema")
            body["response_format"] = {"type": "json_object", **({"schema": schema} if schema else {})}
        return body

    def _post(self, data: bytes) -> dict:
        """POST ``data`` to ``/chat/completions``; :class:`ConnectionRefusedError` when nothing listens."""
        from dspy.lm15 import TransportError

        req = urllib.request.Request(f"{self.base_url}/chat/completions", data=data,
                                     headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=self.timeout) as resp:
                return json.loads(resp.read())
        except (TimeoutError, socket.timeout) as exc:
            raise CallLimitError(f"model {self.model} at {self.base_url}: no reply within the time bound "
                                 f"of {self.timeout:.0f} s", kind="time", limit=self.timeout) from exc
        except urllib.error.URLError as exc:
            if isinstance(exc.reason, (TimeoutError, socket.timeout)):
                raise CallLimitError(f"model {self.model} at {self.base_url}: no reply within the time "
                                     f"bound of {self.timeout:.0f} s", kind="time", limit=self.timeout) from exc
            if isinstance(exc.reason, ConnectionRefusedError):
                raise exc.reason from None
            why = server_failure(self.base_url) or str(exc)
            raise TransportError(f"local llama.cpp server at {self.base_url}: {why}") from None
        except ConnectionRefusedError:
            raise
        except (OSError, ValueError) as exc:
            why = server_failure(self.base_url) or str(exc)
            raise TransportError(f"local llama.cpp server at {self.base_url}: {why}") from None

    def complete(self, request):
        """Post one request and return a canonical response.

        When nothing listens at the server's address any more (its owner, another
        paratrace process, stopped it between calls), the model's server is found
        or started again (:func:`assistant.local_llm.ensure_server`) and the request
        sent once more; a server that dies during a request is reported, not restarted.
        """
        from dspy.lm15 import Message, Response, TextPart, TransportError, Usage

        data = json.dumps(self.body(request)).encode()
        try:
            payload = self._post(data)
        except ConnectionRefusedError:
            # Nothing listens any more: the server was stopped between calls (its owner, another
            # paratrace process, ended). The embedded server is ours to manage: start or find one.
            from .local_llm import ensure_server

            gone = self.base_url
            self.base_url = ensure_server(self.model).rstrip("/")
            print(f"paratrace: the embedded llama.cpp server at {gone} was gone; continuing on "
                  f"{self.base_url}", file=sys.stderr, flush=True)
            try:
                payload = self._post(data)
            except ConnectionRefusedError as exc:
                why = server_failure(self.base_url) or str(exc)
                raise TransportError(f"local llama.cpp server at {self.base_url}: {why}") from None
        choice = payload["choices"][0]
        usage = payload.get("usage") or {}
        finish = choice.get("finish_reason") or "stop"
        return Response(id=payload.get("id"), model=self.alias,
                        message=Message.assistant((TextPart(choice["message"].get("content") or ""),)),
                        finish_reason=finish if finish in ("stop", "length") else "stop",
                        usage=Usage(input_tokens=usage.get("prompt_tokens"),
                                    output_tokens=usage.get("completion_tokens")))

    def stream(self, request):
        """Stream as a single response."""
        from dspy.lm15 import response_to_events

        return response_to_events(self.complete(request))

    def close(self):
        """Nothing pooled."""
