"""A backbone served by several replicas of one model (several vLLM or
OpenAI-compatible servers): calls are spread over them by litellm's
``Router``, which retries a failed call on another replica and cools a
failing one down, so a replica that dies mid-run costs retries, not cases.

:class:`RouterEngine` is the DSPy ``lm15`` engine of such a backbone; it sends
each request as the single-endpoint path does (messages, decoding, the
JSON-schema ``response_format``), through ``Router.completion``.
"""

from __future__ import annotations

from typing import Any, Sequence

__all__ = ["RouterEngine", "replicas_id"]

_GROUP = "paratrace-backbone"


def replicas_id(api_bases: Sequence[str]) -> str:
    """The identity of a set of replicas (the response cache's endpoint key and messages).

    >>> replicas_id(["http://b:8000/v1/", "http://a:8000/v1"])
    'replicas(http://a:8000/v1, http://b:8000/v1)'
    """
    return "replicas(" + ", ".join(sorted(b.rstrip("/") for b in api_bases)) + ")"


def _chat_format(fmt: Any) -> Any:
    """The canonical ``response_format`` of a DSPy request as the chat wire takes it."""
    if not isinstance(fmt, dict) or fmt.get("type") != "json_schema" or "json_schema" in fmt:
        return fmt
    inner = {"name": fmt.get("name") or "output", "schema": fmt.get("schema") or {}}
    if fmt.get("strict") is not None:
        inner["strict"] = fmt["strict"]
    return {"type": "json_schema", "json_schema": inner}


class RouterEngine:
    """A DSPy ``lm15`` engine over litellm's ``Router`` and several replicas of one model.

    Parameters
    ----------
    model : str
        The litellm model string every replica serves (``hosted_vllm/...``, ``openai/...``).
    api_bases : sequence of str
        The replicas' base URLs (two or more).
    api_key : str, optional
        The key every replica takes (``EMPTY`` when none).
    timeout : float, optional
        Client timeout of a call to one replica.
    num_retries : int, optional
        Calls the Router retries on another replica before giving up.

    Examples
    --------
    >>> engine = RouterEngine("openai/m", ["http://127.0.0.1:8001/v1", "http://127.0.0.1:8002/v1"])
    >>> engine.endpoint_id
    'replicas(http://127.0.0.1:8001/v1, http://127.0.0.1:8002/v1)'
    """

    def __init__(self, model: str, api_bases: Sequence[str], api_key: str | None = None,
                 timeout: float | None = None, num_retries: int = 2):
        import litellm

        self.model = model
        self.api_bases = tuple(b.rstrip("/") for b in api_bases)
        self.timeout = timeout
        self.num_retries = num_retries
        self.endpoint_id = replicas_id(self.api_bases)
        params = {"model": model, "api_key": api_key or "EMPTY", **({"timeout": timeout} if timeout else {})}
        self._router = litellm.Router(
            model_list=[{"model_name": _GROUP, "litellm_params": {**params, "api_base": base}}
                        for base in self.api_bases],
            num_retries=num_retries, allowed_fails=0, cooldown_time=30)

    def dump_state(self) -> dict:
        """Saved with a program: model, replicas and bounds (never the key)."""
        return {"model": self.model, "api_bases": list(self.api_bases), "timeout": self.timeout,
                "num_retries": self.num_retries}

    @classmethod
    def load_state(cls, state: dict) -> "RouterEngine":
        """Rebuild from :meth:`dump_state` (without a key)."""
        return cls(**state)

    def request_kwargs(self, request) -> dict:
        """The chat request of a canonical request (messages, decoding, response format)."""
        messages = []
        if request.system is not None:
            system = request.system if isinstance(request.system, str) else "".join(p.text for p in request.system)
            messages.append({"role": "system", "content": system})
        messages.extend({"role": m.role, "content": m.text or ""} for m in request.messages)
        cfg = request.config
        kwargs: dict[str, Any] = {"messages": messages}
        for key in ("max_tokens", "temperature", "top_p", "seed"):
            if getattr(cfg, key, None) is not None:
                kwargs[key] = getattr(cfg, key)
        if cfg.stop:
            kwargs["stop"] = list(cfg.stop)
        if cfg.response_format:
            kwargs["response_format"] = _chat_format(cfg.response_format)
        return kwargs

    def complete(self, request):
        """One call, on the replica the Router picks (another one on a failure)."""
        from dspy.lm15 import Message, Response, TextPart, Usage

        resp = self._router.completion(model=_GROUP, **self.request_kwargs(request))
        choice = resp.choices[0]
        usage = getattr(resp, "usage", None)
        finish = getattr(choice, "finish_reason", None) or "stop"
        return Response(id=getattr(resp, "id", None), model=self.model,
                        message=Message.assistant((TextPart(choice.message.content or ""),)),
                        finish_reason=finish if finish in ("stop", "length") else "stop",
                        usage=Usage(input_tokens=getattr(usage, "prompt_tokens", None),
                                    output_tokens=getattr(usage, "completion_tokens", None)))

    def stream(self, request):
        """Stream as a single response."""
        from dspy.lm15 import response_to_events

        return response_to_events(self.complete(request))

    def close(self):
        """Nothing pooled beyond the Router's clients."""
