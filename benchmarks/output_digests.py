"""Digests of every ``paratrace status`` output on the shipped cases and on generated theories; prints JSON.

Usage::

    python benchmarks/output_digests.py -o before.json          # the shipped suites, every case
    python benchmarks/output_digests.py --large -o before.json  # also generated theories up to the peer size
    python benchmarks/output_digests.py --compare before.json after.json

For each shipped suite (``experiments/suites/*.jsonl``) and each of its cases,
``status`` runs in process (the composed ``paratrace`` group, as the console
script runs it) with ``--format text``, ``json`` and ``dot``, the json and dot
forms also with ``--defeats summary`` and ``--attacks columns``, and for cases
with a candidate analysis also ``--analysis candidate``; each output's sha256
and size are recorded, with the exit code.  ``--compare`` prints the keys
whose digests differ.  A refactoring of symbolic/ must leave every digest
unchanged (issue 30).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if __package__ in (None, ""):
    sys.path.insert(0, str(ROOT))

__all__ = ["OPTIONS", "compare", "digests", "main"]

OPTIONS = {
    "text": ["--format", "text"],
    "json": ["--format", "json"],
    "dot": ["--format", "dot"],
    "json-summary": ["--format", "json", "--defeats", "summary"],
    "json-columns": ["--format", "json", "--attacks", "columns"],
    "json-edges": ["--format", "json", "--defeats", "edges", "--attacks", "edges"],
    "dot-summary": ["--format", "dot", "--defeats", "summary"],
}
LARGE = [
    ("dense-small", ["dense", "--k", "20", "--groups", "3", "--seed", "1"]),
    ("mixed", ["mixed", "--k", "40", "--groups", "6", "--seed", "2"]),
    ("altderiv", ["altderiv", "--m", "6", "--groups", "3", "--seed", "3"]),
    ("explicit", ["explicit", "--args", "300", "--attacks", "3000", "--seed", "4"]),
    ("explicit-columnar", ["explicit", "--args", "300", "--attacks", "3000", "--seed", "4", "--columnar"]),
    ("dense-peer", ["dense", "--k", "271", "--groups", "8"]),
]


def _run(runner, app, args) -> dict:
    result = runner.invoke(app, ["status", *args])
    data = result.stdout_bytes
    return {"rc": result.exit_code, "bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()}


def digests(large: bool = False) -> dict:
    """``{key: {"rc", "bytes", "sha256"}}`` for every output (see the module docstring)."""
    from typer.testing import CliRunner

    from optimize.root import app

    runner = CliRunner()
    out = {}
    for suite in sorted((ROOT / "experiments" / "suites").glob("*.jsonl")):
        records = [json.loads(line) for line in suite.read_text(encoding="utf-8").splitlines() if line.strip()]
        for name, opts in OPTIONS.items():
            out[f"{suite.name}|*|{name}"] = _run(runner, app, [str(suite), *opts])
        for record in records:
            for name, opts in OPTIONS.items():
                key = f"{suite.name}|{record['id']}|{name}"
                out[key] = _run(runner, app, [str(suite), "--case", record["id"], *opts])
                if record.get("candidate") is not None:
                    out[key + "|candidate"] = _run(runner, app, [str(suite), "--case", record["id"],
                                                                 "--analysis", "candidate", *opts])
    if large:
        with tempfile.TemporaryDirectory() as tmp:
            for label, spec in LARGE:
                path = Path(tmp) / f"{label}.json"
                subprocess.run([sys.executable, str(ROOT / "benchmarks" / "theories.py"), *spec, "-o", str(path)],
                               check=True)
                for name, opts in OPTIONS.items():
                    if label == "dense-peer" and name in ("text", "json-edges", "dot", "dot-summary"):
                        continue  # hundreds of MB; json (auto) and its summary/columns forms cover the path
                    out[f"{label}|*|{name}"] = _run(runner, app, [str(path), *opts])
    return out


def compare(before: dict, after: dict) -> dict:
    """The keys missing on either side and those whose output differs."""
    return {"keys": len(before), "missing_after": sorted(set(before) - set(after)),
            "new_after": sorted(set(after) - set(before)),
            "differ": sorted(k for k in set(before) & set(after) if before[k] != after[k])}


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--large", action="store_true")
    parser.add_argument("-o", "--output", type=Path)
    parser.add_argument("--compare", nargs=2, type=Path)
    args = parser.parse_args(argv)
    if args.compare:
        result = compare(*(json.loads(p.read_text(encoding="utf-8")) for p in args.compare))
    else:
        result = digests(args.large)
        if args.output:
            args.output.write_text(json.dumps(result, indent=1, sort_keys=True) + "\n", encoding="utf-8")
            result = {"keys": len(result), "output": str(args.output)}
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
