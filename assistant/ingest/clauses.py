"""Clause segmentation: extracted blocks to clause units, cross-references and
stated renumberings.

A clause starts at a block that opens with the number the document gives it
(``12.3 The Supplier ...``, ``Clause 14 - Force Majeure``), with an appendix,
annex or schedule heading (``Appendix 2``; its numbered paragraphs become
``Appendix 2, para 4``), or at a heading block that carries no number (its text
is the reference).  A document with none of these is cut into paragraphs
(``para 3``).  A title-only heading (``12. PENALTIES``) is merged into the
sub-clause that follows it.  So that a wrapped line, a list or a quoted clause
number in the body is not taken for a new clause, a clause number must come after the one before it (``12`` after
``5.2``, ``12.1`` after ``12``; a list ``1.`` ``2.`` inside clause 2 stays in
it) and not jump ahead by more than 20.  In a numbered document an
unnumbered heading stays inside the clause before it (or the preamble).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .extract import Block, Extracted

__all__ = ["ClauseUnit", "Reference", "Renumbering", "find_references", "find_renumberings", "segment"]

_NUMBERED_CASED = re.compile(r"^(?:(?:Clause|CLAUSE|Section|SECTION|Article|ARTICLE|§)\s*)?"
                             r"(\d{1,3}(?:\.\d{1,3})*)(?:\.|\))?\s+(?:[-–—:]\s*)?(?=[A-Z\"“'‘])")
_APPENDIX = re.compile(r"^(Appendix|APPENDIX|Annex|ANNEX|Schedule|SCHEDULE|Exhibit|EXHIBIT|Attachment|ATTACHMENT)"
                       r"\s+(\d{1,3}|[A-Z]|[IVX]{1,5})\b")
_HEADING_CHARS = 70
_TITLE_ONLY = 90
_MAX_JUMP = 20


@dataclass(frozen=True, slots=True)
class ClauseUnit:
    """A clause of one document, as a run of blocks.

    Attributes
    ----------
    clause : str
        The reference as the document numbers it (``"12.3"``,
        ``"Appendix 2, para 4"``, ``"para 3"``, ``"preamble"``).
    start, end : int
        Offsets into the extracted text.
    blocks : tuple of Block
    """

    clause: str
    start: int
    end: int
    blocks: tuple[Block, ...]

    @property
    def page(self) -> int | None:
        """The page the clause starts on (PDF)."""
        return self.blocks[0].page

    @property
    def paragraph(self) -> int:
        """The 1-based block position the clause starts at."""
        return self.blocks[0].paragraph


def _key(number: str) -> tuple[int, ...]:
    return tuple(int(x) for x in number.split("."))


def _label(block_text: str, block: Block, last: tuple[int, ...] | None):
    """(kind, value) for a block that starts a clause, else ``None``."""
    m = _APPENDIX.match(block_text)
    if m and (block.heading or len(block_text) <= _HEADING_CHARS):
        return "appendix", f"{m.group(1).title()} {m.group(2).upper() if len(m.group(2)) == 1 else m.group(2)}"
    m = _NUMBERED_CASED.match(block_text)
    if m:
        key = _key(m.group(1))
        if last is None or (key > last and key[0] <= last[0] + _MAX_JUMP):
            return "number", m.group(1)
    if block.heading:
        return "heading", " ".join(block_text.split())[:80]
    return None


def _is_title_only(text: str) -> bool:
    return len(text) <= _TITLE_ONLY and not text.rstrip().endswith((".", ";", ":")) or text.isupper()


def segment(doc: Extracted) -> tuple[ClauseUnit, ...]:
    """Cut a document into clause units (see the module docstring).

    Examples
    --------
    >>> from assistant.ingest.extract import extract_bytes
    >>> doc = extract_bytes("c.txt", b"Supply Agreement\\n\\n12. PENALTIES\\n\\n12.1 A penalty of 1% applies.\\n\\n"
    ...                     b"12.2 Subject to clause 14, the cap is 10%.\\n\\nAppendix 2\\n\\n4. Prices are net.")
    >>> [(u.clause, doc.text[u.start:u.end][:14]) for u in segment(doc)]
    [('preamble', 'Supply Agreeme'), ('12.1', '12. PENALTIES\\n'), ('12.2', '12.2 Subject t'), ('Appendix 2, para 4', 'Appendix 2\\n\\n4.')]
    """
    text = doc.text
    starts: list[tuple[int, str]] = []  # (block index, clause label)
    appendix: str | None = None
    last: tuple[int, ...] | None = None
    numbered_any = False
    headings: set[str] = set()
    for i, block in enumerate(doc.blocks):
        found = _label(text[block.start:block.end], block, last)
        if found is None:
            continue
        kind, value = found
        if kind == "appendix":
            appendix, last = value, None  # an appendix numbers its paragraphs afresh
            starts.append((i, value))
        elif kind == "number":
            numbered_any = True
            last = _key(value)
            starts.append((i, f"{appendix}, para {value}" if appendix is not None else value))
        else:
            headings.add(value)
            starts.append((i, value))
    if numbered_any:  # unnumbered headings belong to the numbered clause around them
        starts = [(i, label) for i, label in starts if label not in headings]
    if not starts or (not numbered_any and len(starts) == 1 and starts[0][0] == 0 and len(doc.blocks) > 2):
        return tuple(ClauseUnit(f"para {b.paragraph}", b.start, b.end, (b,)) for b in doc.blocks)
    units: list[ClauseUnit] = []
    if starts[0][0] > 0:
        pre = doc.blocks[: starts[0][0]]
        units.append(ClauseUnit("preamble", pre[0].start, pre[-1].end, pre))
    bounds = [s[0] for s in starts] + [len(doc.blocks)]
    label_at = dict(starts)
    pending: tuple[Block, ...] = ()
    for (index, clause), stop in zip(starts, bounds[1:]):
        blocks = pending + doc.blocks[index:stop]
        only = doc.blocks[index:stop]
        if len(only) == 1 and _is_title_only(text[only[0].start:only[0].end]) and stop < len(doc.blocks):
            following = label_at.get(stop, "")
            if following.startswith(clause + ".") or following.startswith(clause + ", para"):
                pending = blocks
                continue
        pending = ()
        units.append(ClauseUnit(clause, blocks[0].start, blocks[-1].end, blocks))
    if pending:
        units.append(ClauseUnit(clause, pending[0].start, pending[-1].end, pending))
    return tuple(_unique(units))


def _unique(units: list[ClauseUnit]):
    seen: dict[str, int] = {}
    for unit in units:
        count = seen.get(unit.clause, 0) + 1
        seen[unit.clause] = count
        yield unit if count == 1 else ClauseUnit(f"{unit.clause} ({count})", unit.start, unit.end, unit.blocks)


@dataclass(frozen=True, slots=True)
class Reference:
    """A cross-reference as written: ``clause 14``, ``Appendix 2, para 4``.

    Attributes
    ----------
    target : str
        The clause reference it names, normalized like :attr:`ClauseUnit.clause`.
    external : bool
        Whether it names another document (``clause 14 of the Agreement``).
    start, end : int
        Offsets in the text it was found in.
    """

    target: str
    external: bool
    start: int
    end: int


_NUM = r"\d{1,3}(?:\.\d{1,3})*"
_NUM_RE = re.compile(_NUM)
_SP = r"[^\S\n]"
_CLAUSE_REF = re.compile(rf"\b(?:clauses?|sections?|articles?|§§?){_SP}*({_NUM}(?:{_SP}*(?:,|and|or|to){_SP}*{_NUM})*)",
                         re.IGNORECASE)
_APPX_REF = re.compile(rf"\b(appendix|annex|schedule|exhibit|attachment){_SP}+(\d{{1,3}}|[A-Z]\b|[IVX]{{1,5}}\b)"
                       rf"(?:{_SP}*,?{_SP}*(?:para(?:graph)?s?\.?){_SP}*({_NUM}))?", re.IGNORECASE)
# Matched at the end of a reference (``match(text, pos)``), never on a copy of the rest of the text.
_EXTERNAL = re.compile(r"[^.;]{0,40}?\bof\s+the\s+(?:[A-Z][\w-]*\s+){0,3}?(?:Agreement|Contract|Terms|Policy|Deed)\b")


def find_references(text: str) -> tuple[Reference, ...]:
    """The clause and appendix references in ``text``.

    Examples
    --------
    >>> [(r.target, r.external) for r in find_references(
    ...     "Subject to clause 14 and clauses 9.1 and 9.3 of the Agreement; see Appendix 2, para 4.")]
    [('14', False), ('9.1', True), ('9.3', True), ('Appendix 2, para 4', False)]
    """
    refs: list[Reference] = []
    for m in _CLAUSE_REF.finditer(text):
        external = bool(_EXTERNAL.match(text, m.end()))
        for number in _NUM_RE.findall(m.group(1)):
            refs.append(Reference(number, external, m.start(), m.end()))
    for m in _APPX_REF.finditer(text):
        name = f"{m.group(1).title()} {m.group(2).upper() if len(m.group(2)) == 1 else m.group(2)}"
        target = f"{name}, para {m.group(3)}" if m.group(3) else name
        refs.append(Reference(target, bool(_EXTERNAL.match(text, m.end())), m.start(), m.end()))
    refs.sort(key=lambda r: r.start)
    return tuple(refs)


@dataclass(frozen=True, slots=True)
class Renumbering:
    """A renumbering the document states: ``old`` is now ``new``.

    Attributes
    ----------
    old, new : str
        Clause references before and after.
    start, end : int
        Offsets of the statement in the text it was found in.
    """

    old: str
    new: str
    start: int
    end: int


_UNIT = r"(clause|section|article|appendix|annex|schedule|exhibit)\s+(\d{1,3}(?:\.\d{1,3})*|[A-Z]\b|[IVX]{1,5}\b)"
_RENUMBER = [
    re.compile(_UNIT + r"[^.;]{0,60}?\b(?:is|are|shall be|will be)\s+(?:hereby\s+)?renumbered\s+(?:as|to)\s+"
               + r"(?:(clause|section|article|appendix|annex|schedule|exhibit)\s+)?"
               + r"(\d{1,3}(?:\.\d{1,3})*|[A-Z]\b|[IVX]{1,5}\b)", re.IGNORECASE),
    re.compile(r"\bformer\s+" + _UNIT + r"\s*\(\s*now\s+(?:(clause|section|article|appendix|annex|schedule|"
               r"exhibit)\s+)?(\d{1,3}(?:\.\d{1,3})*|[A-Z]\b|[IVX]{1,5}\b)", re.IGNORECASE),
    re.compile(_UNIT + r"[^.;]{0,60}?\b(?:becomes|shall become)\s+(?:(clause|section|article|appendix|annex|"
               r"schedule|exhibit)\s+)?(\d{1,3}(?:\.\d{1,3})*|[A-Z]\b|[IVX]{1,5}\b)", re.IGNORECASE),
]


# Every renumbering pattern needs one of these words: texts without them (nearly all) skip the three scans.
_RENUMBER_WORD = re.compile(r"renumbered|become|\(\s*now", re.IGNORECASE)


def _ref_name(kind: str, number: str) -> str:
    kind = kind.lower()
    return number if kind in ("clause", "section", "article") else f"{kind.title()} {number}"


def find_renumberings(text: str) -> tuple[Renumbering, ...]:
    """The renumberings ``text`` states.

    Examples
    --------
    >>> [(r.old, r.new) for r in find_renumberings(
    ...     "Clause 14 (Force Majeure) of the Agreement is renumbered as clause 15. Appendix 3 becomes Appendix 4.")]
    [('14', '15'), ('Appendix 3', 'Appendix 4')]
    """
    found: dict[tuple[str, str], Renumbering] = {}
    if not _RENUMBER_WORD.search(text):
        return ()
    for pattern in _RENUMBER:
        for m in pattern.finditer(text):
            old = _ref_name(m.group(1), m.group(2))
            new = _ref_name(m.group(3) or m.group(1), m.group(4))
            found.setdefault((old, new), Renumbering(old, new, m.start(), m.end()))
    return tuple(sorted(found.values(), key=lambda r: r.start))
