"""Builders of hostile and oversized documents, shared by the ingestion tests and the benchmarks.

One place for the bytes of every crafted input of issue 32: DOCX archives
(streamed, so a 1 GiB member is never held in memory), PDFs with crafted
objects and streams, emails, and numbered clauses that cite each other.
``tests/ingest`` imports it by name (pytest puts this folder on ``sys.path``,
as for ``ingest_fixtures``); ``benchmarks/ingest.py``,
``benchmarks/ingest_scaling.py`` and ``benchmarks/hostile_probe.py`` load it by
its file.  Sizes are parameters: the tests build small ones, the benchmarks the
bombs.
"""

from __future__ import annotations

import io
import zipfile
import zlib
from collections.abc import Iterable

__all__ = ["MB", "W", "clauses_text", "citing_clauses", "docx", "docx_xml", "eml", "encrypted_pdf", "huge_node_xml",
           "junk_xml", "many_big_paragraphs_xml", "nested_eml", "one_char_xml", "paragraphs_xml", "pdf", "pdf_bomb",
           "pdf_pages_bomb", "pdf_with_stream", "rows_xml", "runs_xml", "text_pdf", "zip_archive"]

MB = 1024 * 1024
#: The WordprocessingML namespace declaration of ``word/document.xml``.
W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'


# --- archives and DOCX ---------------------------------------------------------------------------

