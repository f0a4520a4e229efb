"""Ingestion: documents to an evidence package of clause-level fragments.

:func:`ingest` extracts each document (:mod:`.extract`), cuts it into clauses
(:mod:`.clauses`) and returns an :class:`IngestedPackage`: the
:class:`~symbolic.scenario.model.EvidenceFragment` s the assistant reads (``ask
--evidence`` accepts the file as it is), one :class:`Locator` per fragment and
one :class:`SourceDocument` per file, whose extracted text makes every
fragment's offsets checkable (:meth:`IngestedPackage.verify`).

A fragment's id is stable: ``<file stem>-<first 6 hex of the file's SHA-256>-
<clause>`` (``supply-contract-3fa2c1-12.3``), so the same document gives the
same ids whatever it is ingested with, and an edited document gives new ones.
"""

from __future__ import annotations

import hashlib
import re
from bisect import bisect_left, bisect_right
from pathlib import Path
from typing import Iterable

from pydantic import BaseModel, ConfigDict, Field

from symbolic.scenario.model import EvidenceFragment, Span

from .clauses import find_references, find_renumberings, segment
from .errors import DocumentError
from .extract import document_name, extract_bytes, read_document
from .limits import Deadline, DocumentLimitError, DocumentLimits

__all__ = ["FORMAT", "IngestedPackage", "Locator", "RenumberingRecord", "SourceDocument", "ingest",
           "ingest_bytes"]

FORMAT = "paratrace-evidence-v1"
_FROZEN = ConfigDict(frozen=True, extra="forbid")
_AMENDMENT = re.compile(r"\b(amendment|addendum|variation|supplement(?:al)? agreement|side letter)\b", re.IGNORECASE)


class RenumberingRecord(BaseModel):
    """A renumbering stated in a document: ``old`` is now ``new``.

    Attributes
    ----------
    old, new : str
        Clause references before and after.
    stated_in : str
        The fragment that states it.
    """

    model_config = _FROZEN
    old: str
    new: str
    stated_in: str


class SourceDocument(BaseModel):
    """One ingested file.

    Attributes
    ----------
    name : str
        File name (the fragments' ``source``).
    sha256 : str
        SHA-256 of the file's bytes.
    format : str
        ``pdf``, ``docx``, ``html``, ``markdown``, ``text`` or ``email``.
    role : str
        ``amendment`` when the document says it amends another (amendment,
        addendum, variation, side letter), else ``document``.
    pages : int or None
        Pages (PDF).
    text : str
        The extracted text the fragments' offsets point into.
    renumbering : tuple of RenumberingRecord
        Renumberings the document states.
    """

    model_config = _FROZEN
    name: str
    sha256: str = Field(pattern=r"^[0-9a-f]{64}$")
    format: str
    role: str = "document"
    pages: int | None = None
    text: str
    renumbering: tuple[RenumberingRecord, ...] = ()


class Locator(BaseModel):
    """Where a fragment comes from.

    Attributes
    ----------
    document : str
        Source file name.
    sha256 : str
        Its content hash.
    clause : str
        The clause reference as the document numbers it.
    page : int or None
        PDF page the clause starts on.
    paragraph : int
        1-based block (line of a PDF, paragraph of other formats) it starts at.
    start, end : int
        Offsets into the document's extracted text.
    references : tuple of str
        Cross-references as written (``"14"``, ``"Appendix 2, para 4"``).
    cross_refs : tuple of str
        The fragments those references resolve to.
    """

    model_config = _FROZEN
    document: str
    sha256: str
    clause: str
    page: int | None = None
    paragraph: int
    start: int
    end: int
    references: tuple[str, ...] = ()
    cross_refs: tuple[str, ...] = ()


