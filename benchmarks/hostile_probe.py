"""A probe of hostile inputs and faults against paratrace's commands and service (issue 32).

Every check runs ``paratrace`` as users run it (a process; the service on
127.0.0.1) and passes when the outcome is the documented one
(``benchmarks/hostile_harness.py``): exit 0 or 2 (a typed refusal: exactly one
``paratrace: error:`` line naming the file or field, no traceback, no
``internal error``, printable UTF-8 with no raw control or bidi character),
HTTP 4xx rather than 500 from the service, no raw bidi control in an HTML
page, and no hang.

Classes (issue 32's list): ``docx``, ``pdf``, ``eml`` (hostile documents),
``fifo`` (every command reading a named pipe), ``symlink``, ``surrogate``
(lone surrogates), ``bidi``, ``bad-utf8-name`` (file names that are not
UTF-8), ``huge`` (huge nodes, lines, numbers, nesting), ``bom`` (UTF-8 byte
order marks): ``benchmarks/hostile_inputs.py``; ``endpoint`` (dying, failing
and closing model endpoints, and the service): ``benchmarks/hostile_service.py``;
``disk`` (a disk that fills while commands write; needs root to mount a
tmpfs, skipped otherwise): ``benchmarks/hostile_disk.py``.  The hostile
documents are built by ``tests/ingest/hostile_documents.py``.

Prints one JSON object: per class the count of checks passed and failed, the
classes skipped and why, and each failure (class, check, why).  Run: ``python
benchmarks/hostile_probe.py [--only docx,pdf] [--no-bombs]``; exit status 1
when a check failed.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the probe's modules, by name (also when loaded by file)

from hostile_disk import check_disk  # noqa: E402
from hostile_harness import EVIDENCE, PARATRACE, SUITE, Probe, free_port, paratrace_env  # noqa: E402
from hostile_inputs import check_documents, check_paths, check_text  # noqa: E402
from hostile_service import check_endpoints, check_service  # noqa: E402

__all__ = ["CLASSES", "Probe", "main"]

CLASSES = ("docx", "pdf", "eml", "fifo", "symlink", "surrogate", "bidi", "bad-utf8-name", "huge", "bom",
           "endpoint", "disk")


def main(argv=None) -> dict:
    """Run the probe; print and return the JSON report."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default=",".join(CLASSES), help="Classes to probe (comma-separated).")
    parser.add_argument("--no-bombs", action="store_true", help="Skip the 1 GiB bombs (slow to build).")
    args = parser.parse_args(argv)
    only = set(args.only.split(","))
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="paratrace-probe-") as tmp:
        p = Probe(Path(tmp))
        if only & {"docx", "pdf", "eml"}:
            check_documents(p, bombs=not args.no_bombs)
        if only & {"fifo", "symlink", "bad-utf8-name"}:
            check_paths(p)
        if only & {"surrogate", "bidi", "huge", "bom"}:
            if not (p.work / "pkg.json").exists():
                (p.work / "pkg.json").write_text(json.dumps({"query": "Is a penalty due?", "evidence": EVIDENCE}))
                (p.work / "outputs.jsonl").write_text("\n")
                (p.work / "t.toml").write_text(f'name = "t"\nsuites = ["{SUITE}"]\nconfigurations = ["b1"]\n'
                                               'limit = 1\n[[backbones]]\nmodel = "scripted/null"\n')
            check_text(p)
            port = free_port()
            serve = subprocess.Popen([*PARATRACE, "serve", "--model", "scripted/null", "--port", str(port),
                                      "--log-level", "warning"], cwd=p.work, env=paratrace_env(p.work),
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            check_service(p, serve, f"http://127.0.0.1:{port}")
        if "endpoint" in only:
            if not (p.work / "pkg.json").exists():
                (p.work / "pkg.json").write_text(json.dumps({"query": "Is a penalty due?", "evidence": EVIDENCE}))
            check_endpoints(p)
        if "disk" in only:
            check_disk(p)
    report = {"seconds": round(time.monotonic() - started, 1),
              "classes": {c: dict(p.counts[c]) for c in CLASSES if c in p.counts},
              "total": {"pass": sum(c["pass"] for c in p.counts.values()),
                        "fail": sum(c["fail"] for c in p.counts.values())},
              "skipped": p.skipped, "failures": p.failures}
    print(json.dumps(report, indent=2, ensure_ascii=False))
    return report


if __name__ == "__main__":
    sys.exit(1 if main()["total"]["fail"] else 0)
