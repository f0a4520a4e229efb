"""Backbone resolution: model strings, the paper's decoding defaults and the
offline environment defaults.

Any litellm model string works (``openai/...``, ``anthropic/...``,
``gemini/...``, ``ollama_chat/...``, ``hosted_vllm/...``, or an
OpenAI-compatible ``api_base``).  Two model families are paratrace's own:
``local/gemma-3-270m`` (the embedded llama.cpp server, the default when no
model is configured) and ``scripted/...`` (the deterministic backend of
:mod:`assistant.scripted`).  API keys are read from the environment by the
provider clients; paratrace never stores, logs or caches them.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field, replace
from typing import Any

from .errors import BackendError, ConfigurationError

__all__ = [
    "Backbone",
    "DEFAULT_MODEL",
    "Decoding",
    "ENV_DEFAULTS",
    "LOCAL_MODEL",
    "apply_env_defaults",
    "default_model",
    "resolve",
]

LOCAL_MODEL = "local/gemma-3-270m"
DEFAULT_MODEL = LOCAL_MODEL
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
    """

    model: str
    lm: Any
    kind: str
    json_schema: bool = False


def default_model() -> str:
    """``$PARATRACE_MODEL`` if set, else the embedded local model.

    >>> default_model() == os.environ.get("PARATRACE_MODEL", DEFAULT_MODEL)
    True
    """
    return os.environ.get("PARATRACE_MODEL") or DEFAULT_MODEL


def resolve(model: str | None = None, *, decoding: Decoding = Decoding(), api_base: str | None = None,
            cache: bool = True) -> Backbone:
    """Turn a model string into a :class:`Backbone`.

    Parameters
    ----------
    model : str, optional
        A litellm model string, ``local/gemma-3-270m`` or ``scripted/...``;
        :func:`default_model` when ``None``.
    decoding : Decoding, optional
        Decoding parameters.
    api_base : str, optional
        An OpenAI-compatible base URL for the remote model.
    cache : bool, optional
        Use DSPy's response cache (remote and local models).

    Returns
    -------
    Backbone

    Raises
    ------
    BackendError
        If the string has no provider prefix or the local server cannot start.

    Examples
    --------
    >>> b = resolve("scripted/null")
    >>> b.kind, b.lm.model
    ('scripted', 'scripted/null')
    """
    apply_env_defaults()
    model = (model or default_model()).strip()
    provider, sep, name = model.partition("/")
    if not sep or not name:
        raise BackendError(f"model {model!r} needs a provider prefix, e.g. openai/gpt-4o-mini, "
                           f"ollama_chat/llama3, {LOCAL_MODEL} or scripted/null")
    if provider == "scripted":
        from .scripted import scripted_lm

        return Backbone(model, scripted_lm(model), "scripted", json_schema=True)
    import dspy

    if provider == "local":
        from .local_llm import LlamaServerEngine, ensure_server

        if model != LOCAL_MODEL:
            raise BackendError(f"unknown local model {model!r}; the embedded model is {LOCAL_MODEL}")
        lm = dspy.LM(LOCAL_MODEL, engine=LlamaServerEngine(ensure_server()), cache=cache,
                     **decoding.kwargs_for("local"))
        return Backbone(model, lm, "local", json_schema=True)
    kwargs = decoding.kwargs_for(provider)
    if api_base:
        kwargs["api_base"] = api_base
        key = os.environ.get("PARATRACE_API_KEY")
        if key:
            kwargs["api_key"] = key
    from dspy.utils.exceptions import LMConfigurationError

    try:
        lm = dspy.LM(model, cache=cache, **kwargs)
    except (ValueError, LMConfigurationError) as exc:
        raise BackendError(f"model {model!r}: {' '.join(str(exc).split())}") from None
    return Backbone(model, lm, "remote", json_schema=provider in ("openai", "hosted_vllm") and bool(api_base))
