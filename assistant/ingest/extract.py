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
import logging
import os
import re
import threading
import warnings
from contextlib import contextmanager
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path

from .errors import DocumentError, NoTextLayerError, UnsupportedFormatError
from .limits import Deadline, DocumentLimitError, DocumentLimits

__all__ = ["Block", "Extracted", "FORMATS", "detect_format", "document_name", "extract", "extract_bytes",
           "read_document", "shown_name"]

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
    """The extracted text and its blocks, within the limits on blocks, characters and time."""

    def __init__(self, name: str = "document", limits: DocumentLimits | None = None,
                 deadline: Deadline | None = None):
        self.parts: list[str] = []
        self.blocks: list[Block] = []
        self.length = 0
        self.name = name
        self.limits = limits or DocumentLimits()
        self.deadline = deadline

    def add(self, text: str, *, page: int | None = None, heading: bool = False, gap: str = "\n") -> None:
        text = text.strip()
        if not text:
            return
        limits = self.limits
        if len(self.blocks) >= limits.max_blocks:
            raise DocumentLimitError(self.name, "max_blocks", limits.max_blocks,
                                     f"more than {limits.max_blocks} paragraphs (blocks of text)")
        if self.length + len(gap) + len(text) > limits.max_text_chars:
            raise DocumentLimitError(self.name, "max_text_chars", limits.max_text_chars,
                                     f"more than {limits.max_text_chars} characters of text")
        if self.deadline is not None and len(self.blocks) % 1000 == 999:
            self.deadline.check(self.name, "reading its paragraphs")
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


_QUIET_LOCK = threading.Lock()
_quiet_users = [0, logging.NOTSET]  # PDFs being read, pypdf's level before the first


@contextmanager
def _pypdf_quiet():
    """pypdf logs no warning while a PDF is read: a broken PDF is one error line, not warnings first."""
    logger = logging.getLogger("pypdf")
    with _QUIET_LOCK:
        if _quiet_users[0] == 0:
            _quiet_users[1] = logger.level
            logger.setLevel(logging.CRITICAL + 1)
        _quiet_users[0] += 1
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            yield
    finally:
        with _QUIET_LOCK:
            _quiet_users[0] -= 1
            if _quiet_users[0] == 0:
                logger.setLevel(_quiet_users[1])


def _pdf(name: str, data: bytes, out: _Builder) -> Extracted:
    from pypdf import PdfReader
    from pypdf.errors import PdfReadError

    try:
        from pypdf.errors import LimitReachedError
    except ImportError:  # pypdf < 5
        LimitReachedError = MemoryError  # noqa: N806 - the name pypdf gives it
    try:
        with _pypdf_quiet():
            reader = PdfReader(io.BytesIO(data))
            if reader.is_encrypted:
                raise DocumentError(f"{name}: the PDF is encrypted")
            pages, expanded, chars = [], 0, 0
            for page in reader.pages:
                if out.deadline is not None:
                    out.deadline.check(name, "reading its pages")
                contents = page.get_contents()  # inflated once here; pypdf keeps it for extract_text
                expanded += len(contents.get_data()) if contents is not None else 0
                if expanded > out.limits.max_expanded_bytes:
                    raise DocumentLimitError(name, "max_expanded_bytes", out.limits.max_expanded_bytes,
                                             f"page content streams that expand to more than "
                                             f"{out.limits.max_expanded_bytes} bytes by page {len(pages) + 1}")
                pages.append(page.extract_text() or "")
                chars += len(pages[-1])
                if chars > out.limits.max_text_chars:
                    raise DocumentLimitError(name, "max_text_chars", out.limits.max_text_chars,
                                             f"more than {out.limits.max_text_chars} characters of text")
    except DocumentError:
        raise
    except (LimitReachedError, MemoryError) as exc:
        raise DocumentLimitError(name, "max_expanded_bytes", out.limits.max_expanded_bytes,
                                 f"a PDF stream that expands beyond pypdf's bound ({_first_line(exc)})") from None
    except (PdfReadError, ValueError, KeyError, TypeError, AttributeError, IndexError, RecursionError,
            OSError, AssertionError, ZeroDivisionError, UnicodeError) as exc:
        raise DocumentError(f"{name}: not a readable PDF ({type(exc).__name__}: {_first_line(exc)})") from None
    if not any(p.strip() for p in pages):
        raise NoTextLayerError(f"{name}: the PDF has no text layer ({len(pages)} page(s), no extractable text); "
                               "paratrace does no OCR: run OCR first or supply the text")
    for number, page in enumerate(pages, 1):
        for i, line in enumerate(page.splitlines()):
            out.add(line, page=number, gap="\n\n" if i == 0 else "\n")
    return out.done("pdf", len(pages))


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return (text.splitlines()[0] if text else type(exc).__name__)[:200]


