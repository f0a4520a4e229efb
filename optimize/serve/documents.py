"""Documents in a service request: decode, ingest and select
(:mod:`assistant.ingest`), and the answer bodies that carry the evidence read
(JSON with the selection, or the reviewer's HTML page)."""

from __future__ import annotations

import base64
import binascii
import json

from .errors import RequestFailure

__all__ = ["answer_html", "answer_json", "prepare_documents", "wants_html"]


def prepare_documents(request, *, until: float | None = None, limits=None, max_fragments: int | None = None):
    """Ingest ``request.documents`` and select fragments for its query.

    Parameters
    ----------
    request : AskRequest
    until : float, optional
        ``time.monotonic()`` value at which the request times out: the
        ingestion stops there (it is never worked on after its 504).
    limits : assistant.ingest.limits.DocumentLimits, optional
        The document limits (default from the environment).
    max_fragments : int, optional
        At most this many fragments are selected (the assistant's limit), less
        any the request's ``evidence`` already holds.

    Returns
    -------
    assistant.ingest.run.PreparedEvidence or None
        ``None`` when the request holds no documents.

    Raises
    ------
    RequestFailure
        422 naming the document that is not valid base64 or cannot be
        ingested; 413 for a document over a byte limit, 422 over another
        limit (both naming the file and the limit); 504 when the request's
        time ran out while ingesting.
    """
    if not request.documents:
        return None
    from assistant.ingest.errors import DocumentError
    from assistant.ingest.limits import BYTE_LIMITS, Deadline, DocumentLimitError, DocumentLimits
    from assistant.ingest.run import prepare
    from assistant.ingest.select import DEFAULT_BUDGET

    limits = DocumentLimits.from_env() if limits is None else limits
    deadline = Deadline(limits, until=until)

    files = []
    for i, doc in enumerate(request.documents):
        if doc.text is not None:
            files.append((doc.name, doc.text.encode("utf-8")))
            continue
        try:
            files.append((doc.name, base64.b64decode(doc.content_base64, validate=True)))
        except (binascii.Error, ValueError):
            raise RequestFailure(422, "invalid_document", f"{doc.name}: content_base64 is not valid base64",
                                 field=f"documents.{i}.content_base64") from None
    try:
        prepared = prepare(request.query, files=files, budget=request.budget or DEFAULT_BUDGET,
                           target=request.target, limits=limits, deadline=deadline,
                           max_fragments=None if max_fragments is None else max(1, max_fragments
                                                                                  - len(request.evidence)))
    except DocumentLimitError as exc:
        if deadline.by_request and exc.limit == "max_seconds":
            raise RequestFailure(504, "timeout", f"no answer within the request timeout ({exc})") from None
        status = 413 if exc.limit in BYTE_LIMITS else 422
        raise RequestFailure(status, "document_limit", str(exc), field="documents", value=exc.file) from None
    except DocumentError as exc:
        raise RequestFailure(422, "invalid_document", str(exc), field="documents") from None
    fragments = tuple(request.evidence) + prepared.fragments
    return prepared if not request.evidence else type(prepared)(prepared.package, fragments, prepared.selection)


def wants_html(accept: str | None) -> bool:
    """Whether an ``Accept`` header asks for HTML before JSON.

    >>> wants_html("text/html,application/xhtml+xml"), wants_html("application/json"), wants_html(None)
    (True, False, False)
    """
    for part in (accept or "").split(","):
        kind = part.split(";")[0].strip().lower()
        if kind in ("text/html", "application/xhtml+xml"):
            return True
        if kind in ("application/json", "*/*"):
            return False
    return False


def answer_json(record, prepared) -> bytes:
    """The output record, wrapped with the evidence read when documents were ingested."""
    if prepared is None:
        return record.to_json().encode("utf-8")
    body = {"record": record.to_dict(), "evidence": prepared.summary()}
    return json.dumps(body, ensure_ascii=False, sort_keys=True).encode("utf-8")


def answer_html(result, prepared, request) -> bytes:
    """The reviewer's page (:func:`assistant.render_html.render_html`)."""
    from assistant.render_html import render_html

    fragments = prepared.fragments if prepared is not None else request.evidence
    return render_html(result, prepared, fragments, query=request.query).encode("utf-8")
