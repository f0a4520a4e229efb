"""The text of a DOCX in one streaming pass over its XML, within bounds.

python-docx looks a paragraph's style up by scanning the document's styles for
every paragraph (the default style by a scan of all styles), which made a 57 KB
file of 60,000 one-character paragraphs take minutes, and it reads every member
of the archive into memory before looking at any.  This reader gives the same
text and heading flags as python-docx 1.x for the body's paragraphs and table
rows (``Paragraph.text``: runs and hyperlinks' runs, ``w:tab``/``w:ptab`` as a
tab, a text-wrapping ``w:br`` and ``w:cr`` as a line break, ``w:noBreakHyphen``
as ``-``; a table row's cells joined by `` | ``, a horizontally merged cell
repeated per grid column it spans, a vertically merged one as the cell it
continues), in time linear in the file:

* the archive's directory is checked first: every member's declared size
  counts against ``max_expanded_bytes``, so no bomb is decompressed, and a
  member is read with its declared size as the bound;
* ``styles.xml`` is read once into a map from style id to UI name (the heading
  test is ``Heading...`` or ``Title...``, as the names python-docx shows);
* ``document.xml`` is parsed incrementally (``lxml.etree.iterparse``) and each
  body-level paragraph or table is dropped from memory once read.

The XML parser resolves no entity, loads no DTD and reaches no network (XXE,
billion laughs); a text node over libxml2's 10 MB bound is an error.
"""

from __future__ import annotations

import posixpath
import zipfile
import zlib
from io import BytesIO
from typing import Iterator

from .errors import DocumentError
from .limits import DocumentLimitError, DocumentLimits

__all__ = ["read_docx"]

_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
_REL = "{http://schemas.openxmlformats.org/package/2006/relationships}"
_OFFICE_DOCUMENT = "/officeDocument"
_STYLES = "/styles"
_UI_NAMES = {f"heading {n}": f"Heading {n}" for n in range(1, 10)}  # python-docx's BabelFish
_UI_NAMES.update({"caption": "Caption", "footer": "Footer", "header": "Header"})
_ON = {"1", "true", "on"}
_MAX_SMALL_PART = 16 * 1024 * 1024  # relationships and styles


def _parser_options() -> dict:
    return dict(resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False, remove_comments=True,
                remove_pis=True)


def _parse_small(name: str, archive: zipfile.ZipFile, member: str):
    from lxml import etree

    info = archive.getinfo(member)
    if info.file_size > _MAX_SMALL_PART:
        raise DocumentError(f"{name}: {member} is {info.file_size} bytes; a DOCX part of its kind holds far less")
    try:
        return etree.fromstring(archive.read(member), etree.XMLParser(**_parser_options()))
    except etree.XMLSyntaxError as exc:
        raise DocumentError(f"{name}: not a readable DOCX ({member}: {exc})") from None


def _relationships(name: str, archive: zipfile.ZipFile, rels: str) -> dict[str, str]:
    """Relationship type suffix (``/styles``) to the target member, for the part whose ``.rels`` is ``rels``."""
    if rels not in archive.NameToInfo:
        return {}
    base = posixpath.dirname(posixpath.dirname(rels))
    out = {}
    for rel in _parse_small(name, archive, rels).iter(f"{_REL}Relationship"):
        kind, target = rel.get("Type") or "", rel.get("Target") or ""
        if rel.get("TargetMode") == "External" or not target:
            continue
        member = posixpath.normpath(target.lstrip("/") if target.startswith("/") else posixpath.join(base, target))
        out.setdefault("/" + kind.rsplit("/", 1)[-1], member)
    return out


def _style_names(name: str, archive: zipfile.ZipFile, member: str | None) -> tuple[dict[str, str], str]:
    """Paragraph style id to UI name, and the default paragraph style's UI name."""
    if member is None or member not in archive.NameToInfo:
        return {}, ""
    names, default = {}, ""
    for style in _parse_small(name, archive, member).iter(f"{_W}style"):
        if style.get(f"{_W}type") != "paragraph":
            continue
        node = style.find(f"{_W}name")
        ui = _UI_NAMES.get(node.get(f"{_W}val"), node.get(f"{_W}val")) if node is not None else None
        sid = style.get(f"{_W}styleId")
        if sid is not None and sid not in names:
            names[sid] = ui or ""
        if style.get(f"{_W}default") in _ON:
            default = ui or ""  # the last default in document order
    return names, default


_TEXT_OF = {f"{_W}tab": "\t", f"{_W}ptab": "\t", f"{_W}cr": "\n", f"{_W}noBreakHyphen": "-"}
_KEEP_FIRST = {f"{_W}pPr": f"{_W}pStyle", f"{_W}tcPr": (f"{_W}gridSpan", f"{_W}vMerge"),
               f"{_W}trPr": f"{_W}gridBefore"}
