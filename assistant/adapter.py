"""``InstructorAdapter``: DSPy formats the prompt, Instructor validates and re-asks.

The adapter keeps DSPy in charge of the messages (signature instructions,
field descriptions and demos stay under the optimizers' control) and sends
them through Instructor over the DSPy LM's own ``forward`` (its engine and
retries; replies are cached by :mod:`assistant.cache`, keyed by endpoint too,
and only once validated).  Instructor parses the reply into a pydantic model built from the
signature's output fields, with the call's inputs as validation context, and
re-asks with the validation error a bounded number of times.  When the retries
are spent the adapter raises :class:`~assistant.errors.ValidationFailure`
carrying the raw text.

Every attempt is recorded: in ``lm.history`` and DSPy's usage tracker (which
``lm.forward`` skips) and in the active
:class:`CallLog` (:func:`recording`), with tokens and latency per call.
"""

from __future__ import annotations

import asyncio
import contextvars
import datetime
import json
import time
import uuid
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Iterator

import dspy
import instructor
import pydantic
from dspy.adapters.chat_adapter import FieldInfoWithName
from dspy.clients.capabilities import with_capability_planning
from instructor.core.exceptions import InstructorRetryException

from .cache import active_cache, endpoint_of, request_key
from .constrained import case_schema, output_example
from .errors import CallLimitError, ValidationFailure, call_limit_in
from .evidence import ids_in_lines

__all__ = ["CallLog", "CallRecord", "InstructorAdapter", "case_response_format", "compact_schema",
           "decodes_under_grammar", "recording",
           "response_model_for"]

_DROP = ("n", "tools", "tool_choice", "response_format", "rollout_id")
#: Whether the call being formatted decodes under the per-case grammar (then an example replaces the schema).
_GRAMMAR: contextvars.ContextVar[bool] = contextvars.ContextVar("paratrace_grammar", default=False)
#: How Instructor asks for structured output: the ``response_format`` of constrained decoding.
_MODE = instructor.Mode.JSON_SCHEMA


@dataclass(frozen=True, slots=True)
class CallRecord:
    """One LM call (an attempt; a re-ask is a new call).

    Attributes
    ----------
    model : str
    prompt_tokens, completion_tokens : int
    latency_ms : float
    raw_text : str
        The reply text.
    cache_hit : bool
    error : str or None
        The validation error Instructor re-asked with, if this reply failed.
    """

    model: str
    prompt_tokens: int
    completion_tokens: int
    latency_ms: float
    raw_text: str
    cache_hit: bool = False
    error: str | None = None


@dataclass
class CallLog:
    """The calls made while :func:`recording` is active."""

    calls: list[CallRecord] = field(default_factory=list)

    def mark_error(self, error: str) -> None:
        """Attach a validation error to the latest call."""
        if self.calls:
            last = self.calls[-1]
            self.calls[-1] = CallRecord(last.model, last.prompt_tokens, last.completion_tokens, last.latency_ms,
                                        last.raw_text, last.cache_hit, error)

    @property
    def prompt_tokens(self) -> int:
        """Prompt tokens summed over the calls."""
        return sum(c.prompt_tokens for c in self.calls)

    @property
    def completion_tokens(self) -> int:
        """Completion tokens summed over the calls."""
        return sum(c.completion_tokens for c in self.calls)

    @property
    def errors(self) -> tuple[str, ...]:
        """The validation errors, in order."""
        return tuple(c.error for c in self.calls if c.error)


_ACTIVE: contextvars.ContextVar[CallLog | None] = contextvars.ContextVar("paratrace_call_log", default=None)


@contextmanager
def recording() -> Iterator[CallLog]:
    """Collect every LM call made by :class:`InstructorAdapter` inside the block.

    Examples
    --------
    >>> with recording() as log:
    ...     pass
    >>> log.calls
    []
    """
    log = CallLog()
    token = _ACTIVE.set(log)
    try:
        yield log
    finally:
        _ACTIVE.reset(token)


def response_model_for(signature, inputs: dict[str, Any] | None = None) -> type[pydantic.BaseModel]:
    """A pydantic model with one field per output field of ``signature``.

    With the call's ``inputs``, the model's JSON schema (what a constrained
    decoder receives) is the per-case grammar of :func:`assistant.constrained.case_schema`
    where the output types have one; validation is the same either way.
    """
    def desc(f) -> str | None:
        text = (f.json_schema_extra or {}).get("desc")
        return None if not text or text.startswith("${") else text

    fields = {name: (f.annotation, pydantic.Field(description=desc(f))) for name, f in signature.output_fields.items()}
    model = pydantic.create_model(f"{signature.__name__}Output", **fields)
    schema = case_schema({n: f.annotation for n, f in signature.output_fields.items()}, inputs) if inputs else None
    if schema is None:
        return model
    return type(model.__name__, (model,), {"__module__": model.__module__,
                                           "model_json_schema": classmethod(lambda cls, *a, **k: schema)})


