"""Document ingestion: time and peak memory against input size, and the bombs.

Each input is ingested (:func:`assistant.ingest.package.ingest_bytes`, the
default limits) in a fresh process, so the peak resident set size (``VmHWM``
through ``wait4``) is that of one ingestion plus the interpreter and its
imports.  Inputs, built in a temporary directory:

* ``clauses-text``: a text file of numbered clauses, each citing the one
  before it (``1.N ... subject to clause 1.N-1``), 1, 2, 4 and 8 MB;
* ``paragraphs-docx``: a DOCX of short numbered paragraphs whose
  ``word/document.xml`` is 1, 2, 4 and 8 MB;
* ``one-char-docx``: the 57 KB DOCX of 61,680 one-character paragraphs that
  stalled the service, and one of 99,999 (just under ``max_fragments``: the
  most fragments, so the most memory, the limits accept);
* bombs, each refused: a DOCX holding one 1 GiB text node, a DOCX of 200
  paragraphs of 5 MiB, a PDF whose content stream inflates to 1 GiB, a PDF
  of 16 pages whose streams inflate to 60 MiB each;
* XML just under ``max_expanded_bytes`` built to hold many elements at once:
  one paragraph of millions of runs, one of millions of empty marks, one
  table of a million rows.

Prints one JSON object: per input its size, the outcome (``ok`` with the
fragment count, or the error), the ingestion's seconds and the process's
peak RSS in MB.  Run: ``python benchmarks/ingest.py [--sizes 1,2,4,8]``.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import subprocess
import sys
import tempfile
import zipfile
import zlib
from pathlib import Path

__all__ = ["main", "measure"]

ROOT = Path(__file__).resolve().parents[1]
MB = 1024 * 1024
_W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'
_CHILD = """
import json, sys, time
from assistant.ingest.package import ingest_bytes
from assistant.ingest.errors import DocumentError
path = sys.argv[1]
data = open(path, "rb").read()
started = time.perf_counter()
try:
    package = ingest_bytes([(path.rsplit("/", 1)[-1], data)])
    outcome = {"outcome": "ok", "fragments": len(package.fragments),
               "cross_refs": sum(len(l.cross_refs) for l in package.locators.values())}
except DocumentError as exc:
    outcome = {"outcome": "refused", "error": str(exc)[:160]}
outcome["seconds"] = round(time.perf_counter() - started, 3)
print(json.dumps(outcome))
"""


def _docx(document_xml_parts, *, level: int = zipfile.ZIP_DEFLATED) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", level) as archive:
        archive.writestr("[Content_Types].xml", "<Types/>")
        with archive.open("word/document.xml", "w", force_zip64=True) as member:
            for part in document_xml_parts:
                member.write(part)
    return out.getvalue()


def _clauses_text(size: int) -> bytes:
    lines, n, total = [], 0, 0
    while total < size:
        n += 1
        major, minor = divmod(n - 1, 500)
        line = (f"{major + 1}.{minor + 1} The supplier shall deliver lot {n} to the buyer's warehouse on the "
                f"agreed date, packed and labelled as the schedule requires, and notify the buyer in writing of "
                f"any delay, subject to clause {major + 1}.{max(minor, 1)}.\n\n")
        lines.append(line)
        total += len(line)
    return "".join(lines).encode()


def _paragraphs_xml(size: int):
    yield f"<w:document {_W}><w:body>".encode()
    n, total = 0, 0
    while total < size:
        n += 1
        part = f"<w:p><w:r><w:t>{n}. The buyer pays invoice {n} within thirty days.</w:t></w:r></w:p>".encode()
        total += len(part)
        yield part
    yield b"</w:body></w:document>"


def _one_char_xml(count: int = 61_680):
    yield f"<w:document {_W}><w:body>".encode()
    yield b"<w:p><w:r><w:t>x</w:t></w:r></w:p>" * count
    yield b"</w:body></w:document>"


def _huge_node_xml(size: int = 1024 * MB):
    yield f"<w:document {_W}><w:body><w:p><w:r><w:t>".encode()
    chunk = b"A" * (16 * MB)
    for _ in range(size // len(chunk)):
        yield chunk
    yield b"</w:t></w:r></w:p></w:body></w:document>"


def _many_big_paragraphs_xml(count: int = 200, size: int = 5 * MB):
    yield f"<w:document {_W}><w:body>".encode()
    body = b"<w:p><w:r><w:t>" + b"B" * size + b"</w:t></w:r></w:p>"
    for _ in range(count):
        yield body
    yield b"</w:body></w:document>"


def _runs_xml(size: int = 60 * MB):
    """One paragraph of one-character runs, just under ``max_expanded_bytes``."""
    yield f"<w:document {_W}><w:body><w:p>".encode()
    run = b"<w:r><w:t>a</w:t></w:r>"
    yield run * (size // len(run))
    yield b"</w:p></w:body></w:document>"


def _junk_xml(size: int = 60 * MB):
    """One paragraph of empty proofing marks (elements no reader keeps), just under ``max_expanded_bytes``."""
    yield f"<w:document {_W}><w:body><w:p><w:r><w:t>x</w:t></w:r>".encode()
    mark = b"<w:proofErr/>"
    yield mark * (size // len(mark))
    yield b"</w:p></w:body></w:document>"


def _rows_xml(size: int = 60 * MB):
    """One table of one-cell rows, just under ``max_expanded_bytes``."""
    yield f"<w:document {_W}><w:body><w:tbl>".encode()
    row = b"<w:tr><w:tc><w:p><w:r><w:t>r</w:t></w:r></w:p></w:tc></w:tr>"
    for _ in range(size // len(row) // 100_000):
        yield row * 100_000
    yield b"</w:tbl></w:body></w:document>"


def _pdf_bomb(size: int = 1024 * MB) -> bytes:
    packer = zlib.compressobj(9)
    stream = b"".join([packer.compress(b"0" * (16 * MB)) for _ in range(size // (16 * MB))] + [packer.flush()])
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
               b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>",
               b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(stream) + stream + b"\nendstream"]
    out, offsets = io.BytesIO(), []
    out.write(b"%PDF-1.4\n")
    for number, body in enumerate(objects, 1):
        offsets.append(out.tell())
        out.write(b"%d 0 obj\n" % number + body + b"\nendobj\n")
    xref = out.tell()
    out.write(b"xref\n0 5\n0000000000 65535 f \n" + b"".join(b"%010d 00000 n \n" % o for o in offsets))
    out.write(b"trailer\n<< /Size 5 /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % xref)
    return out.getvalue()


def _pdf_pages_bomb(pages: int = 16, size: int = 60 * MB) -> bytes:
    """A PDF of ``pages`` pages whose content streams each inflate to ``size`` bytes (under pypdf's bound)."""
    stream = zlib.compress(b"0" * size, 9)
    kids = b" ".join(b"%d 0 R" % (3 + 2 * i) for i in range(pages))
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [" + kids + b"] /Count %d >>" % pages]
    for i in range(pages):
        objects += [b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents %d 0 R >>" % (4 + 2 * i),
                    b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(stream) + stream + b"\nendstream"]
    out, offsets = io.BytesIO(), []
    out.write(b"%PDF-1.4\n")
    for number, body in enumerate(objects, 1):
        offsets.append(out.tell())
        out.write(b"%d 0 obj\n" % number + body + b"\nendobj\n")
    xref = out.tell()
    out.write(b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
              + b"".join(b"%010d 00000 n \n" % o for o in offsets))
    out.write(b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref))
    return out.getvalue()


