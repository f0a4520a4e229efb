"""Ingestion time against input size, through ``paratrace ingest`` as users run it.

Each input is ingested by the ``paratrace`` console script (the
``[project.scripts]`` entry point; ``python -c 'from optimize.console import
main; main()'`` where the script is not installed) in a fresh process, ``-o``
to a file, ``--repeat`` times.  Per input: the first run's and the median
run's wall seconds, the median CPU seconds of the process (user + system, less
sensitive to other load on the machine than wall time), and its peak RSS.
Per series, the ratio of consecutive medians: 2.0 per doubling is linear.
Interpreter start and imports are measured on a one-clause document
(``startup``) and the ratios are also given with that subtracted (``net``).

Series (built in a temporary directory):

* ``clauses-text``: numbered clauses, each citing the one before it
  (``1.N ... subject to clause 1.N-1``), 1, 2, 4 and 8 MB of text;
* ``clauses-docx``: the same clauses as DOCX paragraphs, 1, 2, 4 and 8 MB of text;
* ``documents``: 500, 1,000, 2,000 and 4,000 small text files of two clauses
  citing each other, given together;
* ``deep-numbers``: 400 clauses numbered ``k.1.1...1`` (125, 250, 500 and 1,000 levels).

Prints one JSON object.  Run: ``python benchmarks/ingest_scaling.py
[--sizes 1,2,4,8] [--repeat 3] [--series clauses-text,documents]``.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from xml.sax.saxutils import escape

from hostile_harness import hostile_documents  # noqa: E402  (benchmarks/ is sys.path[0])


_H = hostile_documents()
MB, _W, _clauses_text, _docx = _H.MB, _H.W, _H.clauses_text, _H.docx

__all__ = ["command", "main", "run_once", "series_inputs"]

ROOT = Path(__file__).resolve().parents[1]
SERIES = ("clauses-text", "clauses-docx", "documents", "deep-numbers")


def command() -> list[str]:
    """The ``paratrace`` command users run: the console script next to this interpreter, else the entry point."""
    script = Path(sys.executable).with_name("paratrace")
    if script.exists():
        return [str(script)]
    found = shutil.which("paratrace")
    return [found] if found else [sys.executable, "-c", "from optimize.console import main; main()"]


def _env() -> dict:
    return {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
            "LITELLM_LOCAL_MODEL_COST_MAP": "true", "OPENBLAS_NUM_THREADS": "1"}


def run_once(paths: list[Path], out: Path) -> dict:
    """``paratrace ingest PATHS -o OUT`` in a fresh process: wall and CPU seconds, peak RSS, fragments.

    Returns
    -------
    dict
        ``wall_s``, ``cpu_s``, ``peak_rss_mb``, ``fragments`` (or ``error``: the last stderr line).
    """
    started = time.perf_counter()
    child = subprocess.Popen([*command(), "ingest", *map(str, paths), "-o", str(out)], stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE, env=_env(), cwd=paths[0].parent)
    err = child.stderr.read()
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - started
    row = {"wall_s": round(wall, 3), "cpu_s": round(usage.ru_utime + usage.ru_stime, 3),
           "peak_rss_mb": round(usage.ru_maxrss / 1024, 1)}
    if os.waitstatus_to_exitcode(status) != 0:
        return {**row, "error": (err.decode("utf-8", "replace").strip().splitlines() or ["?"])[-1]}
    return {**row, "fragments": _fragments(out)}


def _fragments(package: Path) -> int:
    """The fragments of a written package, counted in a child process: parsing it here would raise the peak
    RSS that the next child inherits (Linux keeps a process's high-water mark across fork and exec)."""
    code = "import json, sys; print(len(json.load(open(sys.argv[1]))['fragments']))"
    return int(subprocess.run([sys.executable, "-c", code, str(package)], capture_output=True, text=True,
                              check=True).stdout)


def _clauses_docx(size: int) -> bytes:
    def parts():
        yield f"<w:document {_W}><w:body>".encode()
        for line in _clauses_text(size).decode().split("\n\n"):
            if line:
                yield f"<w:p><w:r><w:t>{escape(line)}</w:t></w:r></w:p>".encode()
        yield b"</w:body></w:document>"

    return _docx(parts())


def _deep(levels: int, count: int = 400) -> bytes:
    tail = ".".join(["1"] * levels)
    return "\n\n".join(f"{k}.{tail} The buyer pays, subject to clause {max(k - 1, 1)}."
                       for k in range(1, count + 1)).encode()


def series_inputs(name: str, sizes: list[int], tmp: Path, *, write: bool = True):
    """``(label, size, paths)`` per step of series ``name``, its files under ``tmp`` (written when ``write``)."""
    for mb in sizes:
        folder = tmp / f"{name}-{mb}"
        if write:
            folder.mkdir()
        if name == "clauses-text":
            if write:
                (folder / "clauses.txt").write_bytes(_clauses_text(mb * MB))
            yield f"{mb} MB", mb, [folder / "clauses.txt"]
        elif name == "clauses-docx":
            if write:
                (folder / "clauses.docx").write_bytes(_clauses_docx(mb * MB))
            yield f"{mb} MB of text", mb, [folder / "clauses.docx"]
        elif name == "documents":
            count = 500 * mb
            paths = [folder / f"c{i}.txt" for i in range(count)]
            for i, path in enumerate(paths if write else ()):
                path.write_text(f"Contract {i}\n\n1.1 The buyer pays, subject to clause 1.2.\n\n"
                                f"1.2 The seller ships, subject to clause 1.1.\n")
            yield f"{count} documents", count, paths
        elif name == "deep-numbers":
            levels = 125 * mb
            if write:
                (folder / "deep.txt").write_bytes(_deep(levels))
            yield f"{levels} levels", levels, [folder / "deep.txt"]


def _build(series: list[str], sizes: list[int], tmp: Path) -> None:
    """Write every input in a child process: the measuring process stays small, and a child's peak RSS
    (which Linux carries over from the process it was forked from) is its own."""
    code = ("import importlib.util, sys; from pathlib import Path\n"
            "sys.path.insert(0, str(Path(sys.argv[1]).parent))\n"
            "spec = importlib.util.spec_from_file_location('_scaling', sys.argv[1])\n"
            "b = importlib.util.module_from_spec(spec); spec.loader.exec_module(b)\n"
            "for name in sys.argv[4].split(','):\n"
            "    list(b.series_inputs(name, [int(s) for s in sys.argv[3].split(',')], Path(sys.argv[2])))\n")
    subprocess.run([sys.executable, "-c", code, str(Path(__file__).resolve()), str(tmp),
                    ",".join(map(str, sizes)), ",".join(series)], check=True, env=_env())


def main(argv=None) -> dict:
    """Build the inputs, time each through the command line, print and return the JSON report."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1,2,4,8", help="Steps (MB, or x500 documents, or x125 levels).")
    parser.add_argument("--repeat", type=int, default=3, help="Runs per input (first and median reported).")
    parser.add_argument("--series", default=",".join(SERIES), help="Series to run (comma-separated).")
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",") if s]
    report: dict = {"command": " ".join(command()) + " ingest ... -o out.json", "repeat": args.repeat,
                    "series": {}}
    with tempfile.TemporaryDirectory() as tmpdir:
        tmp = Path(tmpdir)
        (tmp / "one.txt").write_text("1.1 The buyer pays.\n")
        startup = [run_once([tmp / "one.txt"], tmp / "out.json") for _ in range(args.repeat)]
        base = statistics.median(r["wall_s"] for r in startup)
        report["startup"] = {"median_wall_s": base, "median_cpu_s": statistics.median(r["cpu_s"] for r in startup)}
        series = [name for name in args.series.split(",") if name]
        _build(series, sizes, tmp)
        for name in series:
            rows = []
            for label, size, paths in series_inputs(name, sizes, tmp, write=False):
                runs = [run_once(paths, tmp / "out.json") for _ in range(args.repeat)]
                row = {"input": label, "size": size, "bytes": sum(p.stat().st_size for p in paths),
                       "first_wall_s": runs[0]["wall_s"],
                       "median_wall_s": statistics.median(r["wall_s"] for r in runs),
                       "median_cpu_s": statistics.median(r["cpu_s"] for r in runs),
                       "peak_rss_mb": max(r["peak_rss_mb"] for r in runs),
                       **({"error": runs[0]["error"]} if "error" in runs[0] else {"fragments": runs[0]["fragments"]})}
                rows.append(row)
                print(json.dumps({"series": name, **row}), file=sys.stderr)
            ratios = {}
            for key in ("median_wall_s", "median_cpu_s"):
                pairs = list(zip(rows, rows[1:]))
                start = base if key == "median_wall_s" else report["startup"]["median_cpu_s"]
                ratios[key] = [round(b[key] / a[key], 2) if a[key] else None for a, b in pairs]
                ratios[key + "_net"] = [round((b[key] - start) / (a[key] - start), 2) if a[key] > start else None
                                        for a, b in pairs]
            report["series"][name] = {"rows": rows, "ratio_per_doubling": ratios}
    print(json.dumps(report, indent=2))
    return report


if __name__ == "__main__":
    main()