def _strip(node: Any, *, in_properties: bool = False) -> Any:
    if isinstance(node, dict):
        out = {}
        for key, value in node.items():
            if key == "title" and not in_properties:
                continue
            if key == "description" and not in_properties and isinstance(value, str) and (
                    "type" in node and node.get("type") == "object" or "enum" in node):
                continue  # model and enum docstrings are developer text; field descriptions stay
            out[key] = _strip(value, in_properties=(key == "properties"))
        return out
    if isinstance(node, list):
        return [_strip(v) for v in node]
    return node


def compact_schema(model: type[pydantic.BaseModel]) -> str:
    """The JSON schema of ``model`` for a prompt: no titles, no model or enum docstrings, no spaces.

    Examples
    --------
    >>> class Out(pydantic.BaseModel):
    ...     "Developer note."
    ...     n: int = pydantic.Field(description="How many.")
    >>> compact_schema(Out)
    '{"properties":{"n":{"description":"How many.","type":"integer"}},"required":["n"],"type":"object"}'
    """
    return json.dumps(_strip(model.model_json_schema()), separators=(",", ":"), ensure_ascii=False)


def _usage(resp) -> dict[str, int]:
    usage = getattr(resp, "usage", None)
    if usage is None:
        return {}
    if not isinstance(usage, dict):
        usage = usage.model_dump() if hasattr(usage, "model_dump") else dict(vars(usage))
    return {k: int(usage.get(k) or 0) for k in ("prompt_tokens", "completion_tokens", "total_tokens")}


def _text(resp) -> str:
    try:
        return resp.choices[0].message.content or ""
    except (AttributeError, IndexError, KeyError, TypeError):
        return ""


