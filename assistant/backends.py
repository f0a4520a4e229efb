"""Backbone resolution: model strings, the paper's decoding defaults and the
offline environment defaults.

Any litellm model string works (``openai/...``, ``anthropic/...``,
``gemini/...``, ``ollama_chat/...``, ``hosted_vllm/...``, or an
OpenAI-compatible ``api_base``).  With an ``api_base``, the key is read from
the variable named by ``api_key_env`` (default ``PARATRACE_API_KEY``, then the
provider's own variable such as ``OPENAI_API_KEY``); an endpoint that needs
no key gets the placeholder ``EMPTY`` (vLLM's convention), so no dummy key
has to be set.  Three model families are paratrace's own:
``local/...`` (the embedded llama.cpp server and the models of
:data:`assistant.local_models.LOCAL_MODELS`; ``local/qwen2.5-coder-0.5b`` is the
default when no model is configured), ``llamacpp/<served name>`` with an ``api_base`` (a
server of llama.cpp's dialect, such as llama-cpp-python's own:
:mod:`assistant.json_object_endpoint`) and ``scripted/...`` (the
deterministic backend of :mod:`assistant.scripted`).  API keys are read from the environment by the
provider clients; paratrace never stores, logs or caches them.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field, replace
from typing import Any, Sequence

from .errors import BackendError, ConfigurationError, LocalModelError
from .local_models import DEFAULT_LOCAL_MODEL, LOCAL_MODELS, local_model
from .probe import PROBE_MAX_TOKENS, PROBE_MESSAGES, describe_failure, failure_cause, probe

__all__ = [
    "Backbone",
    "DEFAULT_API_KEY_ENV",
    "DEFAULT_MODEL",
    "Decoding",
    "ENV_DEFAULTS",
    "LOCAL_MODEL",
    "PROBE_MAX_TOKENS",
    "PROBE_MESSAGES",
    "apply_env_defaults",
    "check_model",
    "default_model",
    "describe_failure",
    "failure_cause",
    "probe",
    "resolve",
]

LOCAL_MODEL = DEFAULT_LOCAL_MODEL
DEFAULT_MODEL = LOCAL_MODEL
DEFAULT_API_KEY_ENV = "PARATRACE_API_KEY"
NO_KEY = "EMPTY"
ENV_DEFAULTS = {"LITELLM_LOCAL_MODEL_COST_MAP": "true", "MLFLOW_DISABLE_TELEMETRY": "true"}
_SEED_PROVIDERS = frozenset({
    "openai", "azure", "hosted_vllm", "ollama", "ollama_chat", "gemini", "vertex_ai", "local",
    "together_ai", "deepseek", "mistral", "groq", "fireworks_ai", "openrouter", "xai",
})


def apply_env_defaults() -> dict[str, str]:
    """Keep litellm, DSPy and MLflow off the network unless the user says otherwise.

    Sets ``LITELLM_LOCAL_MODEL_COST_MAP=true`` and ``MLFLOW_DISABLE_TELEMETRY=true``
    with :func:`os.environ.setdefault`, so a value the user set wins.

    Returns
    -------
    dict
        The values now in force for those variables.

    Examples
    --------
    >>> apply_env_defaults()["LITELLM_LOCAL_MODEL_COST_MAP"] in ("true", "True", "1", "false")
    True
    """
    return {name: os.environ.setdefault(name, value) for name, value in ENV_DEFAULTS.items()}


@dataclass(frozen=True, slots=True)
class Decoding:
    """Decoding parameters; the defaults are the paper's (temperature 0, top_p 1,
    max_tokens 4096, seed 42 where the provider supports a seed).

    Examples
    --------
    >>> Decoding().kwargs_for("anthropic")
    {'temperature': 0.0, 'max_tokens': 4096}
    >>> Decoding().with_overrides(temperature=0.7).kwargs_for("openai")["temperature"]
    0.7
    """

    temperature: float = 0.0
    top_p: float = 1.0
    max_tokens: int = 4096
    seed: int | None = 42
    extra: tuple[tuple[str, Any], ...] = field(default=())

    def with_overrides(self, **overrides) -> "Decoding":
        """A copy with some parameters replaced; unknown names go to ``extra``.

        Raises
        ------
        ConfigurationError
            If an override names an API key or connection setting.
        """
        known = {k: v for k, v in overrides.items() if k in ("temperature", "top_p", "max_tokens", "seed")}
        rest = {k: v for k, v in overrides.items() if k not in known}
        bad = sorted(k for k in rest if "key" in k.lower() or k in ("api_base", "base_url", "headers"))
        if bad:
            raise ConfigurationError(f"decoding overrides cannot set connection settings: {', '.join(bad)}")
        return replace(self, **known, extra=tuple(sorted({**dict(self.extra), **rest}.items())))

    def kwargs_for(self, provider: str) -> dict[str, Any]:
        """Keyword arguments for ``dspy.LM``; the seed only where ``provider`` supports one."""
        kw: dict[str, Any] = {"temperature": self.temperature, "top_p": self.top_p, "max_tokens": self.max_tokens}
        if self.seed is not None and provider in _SEED_PROVIDERS:
            kw["seed"] = self.seed
        if provider == "anthropic" and self.top_p == 1.0:
            del kw["top_p"]  # a no-op, and newer Claude models refuse temperature and top_p together
        kw.update(dict(self.extra))
        return kw


@dataclass(frozen=True, slots=True)
class Backbone:
    """A resolved backbone.

    Attributes
    ----------
    model : str
        The model string as the user gave it (recorded in outputs).
    lm : dspy.LM
        The LM to use with ``dspy.context(lm=...)``.
    kind : str
        ``"scripted"``, ``"local"`` or ``"remote"``.
    json_schema : bool
        Whether the backend honours ``response_format`` JSON-schema constrained decoding.
    endpoint : str
        Where the calls go (the ``api_base``, the embedded server, or the
        provider's default), as shown in messages and keyed in the cache.
    max_reasks : int or None
        A ceiling on Instructor's re-asks for this backbone (``None``: the
        caller's setting); the embedded model gets one, since each re-ask
        resends a longer prompt and the tiny model repeats its mistakes.
    """

    model: str
    lm: Any
    kind: str
    json_schema: bool = False
    endpoint: str = ""
    max_reasks: int | None = None

    @property
    def where(self) -> str:
        """``model at endpoint`` for messages."""
        return f"{self.model} at {self.endpoint}" if self.endpoint else self.model


def default_model() -> str:
    """``$PARATRACE_MODEL`` if set, else the embedded local model.

    >>> default_model() == os.environ.get("PARATRACE_MODEL", DEFAULT_MODEL)
    True
    """
    return os.environ.get("PARATRACE_MODEL") or DEFAULT_MODEL


def _api_key(model: str, provider: str, api_base: str | None, api_key_env: str | None) -> str | None:
    """The key to pass explicitly, or ``None`` to let the provider client read its own variable."""
    if api_key_env:
        key = os.environ.get(api_key_env)
        if not key:
            raise BackendError(f"backbone {model}: the API key variable {api_key_env} is not set "
                               f"(--api-key-env {api_key_env})")
        return key
    if not api_base:
        return None
    key = os.environ.get(DEFAULT_API_KEY_ENV)
    if key:
        return key
    own = {"openai": "OPENAI_API_KEY", "hosted_vllm": "HOSTED_VLLM_API_KEY"}.get(provider)
    if own and os.environ.get(own):
        return None
    return NO_KEY if provider in ("openai", "hosted_vllm", "ollama_chat", "ollama") else None


def resolve(model: str | None = None, *, decoding: Decoding = Decoding(), api_base: str | Sequence[str] | None = None,
            cache: bool = True, api_key_env: str | None = None) -> Backbone:
    """Turn a model string into a :class:`Backbone`.

    Parameters
    ----------
    model : str, optional
        A litellm model string, a ``local/...`` model or ``scripted/...``;
        :func:`default_model` when ``None``.
    decoding : Decoding, optional
        Decoding parameters.
    api_base : str or sequence of str, optional
        An OpenAI-compatible base URL for the remote model; several URLs are
        replicas of one model, spread over by litellm's Router
        (:mod:`assistant.replicas`).
    cache : bool, optional
        Let :mod:`assistant.cache` cache this backbone's validated replies
        (when a cache is active).
    api_key_env : str, optional
        The environment variable holding the key (default: ``PARATRACE_API_KEY``
        with an ``api_base``, else the provider's own variable).

    Returns
    -------
    Backbone

    Raises
    ------
    BackendError
        If the string has no provider prefix, names no known provider, the
        key variable is unset, or the local server cannot start.

    Examples
    --------
    >>> b = resolve("scripted/null")
    >>> b.kind, b.lm.model
    ('scripted', 'scripted/null')
    """
    apply_env_defaults()
    model = check_model(model)
    provider = model.partition("/")[0]
    if isinstance(api_base, (list, tuple)):
        if len(api_base) > 1:
            return _replicas_backbone(model, provider, decoding, list(api_base), api_key_env, cache)
        api_base = api_base[0] if api_base else None
    if provider == "scripted":
        from .scripted import scripted_lm

        return Backbone(model, scripted_lm(model), "scripted", json_schema=True, endpoint="scripted")
    import dspy

    if provider == "llamacpp":
        return _json_object_backbone(model, decoding, api_base, api_key_env, cache)
    if provider == "local":
        from .llama_engine import LlamaServerEngine
        from .local_llm import ensure_server, local_bounds, local_reasks

        max_tokens, timeout = local_bounds(decoding.max_tokens)
        engine = LlamaServerEngine(ensure_server(model), timeout=timeout, model=model)
        lm = dspy.LM(model, engine=engine, cache=cache, num_retries=0,
                     **{**decoding.kwargs_for("local"), "max_tokens": max_tokens})
        return Backbone(model, lm, "local", json_schema=True, endpoint=engine.endpoint_id,
                        max_reasks=local_reasks())
    kwargs = decoding.kwargs_for(provider)
    if api_base:
        kwargs["api_base"] = api_base
    key = _api_key(model, provider, api_base, api_key_env)
    if key:
        kwargs["api_key"] = key
    from dspy.utils.exceptions import LMConfigurationError

    try:
        lm = dspy.LM(model, cache=cache, **kwargs)
    except (ValueError, LMConfigurationError) as exc:
        raise BackendError(f"model {model!r}: {' '.join(str(exc).split())}") from None
    endpoint = api_base.rstrip("/") if api_base else f"provider-default:{provider}"
    return Backbone(model, lm, "remote", json_schema=provider in ("openai", "hosted_vllm") and bool(api_base),
                    endpoint=endpoint)


def _replicas_backbone(model: str, provider: str, decoding: Decoding, api_bases: list[str],
                       api_key_env: str | None, cache: bool) -> Backbone:
    """A backbone whose calls litellm's Router spreads over several replicas of one model."""
    import dspy

    from .replicas import RouterEngine

    if provider in ("local", "scripted", "llamacpp"):
        raise BackendError(f"model {model!r}: several api_base replicas need an OpenAI-compatible provider "
                           "(openai/, hosted_vllm/...)")
    own = {"openai": "OPENAI_API_KEY", "hosted_vllm": "HOSTED_VLLM_API_KEY"}.get(provider, "")
    key = _api_key(model, provider, api_bases[0], api_key_env) or os.environ.get(own) or NO_KEY
    kwargs = decoding.kwargs_for(provider)
    engine = RouterEngine(model, api_bases, api_key=key, timeout=kwargs.pop("timeout", None))
    lm = dspy.LM(model, engine=engine, cache=cache, num_retries=0, **kwargs)
    return Backbone(model, lm, "remote", json_schema=provider in ("openai", "hosted_vllm"),
                    endpoint=engine.endpoint_id)


def _json_object_backbone(model: str, decoding: Decoding, api_base: str | None, api_key_env: str | None,
                          cache: bool) -> Backbone:
    """A ``llamacpp/<served name>`` backbone: the embedded model's request dialect at ``api_base``."""
    import dspy

    from .json_object_endpoint import JsonObjectEngine
    from .local_limits import LOCAL_TIMEOUT_S

    if not api_base:
        raise BackendError(f"model {model!r}: a llamacpp/ backbone needs --api-base (the server's /v1 URL)")
    key = os.environ.get(api_key_env or DEFAULT_API_KEY_ENV)
    if api_key_env and not key:
        raise BackendError(f"backbone {model}: the API key variable {api_key_env} is not set "
                           f"(--api-key-env {api_key_env})")
    kwargs = decoding.kwargs_for("local")
    timeout = float(kwargs.pop("timeout", LOCAL_TIMEOUT_S))
    engine = JsonObjectEngine(api_base, model.partition("/")[2], timeout=timeout, api_key=key)
    lm = dspy.LM(model, engine=engine, cache=cache, num_retries=0, **kwargs)
    return Backbone(model, lm, "remote", json_schema=True, endpoint=engine.endpoint_id)


def check_model(model: str | None) -> str:
    """Check a model string without contacting anything; returns it stripped.

    Raises
    ------
    BackendError
        If it has no provider prefix, names a provider litellm does not know,
        or a ``local/`` or ``scripted/`` model that does not exist.

    Examples
    --------
    >>> check_model(" openai/gpt-4o-mini ")
    'openai/gpt-4o-mini'
    >>> check_model("gpt-4o")
    Traceback (most recent call last):
    ...
    assistant.errors.BackendError: model 'gpt-4o' needs a provider prefix, ...
    """
    model = (model or default_model()).strip()
    provider, sep, name = model.partition("/")
    if not sep or not name:
        raise BackendError(f"model {model!r} needs a provider prefix, e.g. openai/gpt-4o-mini, "
                           f"ollama_chat/llama3, {LOCAL_MODEL} or scripted/null")
    if provider == "local":
        try:
            model = local_model(model).name
        except LocalModelError as exc:
            raise BackendError(str(exc)) from None
    if provider == "scripted":
        from .scripted import check_scripted

        check_scripted(model)
    elif provider not in ("local", "llamacpp"):
        _check_provider(model, provider)
    return model


def _check_provider(model: str, provider: str) -> None:
    """Refuse a provider prefix litellm does not know, before any run starts.

    Raises
    ------
    BackendError
        Naming the model string and a few known providers.
    """
    known = _known_providers()
    if known and provider not in known:
        raise BackendError(f"model {model!r}: unknown provider {provider!r} (known: openai, anthropic, gemini, "
                           f"hosted_vllm, ollama_chat, ... or {', '.join(LOCAL_MODELS)}, scripted/null)")


def _known_providers() -> frozenset[str]:
    """The providers litellm documents (its shipped ``provider_endpoints_support`` table,
    read without importing litellm); empty when the table is not there."""
    import importlib.util
    import json
    from pathlib import Path

    spec = importlib.util.find_spec("litellm")
    if spec is None or not spec.submodule_search_locations:
        return frozenset()
    table = Path(next(iter(spec.submodule_search_locations))) / "provider_endpoints_support_backup.json"
    try:
        providers = json.loads(table.read_text(encoding="utf-8")).get("providers", {})
    except (OSError, ValueError, AttributeError):
        return frozenset()
    return frozenset(name.partition("/")[0] for name in providers)
