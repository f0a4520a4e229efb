"""A deterministic LM that plays recorded replies through the real DSPy /
Instructor path, for tests, dry runs and the experiments runner.

Two transports share one :class:`Script`:

* :class:`ScriptedEngine`, a DSPy ``lm15`` engine (``dspy.LM(..., engine=...)``);
  no socket at all.
* :class:`~assistant.scripted_http.ScriptedServer`, a stdlib
  OpenAI-compatible HTTP server on ``127.0.0.1`` (``POST /v1/chat/completions``),
  for the litellm and OpenAI-compatible paths.

A script replays its replies in order.  When they run out it either raises
:class:`~assistant.errors.ScriptExhaustedError` or, in ``fallback="null"``
mode, answers with the smallest reply the request's JSON schema accepts
(empty lists, ``undecidable``), which is what ``scripted/null`` does for dry
runs.  Every request is kept (``Script.requests``) so tests can assert on
the prompts.  Token counts are estimated as ``ceil(characters / 4)``.
"""

from __future__ import annotations

import json
import math
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable

from pydantic import BaseModel

from .errors import BackendError, ScriptExhaustedError

__all__ = [
    "Script",
    "ScriptedEngine",
    "check_scripted",
    "estimate_tokens",
    "load_replies",
    "minimal_instance",
    "response_schema",
    "scripted_lm",
]

Reply = str | dict | BaseModel | Callable[[list[dict]], str]


def estimate_tokens(text: str) -> int:
    """Token estimate used by the scripted backend: ``ceil(len(text) / 4)``.

    >>> estimate_tokens("abcdefghi")
    3
    """
    return math.ceil(len(text) / 4)


def _as_text(reply: Reply, messages: list[dict]) -> str:
    if callable(reply) and not isinstance(reply, BaseModel):
        reply = reply(messages)
    if isinstance(reply, BaseModel):
        return reply.model_dump_json()
    if isinstance(reply, (dict, list)):
        return json.dumps(reply, ensure_ascii=False)
    return str(reply)


def minimal_instance(schema: dict, root: dict | None = None) -> Any:
    """The smallest value a JSON schema accepts (empty lists, first enum value,
    ``undecidable`` when it is allowed), used for dry-run replies.

    Examples
    --------
    >>> minimal_instance({"type": "object", "required": ["s", "xs"], "properties": {
    ...     "s": {"enum": ["accepted", "undecidable"]}, "xs": {"type": "array"}, "n": {"type": "string"}}})
    {'s': 'undecidable', 'xs': []}
    """
    root = root if root is not None else schema
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[-1]
        return minimal_instance(root.get("$defs", {})[name], root)
    for key in ("anyOf", "oneOf", "allOf"):
        if key in schema:
            options = schema[key]
            nullable = [o for o in options if o.get("type") == "null"]
            return None if nullable else minimal_instance(options[0], root)
    if "enum" in schema:
        return "undecidable" if "undecidable" in schema["enum"] else schema["enum"][0]
    if "const" in schema:
        return schema["const"]
    if "default" in schema:
        return schema["default"]
    kind = schema.get("type")
    if kind == "object" or "properties" in schema:
        props = schema.get("properties", {})
        return {name: minimal_instance(props[name], root) for name in schema.get("required", []) if name in props}
    if kind == "array":
        return []
    if kind == "string":
        return "" if not schema.get("minLength") else "no answer"
    if kind in ("integer", "number"):
        return schema.get("minimum", 0)
    if kind == "boolean":
        return False
    return None


@dataclass
class Script:
    """Replies to play, in order, and the requests received.

    Parameters
    ----------
    replies : iterable
        Each reply is raw text, a dict or pydantic model (sent as JSON), or a
        callable ``messages -> text``.
    fallback : {"error", "null"}
        What to do once the replies run out.
    responder : callable, optional
        ``responder(messages, schema) -> text`` answers once the replies run
        out, before ``fallback`` (the oracle backbones of
        :mod:`assistant.oracle`).  It may raise :class:`BackendError`, which
        the HTTP server returns as a 400 error naming the problem.

    Examples
    --------
    >>> s = Script(['{"a": 1}'], fallback="null")
    >>> s.next([{"role": "user", "content": "hi"}], {"type": "object", "required": ["b"],
    ...        "properties": {"b": {"type": "array"}}})
    '{"a": 1}'
    >>> s.next([], {"type": "object", "required": ["b"], "properties": {"b": {"type": "array"}}})
    '{"b": []}'
    >>> len(s.requests)
    2
    """

    replies: Iterable[Reply] = ()
    fallback: str = "error"
    responder: Callable[[list[dict], dict | None], str] | None = None
    requests: list[list[dict]] = field(default_factory=list)
    schemas: list[dict | None] = field(default_factory=list)

    def __post_init__(self):
        self.replies = list(self.replies)
        if self.fallback not in ("error", "null"):
            raise ValueError(f"fallback must be 'error' or 'null', got {self.fallback!r}")
        self._lock = threading.Lock()
        self._next = 0

    def next(self, messages: list[dict], schema: dict | None = None) -> str:
        """Record a request and return the next reply text."""
        with self._lock:
            self.requests.append(messages)
            self.schemas.append(schema)
            reply = None
            if self._next < len(self.replies):
                reply = self.replies[self._next]
                self._next += 1
        if reply is not None:
            # Outside the lock: a reply callable may take time (a slow LM) and
            # concurrent requests must not queue behind it.
            return _as_text(reply, messages)
        if self.responder is not None:
            return self.responder(messages, schema)
        if self.fallback == "null" and schema is not None:
            return json.dumps(minimal_instance(schema), ensure_ascii=False)
        raise ScriptExhaustedError(
            f"the script holds {len(self.replies)} replies and request {len(self.requests)} asked for one more")

    @property
    def prompts(self) -> list[str]:
        """Every request as one text, for assertions."""
        return ["\n".join(str(m.get("content", "")) for m in msgs) for msgs in self.requests]


