"""Text extraction: a document file to one plain text and its blocks.

Every format becomes an :class:`Extracted`: the document's text as paratrace
reads it (lines of a PDF page, paragraphs of a DOCX or an email, the block
elements of an HTML page or of rendered Markdown) and the :class:`Block` s that
make it up, with their character offsets into that text, so a fragment cut
from blocks is a slice of the text and its offsets verify.  Parsers: ``pypdf``
(the PDF text layer; no OCR), ``python-docx``, the standard library's
:mod:`html.parser` and :mod:`email`, ``markdown-it-py`` for Markdown.
"""

from __future__ import annotations

import email
import email.policy
import io
import re
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path

from .errors import DocumentError, NoTextLayerError, UnsupportedFormatError

__all__ = ["Block", "Extracted", "FORMATS", "detect_format", "extract", "extract_bytes"]

FORMATS = ("pdf", "docx", "html", "markdown", "text", "email")
_SUFFIX = {".pdf": "pdf", ".docx": "docx", ".html": "html", ".htm": "html", ".md": "markdown",
           ".markdown": "markdown", ".txt": "text", ".text": "text", ".eml": "email"}


@dataclass(frozen=True, slots=True)
class Block:
    """One unit of extracted text: a PDF line, a paragraph, an HTML block element.

    Attributes
    ----------
    start, end : int
        Offsets ``[start, end)`` into :attr:`Extracted.text`.
    paragraph : int
        1-based position of the block in the document.
    page : int or None
        1-based PDF page (``None`` for other formats).
    heading : bool
        Whether the document marks the block as a heading (DOCX heading
        styles, HTML ``h1``-``h6``).
    """

    start: int
    end: int
    paragraph: int
    page: int | None = None
    heading: bool = False


@dataclass(frozen=True, slots=True)
class Extracted:
    """A document's extracted text and blocks.

    Attributes
    ----------
    text : str
    blocks : tuple of Block
    format : str
        One of :data:`FORMATS`.
    pages : int or None
        Page count (PDF only).
    """

    text: str
    blocks: tuple[Block, ...]
    format: str
    pages: int | None = None


class _Builder:
    def __init__(self):
        self.parts: list[str] = []
        self.blocks: list[Block] = []
        self.length = 0

    def add(self, text: str, *, page: int | None = None, heading: bool = False, gap: str = "\n") -> None:
        text = text.strip()
        if not text:
            return
        if self.parts:
            self.parts.append(gap)
            self.length += len(gap)
        self.blocks.append(Block(self.length, self.length + len(text), len(self.blocks) + 1, page, heading))
        self.parts.append(text)
        self.length += len(text)

    def done(self, fmt: str, pages: int | None = None) -> Extracted:
        return Extracted("".join(self.parts), tuple(self.blocks), fmt, pages)


def detect_format(name: str, data: bytes) -> str:
    """The format of a document from its file name, or its first bytes.

    Raises
    ------
    UnsupportedFormatError
        When neither names a supported format.

    Examples
    --------
    >>> detect_format("contract.PDF", b""), detect_format("notes", b"%PDF-1.7"), detect_format("a.md", b"")
    ('pdf', 'pdf', 'markdown')
    """
    fmt = _SUFFIX.get(Path(name).suffix.lower())
    if fmt:
        return fmt
    if data.startswith(b"%PDF"):
        return "pdf"
    if data.startswith(b"PK") and b"word/" in data[:4000]:
        return "docx"
    head = data[:512].lstrip().lower()
    if head.startswith((b"<!doctype html", b"<html")):
        return "html"
    raise UnsupportedFormatError(f"{name}: unsupported document format (expected .pdf, .docx, .html, .md, .txt "
                                 "or .eml)")


def _decode(name: str, data: bytes) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise DocumentError(f"{name}: not UTF-8 text (byte {exc.start})") from None


def _pdf(name: str, data: bytes) -> Extracted:
    from pypdf import PdfReader
    from pypdf.errors import PdfReadError

    try:
        reader = PdfReader(io.BytesIO(data))
        if reader.is_encrypted:
            raise DocumentError(f"{name}: the PDF is encrypted")
        pages = [page.extract_text() or "" for page in reader.pages]
    except (PdfReadError, ValueError, KeyError, TypeError) as exc:
        raise DocumentError(f"{name}: not a readable PDF ({type(exc).__name__}: {exc})") from None
    if not any(p.strip() for p in pages):
        raise NoTextLayerError(f"{name}: the PDF has no text layer ({len(pages)} page(s), no extractable text); "
                               "paratrace does no OCR: run OCR first or supply the text")
    out = _Builder()
    for number, page in enumerate(pages, 1):
        for i, line in enumerate(page.splitlines()):
            out.add(line, page=number, gap="\n\n" if i == 0 else "\n")
    return out.done("pdf", len(pages))


def _docx(name: str, data: bytes) -> Extracted:
    import docx
    from docx.table import Table
    from docx.text.paragraph import Paragraph

    try:
        document = docx.Document(io.BytesIO(data))
    except Exception as exc:  # noqa: BLE001 - python-docx raises zip, XML and key errors alike
        raise DocumentError(f"{name}: not a readable DOCX ({type(exc).__name__}: {exc})") from None
    out = _Builder()
    for child in document.element.body.iterchildren():
        tag = child.tag.rsplit("}", 1)[-1]
        if tag == "p":
            para = Paragraph(child, document)
            style = (para.style.name if para.style is not None else "") or ""
            out.add(para.text, heading=style.startswith(("Heading", "Title")))
        elif tag == "tbl":
            for row in Table(child, document).rows:
                out.add(" | ".join(c.text.strip() for c in row.cells))
    return out.done("docx")