def _docx(name: str, data: bytes, out: _Builder) -> Extracted:
    from .docx_xml import read_docx

    for text, heading in read_docx(name, data, out.limits):
        out.add(text, heading=heading)
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


def _html(text: str, fmt: str = "html", out: _Builder | None = None) -> Extracted:
    parser = _HTMLBlocks()
    if out is not None:
        parser.out = out
    parser.feed(text)
    parser.close()
    parser._flush()
    return parser.out.done(fmt)


def _markdown(text: str, out: _Builder | None = None) -> Extracted:
    from markdown_it import MarkdownIt

    return _html(MarkdownIt("commonmark").enable("table").render(text), "markdown", out)


_PARAGRAPHS = re.compile(r"\n[ \t]*\n")


def _text(text: str, fmt: str = "text", out: _Builder | None = None) -> Extracted:
    out = _Builder() if out is None else out
    for para in _PARAGRAPHS.split(text.replace("\r\n", "\n").replace("\r", "\n")):
        out.add("\n".join(line.rstrip() for line in para.strip("\n").splitlines()), gap="\n\n")
    return out.done(fmt)


def _email(name: str, data: bytes, out: _Builder) -> Extracted:
    try:
        message = email.message_from_bytes(data, policy=email.policy.default)
        head = "\n".join(f"{k}: {message[k]}" for k in ("From", "To", "Cc", "Date", "Subject") if message[k])
        body = message.get_body(preferencelist=("plain", "html"))
        if body is None:
            raise DocumentError(f"{name}: the email has no text or HTML body")
        content = body.get_content()
        kind = body.get_content_type()
    except DocumentError:
        raise
    except LookupError as exc:  # an unknown charset
        raise DocumentError(f"{name}: the email's text is in an unknown charset ({_first_line(exc)})") from None
    except (ValueError, TypeError, AttributeError, IndexError, UnicodeError) as exc:
        raise DocumentError(f"{name}: not a readable email ({type(exc).__name__}: {_first_line(exc)})") from None
    if not isinstance(content, str):
        raise DocumentError(f"{name}: the email's body is not text ({kind})")
    if kind == "text/html":
        return _text(head + "\n\n" + _html(content, out=_Builder(name, out.limits, out.deadline)).text, "email", out)
    return _text(head + "\n\n" + content, "email", out)


def shown_name(name: str) -> str:
    """``name`` as it can be shown: bytes that are not UTF-8 (a file system name) written as ``\\xNN``.

    >>> shown_name("caf\\udce9.txt")
    'caf\\\\xe9.txt'
    """
    try:
        name.encode("utf-8")
        return name
    except UnicodeEncodeError:
        return name.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


def document_name(name: str) -> str:
    """``name`` if it is valid Unicode text, which every stored or shown name must be.

    Raises
    ------
    DocumentError
        For a name holding bytes that are not UTF-8 (a file system name) or a
        lone surrogate, naming it with those bytes escaped.

    Examples
    --------
    >>> document_name("contract.pdf")
    'contract.pdf'
    >>> document_name("caf\\udce9.txt")
    Traceback (most recent call last):
    ...
    assistant.ingest.errors.DocumentError: caf\\xe9.txt: the file name is not valid UTF-8 text; rename the file
    """
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        raise DocumentError(f"{shown_name(name)}: the file name is not valid UTF-8 text; rename the file") from None
    return name


