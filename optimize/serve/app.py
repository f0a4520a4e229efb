"""The HTTP service: ``POST /v1/ask`` (query + evidence -> output contract),
``POST /invocations`` (the same in MLflow's envelope), ``GET /health``,
``GET /version`` and ``GET /openapi.json``.

Statuses: 200 with an :class:`~scorer.contract.OutputRecord` (a record whose
``meta.hard_failure`` is true is still a 200: the model answered, invalidly,
and the contract records that); 400 malformed JSON, a non-finite number
(``NaN``, ``Infinity``) or an unknown configuration; 401 no or a wrong bearer
token (when the service has one; ``/health`` stays open); 408 a body that does
not arrive in time; 404/405 unknown route or method; 413 body over the limit;
415 not JSON; 422 a field fails the schema or the input limits (the body names
the field and the value); 503 no free worker slot or a rate-limited LM;
502 LM failure; 504 timeout; 500 anything else.  Every error body is an
:class:`~optimize.serve.schemas.ErrorResponse` carrying the request id, which
is also in the ``X-Request-ID`` header of every answer.
"""

from __future__ import annotations

import asyncio
import platform
from contextlib import asynccontextmanager
from importlib.metadata import PackageNotFoundError, version
from typing import Any, Callable

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException

from scorer.contract import OUTPUT_RECORD_V1, OutputRecord

from .errors import RequestFailure
from .guard import DEFAULT_BODY_TIMEOUT_S, BearerAuth, RequestGuard
from .middleware import REQUEST_ID_HEADER, BodyLimit, RequestContext, error_body
from .schemas import AskRequest, ErrorResponse, HealthResponse, InvocationsRequest, VersionResponse
from .service import Service

__all__ = ["DEFAULT_MAX_BODY_BYTES", "create_app"]

DEFAULT_MAX_BODY_BYTES = 1_048_576
_PACKAGES = ("dspy", "fastapi", "litellm", "mlflow", "pydantic", "uvicorn")
_STATUS_KIND = {400: "bad_request", 401: "unauthorized", 404: "not_found", 405: "method_not_allowed", 413: "body_too_large",
                415: "unsupported_media_type"}
_ERRORS = {code: {"model": ErrorResponse, "description": text} for code, text in (
    (400, "Malformed JSON or an unknown configuration."), (413, "The body is over the size limit."),
    (415, "The body is not JSON."), (422, "A field fails the schema or the input limits."),
    (502, "The language model failed."), (503, "No free worker slot, or the language model is rate-limited."),
    (504, "No answer within the request timeout."))}


def _version_of(name: str) -> str:
    try:
        return version(name)
    except PackageNotFoundError:
        return "not installed"


def _request_id(request: Request) -> str:
    return request.scope.get("state", {}).get("request_id", "")


def _failure_response(request: Request, failure: RequestFailure) -> JSONResponse:
    request.scope.setdefault("state", {})["error"] = failure.kind
    body = error_body(failure.status, failure.kind, failure.reason, _request_id(request),
                      field=failure.field, value=failure.value)
    headers = {REQUEST_ID_HEADER: _request_id(request)}
    if failure.status == 503:
        headers["Retry-After"] = "1"
    return JSONResponse(body, status_code=failure.status, headers=headers)


def _is_json(request: Request) -> bool:
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    return kind == "application/json" or (kind.startswith("application/") and kind.endswith("+json"))


_UNION_TAGS = ("AskRequest", "list[AskRequest]")


def _envelope_errors(errors: list[dict], body) -> list[dict]:
    """The errors of the union branch the client meant: the list one for a list, the single one otherwise."""
    inputs = body.get("inputs") if isinstance(body, dict) else None
    wanted = "list[AskRequest]" if isinstance(inputs, list) else "AskRequest"
    return [e for e in errors if wanted in e.get("loc", ()) or not set(_UNION_TAGS) & set(e.get("loc", ()))] or errors


