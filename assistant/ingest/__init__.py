"""From a team's documents to an evidence package: extraction (PDF text layer,
DOCX, HTML, Markdown, plain text, email), clause-level fragments with stable
ids, source hashes, clause references, pages or paragraphs and verifiable
offsets, cross-references and stated renumberings, and the selection of
fragments for a query under a token budget (BM25 via ``bm25s``).

The package exports no names; each is imported from the one submodule that
defines it:

* :mod:`assistant.ingest.extract` -- ``extract``, ``extract_bytes``, ``Extracted``;
* :mod:`assistant.ingest.clauses` -- clause-level fragments;
* :mod:`assistant.ingest.package` -- ``ingest``, ``ingest_bytes``, ``IngestedPackage``, ``Locator``,
  ``SourceDocument``;
* :mod:`assistant.ingest.select` -- ``select``, ``Selection``, ``DEFAULT_BUDGET``;
* :mod:`assistant.ingest.run` -- ``prepare``, ``prepare_package``, ``ask_documents``,
  ``PreparedEvidence``, ``DocumentAnswer``;
* :mod:`assistant.ingest.errors` -- ``DocumentError``, ``NoTextLayerError``, ``UnsupportedFormatError``.
"""

__all__: list[str] = []