class InstructorAdapter(dspy.JSONAdapter):
    """A DSPy adapter whose call path is Instructor over the DSPy LM.

    Parameters
    ----------
    max_retries : int, optional
        Re-asks after the first reply (so at most ``max_retries + 1`` calls).
    constrained : bool, optional
        Send the output JSON schema as ``response_format`` (constrained
        decoding).  ``None`` decides per LM: yes for ``scripted/`` models and
        models with an ``api_base`` (llama.cpp, vLLM), no otherwise (the schema
        is in the prompt either way).
    endpoint : str, optional
        The endpoint's identity in the response cache key
        (:func:`assistant.cache.endpoint_of` of the LM when ``None``).

    Notes
    -----
    Replies are cached by :mod:`assistant.cache` (when a cache is active and
    the LM was built with ``cache=True``), and only once Instructor accepted
    them.  A reply cut off at ``max_tokens`` raises
    :class:`~assistant.errors.CallLimitError` at once, without a re-ask.
    """

    def __init__(self, max_retries: int = 2, constrained: bool | None = None, endpoint: str | None = None,
                 **kwargs):
        super().__init__(use_native_function_calling=False, **kwargs)
        if max_retries < 0:
            raise ValueError(f"max_retries must be >= 0, got {max_retries}")
        self.max_retries = max_retries
        self.constrained = constrained
        self.endpoint = endpoint

    def format_field_structure(self, signature) -> str:
        """The input layout, the output layout and the output JSON schema, once and compact.

        Under a per-case grammar (:mod:`assistant.constrained`) the decoder enforces the
        schema, and a short example of the reply replaces it in the prompt.
        """
        inputs = self.format_field_with_value(
            {FieldInfoWithName(name=n, info=f): f"{{{n}}}" for n, f in signature.input_fields.items()}, role="user")
        outputs = json.dumps({n: f"{{{n}}}" for n in signature.output_fields}, ensure_ascii=False)
        example = output_example({n: f.annotation for n, f in signature.output_fields.items()}) \
            if _GRAMMAR.get() else None
        if example is not None:
            return "\n\n".join([
                "All interactions will be structured in the following way, with the appropriate values filled in.",
                "Inputs will have the following structure:", inputs,
                "Outputs will be a JSON object with the following fields.", outputs,
                "For example (the shape only: replace every <...> with what the actual evidence gives):",
                example])
        return "\n\n".join([
            "All interactions will be structured in the following way, with the appropriate values filled in.",
            "Inputs will have the following structure:", inputs,
            "Outputs will be a JSON object with the following fields.", outputs,
            "It must validate against this JSON schema:", compact_schema(response_model_for(signature)),
        ])

    def format_demos(self, signature, demos):
        """Demos as chat turns; under a per-case grammar, extraction demos in the form it decodes.

        A demo's theory (:class:`~assistant.extraction.Extraction`, as gold demos and
        optimizers hold it) is shown in the by-fragment form
        (:func:`assistant.by_fragment.to_fragments`) when the call decodes under the grammar.
        """
        if _GRAMMAR.get():
            demos = [_by_fragment_demo(signature, demo) for demo in demos]
        return super().format_demos(signature, demos)

    def _constrained(self, lm) -> bool:
        if self.constrained is not None:
            return self.constrained
        return lm.model.startswith("scripted/") or bool(lm.kwargs.get("api_base"))

    @with_capability_planning
    def __call__(self, lm, lm_kwargs, signature, demos, inputs):
        lm_kwargs = {k: v for k, v in lm_kwargs.items() if k not in _DROP}
        constrained = self._constrained(lm)
        grammar = constrained and case_schema({n: f.annotation for n, f in signature.output_fields.items()},
                                              dict(inputs)) is not None
        token = _GRAMMAR.set(grammar)
        try:
            messages = self.format(signature, demos, inputs)
        finally:
            _GRAMMAR.reset(token)
        log = _ACTIVE.get()
        call_errors: list[Exception] = []
        cache = active_cache() if getattr(lm, "cache", False) else None
        endpoint = self.endpoint or endpoint_of(lm)
        pending: list[tuple[str, Any]] = []

        def complete(**kw):
            kw.pop("model", None)
            msgs = kw.pop("messages")
            if not constrained:
                kw.pop("response_format", None)
            params = {**lm.kwargs, **lm_kwargs, **kw}
            key = request_key(model=lm.model, endpoint=endpoint, params=params, messages=msgs,
                              response_format=kw.get("response_format"))
            started = time.perf_counter()
            resp = cache.get(key) if cache is not None else None
            if resp is None:
                try:
                    resp = lm.forward(messages=msgs, cache=False, **{**lm_kwargs, **kw})
                except Exception as exc:  # transport errors are not validation errors
                    limit = call_limit_in(exc)
                    call_errors.append(limit or exc)
                    if limit is not None:
                        raise limit from exc
                    raise
            elapsed = (time.perf_counter() - started) * 1000.0
            _mask_reply(resp)  # the model's text enters the process here, secrets masked
            usage, text = _usage(resp), _text(resp)
            cache_hit = bool(getattr(resp, "cache_hit", False))
            if log is not None:
                log.calls.append(CallRecord(lm.model, usage.get("prompt_tokens", 0),
                                            usage.get("completion_tokens", 0), elapsed, text, cache_hit))
            if usage and not cache_hit and dspy.settings.usage_tracker:
                dspy.settings.usage_tracker.add_usage(lm.model, usage)
            if not dspy.settings.disable_history:
                lm.update_history({"prompt": None, "messages": msgs, "kwargs": {}, "response": resp,
                                   "outputs": [text], "usage": usage, "cost": None, "model": lm.model,
                                   "timestamp": datetime.datetime.now().isoformat(), "uuid": str(uuid.uuid4()),
                                   "model_type": lm.model_type})
            limit = params.get("max_tokens")
            if _finish_reason(resp) == "length" or (
                    limit and not cache_hit and usage.get("completion_tokens", 0) >= int(limit)):
                call_errors.append(CallLimitError(
                    f"model {lm.model} at {endpoint}: the reply reached the token bound (max_tokens={limit}) "
                    "unfinished", kind="tokens", limit=float(limit or 0)))
                raise call_errors[-1]
            pending[:] = [] if cache_hit else [(key, resp)]
            return resp

        client = instructor.from_litellm(complete, mode=_MODE)
        if log is not None:
            client.on("parse:error", lambda error: log.mark_error(_short(error)))
        try:
            obj, _ = client.chat.completions.create_with_completion(
                model=lm.model, messages=messages,
                response_model=response_model_for(signature, dict(inputs) if constrained else None),
                max_retries=self.max_retries, strict=False, context=dict(inputs))
        except CallLimitError:
            raise
        except InstructorRetryException as exc:
            attempts = getattr(exc, "failed_attempts", None) or ()
            if call_errors and (not attempts or attempts[-1].exception is call_errors[-1]
                                or str(call_errors[-1]) in str(attempts[-1].exception)):
                # The LM call itself failed (timeout, 429, 5xx...): let the caller retry it,
                # with its cause chain intact (``from None`` would erase the provider error).
                raise call_errors[-1]
            raw = _text(getattr(exc, "last_completion", None))
            errors = tuple(_short(a.exception) for a in getattr(exc, "failed_attempts", None) or ())
            raise ValidationFailure(
                f"the LM output failed validation after {self.max_retries + 1} attempts: "
                + (errors[-1] if errors else str(exc).splitlines()[0]), raw_text=raw, errors=errors) from None
        if cache is not None and pending:
            cache.put(*pending[-1])  # the accepted reply; failed attempts are never stored
        return [{name: getattr(obj, name) for name in signature.output_fields}]

    async def acall(self, lm, lm_kwargs, signature, demos, inputs):
        """Run :meth:`__call__` in a worker thread."""
        ctx = contextvars.copy_context()
        return await asyncio.to_thread(ctx.run, self.__call__, lm, lm_kwargs, signature, demos, inputs)


