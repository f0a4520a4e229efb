"""paratrace's reference assistant: configurations B1-B4 as DSPy modules
(paper Section 4.6, Table 3), Instructor-validated outputs, any litellm
backbone, the embedded local model and a deterministic scripted backend.

Importing the package changes nothing in the environment; the ``paratrace``
command (:func:`optimize.root.main`) and :func:`assistant.backends.resolve`
call :func:`apply_env_defaults`, which sets ``LITELLM_LOCAL_MODEL_COST_MAP=true``
and ``MLFLOW_DISABLE_TELEMETRY=true`` unless the user set them, so that
nothing tries the network on its own.

>>> from assistant import ask
>>> ask("Is a penalty due?", [{"id": "E-01", "text": "A penalty is due.", "source": "Contract"}],
...     config="b4", model="scripted/null", target="Penalty(x)").common.final_status.value
'undecidable'
"""

_EXPORTS = {
    "Assistant": "api", "RunResult": "api", "ask": "api",
    "Backbone": "backends", "Decoding": "backends", "apply_env_defaults": "backends", "resolve": "backends",
    "B1": "configs", "B2": "configs", "B3": "configs", "B4": "configs", "CONFIGURATIONS": "configs",
    "build": "configs",
    "AssistantError": "errors", "BackendError": "errors", "ConfigurationError": "errors",
    "InputLimitError": "errors", "LocalModelError": "errors", "ScriptExhaustedError": "errors",
    "ValidationFailure": "errors",
    "EvidencePackage": "evidence", "Limits": "evidence",
    "Variant": "variants", "demos_for": "variants",
}


def __getattr__(name: str):
    """Import public names on first use, so ``assistant.cli`` (loaded by every
    ``paratrace`` command) does not import DSPy."""
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'assistant' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


__all__ = sorted([
    "Assistant",
    "AssistantError",
    "B1",
    "B2",
    "B3",
    "B4",
    "Backbone",
    "BackendError",
    "CONFIGURATIONS",
    "ConfigurationError",
    "Decoding",
    "EvidencePackage",
    "InputLimitError",
    "Limits",
    "LocalModelError",
    "RunResult",
    "ScriptExhaustedError",
    "ValidationFailure",
    "Variant",
    "apply_env_defaults",
    "ask",
    "build",
    "demos_for",
    "resolve",
])
