"""The shared builders of hostile documents (``hostile_documents.py``) build what they say, and the
benchmarks that load them by file start (``benchmarks/hostile_probe.py`` and its modules,
``benchmarks/ingest.py``, ``ingest_scaling.py``, ``serve_attack.py``)."""

from __future__ import annotations

import email
import io
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from hostile_documents import (MB, citing_clauses, clauses_text, docx, docx_xml, encrypted_pdf, huge_node_xml,
                               nested_eml, one_char_xml, pdf_pages_bomb, pdf_with_stream, text_pdf)

ROOT = Path(__file__).resolve().parents[2]


def test_docx_members_are_streamed_and_read_back():
    archive = zipfile.ZipFile(io.BytesIO(docx(one_char_xml(1_000))))
    assert archive.namelist() == ["[Content_Types].xml", "word/document.xml"]
    assert archive.read("word/document.xml").count(b"<w:p>") == 1_000
    assert b"<w:t>1.1 A.</w:t>" in zipfile.ZipFile(io.BytesIO(docx_xml("<w:p><w:r><w:t>1.1 A.</w:t></w:r></w:p>"))
                                                    ).read("word/document.xml")
    node = zipfile.ZipFile(io.BytesIO(docx(huge_node_xml(2 * MB)))).getinfo("word/document.xml")
    assert node.file_size > 2 * MB and node.compress_size < 50_000


def test_pdfs_are_what_pypdf_reads():
    from pypdf import PdfReader

    assert "supplier pays a penalty" in PdfReader(io.BytesIO(text_pdf())).pages[0].extract_text()
    assert PdfReader(io.BytesIO(encrypted_pdf())).is_encrypted
    assert len(PdfReader(io.BytesIO(pdf_with_stream(b"x"))).pages) == 1
    assert len(PdfReader(io.BytesIO(pdf_pages_bomb(pages=3, size=1_000))).pages) == 3


def test_emails_and_clauses():
    message = email.message_from_bytes(nested_eml(5))
    assert message.get_content_type() == "multipart/mixed" and message.get_boundary() == "B0"
    clauses = citing_clauses(1_001).decode().split("\n\n")
    assert len(clauses) == 1_001 and clauses[1] == "1.2 The supplier delivers lot 2, subject to clause 1.1."
    assert clauses[500].startswith("2.1 ") and clauses[500].endswith("subject to clause 2.1.")
    text = clauses_text(100_000)
    assert len(text) >= 100_000 and text.startswith(b"1.1 ") and b"subject to clause 1.1.\n\n1.3 " in text


@pytest.mark.parametrize("script", ["hostile_probe.py", "ingest.py", "ingest_scaling.py", "serve_attack.py"])
def test_the_benchmarks_that_load_the_builders_start(script):
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / script), "--help"], capture_output=True,
                          text=True, timeout=120, cwd=ROOT)
    assert done.returncode == 0 and "usage:" in done.stdout, done.stderr