class _Sent(Exception):
    """Stops :func:`case_response_format`'s request once Instructor has built it."""


class _ProbeReply(pydantic.BaseModel):
    ok: bool


def _fragment_ids(evidence: Any) -> list[str]:
    """A demo's fragment ids in package order (a package, its dict, or its text in a saved program)."""
    if hasattr(evidence, "fragments"):
        return [f.id for f in evidence.fragments]
    if isinstance(evidence, dict):
        return [str(f.get("id")) for f in evidence.get("fragments") or () if isinstance(f, dict)]
    return ids_in_lines(evidence) if isinstance(evidence, str) else []


def _by_fragment_demo(signature, demo):
    """``demo`` with each extraction output in the by-fragment form (unchanged where it has none)."""
    from .by_fragment import to_fragments
    from .extraction import Extraction

    changed = {}
    for name, field in signature.output_fields.items():
        value = demo.get(name) if hasattr(demo, "get") else None
        if not (isinstance(field.annotation, type) and issubclass(field.annotation, Extraction)) or value is None:
            continue
        try:
            theory = value if isinstance(value, Extraction) else field.annotation.model_validate(value)
        except pydantic.ValidationError:
            continue
        target = getattr(theory, "target", None) or demo.get("target")
        ids = _fragment_ids(demo.get("evidence"))
        if not target or not ids:
            continue
        roles = to_fragments(theory.facts, theory.rules, theory.priorities, target, ids)
        changed[name] = {"target": theory.target, **roles} if getattr(theory, "target", None) else roles
    return {**dict(demo.items()), **changed} if changed else demo


def decodes_under_grammar() -> bool:
    """Whether the active DSPy adapter and LM decode replies under per-case grammars.

    True when the active adapter is an :class:`InstructorAdapter` that sends the
    schema as ``response_format`` to the active LM (:mod:`assistant.constrained`).
    """
    adapter, lm = dspy.settings.adapter, dspy.settings.lm
    return isinstance(adapter, InstructorAdapter) and lm is not None and adapter._constrained(lm)


def case_response_format(response_model: type[pydantic.BaseModel] = _ProbeReply) -> dict:
    """The ``response_format`` a case sends for ``response_model``, built by the same
    Instructor client as :class:`InstructorAdapter`'s (nothing is sent anywhere).

    Examples
    --------
    >>> fmt = case_response_format()
    >>> fmt["type"], sorted(fmt["json_schema"]["schema"]["properties"])
    ('json_schema', ['ok'])
    """
    sent: dict[str, Any] = {}

    def complete(**kw):
        sent.update(kw)
        raise _Sent

    import logging

    client = instructor.from_litellm(complete, mode=_MODE)
    quiet = logging.getLogger("instructor")
    level = quiet.level
    quiet.setLevel(logging.CRITICAL + 1)  # Instructor logs the stop as a failed call
    try:
        client.chat.completions.create(model="probe", messages=[{"role": "user", "content": "?"}],
                                       response_model=response_model, max_retries=0)
    except Exception:  # noqa: BLE001 - Instructor wraps the stop in its own retry error
        pass
    finally:
        quiet.setLevel(level)
    if "response_format" not in sent:
        raise RuntimeError(f"Instructor's {_MODE} sent no response_format")
    return sent["response_format"]


def _mask_reply(resp) -> None:
    """Mask secrets in the reply's message texts in place (:func:`symbolic.support.redact.redact_text`).

    A model (or a proxy) that echoes the request's ``Authorization`` header or
    the key would otherwise put it into the parsed payload, the raw text, the
    re-ask log, the response cache, the history and every file or answer made
    from them.
    """
    from symbolic.support.redact import redact_text

    for choice in getattr(resp, "choices", None) or ():
        message = getattr(choice, "message", None)
        content = getattr(message, "content", None)
        if isinstance(content, str):
            clean = redact_text(content)
            if clean != content and isinstance(message, dict):
                message["content"] = clean  # DSPy's AttributeDict: the key is what is stored and cached
            elif clean != content:
                message.content = clean


def _finish_reason(resp) -> str | None:
    try:
        return resp.choices[0].finish_reason
    except (AttributeError, IndexError, KeyError, TypeError):
        return None


def _short(error: Any) -> str:
    """A validation error in a few lines, without pydantic's documentation links."""
    lines = [ln for ln in str(error).splitlines() if "errors.pydantic.dev" not in ln]
    return "\n".join(lines).strip()
