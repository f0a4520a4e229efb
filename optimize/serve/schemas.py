"""The service's request and response bodies (they make its OpenAPI document).

A request is the paper's: a query, an evidence package (or documents to
ingest into one), and optionally the target literal and the configuration; the answer is the output contract
(:class:`scorer.contract.OutputRecord`).  Errors share one body,
:class:`ErrorResponse`, that always carries the request id.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator, model_validator

from symbolic.scenario.model import EvidenceFragment

__all__ = ["AskRequest", "DocumentUpload", "ErrorDetail", "ErrorResponse", "HealthResponse", "InvocationsRequest", "MAX_BATCH",
           "VersionResponse"]

MAX_BATCH = 32

_STRICT = ConfigDict(frozen=True, extra="forbid")


class DocumentUpload(BaseModel):
    """A document to ingest instead of (or besides) hand-made evidence fragments.

    Attributes
    ----------
    name : str
        File name; its suffix gives the format (``.pdf``, ``.docx``, ``.html``, ``.md``, ``.txt``, ``.eml``).
    content_base64 : str, optional
        The file's bytes, base64-encoded (PDF, DOCX, any format).
    text : str, optional
        The file's text (HTML, Markdown, plain text); exactly one of the two.
    """

    model_config = _STRICT
    name: str = Field(min_length=1, max_length=255, description="File name (its suffix gives the format).")
    content_base64: str | None = Field(default=None, description="The file's bytes, base64-encoded.")
    text: str | None = Field(default=None, description="The file's text (HTML, Markdown, plain text).")

    @model_validator(mode="after")
    def _one_content(self):
        if (self.content_base64 is None) == (self.text is None):
            raise ValueError("give exactly one of 'content_base64' and 'text'")
        return self


class AskRequest(BaseModel):
    """One question over one evidence package.

    Attributes
    ----------
    query : str
        The question.
    evidence : list of EvidenceFragment
        The evidence package (ids such as ``E-01``, text, source, clause).
    target : str, optional
        The proposition asked about, as a literal (``Penalty(x)``); B4 asks the LM for it otherwise.
    config : str, optional
        ``b1``..``b4``; the service's default when absent.  A service running
        a saved program answers only with the program's configuration.

    Examples
    --------
    >>> r = AskRequest.model_validate({"query": "Is a penalty due?",
    ...     "evidence": [{"id": "E1", "text": "A penalty is due.", "source": "Contract"}]})
    >>> r.evidence[0].id, r.config is None
    ('E-01', True)
    """

    model_config = ConfigDict(frozen=True, extra="forbid", json_schema_extra={"examples": [{
        "query": "Is a late-delivery penalty due?",
        "evidence": [{"id": "E-01", "text": "The supplier pays a penalty for late delivery.",
                      "source": "Supply Agreement 2024", "clause": "s. 7.2"}],
        "target": "Penalty(supplier)", "config": "b4"}]})
    query: str = Field(min_length=1, description="The question.")
    documents: list[DocumentUpload] = Field(default=[], max_length=32,
                                            description="Documents to ingest into clause-level fragments "
                                                        "(then 'evidence' may be omitted or empty).")
    budget: int | None = Field(default=None, ge=1, le=200_000,
                               description="Token budget for the fragments of 'documents' (default 2000).")
    evidence: list[EvidenceFragment] = Field(description="The evidence package.")
    target: str | None = Field(default=None, min_length=1, max_length=500,
                               description="The proposition asked about, as a literal.")
    config: str | None = Field(default=None, min_length=1, max_length=32,
                               description="Configuration b1..b4 (the service's default when absent).")

    @model_validator(mode="before")
    @classmethod
    def _documents_stand_for_evidence(cls, data):
        if isinstance(data, dict) and data.get("documents") and "evidence" not in data:
            return {**data, "evidence": []}
        return data

    @field_validator("evidence")
    @classmethod
    def _some_evidence(cls, value, info: ValidationInfo):
        if not value and not info.data.get("documents"):
            raise ValueError("give at least one evidence fragment, or documents")
        return value


class InvocationsRequest(BaseModel):
    """The MLflow scoring envelope, as ``mlflow models serve`` takes it: ``{"inputs": <AskRequest>}``
    or ``{"inputs": [<AskRequest>, ...]}`` (at most 32)."""

    model_config = _STRICT
    inputs: AskRequest | list[AskRequest] = Field(union_mode="left_to_right")

    @field_validator("inputs")
    @classmethod
    def _bounded(cls, value):
        if isinstance(value, list) and not 1 <= len(value) <= MAX_BATCH:
            raise ValueError(f"a batch holds 1 to {MAX_BATCH} requests, got {len(value)}")
        return value


class ErrorDetail(BaseModel):
    """Why a request failed.

    Attributes
    ----------
    status : int
        The HTTP status, repeated.
    kind : str
        Stable short name of the failure (see :class:`~optimize.serve.errors.RequestFailure`).
    reason : str
        One line for humans.
    request_id : str
        The request id (also in the ``X-Request-ID`` header).
    field : str, optional
        Dotted path of the offending input.
    value : Any, optional
        The offending value, shortened to 80 characters when it is text.
    """

    model_config = _STRICT
    status: int
    kind: str
    reason: str
    request_id: str
    field: str | None = None
    value: Any = None


class ErrorResponse(BaseModel):
    """The body of every 4xx and 5xx answer."""

    model_config = _STRICT
    error: ErrorDetail


class HealthResponse(BaseModel):
    """Liveness and load: ``ok`` while a worker slot is free, ``saturated`` otherwise.

    ``in_flight`` counts admitted calls (running, queued, or still running
    after a 504); ``abandoned`` those still running after their request was
    answered 504.
    """

    model_config = _STRICT
    status: str
    workers: int
    capacity: int
    in_flight: int
    abandoned: int = 0


class VersionResponse(BaseModel):
    """What is running: package versions, configurations, backbone and program."""

    model_config = _STRICT
    paratrace: str
    python: str
    packages: dict[str, str]
    contract: str
    config: str
    configs: list[str]
    model: str
    program: dict[str, Any] | None = None
    limits: dict[str, int]
