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

The inputs are built by ``tests/ingest/hostile_documents.py`` (shared with the
ingestion tests).

Prints one JSON object: per input its size, the outcome (``ok`` with the
fragment count, or the error), the ingestion's seconds and the process's
peak RSS in MB.  Run: ``python benchmarks/ingest.py [--sizes 1,2,4,8]``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from hostile_harness import hostile_documents  # noqa: E402  (benchmarks/ is sys.path[0])

__all__ = ["main", "measure"]

ROOT = Path(__file__).resolve().parents[1]


H = hostile_documents()
MB = H.MB
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
            cases.append((f"clauses-text {mb} MB", f"clauses-{mb}.txt", lambda mb=mb: H.clauses_text(mb * MB)))
            cases.append((f"paragraphs-docx {mb} MB xml", f"paragraphs-{mb}.docx",
                          lambda mb=mb: H.docx(H.paragraphs_xml(mb * MB))))
        cases.append(("one-char-docx 61,680 paragraphs", "one-char.docx", lambda: H.docx(H.one_char_xml())))
        cases.append(("one-char-docx 99,999 paragraphs (max_fragments)", "one-char-max.docx",
                      lambda: H.docx(H.one_char_xml(99_999))))
        if not args.no_bombs:
            cases += [("bomb: one 1 GiB text node", "huge-node.docx", lambda: H.docx(H.huge_node_xml())),
                      ("bomb: 200 paragraphs x 5 MiB", "big-paragraphs.docx", lambda: H.docx(H.many_big_paragraphs_xml())),
                      ("bomb: PDF stream inflating to 1 GiB", "bomb.pdf", H.pdf_bomb),
                      ("bomb: PDF of 16 pages inflating to 60 MiB each", "pages.pdf", H.pdf_pages_bomb),
                      ("within limits: one paragraph of 2.6 M runs (60 MiB XML)", "runs.docx",
                       lambda: H.docx(H.runs_xml())),
                      ("within limits: one paragraph of 4.8 M empty marks (60 MiB XML)", "marks.docx",
                       lambda: H.docx(H.junk_xml())),
                      ("within limits: a table of 1 M one-cell rows (60 MiB XML)", "rows.docx",
                       lambda: H.docx(H.rows_xml()))]
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
