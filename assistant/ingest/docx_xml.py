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


def _paragraph_text(p) -> str:
    parts = []
    for child in p:
        if child.tag == f"{_W}r":
            parts.append(_run_text(child))
        elif child.tag == f"{_W}hyperlink":
            parts.extend(_run_text(r) for r in child if r.tag == f"{_W}r")
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


def _table_rows(table) -> Iterator[str]:
    """Each row of ``table`` as python-docx's ``" | ".join(c.text.strip() for c in row.cells)``."""
    above: dict[int, str] = {}  # grid column -> text of the cell there in the previous row
    for tr in table.iterfind(f"{_W}tr"):
        trpr = tr.find(f"{_W}trPr")
        column = _int(trpr.find(f"{_W}gridBefore") if trpr is not None else None, 0)
        cells, here = [], {}
        for tc in tr.iterfind(f"{_W}tc"):
            tcpr = tc.find(f"{_W}tcPr")
            span = max(1, _int(tcpr.find(f"{_W}gridSpan") if tcpr is not None else None, 1))
            merge = tcpr.find(f"{_W}vMerge") if tcpr is not None else None
            if merge is not None and merge.get(f"{_W}val", "continue") == "continue":
                text = above.get(column, "")
            else:
                text = "\n".join(_paragraph_text(p) for p in tc.iterfind(f"{_W}p")).strip()
            for offset in range(span):
                here[column + offset] = text
                cells.append(text)
            column += span
        above = here
        yield " | ".join(cells)


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
        with archive.open(main) as stream:
            body = None
            for _event, element in etree.iterparse(stream, events=("end",), tag=(f"{_W}p", f"{_W}tbl"),
                                                   **_parser_options()):
                parent = element.getparent()
                if parent is None or parent.tag != f"{_W}body":
                    continue  # a paragraph inside a table (read with its table) or elsewhere
                body = parent
                if element.tag == f"{_W}p":
                    style = _paragraph_style(element)
                    ui = styles.get(style, default) if style is not None else default
                    yield _paragraph_text(element), ui.startswith(("Heading", "Title"))
                else:
                    yield from ((row, False) for row in _table_rows(element))
                element.clear()
                while body is not None and len(body) and body[0] is not element:
                    del body[0]  # what came before in the body is read: free it
    except DocumentError:
        raise
    except (etree.XMLSyntaxError, zipfile.BadZipFile, zlib.error, KeyError, ValueError, OSError, EOFError,
            NotImplementedError, RuntimeError) as exc:  # RuntimeError: an encrypted member
        raise DocumentError(f"{name}: not a readable DOCX ({type(exc).__name__}: {exc})") from None