_PROPERTIES = {f"{_W}p": f"{_W}pPr", f"{_W}tc": f"{_W}tcPr", f"{_W}tr": f"{_W}trPr"}
_COMPACT = 1024  # join a paragraph's or cell's pieces once there are this many


def _int(node, default: int) -> int:
    try:
        return int(node.get(f"{_W}val")) if node is not None else default
    except (TypeError, ValueError):
        return default


def _drop(element) -> None:
    """Free a read element: its content, and its place in its parent."""
    parent = element.getparent()
    element.clear()
    if parent is not None:
        parent.remove(element)


class _Pieces:
    """Text built from many pieces, joined as it grows (a list of millions of one-character strings
    would take far more memory than their text), bounded by ``max_text_chars``."""

    __slots__ = ("parts", "length", "sep")

    def __init__(self, sep: str = ""):
        self.parts: list[str] = []
        self.length = 0
        self.sep = sep

    def add(self, text: str, name: str, limits: DocumentLimits) -> None:
        self.parts.append(text)
        self.length += len(text) + len(self.sep)
        if self.length > limits.max_text_chars:
            raise DocumentLimitError(name, "max_text_chars", limits.max_text_chars,
                                     f"more than {limits.max_text_chars} characters of text")
        if len(self.parts) >= _COMPACT:
            self.parts = [self.sep.join(self.parts)]

    def text(self) -> str:
        return self.sep.join(self.parts)


class _Stream:
    """One pass over ``document.xml``, every element handled and freed when it ends.

    python-docx's text rules: a body paragraph's text is its ``w:r`` and
    ``w:hyperlink/w:r`` runs (``w:t``, tabs, breaks, hyphens); a cell's text its
    paragraphs joined by newlines; a row its cells (repeated per grid column
    spanned; a vertical merge's continuation is the cell above).  What no rule
    reads (bookmarks, proofing marks, properties, unknown elements, text boxes,
    content controls, nested tables) is dropped at its end, so memory holds only
    the open elements, one paragraph's text, one row's cells and, per table,
    the texts of the row before.
    """

    def __init__(self, name: str, limits: DocumentLimits, styles: dict[str, str], default: str):
        self.name, self.limits, self.styles, self.default = name, limits, styles, default
        self.paragraphs: dict = {}  # paragraph element -> _Pieces of its runs' text
        self.cells: dict = {}       # cell element -> _Pieces of its paragraphs' texts
        self.rows: dict = {}        # row element -> [cells' texts], grid column
        self.above: dict = {}       # table element -> {grid column: text of the row before}

    def end(self, element):
        """Handle one element at its end; a body block as ``(text, heading)``, else ``None``."""
        tag = element.tag
        parent = element.getparent()
        ptag = parent.tag if parent is not None else None
        if tag == f"{_W}t" or tag in _TEXT_OF or tag == f"{_W}br":
            if ptag == f"{_W}r":
                if tag == f"{_W}t":
                    text = element.text or ""
                elif tag == f"{_W}br":
                    text = "\n" if element.get(f"{_W}type", "textWrapping") == "textWrapping" else ""
                else:
                    text = _TEXT_OF[tag]
                owner = self._owner(parent)
                if owner is not None and text:
                    self.paragraphs.setdefault(owner, _Pieces()).add(text, self.name, self.limits)
            _drop(element)
        elif tag == f"{_W}p":
            return self._paragraph(element, ptag)
        elif tag == f"{_W}tc" and ptag == f"{_W}tr":
            self._cell(element, parent)
        elif tag == f"{_W}tr" and ptag == f"{_W}tbl":
            return self._row(element, parent)
        elif tag == f"{_W}tbl":
            self.above.pop(element, None)
            _drop(element)
        elif self._kept(tag, ptag, element):
            pass  # read when its paragraph, cell or row ends
        else:
            _drop(element)
        return None

    @staticmethod
    def _kept(tag, ptag, element) -> bool:
        if tag in (f"{_W}body", f"{_W}document"):
            return True
        if _PROPERTIES.get(ptag) == tag:  # the first pPr, tcPr, trPr of its paragraph, cell, row
            return element.getprevious() is None or all(s.tag != tag for s in element.itersiblings(preceding=True))
        wanted = _KEEP_FIRST.get(ptag)
        if wanted is None or tag not in (wanted if isinstance(wanted, tuple) else (wanted,)):
            return False
        return all(s.tag != tag for s in element.itersiblings(preceding=True))

    @staticmethod
    def _owner(run):
        """The paragraph whose text ``run`` is part of (a direct run, or a hyperlink's), else ``None``."""
        parent = run.getparent()
        if parent is not None and parent.tag == f"{_W}hyperlink":
            parent = parent.getparent()
        return parent if parent is not None and parent.tag == f"{_W}p" else None

    def _paragraph(self, p, ptag):
        pieces = self.paragraphs.pop(p, None)
        text = pieces.text() if pieces is not None else ""
        if ptag == f"{_W}body":
            ppr = p.find(f"{_W}pPr")
            node = ppr.find(f"{_W}pStyle") if ppr is not None else None
            style = node.get(f"{_W}val") if node is not None else None
            ui = self.styles.get(style, self.default) if style is not None else self.default
            _drop(p)
            return text, ui.startswith(("Heading", "Title"))
        if ptag == f"{_W}tc":
            self.cells.setdefault(p.getparent(), _Pieces("\n")).add(text, self.name, self.limits)
        _drop(p)  # a cell's paragraph is in its cell's text now; a text box's is read by no rule
        return None

    def _cell(self, tc, tr) -> None:
        pieces = self.cells.pop(tc, None)
        tcpr = tc.find(f"{_W}tcPr")
        span = max(1, _int(tcpr.find(f"{_W}gridSpan") if tcpr is not None else None, 1))
        merge = tcpr.find(f"{_W}vMerge") if tcpr is not None else None
        continued = merge is not None and merge.get(f"{_W}val", "continue") == "continue"
        _drop(tc)
        table = tr.getparent()
        if table is None or table.getparent() is None or table.getparent().tag != f"{_W}body":
            return  # a nested table's cell: python-docx reads no nested table
        cells, column = self.rows.setdefault(tr, [[], None])
        if column is None:
            trpr = tr.find(f"{_W}trPr")
            column = _int(trpr.find(f"{_W}gridBefore") if trpr is not None else None, 0)
        text = self.above.get(table, {}).get(column, "") if continued else (
            pieces.text().strip() if pieces is not None else "")
        if len(cells) + span > self.limits.max_blocks:
            raise DocumentLimitError(self.name, "max_blocks", self.limits.max_blocks,
                                     f"a table row of more than {self.limits.max_blocks} cells")
        cells.extend([(column + offset, text) for offset in range(span)])
        self.rows[tr][1] = column + span

    def _row(self, tr, table):
        cells, _ = self.rows.pop(tr, ([], None))
        _drop(tr)
        if table.getparent() is None or table.getparent().tag != f"{_W}body":
            return None
        self.above[table] = dict(cells)
        return " | ".join(text for _, text in cells), False


