"""The Python API from documents to an answer: ingest, select, ask.

>>> from assistant.ingest.run import prepare
>>> ev = prepare("Is a penalty due?", files=[("sa.txt", b"1. Penalty\\n\\n1.1 A penalty of 1% applies.")])
>>> [f.clause for f in ev.fragments], ev.selection["kept"][0]["reason"]
(['1.1'], 'all fragments fit the budget')
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

from symbolic.scenario.model import EvidenceFragment

from .extract import read_document
from .limits import Deadline, DocumentLimits
from .package import IngestedPackage, ingest, ingest_bytes
from .select import DEFAULT_BUDGET, select

__all__ = ["DocumentAnswer", "PreparedEvidence", "ask_documents", "prepare", "prepare_package"]


@dataclass(frozen=True, slots=True)
class PreparedEvidence:
    """Ingested documents and the fragments selected for one query.

    Attributes
    ----------
    package : IngestedPackage
        Every fragment, with locators, documents and the selection record.
    fragments : tuple of EvidenceFragment
        The selected fragments (what the assistant reads).
    selection : dict
        What was kept and left out, and why (:func:`~assistant.ingest.select.select`).
    """

    package: IngestedPackage
    fragments: tuple[EvidenceFragment, ...]
    selection: dict

    def summary(self) -> dict:
        """Documents (name, hash, format, role, renumbering), selected fragments with locators, selection."""
        return {"documents": [d.model_dump(mode="json", exclude={"text"}) for d in self.package.documents],
                "fragments": [{**f.model_dump(mode="json", exclude_none=True),
                               "locator": self.package.locators[f.id].model_dump(mode="json", exclude_none=True)}
                              for f in self.fragments if f.id in self.package.locators],
                "selection": self.selection}


def prepare_package(query: str, package: IngestedPackage, *, budget: int = DEFAULT_BUDGET,
                    target: str | None = None, max_fragments: int | None = None) -> PreparedEvidence:
    """Select the fragments of an ingested package for ``query`` within ``budget`` tokens.

    Clauses of other documents that cite a kept clause (an amendment amending
    it, a notice given under it) and its document's preamble (or an email's
    header: sender, date, subject) come along with it.  At most
    ``max_fragments`` are kept (default the assistant's limit,
    :class:`assistant.evidence.Limits`), so what is selected can be asked.
    """
    if max_fragments is None:
        from ..evidence import Limits

        max_fragments = Limits().max_fragments
    amendments = {d.sha256 for d in package.documents if d.role == "amendment"}
    companions: dict[str, list[tuple[str, str]]] = {}
    opening: dict[str, str] = {}
    for frag in package.fragments:
        loc = package.locators[frag.id]
        if loc.sha256 not in opening and (frag.clause == "preamble" or frag.text.startswith("From:")):
            opening[loc.sha256] = frag.id
    for fid, loc in package.locators.items():
        for cited in loc.cross_refs:
            if package.locators[cited].sha256 != loc.sha256:
                companions.setdefault(cited, []).append((fid, "amends" if loc.sha256 in amendments else "cites"))
        head = opening.get(loc.sha256)
        if head is not None and head != fid:
            companions.setdefault(fid, []).append((head, "opens the document of"))
    chosen = select(query, package.fragments, budget=budget, target=target,
                    cross_refs={k: v.cross_refs for k, v in package.locators.items()}, companions=companions,
                    max_fragments=max_fragments)
    package = package.model_copy(update={"selection": chosen.record, "query": query,
                                         "target": target or package.target})
    return PreparedEvidence(package, chosen.fragments, chosen.record)


def prepare(query: str, paths: Iterable[str | Path] = (), *, files: Iterable[tuple[str, bytes]] = (),
            budget: int = DEFAULT_BUDGET, target: str | None = None, limits: DocumentLimits | None = None,
            deadline: Deadline | None = None, max_fragments: int | None = None) -> PreparedEvidence:
    """Ingest documents (paths, or ``(name, bytes)`` pairs) and select fragments for ``query``.

    ``limits`` (default :meth:`~assistant.ingest.limits.DocumentLimits.from_env`) and
    ``deadline`` bound the ingestion (:func:`~assistant.ingest.package.ingest_bytes`).

    Raises
    ------
    DocumentError
        For a document that cannot be read or ingested (naming it);
        :class:`~assistant.ingest.limits.DocumentLimitError` over a limit.
    ConfigurationError
        For a non-positive budget.
    """
    paths, files = list(paths), list(files)
    limits = DocumentLimits.from_env() if limits is None else limits
    package = ingest_bytes([read_document(p, limits) for p in paths] + files, limits=limits, deadline=deadline) \
        if (paths or files) else ingest([])
    return prepare_package(query, package, budget=budget, target=target, max_fragments=max_fragments)


@dataclass(frozen=True, slots=True)
class DocumentAnswer:
    """An answer over documents: the assistant's run and the evidence it read."""

    result: object
    evidence: PreparedEvidence


def ask_documents(query: str, paths: Iterable[str | Path], config: str = "b4", model: str | None = None, *,
                  target: str | None = None, budget: int = DEFAULT_BUDGET, **kwargs) -> DocumentAnswer:
    """Ingest ``paths``, select their fragments for ``query`` and answer with one configuration.

    Parameters
    ----------
    query : str
    paths : iterable of path
        PDF (text layer), DOCX, HTML, Markdown, text or email files.
    config, model : str, optional
        As :class:`assistant.api.Assistant`.
    target : str, optional
        The proposition asked about.
    budget : int, optional
        Evidence token budget.
    **kwargs
        Further :class:`assistant.api.Assistant` options (``backbone=``, ``variant=`` ...).

    Returns
    -------
    DocumentAnswer
    """
    from ..api import Assistant

    evidence = prepare(query, paths, budget=budget, target=target)
    result = Assistant(config, model, **kwargs).run(query, evidence.fragments, target=target)
    return DocumentAnswer(result, evidence)