def zip_archive(members: dict[str, bytes]) -> bytes:
    """A deflated ZIP archive of ``members`` (name -> bytes), in memory."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return out.getvalue()


def docx(document_xml: bytes | Iterable[bytes], extra: dict[str, bytes] | None = None, *,
         level: int = zipfile.ZIP_DEFLATED) -> bytes:
    """A DOCX whose ``word/document.xml`` is ``document_xml`` (bytes, or parts streamed into the member).

    Streaming keeps a member of a gigabyte out of memory: only the compressed
    archive is held.  ``extra`` adds other members (styles, relationships).
    """
    parts = [document_xml] if isinstance(document_xml, (bytes, bytearray)) else document_xml
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", level) as archive:
        archive.writestr("[Content_Types].xml", "<Types/>")
        with archive.open("word/document.xml", "w", force_zip64=True) as member:
            for part in parts:
                member.write(part)
        for name, data in (extra or {}).items():
            archive.writestr(name, data)
    return out.getvalue()


def docx_xml(body: str) -> bytes:
    """A DOCX whose body is the WordprocessingML ``body``."""
    return docx(f"<w:document {W}><w:body>{body}</w:body></w:document>".encode())


def paragraphs_xml(size: int):
    """``word/document.xml`` of short numbered paragraphs, about ``size`` bytes."""
    yield f"<w:document {W}><w:body>".encode()
    n, total = 0, 0
    while total < size:
        n += 1
        part = f"<w:p><w:r><w:t>{n}. The buyer pays invoice {n} within thirty days.</w:t></w:r></w:p>".encode()
        total += len(part)
        yield part
    yield b"</w:body></w:document>"


def one_char_xml(count: int = 61_680):
    """``count`` one-character paragraphs (the 57 KB DOCX that stalled the service)."""
    yield f"<w:document {W}><w:body>".encode()
    yield b"<w:p><w:r><w:t>x</w:t></w:r></w:p>" * count
    yield b"</w:body></w:document>"


def huge_node_xml(size: int = 1024 * MB):
    """One text node of ``size`` bytes (a 1 GiB node compresses to about 1 MB)."""
    yield f"<w:document {W}><w:body><w:p><w:r><w:t>".encode()
    chunk = b"A" * min(size, 16 * MB)
    for _ in range(size // len(chunk)):
        yield chunk
    yield b"</w:t></w:r></w:p></w:body></w:document>"


def many_big_paragraphs_xml(count: int = 200, size: int = 5 * MB):
    """``count`` paragraphs of ``size`` bytes each."""
    yield f"<w:document {W}><w:body>".encode()
    body = b"<w:p><w:r><w:t>" + b"B" * size + b"</w:t></w:r></w:p>"
    for _ in range(count):
        yield body
    yield b"</w:body></w:document>"


def runs_xml(size: int = 60 * MB):
    """One paragraph of one-character runs, about ``size`` bytes."""
    yield f"<w:document {W}><w:body><w:p>".encode()
    run = b"<w:r><w:t>a</w:t></w:r>"
    yield run * (size // len(run))
    yield b"</w:p></w:body></w:document>"


def junk_xml(size: int = 60 * MB):
    """One paragraph of empty proofing marks (elements no reader keeps), about ``size`` bytes."""
    yield f"<w:document {W}><w:body><w:p><w:r><w:t>x</w:t></w:r>".encode()
    mark = b"<w:proofErr/>"
    yield mark * (size // len(mark))
    yield b"</w:p></w:body></w:document>"


def rows_xml(size: int = 60 * MB):
    """One table of one-cell rows, about ``size`` bytes (at least 100,000 rows)."""
    yield f"<w:document {W}><w:body><w:tbl>".encode()
    row = b"<w:tr><w:tc><w:p><w:r><w:t>r</w:t></w:r></w:p></w:tc></w:tr>"
    for _ in range(max(1, size // len(row) // 100_000)):
        yield row * 100_000
    yield b"</w:tbl></w:body></w:document>"


# --- PDF -----------------------------------------------------------------------------------------

def pdf(objects: list[bytes], root: int = 1, trailer_extra: bytes = b"") -> bytes:
    """A PDF of numbered ``objects`` (bodies of ``N 0 obj``) with a correct cross-reference table."""
    out, offsets = io.BytesIO(), []
    out.write(b"%PDF-1.4\n")
    for number, body in enumerate(objects, 1):
        offsets.append(out.tell())
        out.write(b"%d 0 obj\n" % number + body + b"\nendobj\n")
    xref = out.tell()
    out.write(b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
              + b"".join(b"%010d 00000 n \n" % o for o in offsets))
    out.write(b"trailer\n<< /Size %d /Root %d 0 R %s>>\nstartxref\n%d\n%%%%EOF\n"
              % (len(objects) + 1, root, trailer_extra, xref))
    return out.getvalue()


def _stream(data: bytes, flate: bool) -> bytes:
    return (b"<< /Length %d%s >>\nstream\n" % (len(data), b" /Filter /FlateDecode" if flate else b"") + data
            + b"\nendstream")


def pdf_with_stream(stream: bytes) -> bytes:
    """A one-page PDF whose content stream is ``stream``, Flate-compressed as given."""
    return pdf([b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>", _stream(stream, True)])


def text_pdf(text: str = "1.1 The supplier pays a penalty.") -> bytes:
    """A one-page PDF with ``text`` in its text layer (Helvetica)."""
    content = b"BT /F1 12 Tf 72 720 Td (" + text.encode() + b") Tj ET"
    return pdf([b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
                b"/Resources << /Font << /F1 5 0 R >> >> >>",
                _stream(content, False), b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"])


def encrypted_pdf(password: str = "secret") -> bytes:
    """:func:`text_pdf`, encrypted with ``password`` (pypdf)."""
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(text_pdf())))
    writer.encrypt(password)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def pdf_bomb(size: int = 1024 * MB) -> bytes:
    """A one-page PDF whose content stream inflates to ``size`` bytes (1 GiB: about 1 MB compressed)."""
    packer, chunk = zlib.compressobj(9), min(size, 16 * MB)
    stream = b"".join([packer.compress(b"0" * chunk) for _ in range(size // chunk)] + [packer.flush()])
    return pdf_with_stream(stream)


def pdf_pages_bomb(pages: int = 16, size: int = 60 * MB) -> bytes:
    """A PDF of ``pages`` pages whose content streams each inflate to ``size`` bytes (under pypdf's bound)."""
    stream = zlib.compress(b"0" * size, 9)
    kids = b" ".join(b"%d 0 R" % (3 + 2 * i) for i in range(pages))
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [" + kids + b"] /Count %d >>" % pages]
    for i in range(pages):
        objects += [b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents %d 0 R >>" % (4 + 2 * i),
                    _stream(stream, True)]
    return pdf(objects)


# --- email and text ------------------------------------------------------------------------------

def eml(headers: str, body: bytes) -> bytes:
    """An email of ``headers`` (CRLF-separated) and ``body``."""
    return headers.encode() + b"\r\n\r\n" + body


def nested_eml(depth: int = 2_000) -> bytes:
    """An email of multiparts nested ``depth`` deep (each part opens the next)."""
    parts = b"".join(b"--B%d\r\nContent-Type: multipart/mixed; boundary=B%d\r\n\r\n" % (i, i + 1)
                     for i in range(depth))
    return eml("From: a@b.example\r\nContent-Type: multipart/mixed; boundary=B0", parts)


def _clause(n: int) -> tuple[int, int]:
    major, minor = divmod(n - 1, 500)
    return major + 1, minor + 1


def citing_clauses(count: int) -> bytes:
    """``count`` numbered clauses, each citing the one before it (500 per top-level number)."""
    lines = []
    for n in range(1, count + 1):
        major, minor = _clause(n)
        lines.append(f"{major}.{minor} The supplier delivers lot {n}, subject to clause {major}.{max(minor - 1, 1)}.")
    return "\n\n".join(lines).encode()


def clauses_text(size: int) -> bytes:
    """Numbered clauses, each citing the one before it, about ``size`` bytes of text (the scaling benchmarks)."""
    lines, n, total = [], 0, 0
    while total < size:
        n += 1
        major, minor = _clause(n)
        line = (f"{major}.{minor} The supplier shall deliver lot {n} to the buyer's warehouse on the "
                f"agreed date, packed and labelled as the schedule requires, and notify the buyer in writing of "
                f"any delay, subject to clause {major}.{max(minor - 1, 1)}.\n\n")
        lines.append(line)
        total += len(line)
    return "".join(lines).encode()
