"""Is a backbone there, and does it take what a case sends?  The preflight's
one-token completion (:func:`probe`) and the one-line cause of a failed call
(:func:`describe_failure`, :func:`failure_cause`).

Re-exported by the backends module, where the backbones are resolved; a
backbone here is anything with its ``model``, ``lm``, ``kind``,
``json_schema``, ``endpoint`` and ``where``.
"""

from __future__ import annotations

from typing import Any

from .errors import BackendError

__all__ = ["PROBE_MAX_TOKENS", "PROBE_MESSAGES", "describe_failure", "failure_cause", "probe"]


#: The messages of :func:`probe`'s one-token completion (servers that answer only
#: paratrace's prompts, such as the oracle, recognise it).
PROBE_MESSAGES = ({"role": "user", "content": "Reply with OK."},)
#: The token bound of :func:`probe`'s completion.
PROBE_MAX_TOKENS = 1
_DIALECT_HINT = ("; a llama-cpp-python server (or another that takes response_format json_object + schema "
                 "and max_tokens) is served as llamacpp/<served name>: see README, 'Use your own model'")


def probe(backbone: Any, name: str | None = None) -> None:
    """A real one-token completion through the backbone's LM (no cache), sent as a case is sent.

    The request carries what every case carries: the token bound (as the
    backbone's LM sends it, e.g. ``max_completion_tokens``) and, for a
    backbone with constrained decoding, the JSON-schema ``response_format``
    in the shape the adapter sends (:func:`assistant.adapter.case_response_format`).
    A server that refuses either, or that ignores the token bound (replies
    with more completion tokens than asked), is refused here, with the reason,
    before any case runs.

    ``name`` is how messages call the backbone (a run's alias; default the model string).

    Raises
    ------
    BackendError
        Naming the backbone, its endpoint and the cause (:func:`describe_failure`).
    """
    if backbone.kind == "scripted":
        return
    kwargs: dict[str, Any] = {"max_tokens": PROBE_MAX_TOKENS}
    if backbone.json_schema:
        from .adapter import case_response_format

        kwargs["response_format"] = case_response_format()
    try:
        resp = backbone.lm.forward(messages=[dict(m) for m in PROBE_MESSAGES], cache=False, **kwargs)
    except Exception as exc:  # noqa: BLE001 - every failure becomes one typed line
        error = describe_failure(backbone, exc, name=name)
        status = _status(exc)
        if backbone.json_schema and status is not None and status >= 400 and status not in (401, 403, 429):
            error = BackendError(f"{error} (the probe sent what a case sends: a JSON-schema response_format "
                                 f"and the token bound){'' if backbone.model.startswith('llamacpp/') else _DIALECT_HINT}")
        raise error from exc
    used = _completion_tokens(resp)
    if used is not None and used > PROBE_MAX_TOKENS:
        where = f"{name} at {backbone.endpoint}" if name and backbone.endpoint else (name or backbone.where)
        raise BackendError(f"backbone {where}: the server ignored the token bound (asked for at most "
                           f"{PROBE_MAX_TOKENS} completion token, got {used}), so no case would be bounded"
                           f"{'' if backbone.model.startswith('llamacpp/') else _DIALECT_HINT}")


def _completion_tokens(resp) -> int | None:
    usage = getattr(resp, "usage", None)
    if usage is None:
        return None
    value = usage.get("completion_tokens") if isinstance(usage, dict) else getattr(usage, "completion_tokens", None)
    return int(value) if isinstance(value, (int, float)) else None


def _status(exc: BaseException) -> int | None:
    """The HTTP status anywhere in the cause chain of ``exc``."""
    seen = set()
    while exc is not None and id(exc) not in seen:
        status = getattr(exc, "status", None) or getattr(exc, "status_code", None)
        if isinstance(status, int):
            return status
        seen.add(id(exc))
        exc = exc.__cause__ or exc.__context__
    return None


def describe_failure(backbone: Any, exc: BaseException, *, name: str | None = None) -> BackendError:
    """One line for a failed call: backbone, endpoint and cause (a dead embedded
    server with its signal or exit code and log tail, a missing or refused key,
    a refused connection, else the provider's message)."""
    cause = None
    if backbone.kind == "local":
        from .local_llm import server_failure

        base = getattr(getattr(backbone.lm, "_engine_spec", None), "base_url", "")
        cause = server_failure(base) if base else None
    if cause is None:
        cause = _cause(exc)
    where = f"{name} at {backbone.endpoint}" if name and backbone.endpoint else (name or backbone.where)
    return BackendError(f"backbone {where}: {cause}")


def failure_cause(exc: BaseException) -> str:
    """The cause of a failed call in one line (a refused key, a refused connection, else the
    provider's message with its HTTP status), as :func:`describe_failure` names it.

    >>> failure_cause(ConnectionRefusedError("[Errno 111] Connection refused"))
    'connection refused (is the server running?)'
    """
    return _cause(exc)


def _cause(exc: BaseException) -> str:
    chain, seen = [], set()
    while exc is not None and id(exc) not in seen:
        chain.append(exc)
        seen.add(id(exc))
        exc = exc.__cause__ or exc.__context__
    for e in chain:
        status = getattr(e, "status", None) or getattr(e, "status_code", None)
        if status in (401, 403):
            return f"the endpoint refused the API key (HTTP {status}); check the key variable (--api-key-env)"
        if type(e).__name__ == "LMNotConfiguredError":
            first = str(e).strip().splitlines()[0]
            return f"no API key: {first.partition('] ')[2] or first}"
        if isinstance(e, ConnectionRefusedError) or "Connection refused" in str(e):
            return "connection refused (is the server running?)"
    text = " ".join(str(chain[0]).split()) or type(chain[0]).__name__
    status = _status(chain[0])
    if status is not None and f"HTTP {status}" not in text:
        text += f" (HTTP {status})"  # a server that answers without an OpenAI error body still says why
    return f"{type(chain[0]).__name__}: {text[:300]}"