def extract_bytes(name: str, data: bytes, fmt: str | None = None, *, limits: DocumentLimits | None = None,
                  deadline: Deadline | None = None) -> Extracted:
    """Extract the text of a document given as bytes.

    Parameters
    ----------
    name : str
        File name (for the format and for messages).
    data : bytes
        The file's content.
    fmt : str, optional
        One of :data:`FORMATS`; detected from ``name`` and ``data`` when omitted.
    limits : DocumentLimits, optional
        Bounds on the expanded bytes, blocks and characters (the defaults when omitted).
    deadline : Deadline, optional
        The time bound, checked between blocks and pages.

    Raises
    ------
    DocumentError
        If the document cannot be parsed or holds no text;
        :class:`NoTextLayerError` for a PDF without a text layer;
        :class:`~assistant.ingest.limits.DocumentLimitError` over a limit.

    Examples
    --------
    >>> ex = extract_bytes("n.txt", b"From: a@b.example\\n\\nDear Sir,\\n\\nThe port is closed.\\n")
    >>> [ex.text[b.start:b.end] for b in ex.blocks]
    ['From: a@b.example', 'Dear Sir,', 'The port is closed.']
    >>> ex = extract_bytes("p.html", b"<h2>1. Scope</h2><p>All  staff.</p>")
    >>> [(ex.text[b.start:b.end], b.heading) for b in ex.blocks]
    [('1. Scope', True), ('All staff.', False)]
    """
    name = document_name(name)
    fmt = fmt or detect_format(name, data)
    if fmt not in FORMATS:
        raise UnsupportedFormatError(f"{name}: unknown format {fmt!r}; expected one of {', '.join(FORMATS)}")
    out = _Builder(name, limits, deadline)
    readers = {"pdf": lambda: _pdf(name, data, out), "docx": lambda: _docx(name, data, out),
               "email": lambda: _email(name, data, out), "html": lambda: _html(_decode(name, data), out=out),
               "markdown": lambda: _markdown(_decode(name, data), out)}
    try:
        result = readers.get(fmt, lambda: _text(_decode(name, data), out=out))()
    except RecursionError:  # a parser recursing into parts, objects or elements nested without end
        raise DocumentError(f"{name}: not a readable {fmt} document (its structure is nested too deeply)") from None
    if not result.blocks:
        raise DocumentError(f"{name}: no text found in the {fmt} document")
    return result


def read_document(path: str | Path, limits: DocumentLimits | None = None) -> tuple[str, bytes]:
    """``(file name, bytes)`` of the document at ``path``: a regular file (a link to one is followed)
    of at most ``limits.max_file_bytes``.

    The file is opened as every command opens its inputs
    (:func:`symbolic.support.fsio.open_input`): without blocking and checked
    on the opened descriptor, so a named pipe, a socket or a directory (even
    one swapped in after a check of the path) is refused and never waited on;
    a device is refused before it is opened.

    Raises
    ------
    DocumentError
        Naming the path and what is there; :class:`DocumentLimitError` for a
        file over the limit.
    """
    from symbolic.support.fsio import open_input

    limits = DocumentLimits.from_env() if limits is None else limits
    path = Path(path)
    with open_input(path, error=DocumentError) as handle:
        name = document_name(path.name)
        size = os.fstat(handle.fileno()).st_size
        if size > limits.max_file_bytes:
            raise DocumentLimitError(name, "max_file_bytes", limits.max_file_bytes, f"{size} bytes")
        try:
            data = handle.read(limits.max_file_bytes + 1)
        except OSError as exc:
            raise DocumentError(f"{shown_name(str(path))}: {exc.strerror or exc}") from None
    if len(data) > limits.max_file_bytes:
        raise DocumentLimitError(name, "max_file_bytes", limits.max_file_bytes,
                                 f"more than {limits.max_file_bytes} bytes")
    return name, data


def extract(path: str | Path) -> Extracted:
    """Extract the text of the document at ``path`` (see :func:`extract_bytes`).

    Raises
    ------
    DocumentError
        As :func:`extract_bytes` and :func:`read_document`.
    """
    return extract_bytes(*read_document(path))