class IngestedPackage(BaseModel):
    """An evidence package built from documents (the ``ingest -o`` file).

    Attributes
    ----------
    format : str
        ``paratrace-evidence-v1``.
    query, target : str or None
        Optional question and target literal (``ask`` reads them).
    fragments : tuple of EvidenceFragment
        What the assistant reads: id, text, source (file name), clause and
        span (offsets into the source's extracted text).
    locators : dict
        Fragment id to :class:`Locator`.
    documents : tuple of SourceDocument
    selection : dict or None
        What :func:`~assistant.ingest.select.select` kept and left out, and why.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")
    format: str = FORMAT
    query: str | None = None
    target: str | None = None
    fragments: tuple[EvidenceFragment, ...]
    locators: dict[str, Locator]
    documents: tuple[SourceDocument, ...]
    selection: dict | None = None

    def verify(self) -> None:
        """Check that every fragment is the slice of its document's text its offsets name.

        Raises
        ------
        DocumentError
            Naming the first fragment whose text and offsets disagree.
        """
        texts = {d.sha256: d.text for d in self.documents}
        for frag in self.fragments:
            loc = self.locators.get(frag.id)
            if loc is None or loc.sha256 not in texts:
                raise DocumentError(f"fragment {frag.id}: no locator or source document in the package")
            if texts[loc.sha256][loc.start:loc.end] != frag.text or frag.span != Span(start=loc.start, end=loc.end):
                raise DocumentError(f"fragment {frag.id}: text differs from {loc.document}[{loc.start}:{loc.end}]")

    def to_json(self) -> str:
        """The package as indented JSON."""
        return self.model_dump_json(indent=2, exclude_none=True)


def _slug(text: str) -> str:
    slug = re.sub(r"[^a-z0-9.]+", "-", text.lower()).strip("-.")
    return slug or "x"


def _document(name: str, data: bytes, fmt: str | None, limits: DocumentLimits, deadline: Deadline):
    sha = hashlib.sha256(data).hexdigest()
    extracted = extract_bytes(name, data, fmt, limits=limits, deadline=deadline)
    deadline.check(name, "extracting the text")
    units = segment(extracted)
    deadline.check(name, "cutting the text into clauses")
    prefix = f"{_slug(Path(name).stem)}-{sha[:6]}"
    fragments, locators, renumbering = [], {}, []
    for number, unit in enumerate(units):
        if number % 1000 == 999:
            deadline.check(name, "finding cross-references")
        fid = f"{prefix}-{_slug(unit.clause.replace(', para ', '-p'))}"
        text = extracted.text[unit.start:unit.end]
        fragments.append(EvidenceFragment(id=fid, text=text, source=name, clause=unit.clause,
                                          span=Span(start=unit.start, end=unit.end)))
        refs = find_references(text)
        locators[fid] = dict(document=name, sha256=sha, clause=unit.clause, page=unit.page,
                             paragraph=unit.paragraph, start=unit.start, end=unit.end,
                             references=tuple(dict.fromkeys(r.target for r in refs
                                                            if not _matches(unit.clause, r.target))),
                             external=frozenset(r.target for r in refs if r.external))
        renumbering += [RenumberingRecord(old=r.old, new=r.new, stated_in=fid) for r in find_renumberings(text)]
    head = extracted.text[extracted.blocks[0].start:extracted.blocks[min(2, len(extracted.blocks) - 1)].end]
    role = "amendment" if _AMENDMENT.search(head) else "document"
    doc = SourceDocument(name=name, sha256=sha, format=extracted.format, role=role, pages=extracted.pages,
                         text=extracted.text, renumbering=tuple(renumbering))
    return doc, fragments, locators


def _matches(clause: str, target: str) -> bool:
    return clause == target or clause.startswith(target + ".") or clause.startswith(target + ", para")


class _ClauseIndex:
    """Fragments by the references that name them: the clauses sorted once, then a range per reference.

    A reference :func:`_matches` the clauses equal to it and those that start
    with it followed by ``.`` or ``, para``: in the sorted clauses, three
    contiguous ranges, found by bisection.  A reference's fragments, grouped
    by document in package order, are kept for the next fragment that cites
    it, so each reference is looked up once however often it is cited.  The
    work is linear in the fragments a reference names (bounded by the length
    of the clauses: a clause is under at most one reference per ``.`` or
    ``, para`` in it) plus the fragments returned; neither the number of
    documents nor the depth of a clause number multiplies it.

    ``hits(fid, sha, wanted, external)`` is what scanning every fragment of the
    citing document (then of the others, or the other way round for an
    external reference) with :func:`_matches` gives, in package order.

    Attributes
    ----------
    rows : list of tuple
        ``(clause, position, document sha256, fragment id)`` sorted by clause.
    work : int
        Entries looked up and examined so far (the measure the scaling tests bound).
    """

    def __init__(self, by_doc: dict[str, list[EvidenceFragment]]):
        rows = []
        for sha, frags in by_doc.items():
            rows += [(frag.clause or "", len(rows) + i, sha, frag.id) for i, frag in enumerate(frags)]
        rows.sort(key=lambda row: (row[0], row[1]))
        self.rows = rows
        self.keys = [row[0] for row in rows]
        self.work = 0
        self._groups: dict[str, dict[str, list[tuple[int, str]]]] = {}

    def groups(self, reference: str) -> dict[str, list[tuple[int, str]]]:
        """The fragments ``reference`` names: document to ``(position, id)`` pairs, both in package order."""
        found = self._groups.get(reference)
        if found is None:
            keys, found = self.keys, {}
            spans = [(bisect_left(keys, reference), bisect_right(keys, reference)),
                     (bisect_left(keys, reference + ", para"), bisect_left(keys, reference + ", parb")),
                     (bisect_left(keys, reference + "."), bisect_left(keys, reference + "/"))]
            rows = sorted((self.rows[i] for lo, hi in spans for i in range(lo, hi)), key=lambda row: row[1])
            self.work += len(rows)
            for _, position, sha, fid in rows:
                found.setdefault(sha, []).append((position, fid))
            self._groups[reference] = found
        return found

    def _pool(self, fid: str, groups: list[dict], own: str, others: bool) -> list[str]:
        """The fragments of ``groups`` in document ``own`` (or, with ``others``, in the other documents)."""
        chosen = [[e for doc, e in group.items() if doc != own] if others else [group.get(own, ())]
                  for group in groups]
        self.work += sum(len(entries) for lists in chosen for entries in lists)
        if len(groups) == 1:  # one reference: already in package order
            return [f for entries in chosen[0] for _, f in entries if f != fid]
        found: dict[int, str] = {}
        for lists in chosen:
            for entries in lists:
                found.update((pos, f) for pos, f in entries if f != fid)
        return [found[pos] for pos in sorted(found)]

    def hits(self, fid: str, sha: str, wanted: list[str], external: bool) -> list[str]:
        """The fragments the references ``wanted`` name, for fragment ``fid`` of document ``sha``.

        Parameters
        ----------
        fid : str
            The citing fragment (never among its own hits).
        sha : str
            Its document.
        wanted : list of str
            The reference and its variants (a renumbering, the appendix's paragraph).
        external : bool
            Whether the reference names another document: the other documents
            are searched first, else the citing one.

        Returns
        -------
        list of str
            Fragment ids in package order.
        """
        groups = [group for group in map(self.groups, dict.fromkeys(wanted)) if group]
        if not groups:
            return []
        for others in ((True, False) if external else (False, True)):
            pool = self._pool(fid, groups, sha, others)
            if pool:
                return pool
        return []


def _resolve(fid: str, loc: dict, index: _ClauseIndex, renamed: dict[str, str], budget: int | None = None):
    """The fragments ``loc``'s references resolve to, in order, each once.

    Parameters
    ----------
    fid : str
        The citing fragment.
    loc : dict
        Its locator fields (``clause``, ``sha256``, ``references``, ``external``).
    index : _ClauseIndex
    renamed : dict
        New reference to old, from the stated renumberings.
    budget : int, optional
        Stop once more than this many fragments are found (the caller's
        ``max_cross_refs`` left): the result is then longer than ``budget``.

    Returns
    -------
    tuple of str
    """
    appendix = loc["clause"].split(", para")[0] if ", para" in loc["clause"] else None
    found: dict[str, None] = {}
    for target in loc["references"]:
        external = target in loc["external"]
        wanted = [target, renamed[target]] if target in renamed else [target]
        if appendix and target.isdigit() is False and not target.startswith(("Appendix", "Annex", "Schedule")):
            wanted.append(f"{appendix}, para {target}")
        found.update(dict.fromkeys(index.hits(fid, loc["sha256"], wanted, external)))
        if budget is not None and len(found) > budget:
            break
    return tuple(found)


def ingest_bytes(files: Iterable[tuple[str, bytes]], *, query: str | None = None, target: str | None = None,
                 formats: dict[str, str] | None = None, limits: DocumentLimits | None = None,
                 deadline: Deadline | None = None) -> IngestedPackage:
    """Ingest documents given as ``(file name, bytes)`` pairs.

    Cross-references resolve within the citing document first, or first in
    the other documents when the reference names another one (``clause 14 of
    the Agreement``); a stated renumbering (``Appendix 3 becomes Appendix
    4``) lets a reference to the new number find the clause under its old one.

    Parameters
    ----------
    files : iterable of (str, bytes)
    query, target : str, optional
        Stored in the package for ``ask``.
    formats : dict, optional
        File name to format, overriding detection.
    limits : DocumentLimits, optional
        The bounds (default :meth:`DocumentLimits.from_env`).
    deadline : Deadline, optional
        The time bound (default: ``limits.max_seconds`` from now).

    Returns
    -------
    IngestedPackage

    Raises
    ------
    DocumentError
        Naming the file that cannot be read, parsed, or holds no text, and
        when two files have the same content; :class:`DocumentLimitError`
        naming the file and the limit it crossed.
    """
    limits = DocumentLimits.from_env() if limits is None else limits
    deadline = Deadline(limits) if deadline is None else deadline
    documents, fragments, locators, seen = [], [], {}, {}
    total = 0
    for name, data in files:
        name = document_name(name)
        total += len(data)
        if len(data) > limits.max_file_bytes:
            raise DocumentLimitError(name, "max_file_bytes", limits.max_file_bytes, f"{len(data)} bytes")
        if total > limits.max_total_bytes:
            raise DocumentLimitError(name, "max_total_bytes", limits.max_total_bytes,
                                     f"{total} bytes with the documents before it")
        doc, frags, locs = _document(name, data, (formats or {}).get(name), limits, deadline)
        if doc.sha256 in seen:
            raise DocumentError(f"{name}: same content as {seen[doc.sha256]} (sha256 {doc.sha256[:12]})")
        seen[doc.sha256] = name
        documents.append(doc)
        fragments += frags
        locators.update(locs)
        if len(fragments) > limits.max_fragments:
            raise DocumentLimitError(name, "max_fragments", limits.max_fragments,
                                     f"{len(fragments)} fragments (clauses) with the documents before it")
    if not documents:
        raise DocumentError("no documents to ingest")
    by_doc: dict[str, list[EvidenceFragment]] = {}
    for frag in fragments:
        by_doc.setdefault(locators[frag.id]["sha256"], []).append(frag)
    renamed = {r.new: r.old for d in documents for r in d.renumbering}
    index = _ClauseIndex(by_doc)
    final, resolved = {}, 0
    for number, (fid, loc) in enumerate(locators.items()):
        cross = _resolve(fid, loc, index, renamed, limits.max_cross_refs - resolved)
        resolved += len(cross)
        if resolved > limits.max_cross_refs:
            raise DocumentLimitError(loc["document"], "max_cross_refs", limits.max_cross_refs,
                                     f"more than {limits.max_cross_refs} resolved cross-references")
        if number % 1000 == 999:
            deadline.check(loc["document"], "resolving cross-references")
        final[fid] = Locator(**{k: v for k, v in loc.items() if k != "external"}, cross_refs=cross)
    package = IngestedPackage(query=query, target=target, fragments=tuple(fragments), locators=final,
                              documents=tuple(documents))
    package.verify()
    return package


def ingest(paths: Iterable[str | Path], *, query: str | None = None, target: str | None = None,
           limits: DocumentLimits | None = None) -> IngestedPackage:
    """Ingest the documents at ``paths`` (see :func:`ingest_bytes` and :func:`~assistant.ingest.extract.read_document`).

    Raises
    ------
    DocumentError
        As :func:`ingest_bytes` and :func:`~assistant.ingest.extract.read_document`.

    Examples
    --------
    >>> pkg = ingest_bytes([("terms.txt", b"1. Delivery\\n\\n1.1 Delivery is due on 1 May.\\n\\n"
    ...                                   b"1.2 Subject to clause 1.1, a penalty applies.\\n")])
    >>> [(f.id, f.clause) for f in pkg.fragments]
    [('terms-cb0fb8-1.1', '1.1'), ('terms-cb0fb8-1.2', '1.2')]
    >>> pkg.locators["terms-cb0fb8-1.2"].cross_refs
    ('terms-cb0fb8-1.1',)
    """
    limits = DocumentLimits.from_env() if limits is None else limits
    return ingest_bytes([read_document(p, limits) for p in paths], query=query, target=target, limits=limits)