def _validation_failure(request: Request, exc: RequestValidationError) -> RequestFailure:
    errors = exc.errors()
    if not _is_json(request):
        got = request.headers.get("content-type") or "none"
        return RequestFailure(415, "unsupported_media_type", f"send application/json (Content-Type was {got!r})")
    if request.url.path == "/invocations":
        errors = _envelope_errors(errors, exc.body)
    first = errors[0] if errors else {"loc": ("body",), "msg": "invalid body", "type": "invalid"}
    if first.get("type") == "json_invalid":
        detail = first.get("ctx", {}).get("error", "JSON decode error")
        return RequestFailure(400, "invalid_json", f"the body is not valid JSON: {detail} at offset {first['loc'][-1]}")
    loc = [str(p) for p in first.get("loc", ()) if p not in ("body",) + _UNION_TAGS]
    value = first.get("input")
    if isinstance(value, (dict, list)):
        value = None  # a whole object is not worth echoing
    more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
    return RequestFailure(422, "invalid_request", f"{first.get('msg', 'invalid')}{more}",
                          field=".".join(loc) or None, value=value)


def create_app(assistant_factory: Callable[[str], Any], *, config: str = "b4", configs: tuple[str, ...] | None = None,
               max_body_bytes: int = DEFAULT_MAX_BODY_BYTES, timeout_s: float = 120.0, workers: int = 4,
               queue: int | None = None, program: dict[str, Any] | None = None, token: str | None = None,
               body_timeout_s: float = DEFAULT_BODY_TIMEOUT_S) -> FastAPI:
    """Build the service around one assistant per configuration.

    Parameters
    ----------
    assistant_factory : callable
        ``factory(config) -> assistant.api.Assistant``; called at once for each configuration.
    config : str, optional
        Default configuration of a request.
    configs : tuple of str, optional
        Configurations a request may name (default only ``config``).
    max_body_bytes : int, optional
        Largest request body accepted (413 beyond).
    timeout_s : float, optional
        Seconds a request waits for its answer (504 beyond).
    workers : int, optional
        Threads running assistant calls.
    queue : int, optional
        Calls admitted beyond ``workers`` (default ``2 * workers``); 503 beyond.
    program : dict, optional
        What ``/version`` reports about a loaded program (source, digest, optimizer...).
    token : str, optional
        When given, every path but ``/health`` needs ``Authorization: Bearer <token>``
        (401 otherwise; :class:`~optimize.serve.guard.BearerAuth`).
    body_timeout_s : float, optional
        Seconds a request has to deliver its body (408 beyond;
        :class:`~optimize.serve.guard.RequestGuard`, which also answers 400
        to non-finite JSON numbers).

    Returns
    -------
    fastapi.FastAPI
        Its ``state.service`` is the :class:`~optimize.serve.service.Service`.

    Raises
    ------
    ServeError
        On bad pool settings (:class:`~optimize.serve.service.Service`) or a non-positive ``max_body_bytes``.

    Examples
    --------
    >>> from fastapi.testclient import TestClient
    >>> from assistant.api import Assistant
    >>> app = create_app(lambda c: Assistant(c, "scripted/null"), workers=1)
    >>> client = TestClient(app)
    >>> r = client.post("/v1/ask", json={"query": "Is a penalty due?", "target": "Penalty(x)",
    ...     "evidence": [{"id": "E-01", "text": "A penalty is due.", "source": "Contract"}]})
    >>> r.status_code, r.json()["common"]["final_status"]
    (200, 'undecidable')
    >>> client.post("/v1/ask", json={"query": "?"}).json()["error"]["field"]
    'evidence'
    """
    from .errors import ServeError

    if max_body_bytes < 1:
        raise ServeError(f"max_body_bytes must be positive, got {max_body_bytes}")
    service = Service(assistant_factory, config=config, configs=configs, workers=workers, queue=queue,
                      timeout_s=timeout_s)

    @asynccontextmanager
    async def lifespan(_app):
        try:
            yield
        finally:
            service.close()

    app = FastAPI(title="paratrace assistant", version=_version_of("paratrace"), lifespan=lifespan,
                  docs_url=None, redoc_url=None,
                  description="Answer a question over an evidence package with the four-valued status "
                              "and its trace (the paratrace output contract).")
    app.state.service = service
    limits = service.assistants[service.config].limits

    @app.exception_handler(RequestFailure)
    async def _on_failure(request: Request, exc: RequestFailure):
        return _failure_response(request, exc)

    @app.exception_handler(RequestValidationError)
    async def _on_invalid(request: Request, exc: RequestValidationError):
        return _failure_response(request, _validation_failure(request, exc))

    @app.exception_handler(HTTPException)
    async def _on_http(request: Request, exc: HTTPException):
        kind = _STATUS_KIND.get(exc.status_code, "http_error")
        return _failure_response(request, RequestFailure(exc.status_code, kind, str(exc.detail)))

    @app.exception_handler(Exception)
    async def _on_crash(request: Request, exc: Exception):
        return _failure_response(request, RequestFailure(500, "internal", f"internal error ({type(exc).__name__})"))

    async def _full_answer(request: Request, body: AskRequest):
        state = request.scope.setdefault("state", {})
        answer = await service.answer(body, state)
        for key, value in (("assistant_ms", answer.assistant_ms), ("queue_ms", answer.queue_ms),
                           ("handoff_ms", answer.handoff_ms)):  # summed over a batch
            state[key] = round(state.get(key, 0.0) + value, 3)
        return answer

    async def _answer(request: Request, body: AskRequest) -> OutputRecord:
        return (await _full_answer(request, body)).record

    @app.post("/v1/ask", response_model=None, responses={200: {"model": OutputRecord}, **_ERRORS},
              summary="Answer a question over an evidence package")
    async def ask(request: Request, body: AskRequest) -> Response:
        """The output record (``output-record-v1``) of the configuration asked for; with ``documents``,
        ``{"record": ..., "evidence": {documents, fragments, selection}}``; with ``Accept: text/html``,
        the reviewer's page."""
        from .documents import answer_html, answer_json, wants_html

        answer = await _full_answer(request, body)
        if wants_html(request.headers.get("accept")):
            return Response(answer_html(answer.result, answer.prepared, body), media_type="text/html")
        return Response(answer_json(answer.record, answer.prepared), media_type="application/json")

    @app.post("/invocations", response_model=None, responses={200: {"description": '{"predictions": <OutputRecord>}'},
                                                               **_ERRORS},
              summary="The same, in the MLflow scoring envelope")
    async def invocations(request: Request, body: InvocationsRequest) -> Response:
        """``{"inputs": <request>}`` -> ``{"predictions": <output record>}``, as ``mlflow models serve`` answers;
        a list of requests gives a list of records (each call takes a worker slot; any failure fails the batch)."""
        if not isinstance(body.inputs, list):
            record = await _answer(request, body.inputs)
            return Response(('{"predictions": ' + record.to_json() + "}").encode("utf-8"),
                            media_type="application/json")
        records = await asyncio.gather(*(_answer(request, item) for item in body.inputs))
        text = '{"predictions": [' + ", ".join(r.to_json() for r in records) + "]}"
        return Response(text.encode("utf-8"), media_type="application/json")

    @app.get("/health", response_model=HealthResponse, responses={503: {"model": HealthResponse}})
    async def health() -> JSONResponse:
        """``ok`` (200) while a worker slot is free, ``saturated`` (503) when none is."""
        busy = service.in_flight
        body = HealthResponse(status="ok" if busy < service.capacity else "saturated", workers=service.workers,
                              capacity=service.capacity, in_flight=busy, abandoned=service.abandoned)
        return JSONResponse(body.model_dump(), status_code=200 if body.status == "ok" else 503)

    @app.get("/version", response_model=VersionResponse)
    async def version_info() -> VersionResponse:
        """Package versions, configurations, backbone, loaded program and input limits."""
        return VersionResponse(paratrace=_version_of("paratrace"), python=platform.python_version(),
                               packages={name: _version_of(name) for name in _PACKAGES}, contract=OUTPUT_RECORD_V1,
                               config=service.config, configs=list(service.configs), model=service.model,
                               program=program, limits=dict(max_body_bytes=max_body_bytes,
                                                            max_query_chars=limits.max_query_chars,
                                                            max_fragments=limits.max_fragments,
                                                            max_fragment_chars=limits.max_fragment_chars,
                                                            max_total_chars=limits.max_total_chars))

    app.add_middleware(RequestGuard, body_timeout_s=body_timeout_s)
    app.add_middleware(BodyLimit, max_bytes=max_body_bytes)
    if token:
        app.add_middleware(BearerAuth, token=token)
    app.add_middleware(RequestContext)
    return app
