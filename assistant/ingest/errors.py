"""Errors of document ingestion; each names the file and is a
:class:`~assistant.errors.AssistantError`, so the CLI prints one line and exits 2."""

from __future__ import annotations

from ..errors import AssistantError

__all__ = ["DocumentError", "NoTextLayerError", "UnsupportedFormatError"]


class DocumentError(AssistantError, ValueError):
    """A document that cannot be read or parsed (naming the file and why)."""


class NoTextLayerError(DocumentError):
    """A PDF without a text layer (a scan); paratrace does no OCR."""


class UnsupportedFormatError(DocumentError):
    """A file whose format is none of PDF, DOCX, HTML, Markdown or plain text."""
