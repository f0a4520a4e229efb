"""A disk that fills while ``paratrace`` writes: class ``disk`` of ``benchmarks/hostile_probe.py``.

A 4 MiB tmpfs is mounted under the scratch directory (root only; otherwise
the class is skipped, saying why) and filled with a filler file to leave a given
number of bytes.  Each command then writes there: ``run`` (its result log, its
reports, its MLflow store), ``ask`` (standard output redirected to a file on the
disk; its response cache), ``ingest`` (``-o`` and standard output), ``schema
-o`` and ``compare -o``.  A check passes on exit 2 with one line naming the file
(``standard output`` for redirected output) and the reason, no traceback; the
run checks also need every line of ``results.jsonl`` to parse, an older output
to be left as it was, and ``--resume`` to finish once the filler is removed.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from hostile_harness import EVIDENCE, SUITE, Probe

__all__ = ["check_disk"]

NO_SPACE = "No space left on device"


class _Disk:
    def __init__(self, root: Path):
        self.root, self.filler = root, root / ".filler"

    def fill(self, leave: int = 0) -> None:
        fd = os.open(self.filler, os.O_WRONLY | os.O_CREAT | os.O_APPEND)
        try:
            while True:
                try:
                    os.write(fd, b"\0" * 65536)
                except OSError:
                    break
        finally:
            os.close(fd)
        os.truncate(self.filler, max(0, self.filler.stat().st_size - leave))

    def free(self) -> None:
        self.filler.unlink(missing_ok=True)


def _mount(root: Path) -> str | None:
    """Mount a 4 MiB tmpfs at ``root``; why not, or ``None``."""
    if not sys.platform.startswith("linux") or os.geteuid() != 0 or shutil.which("mount") is None:
        return "mounting a small tmpfs needs Linux, root and mount(8)"
    root.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m,mode=0755", "tmpfs", str(root)],
                          capture_output=True, text=True)
    return None if done.returncode == 0 else f"mount refused: {done.stderr.strip()[:200]}"


def _records(log: Path) -> list[dict] | None:
    """The parsed lines of ``results.jsonl``, or ``None`` when one is torn or damaged."""
    try:
        data = log.read_bytes()
        if data and not data.endswith(b"\n"):
            return None
        return [json.loads(line) for line in data.splitlines()]
    except (OSError, ValueError):
        return None


def check_disk(p: Probe) -> None:
    """Every check of class ``disk`` (skipped where a tmpfs cannot be mounted)."""
    root = p.work / "disk"
    why = _mount(root)
    if why:
        p.skip("disk", why)
        return
    disk = _Disk(root)
    try:
        _checks(p, disk)
    finally:
        subprocess.run(["umount", "-l", str(root)], capture_output=True)


def _checks(p: Probe, disk: _Disk) -> None:
    spec = p.write("disk.toml", f'name = "t"\nsuites = ["{SUITE}"]\nconfigurations = ["b1", "b2"]\nconcurrency = 2\n'
                                '[[backbones]]\nmodel = "scripted/null"\n')
    work = disk.root / "w"
    log = work / "runs" / "t" / "results.jsonl"
    run = ["run", spec, "--no-track", "--no-cache", "--workdir", work]
    disk.fill(leave=24 * 1024)
    p.cli("disk", "run: the disk fills while results.jsonl is written", run, says=("results.jsonl", NO_SPACE))
    kept = _records(log)
    p.record("disk", "run: every line written before parses", bool(kept) and len(kept) < 14, f"{kept and len(kept)}")
    disk.free()
    p.cli("disk", "run --resume: finishes once there is room", [*run, "--resume"], codes=(0,))
    records = _records(log) or []
    p.record("disk", "run --resume: each case once, the earlier records as they were",
             len(records) == 14 and records[:len(kept or [])] == kept, f"{len(records)} records")
    before = log.read_bytes()
    shutil.rmtree(log.parent / "reports", ignore_errors=True)
    disk.fill()
    p.cli("disk", "run --resume: the disk fills while the reports are written", [*run, "--resume"],
          says=("reports", NO_SPACE))
    p.record("disk", "run: results.jsonl untouched by a failed report", log.read_bytes() == before)
    disk.free()
    p.cli("disk", "run --resume: the reports once there is room", [*run, "--resume"], codes=(0,))
    tracked = p.write("tracked.toml", spec.read_text().replace('name = "t"', 'name = "tracked"'))
    disk.fill(leave=400 * 1024)
    p.cli("disk", "run (tracked): the MLflow store cannot be created", ["run", tracked, "--no-cache", "--workdir",
                                                                        work / "tracked"],
          says=("mlflow.db", "database or disk is full"))
    p.record("disk", "run (tracked): no half-made store left", not (work / "tracked" / "mlflow.db").exists()
             and not list((work / "tracked").glob("*.tmp")))
    disk.free()
    p.cli("disk", "run --resume (tracked): logs once there is room",
          ["run", tracked, "--no-cache", "--workdir", work / "tracked", "--resume"], codes=(0,))
    package = p.write("disk-pkg.json", json.dumps({"query": "Is a penalty due?", "evidence": EVIDENCE}))
    (disk.root / "pkg.json").write_text(json.dumps({"query": "Is a penalty due?", "evidence": EVIDENCE}))
    document = p.write("disk-terms.txt", "".join(f"{n}. The supplier delivers lot {n}, subject to clause "
                                                 f"{max(n - 1, 1)}.\n\n" for n in range(1, 400)))
    old = disk.root / "package.json"
    old.write_text('{"old": true}\n')
    disk.fill()
    for fmt in ("html", "json", "text"):
        with open(disk.root / f"answer.{fmt}", "wb") as out:
            p.cli("disk", f"ask -f {fmt} > a file on the full disk", ["ask", "-e", package, "--model", "scripted/null",
                                                                      "--config", "b1", "--no-cache", "-f", fmt],
                  says=("standard output", NO_SPACE), stdout=out)
    p.cli("disk", "ask: the response cache on the full disk", ["ask", "-e", "pkg.json", "--model", "scripted/null",
                                                               "--config", "b1"],
          says=(".paratrace-cache", "--no-cache"), cwd=disk.root)
    p.cli("disk", "ingest -o: a package on the full disk", ["ingest", document, "-o", old], says=("package.json",
                                                                                                  NO_SPACE))
    p.record("disk", "ingest -o: the older package left as it was", old.read_text() == '{"old": true}\n')
    with open(disk.root / "stdout.json", "wb") as out:
        p.cli("disk", "ingest > a file on the full disk", ["ingest", document], says=("standard output", NO_SPACE),
              stdout=out)
    p.cli("disk", "schema -o: on the full disk", ["schema", "-o", disk.root / "schema.json"],
          says=("schema.json", NO_SPACE))
    p.cli("disk", "compare -o: on the full disk", ["compare", work / "runs" / "t", work / "tracked" / "runs" / "tracked",
                                                   "-o", disk.root / "cmp"], says=("cmp", NO_SPACE))
    p.record("disk", "no temporary file left on the disk", not list(disk.root.rglob("*.tmp")),
             str(list(disk.root.rglob("*.tmp"))[:5]))
    disk.free()
