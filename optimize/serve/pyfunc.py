"""The assistant as an MLflow ``pyfunc`` model, so that ``mlflow models serve``
answers the service's request with the service's output record.

:class:`AssistantModel` loads a saved program (an MLflow artifact named
``program``, see :func:`optimize.programs.load_program`) or a plain
configuration, and its ``predict`` takes the request of ``POST /v1/ask`` and
returns the :class:`~scorer.contract.OutputRecord` as a dict.  Through the
MLflow scoring server the request travels in MLflow's envelope, exactly as
this package's own ``POST /invocations`` takes it::

    POST /invocations  {"inputs": {"query": ..., "evidence": [...], "target": ...}}
    -> 200 {"predictions": <output record>}

A list of requests (``{"inputs": [req, req]}``) gives a list of records.
:func:`log_assistant_model` logs the model; serve it with
``mlflow models serve -m models:/NAME/VERSION --env-manager local`` in an
environment where paratrace is installed.
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version
from typing import Any

import mlflow.pyfunc
from mlflow.exceptions import MlflowException

from .errors import ServeError
from .schemas import AskRequest
from .service import classify_failure, request_texts

__all__ = ["AssistantModel", "ServingError", "log_assistant_model", "model_kwargs", "request_signature",
           "save_assistant_model", "to_requests"]

_PINNED = ("dspy", "instructor", "litellm", "mlflow", "pydantic")
_MLFLOW_CODES = {400: "INVALID_PARAMETER_VALUE", 422: "INVALID_PARAMETER_VALUE", 502: "TEMPORARILY_UNAVAILABLE",
                 503: "TEMPORARILY_UNAVAILABLE", 504: "DEADLINE_EXCEEDED"}


def _plain(value: Any) -> Any:
    """numpy and pandas values (as MLflow's parsers hand them over) as plain Python."""
    if hasattr(value, "tolist") and not isinstance(value, (str, bytes)):
        value = value.tolist()
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def to_requests(model_input: Any) -> tuple[list[AskRequest], bool]:
    """Read ``predict``'s input as requests; say whether it was a single one.

    Accepts a request dict, an :class:`~optimize.serve.schemas.AskRequest`, a
    list of either, or a pandas DataFrame with one row per request (numpy
    values are converted first).

    Parameters
    ----------
    model_input : Any

    Returns
    -------
    tuple
        ``(requests, single)``.

    Raises
    ------
    ServeError
        Naming the request index and field of the first invalid value.

    Examples
    --------
    >>> reqs, single = to_requests({"query": "q", "evidence": [{"id": "E1", "text": "t", "source": "s"}]})
    >>> single, reqs[0].evidence[0].id
    (True, 'E-01')
    >>> to_requests([{"query": "q"}])
    Traceback (most recent call last):
    ...
    optimize.serve.errors.ServeError: request 0: field evidence: Field required
    """
    from pydantic import ValidationError

    if hasattr(model_input, "to_dict") and hasattr(model_input, "columns"):  # pandas DataFrame
        model_input = model_input.to_dict(orient="records")
    single = not isinstance(model_input, (list, tuple))
    items = [model_input] if single else list(model_input)
    requests = []
    for index, item in enumerate(items):
        if isinstance(item, AskRequest):
            requests.append(item)
            continue
        item = _plain(item)
        if isinstance(item, dict):
            item = {k: v for k, v in item.items() if v is not None}
        try:
            requests.append(AskRequest.model_validate(item))
        except ValidationError as exc:
            first = exc.errors()[0]
            field = ".".join(str(p) for p in first["loc"]) or "request"
            raise ServeError(f"request {index}: field {field}: {first['msg']}") from None
    return requests, single


class AssistantModel(mlflow.pyfunc.PythonModel):
    """``predict(request) -> output record dict``, for ``mlflow models serve``.

    The logged model config holds ``config`` and ``default_model`` (a
    program's manifest model when none was given); the optional artifact
    ``program`` is a saved-program directory.  The backbone is chosen where the
    model is loaded (:mod:`optimize.serve.backbone_config`): the load-time
    model config (``model``, ``api_base``, ``api_key_env``, ``json_schema``),
    else ``PARATRACE_MODEL``, ``PARATRACE_API_BASE`` / ``OPENAI_API_BASE`` and
    ``PARATRACE_API_KEY_ENV``, else the recorded default.
    """

    def load_context(self, context) -> None:
        """Build the assistant once per process."""
        from assistant.api import Assistant
        from assistant.backends import apply_env_defaults

        from .backbone_config import resolve_backbone, serving_settings

        apply_env_defaults()
        settings = dict(getattr(context, "model_config", None) or {})
        program_dir = (getattr(context, "artifacts", None) or {}).get("program")
        loaded = None
        if program_dir:
            from optimize.programs import load_program

            loaded = load_program(program_dir)
        default = settings.get("default_model") or (loaded.manifest.model if loaded else None)
        chosen = serving_settings(settings, default)
        kwargs = {}
        if loaded is not None:
            from optimize.tutor import TUTOR_MODELS

            if chosen.model not in TUTOR_MODELS:
                kwargs["backbone"] = resolve_backbone(chosen)
            from optimize.programs import program_assistant

            self.assistant = program_assistant(loaded, chosen.model, **kwargs)
        else:
            self.assistant = Assistant(settings.get("config", "b4"), backbone=resolve_backbone(chosen))

    def predict(self, context, model_input, params: dict[str, Any] | None = None):
        """Answer each request; a single request gives one record dict, a list a list of them.

        Raises
        ------
        mlflow.exceptions.MlflowException
            With the HTTP status of the service: 400 for an invalid request
            (naming the request index and field) or another configuration than
            the model's; 503 for an LM failure, 504 for an LM timeout, 500 otherwise
            (:func:`~optimize.serve.service.classify_failure`; the reason never
            quotes the LM's error text).
        """
        from mlflow.exceptions import MlflowException
        from mlflow.protos.databricks_pb2 import ErrorCode

        def code(status: int) -> int:
            return ErrorCode.Value(_MLFLOW_CODES.get(status, "INTERNAL_ERROR"))

        try:
            requests, single = to_requests(model_input)
        except ServeError as exc:
            raise MlflowException(str(exc), error_code=code(400)) from None
        records = []
        for index, request in enumerate(requests):
            if request.config and request.config.strip().lower() != self.assistant.config:
                raise MlflowException(f"request {index}: field config: this model answers with "
                                      f"{self.assistant.config}, not {request.config!r}",
                                      error_code=code(400))
            try:
                result = self.assistant.run(request.query, request.evidence, target=request.target)
            except Exception as exc:  # noqa: BLE001 - every failure becomes an HTTP status
                failure = classify_failure(exc, request_texts(request))
                raise ServingError(f"request {index}: {failure.reason}", error_code=code(failure.status)) from None
            records.append(result.record.to_dict())
        return records[0] if single else records


class ServingError(MlflowException):
    """An ``MlflowException`` whose message stays the one it was made with.

    MLflow's scoring server rewrites the message of an ``MlflowException``
    raised by ``predict`` to ``Failed to predict data '<the whole input>'``,
    which would echo the evidence to the client and the log; this one keeps
    its own message (the reason, with the backend's cause,
    :func:`~optimize.serve.service.classify_failure`).

    Examples
    --------
    >>> from mlflow.protos.databricks_pb2 import ErrorCode
    >>> e = ServingError("request 0: the language model call failed",
    ...                  error_code=ErrorCode.Value("TEMPORARILY_UNAVAILABLE"))
    >>> e.message = "Failed to predict data '[{...evidence...}]'. Error: " + e.message
    >>> e.message, e.get_http_status_code()
    ('request 0: the language model call failed', 503)
    """

    @property
    def message(self) -> str:
        """The reason given at construction."""
        return self.__dict__["_reason"]

    @message.setter
    def message(self, value: str) -> None:
        self.__dict__.setdefault("_reason", value)  # later rewrites (the input data prefix) are dropped


def _requirements() -> list[str]:
    pins = []
    for name in _PINNED:
        try:
            pins.append(f"{name}=={version(name)}")
        except PackageNotFoundError:
            continue
    return pins


def request_signature():
    """The model's signature: the request of ``POST /v1/ask`` as named inputs (MLflow shows them).

    ``query`` (string, required), ``evidence`` (fragments with ``id``, ``text``,
    ``source``, ``clause``), ``documents`` (``name``, ``text``,
    ``content_base64``), ``budget``, ``target`` and ``config``.  The signature
    is marked as checked by the model itself (MLflow's flag for a signature
    taken from ``predict``'s type hints): MLflow then hands ``predict`` the
    request as sent, and :func:`to_requests` checks it with the service's own
    schema (an error names the request and field, never echoes the evidence).
    MLflow's own check would turn one request into a one-row table, so that
    a single request could no longer answer with a single record, and would
    refuse the fragments' optional ``span`` and ``tags``.

    Examples
    --------
    >>> signature = request_signature()
    >>> [i.name for i in signature.inputs.inputs]
    ['query', 'evidence', 'documents', 'budget', 'target', 'config']
    >>> signature.inputs.required_input_names()
    ['query']
    """
    from mlflow.models import ModelSignature
    from mlflow.types.schema import Array, ColSpec, Object, Property, Schema

    fragment = Object([Property("id", "string"), Property("text", "string"),
                       Property("source", "string", required=False), Property("clause", "string", required=False)])
    document = Object([Property("name", "string"), Property("text", "string", required=False),
                       Property("content_base64", "string", required=False)])
    signature = ModelSignature(inputs=Schema([
        ColSpec("string", "query"), ColSpec(Array(fragment), "evidence", required=False),
        ColSpec(Array(document), "documents", required=False), ColSpec("long", "budget", required=False),
        ColSpec("string", "target", required=False), ColSpec("string", "config", required=False)]))
    signature._is_signature_from_type_hint = True  # predict checks the request itself (see above)
    return signature


def model_kwargs(program: str | None, config: str, model: str | None) -> dict[str, Any]:
    """The :func:`mlflow.pyfunc.save_model` arguments of :class:`AssistantModel`.

    The model config records the configuration and, when given, ``model`` as
    ``default_model``; the load-time model config and the environment choose
    the backbone actually used (:mod:`optimize.serve.backbone_config`).
    """
    # Keys set at load time must exist in the logged config (MLflow ignores others); unset here.
    settings: dict[str, Any] = {"config": config, "model": None, "api_base": None, "api_key_env": None,
                                "json_schema": None}
    artifacts = None
    if program is not None:
        from optimize.programs import load_program

        settings["config"] = load_program(program).config
        artifacts = {"program": str(program)}
    if model is not None:
        settings["default_model"] = model
    return dict(python_model=AssistantModel(), artifacts=artifacts, model_config=settings,
                pip_requirements=_requirements(), signature=request_signature())


def save_assistant_model(path: str, program: str | None = None, *, config: str = "b4", model: str | None = None):
    """Write :class:`AssistantModel` to a local MLflow model directory ``path`` (no tracking server).

    ``mlflow models serve -m PATH --env-manager local`` serves it.  Parameters
    as :func:`log_assistant_model`.

    Raises
    ------
    ProgramLoadError
        If ``program`` is not a loadable saved program.
    """
    mlflow.pyfunc.save_model(path=str(path), **model_kwargs(program, config, model))
    return path


def log_assistant_model(program: str | None = None, *, config: str = "b4", model: str | None = None,
                        name: str = "assistant", registered_model_name: str | None = None):
    """Log :class:`AssistantModel` to the active MLflow run (one is started if none is).

    Parameters
    ----------
    program : str, optional
        A saved-program directory, logged as the artifact ``program``; its
        manifest fixes the configuration.
    config : str, optional
        Configuration when no program is given.
    model : str, optional
        Backbone (default: the program's manifest model, else the assistant's default).
    name : str, optional
        Name of the model in the run.
    registered_model_name : str, optional
        Also register it under this name (``models:/NAME/VERSION``).

    Returns
    -------
    mlflow.models.model.ModelInfo
        Its ``model_uri`` loads with :func:`mlflow.pyfunc.load_model`.

    Raises
    ------
    ProgramLoadError
        If ``program`` is not a loadable saved program (checked before logging).
    """
    return mlflow.pyfunc.log_model(name=name, registered_model_name=registered_model_name,
                                   **model_kwargs(program, config, model))