def response_schema(response_format: Any) -> dict | None:
    """The JSON schema inside an OpenAI ``response_format`` (``json_schema`` or
    llama.cpp's ``json_object`` + ``schema``), or None."""
    if not isinstance(response_format, dict):
        return None
    if "json_schema" in response_format:
        return response_format["json_schema"].get("schema")
    return response_format.get("schema")


class ScriptedEngine:
    """A DSPy ``lm15`` engine answering from a :class:`Script`."""

    def __init__(self, script: Script):
        self.script = script

    def complete(self, request):
        """Answer one canonical request (the ``Engine`` protocol)."""
        from dspy.lm15 import Message, Response, TextPart, Usage

        messages: list[dict] = []
        if request.system is not None:
            system = request.system if isinstance(request.system, str) else "".join(p.text for p in request.system)
            messages.append({"role": "system", "content": system})
        messages.extend({"role": m.role, "content": m.text or ""} for m in request.messages)
        text = self.script.next(messages, response_schema(request.config.response_format))
        prompt = sum(estimate_tokens(m["content"]) for m in messages)
        usage = Usage(input_tokens=prompt, output_tokens=estimate_tokens(text))
        return Response(id=None, model="scripted", message=Message.assistant((TextPart(text),)),
                        finish_reason="stop", usage=usage)

    def stream(self, request):
        """Stream one canonical request as a single response."""
        from dspy.lm15 import response_to_events

        return response_to_events(self.complete(request))

    def close(self):
        """Nothing to release."""


def load_replies(path: str | Path) -> list[str]:
    """Read recorded replies from a JSONL file: one ``{"reply": ...}`` object a line.

    Raises
    ------
    BackendError
        Naming the file and line of a malformed record.
    """
    from symbolic.support.fsio import PathError, read_text

    path = Path(path)
    try:
        lines = read_text(path).splitlines()
    except PathError as exc:
        raise BackendError(f"{path}: cannot read recorded replies ({exc.reason})") from None
    replies = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
            reply = record["reply"]
        except (ValueError, KeyError, TypeError):
            raise BackendError(f"{path}:{number}: expected a JSON object with a 'reply' field") from None
        replies.append(reply if isinstance(reply, str) else json.dumps(reply, ensure_ascii=False))
    return replies


def check_scripted(model: str) -> None:
    """Refuse a ``scripted/...`` name that :func:`scripted_lm` cannot build (no file is read).

    Raises
    ------
    BackendError
        For a name other than ``scripted/null`` and ``scripted/replay:PATH``.

    >>> check_scripted("scripted/null")
    """
    name = model.partition("/")[2]
    if name != "null" and not (name.startswith("replay:") and len(name) > len("replay:")):
        raise BackendError(f"unknown scripted model {model!r}; use scripted/null or scripted/replay:PATH")


def scripted_lm(model: str = "scripted/null", script: Script | None = None):
    """A ``dspy.LM`` over a :class:`ScriptedEngine`.

    ``scripted/null`` answers every request with the minimal valid reply;
    ``scripted/replay:PATH`` plays the replies recorded in ``PATH`` (JSONL) and
    then falls back to minimal replies.  Pass ``script`` to supply replies.

    Raises
    ------
    BackendError
        For any other ``scripted/...`` name.

    Examples
    --------
    >>> lm = scripted_lm("scripted/test", Script(['{"x": 1}']))
    >>> lm.forward(messages=[{"role": "user", "content": "hi"}]).choices[0].message.content
    '{"x": 1}'
    """
    import dspy

    if script is None:
        name = model.partition("/")[2]
        if name == "null":
            script = Script(fallback="null")
        elif name.startswith("replay:"):
            script = Script(load_replies(name[len("replay:"):]), fallback="null")
        else:
            raise BackendError(f"unknown scripted model {model!r}; use scripted/null or scripted/replay:PATH")
    return dspy.LM(model, engine=ScriptedEngine(script), cache=False)
