"""The backbone of a served model, chosen at load or serve time.

A logged model records only its configuration and a default backbone (the
program's manifest model).  Where it runs, the backbone comes from, in order:

1. the model config given at load time,
   ``mlflow.pyfunc.load_model(URI, model_config={"model": ..., "api_base": ..., "api_key_env": ...})``;
2. the environment (what ``mlflow models serve`` passes on):
   ``PARATRACE_MODEL``, ``PARATRACE_API_BASE`` (else ``OPENAI_API_BASE`` for
   ``openai/`` and ``hosted_vllm/`` models) and ``PARATRACE_API_KEY_ENV``;
3. the recorded default.

``api_key_env`` names the variable that holds the key (default
``PARATRACE_API_KEY``); the key itself is never stored in the model.  With an
``api_base`` the request carries the output's JSON schema as
``response_format`` (constrained decoding on vLLM, llama.cpp, Ollama's OpenAI
endpoint); ``"json_schema": false`` in the model config turns that off.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from typing import Any, Mapping

from .errors import ServeError

__all__ = ["BackboneSettings", "resolve_backbone", "serving_settings"]

_KEY_ENV = "PARATRACE_API_KEY"


@dataclass(frozen=True)
class BackboneSettings:
    """Model string, endpoint, the name of the key's variable and the response-format switch."""

    model: str | None
    api_base: str | None = None
    api_key_env: str = _KEY_ENV
    json_schema: bool | None = None


def serving_settings(config: Mapping[str, Any], default_model: str | None,
                     environ: Mapping[str, str] | None = None) -> BackboneSettings:
    """The backbone settings in force (load-time config, then environment, then the recorded default).

    Examples
    --------
    >>> s = serving_settings({}, "openai/gpt-4o-mini", {"OPENAI_API_BASE": "http://127.0.0.1:8000/v1"})
    >>> s.model, s.api_base, s.api_key_env
    ('openai/gpt-4o-mini', 'http://127.0.0.1:8000/v1', 'PARATRACE_API_KEY')
    >>> serving_settings({"model": "hosted_vllm/q", "api_key_env": "VLLM_KEY"}, "openai/x", {}).api_key_env
    'VLLM_KEY'
    """
    env = os.environ if environ is None else environ
    model = config.get("model") or env.get("PARATRACE_MODEL") or default_model
    api_base = config.get("api_base") or env.get("PARATRACE_API_BASE")
    if not api_base and model and model.split("/", 1)[0] in ("openai", "hosted_vllm"):
        api_base = env.get("OPENAI_API_BASE") or None
    key_env = str(config.get("api_key_env") or env.get("PARATRACE_API_KEY_ENV") or _KEY_ENV)
    json_schema = config.get("json_schema")
    if isinstance(json_schema, str):
        json_schema = json_schema.strip().lower() in ("1", "true", "yes")
    return BackboneSettings(model, api_base or None, key_env, json_schema)


def resolve_backbone(settings: BackboneSettings, environ: Mapping[str, str] | None = None):
    """The :class:`~assistant.backends.Backbone` of ``settings`` (the key read from its variable).

    Raises
    ------
    ServeError
        If ``api_key_env`` names a variable that is not set while an ``api_base`` is given
        and the default variable is not set either.
    """
    from assistant.backends import resolve

    env = os.environ if environ is None else environ
    backbone = resolve(settings.model, api_base=settings.api_base)
    if settings.api_base and backbone.kind == "remote":
        key = env.get(settings.api_key_env)
        if key:
            backbone.lm.kwargs["api_key"] = key
        elif settings.api_key_env != _KEY_ENV:
            raise ServeError(f"model config api_key_env: variable {settings.api_key_env} is not set")
        if settings.json_schema is None:
            backbone = replace(backbone, json_schema=True)
    if settings.json_schema is not None:
        backbone = replace(backbone, json_schema=bool(settings.json_schema))
    return backbone