def measure(path: Path) -> dict:
    """Ingest ``path`` in a fresh process: its outcome, seconds and peak RSS (MB)."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
           "LITELLM_LOCAL_MODEL_COST_MAP": "true", "OPENBLAS_NUM_THREADS": "1"}
    child = subprocess.Popen([sys.executable, "-c", _CHILD, str(path)], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, env=env)
    out, err = child.stdout.read(), child.stderr.read()
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    result = json.loads(out) if child.returncode == 0 and out.strip() else {
        "outcome": "crashed", "error": err.decode("utf-8", "replace").strip().splitlines()[-1:]}
    return {**result, "peak_rss_mb": round(usage.ru_maxrss / 1024, 1)}


def main(argv=None) -> dict:
    """Build the inputs, measure each, print and return the JSON report."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1,2,4,8", help="Input sizes in MB (comma-separated).")
    parser.add_argument("--no-bombs", action="store_true", help="Skip the bombs.")
    parser.add_argument("--only", default="", help="Measure only the inputs whose label holds this text.")
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",") if s]
    report: dict = {"inputs": []}
    with tempfile.TemporaryDirectory() as tmp:
        cases = []
        for mb in sizes:
            cases.append((f"clauses-text {mb} MB", f"clauses-{mb}.txt", lambda mb=mb: _clauses_text(mb * MB)))
            cases.append((f"paragraphs-docx {mb} MB xml", f"paragraphs-{mb}.docx",
                          lambda mb=mb: _docx(_paragraphs_xml(mb * MB))))
        cases.append(("one-char-docx 61,680 paragraphs", "one-char.docx", lambda: _docx(_one_char_xml())))
        cases.append(("one-char-docx 99,999 paragraphs (max_fragments)", "one-char-max.docx",
                      lambda: _docx(_one_char_xml(99_999))))
        if not args.no_bombs:
            cases += [("bomb: one 1 GiB text node", "huge-node.docx", lambda: _docx(_huge_node_xml())),
                      ("bomb: 200 paragraphs x 5 MiB", "big-paragraphs.docx", lambda: _docx(_many_big_paragraphs_xml())),
                      ("bomb: PDF stream inflating to 1 GiB", "bomb.pdf", _pdf_bomb),
                      ("bomb: PDF of 16 pages inflating to 60 MiB each", "pages.pdf", _pdf_pages_bomb),
                      ("within limits: one paragraph of 2.6 M runs (60 MiB XML)", "runs.docx",
                       lambda: _docx(_runs_xml())),
                      ("within limits: one paragraph of 4.8 M empty marks (60 MiB XML)", "marks.docx",
                       lambda: _docx(_junk_xml())),
                      ("within limits: a table of 1 M one-cell rows (60 MiB XML)", "rows.docx",
                       lambda: _docx(_rows_xml()))]
        for label, name, build in cases:
            if args.only not in label:
                continue
            path = Path(tmp) / name
            path.write_bytes(build())
            row = {"input": label, "file_bytes": path.stat().st_size, **measure(path)}
            report["inputs"].append(row)
            print(json.dumps(row), file=sys.stderr)
    print(json.dumps(report, indent=2))
    return report


if __name__ == "__main__":
    main()
