"""Secrets masked in MLflow's traces: :func:`redact_span` is a span processor that masks span
attributes (inputs, outputs), events (``exception.message``, ``exception.stacktrace``) and the status
description with :func:`symbolic.support.redact.redact_text` before a span is stored;
:func:`install_mlflow_redaction` registers it where tracking is set up
(:mod:`experiments.runner.tracking`).
"""

from __future__ import annotations

from symbolic.support.redact import redact_text

__all__ = ["install_mlflow_redaction", "redact_span"]


def redact_span(span) -> None:
    """MLflow span processor: mask attributes, events and the status description of ``span``.

    Runs before the span is exported (``mlflow.tracing.configure``), so the
    trace store never receives the secret.
    """
    otel = getattr(span, "_span", None)
    if otel is None:
        return
    for key, value in list((otel.attributes or {}).items()):
        if isinstance(value, str):
            clean = redact_text(value)
            if clean != value:
                otel.set_attribute(key, clean)
    events = list(getattr(otel, "_events", ()) or ())
    if events:
        from opentelemetry.sdk.trace import Event
        from opentelemetry.sdk.util import BoundedList

        cleaned = [Event(e.name, {k: redact_text(v) if isinstance(v, str) else v
                                  for k, v in (e.attributes or {}).items()}, e.timestamp) for e in events]
        otel._events = BoundedList.from_seq(getattr(otel._events, "maxlen", None), cleaned)
    status = getattr(otel, "status", None)
    description = getattr(status, "description", None)
    if description:
        clean = redact_text(description)
        if clean != description:
            from opentelemetry.trace import Status

            otel._status = Status(status.status_code, clean)


def install_mlflow_redaction(mlflow) -> None:
    """Register :func:`redact_span` with MLflow tracing (keeps other processors; idempotent)."""
    from mlflow.tracing.config import get_config

    processors = list(get_config().span_processors or [])
    if redact_span not in processors:
        mlflow.tracing.configure(span_processors=[*processors, redact_span])
