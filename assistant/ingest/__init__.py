"""From a team's documents to an evidence package: extraction (PDF text layer,
DOCX, HTML, Markdown, plain text, email), clause-level fragments with stable
ids, source hashes, clause references, pages or paragraphs and verifiable
offsets, cross-references and stated renumberings, and the selection of
fragments for a query under a token budget (BM25 via ``bm25s``).

Nothing is imported until first use, so ``paratrace`` stays fast to start.
"""

_EXPORTS = {
    "DocumentError": "errors", "NoTextLayerError": "errors", "UnsupportedFormatError": "errors",
    "Extracted": "extract", "extract": "extract", "extract_bytes": "extract",
    "IngestedPackage": "package", "Locator": "package", "SourceDocument": "package", "ingest": "package",
    "ingest_bytes": "package",
    "Selection": "select", "DEFAULT_BUDGET": "select", "select": "select",
    "DocumentAnswer": "run", "PreparedEvidence": "run", "ask_documents": "run", "prepare": "run",
    "prepare_package": "run",
}


def __getattr__(name: str):
    """Import public names on first use."""
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'assistant.ingest' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


__all__ = sorted(_EXPORTS)
