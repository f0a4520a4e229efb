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


def _run_text(run) -> str:
    parts = []
    for child in run:
        tag = child.tag
        if tag == f"{_W}t":
            parts.append(child.text or "")
        elif tag in (f"{_W}tab", f"{_W}ptab"):
            parts.append("\t")
        elif tag == f"{_W}br":
            parts.append("\n" if child.get(f"{_W}type", "textWrapping") == "textWrapping" else "")
        elif tag == f"{_W}cr":
            parts.append("\n")
        elif tag == f"{_W}noBreakHyphen":
            parts.append("-")
    return "".join(parts)


def _paragraph_style(p) -> str | None:
    ppr = p.find(f"{_W}pPr")
    node = ppr.find(f"{_W}pStyle") if ppr is not None else None
    return node.get(f"{_W}val") if node is not None else None


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


class _Stream:
    """The state of one pass: the text of the paragraphs being read, of the cells' paragraphs already
    read, and per table the text of each grid column in the row before (vertical merges)."""

    def __init__(self, styles: dict[str, str], default: str):
        self.styles, self.default = styles, default
        self.runs: dict = {}          # paragraph element -> its runs' texts so far
        self.cells: dict = {}         # paragraph element in a cell -> its text
        self.above: dict = {}         # table element -> {grid column: text}

    def run(self, run) -> None:
        parent = run.getparent()
        owner = parent if parent is not None and parent.tag == f"{_W}p" else None
        if parent is not None and parent.tag == f"{_W}hyperlink":
            grand = parent.getparent()
            owner = grand if grand is not None and grand.tag == f"{_W}p" else None
        if owner is not None:  # python-docx reads w:r and w:hyperlink/w:r of a paragraph, nothing else
            self.runs.setdefault(owner, []).append(_run_text(run))
        _drop(run)

    def paragraph(self, p):
        """``(text, heading)`` for a body paragraph; a cell's paragraph is kept for its row."""
        text = "".join(self.runs.pop(p, ()))
        parent = p.getparent()
        kind = parent.tag if parent is not None else None
        if kind == f"{_W}body":
            style = _paragraph_style(p)
            ui = self.styles.get(style, self.default) if style is not None else self.default
            _purge_before(p)
            _drop(p)
            return text, ui.startswith(("Heading", "Title"))
        if kind == f"{_W}tc":
            self.cells[p] = text
            p.clear()  # stays in its cell (the row reads it), empty
        else:
            _drop(p)  # a text box, a content control...: python-docx reads none of it
        return None

    def row(self, tr) -> str | None:
        """python-docx's ``" | ".join(c.text.strip() for c in row.cells)`` for a row of a body table."""
        table = tr.getparent()
        if table is None or table.tag != f"{_W}tbl" or table.getparent() is None \
                or table.getparent().tag != f"{_W}body":
            return None  # a nested table's row: its cell paragraphs stay for nobody, python-docx skips them
        above = self.above.get(table, {})
        trpr = tr.find(f"{_W}trPr")
        column = _int(trpr.find(f"{_W}gridBefore") if trpr is not None else None, 0)
        cells, here = [], {}
        for tc in tr.iterfind(f"{_W}tc"):
            tcpr = tc.find(f"{_W}tcPr")
            span = max(1, _int(tcpr.find(f"{_W}gridSpan") if tcpr is not None else None, 1))
            merge = tcpr.find(f"{_W}vMerge") if tcpr is not None else None
            texts = [self.cells.pop(p, "") for p in tc.iterfind(f"{_W}p")]
            for nested in tc.iter(f"{_W}p"):
                self.cells.pop(nested, None)
            if merge is not None and merge.get(f"{_W}val", "continue") == "continue":
                text = above.get(column, "")
            else:
                text = "\n".join(texts).strip()
            for offset in range(span):
                here[column + offset] = text
                cells.append(text)
            column += span
        self.above[table] = here
        _drop(tr)
        return " | ".join(cells)

    def table(self, table) -> None:
        self.above.pop(table, None)
        parent = table.getparent()
        if parent is not None and parent.tag == f"{_W}body":
            _purge_before(table)
            _drop(table)


def _purge_before(element) -> None:
    """Free what the body holds before ``element`` (bookmarks, section marks...): already passed."""
    parent = element.getparent()
    while parent is not None and len(parent) and parent[0] is not element:
        del parent[0]


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
        state = _Stream(styles, default)
        tags = (f"{_W}r", f"{_W}p", f"{_W}tr", f"{_W}tbl")
        with archive.open(main) as stream:
            for _event, element in etree.iterparse(stream, events=("end",), tag=tags, **_parser_options()):
                tag = element.tag
                if tag == f"{_W}r":
                    state.run(element)
                elif tag == f"{_W}p":
                    block = state.paragraph(element)
                    if block is not None:
                        yield block
                elif tag == f"{_W}tr":
                    row = state.row(element)
                    if row is not None:
                        yield row, False
                else:
                    state.table(element)
    except DocumentError:
        raise
    except (etree.XMLSyntaxError, zipfile.BadZipFile, zlib.error, KeyError, ValueError, OSError, EOFError,
            NotImplementedError, RuntimeError) as exc:  # RuntimeError: an encrypted member
        raise DocumentError(f"{name}: not a readable DOCX ({type(exc).__name__}: {exc})") from None