_BLOCK_TAGS = {"p", "h1", "h2", "h3", "h4", "h5", "h6", "li", "dt", "dd", "pre", "blockquote", "div", "section",
               "article", "tr", "caption", "figcaption", "address", "title", "br", "table", "ul", "ol", "header",
               "footer", "main"}
_SKIP_TAGS = {"script", "style", "noscript", "template", "svg", "head", "nav"}


class _HTMLBlocks(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.out = _Builder()
        self.buffer: list[str] = []
        self.skip = 0
        self.heading = False
        self.lists: list[list] = []  # [tag, counter] per open list

    def _flush(self) -> None:
        text = " ".join("".join(self.buffer).split())
        self.buffer = []
        if text and not self.skip:
            self.out.add(text, heading=self.heading)
        self.heading = False

    def handle_starttag(self, tag, attrs):
        if tag in _SKIP_TAGS:
            self.skip += 1
            return
        if tag in _BLOCK_TAGS:
            self._flush()
        if tag in ("ol", "ul"):
            start = dict(attrs).get("start")
            self.lists.append([tag, int(start) - 1 if start and start.isdigit() else 0])
        elif tag == "li" and self.lists and self.lists[-1][0] == "ol":
            self.lists[-1][1] += 1
            self.buffer.append(f"{self.lists[-1][1]}. ")
        elif tag in ("td", "th"):
            self.buffer.append(" | " if self.buffer else "")
        if tag in ("h1", "h2", "h3", "h4", "h5", "h6"):
            self.heading = True

    def handle_endtag(self, tag):
        if tag in _SKIP_TAGS:
            self.skip = max(0, self.skip - 1)
            return
        if tag in _BLOCK_TAGS:
            self._flush()
        if tag in ("ol", "ul") and self.lists:
            self.lists.pop()

    def handle_data(self, data):
        if not self.skip:
            self.buffer.append(data)


def _html(text: str, fmt: str = "html") -> Extracted:
    parser = _HTMLBlocks()
    parser.feed(text)
    parser.close()
    parser._flush()
    return parser.out.done(fmt)


def _markdown(text: str) -> Extracted:
    from markdown_it import MarkdownIt

    return _html(MarkdownIt("commonmark").enable("table").render(text), "markdown")


_PARAGRAPHS = re.compile(r"\n[ \t]*\n")


def _text(text: str, fmt: str = "text") -> Extracted:
    out = _Builder()
    for para in _PARAGRAPHS.split(text.replace("\r\n", "\n").replace("\r", "\n")):
        out.add("\n".join(line.rstrip() for line in para.strip("\n").splitlines()), gap="\n\n")
    return out.done(fmt)


def _email(name: str, data: bytes) -> Extracted:
    message = email.message_from_bytes(data, policy=email.policy.default)
    head = "\n".join(f"{k}: {message[k]}" for k in ("From", "To", "Cc", "Date", "Subject") if message[k])
    body = message.get_body(preferencelist=("plain", "html"))
    if body is None:
        raise DocumentError(f"{name}: the email has no text or HTML body")
    content = body.get_content()
    if body.get_content_type() == "text/html":
        return _text(head + "\n\n" + _html(content).text, "email")
    return _text(head + "\n\n" + content, "email")


def extract_bytes(name: str, data: bytes, fmt: str | None = None) -> Extracted:
    """Extract the text of a document given as bytes.

    Parameters
    ----------
    name : str
        File name (for the format and for messages).
    data : bytes
        The file's content.
    fmt : str, optional
        One of :data:`FORMATS`; detected from ``name`` and ``data`` when omitted.

    Raises
    ------
    DocumentError
        If the document cannot be parsed or holds no text;
        :class:`NoTextLayerError` for a PDF without a text layer.

    Examples
    --------
    >>> ex = extract_bytes("n.txt", b"From: a@b.example\\n\\nDear Sir,\\n\\nThe port is closed.\\n")
    >>> [ex.text[b.start:b.end] for b in ex.blocks]
    ['From: a@b.example', 'Dear Sir,', 'The port is closed.']
    >>> ex = extract_bytes("p.html", b"<h2>1. Scope</h2><p>All  staff.</p>")
    >>> [(ex.text[b.start:b.end], b.heading) for b in ex.blocks]
    [('1. Scope', True), ('All staff.', False)]
    """
    fmt = fmt or detect_format(name, data)
    if fmt not in FORMATS:
        raise UnsupportedFormatError(f"{name}: unknown format {fmt!r}; expected one of {', '.join(FORMATS)}")
    if fmt == "pdf":
        result = _pdf(name, data)
    elif fmt == "docx":
        result = _docx(name, data)
    elif fmt == "email":
        result = _email(name, data)
    elif fmt == "html":
        result = _html(_decode(name, data))
    elif fmt == "markdown":
        result = _markdown(_decode(name, data))
    else:
        result = _text(_decode(name, data))
    if not result.blocks:
        raise DocumentError(f"{name}: no text found in the {fmt} document")
    return result


def extract(path: str | Path) -> Extracted:
    """Extract the text of the document at ``path`` (see :func:`extract_bytes`).

    Raises
    ------
    DocumentError
        As :func:`extract_bytes`; ``OSError`` when the file cannot be read.
    """
    path = Path(path)
    return extract_bytes(path.name, path.read_bytes())