def read_docx(name: str, data: bytes, limits: DocumentLimits) -> Iterator[tuple[str, bool]]:
    """The body's blocks of a DOCX: ``(text, heading)`` per paragraph and per table row, in order.

    Parameters
    ----------
    name : str
        The file name, for messages.
    data : bytes
        The DOCX file.
    limits : DocumentLimits
        ``max_expanded_bytes`` bounds the archive's declared content.

    Yields
    ------
    tuple of (str, bool)
        The block's text and whether its paragraph style is a heading or title.

    Raises
    ------
    DocumentError
        For a file that is not a readable DOCX; :class:`DocumentLimitError`
        for an archive that expands beyond ``max_expanded_bytes``.
    """
    from lxml import etree

    try:
        archive = zipfile.ZipFile(BytesIO(data))
        members = archive.infolist()
    except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, OSError, EOFError, NotImplementedError) as exc:
        raise DocumentError(f"{name}: not a readable DOCX ({type(exc).__name__}: {exc})") from None
    expanded = sum(info.file_size for info in members)
    if expanded > limits.max_expanded_bytes:
        raise DocumentLimitError(name, "max_expanded_bytes", limits.max_expanded_bytes,
                                 f"an archive whose {len(members)} members expand to {expanded} bytes")
    try:
        main = _relationships(name, archive, "_rels/.rels").get(_OFFICE_DOCUMENT, "word/document.xml")
        if main not in archive.NameToInfo:
            raise DocumentError(f"{name}: not a readable DOCX (no main document part {main})")
        rels = posixpath.join(posixpath.dirname(main), "_rels", posixpath.basename(main) + ".rels")
        styles, default = _style_names(name, archive, _relationships(name, archive, rels).get(_STYLES))
        state = _Stream(name, limits, styles, default)
        with archive.open(main) as stream:
            for _event, element in etree.iterparse(stream, events=("end",), **_parser_options()):
                block = state.end(element)
                if block is not None:
                    yield block
    except DocumentError:
        raise
    except (etree.XMLSyntaxError, zipfile.BadZipFile, zlib.error, KeyError, ValueError, OSError, EOFError,
            NotImplementedError, RuntimeError) as exc:  # RuntimeError: an encrypted member
        raise DocumentError(f"{name}: not a readable DOCX ({type(exc).__name__}: {exc})") from None
