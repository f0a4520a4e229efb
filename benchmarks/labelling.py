"""Grounded labelling (Algorithm 1) against its peers on peer-size graphs of every family; prints JSON.

Usage::

    python benchmarks/labelling.py              # every family, repeat 7
    python benchmarks/labelling.py --fast       # without the Python, networkx and clingo peers

Each graph is the active attack graph (attacks not neutralized by a
priority, docs/semantics.md section 6) of a seeded scenario of
:mod:`benchmarks.theories` at about the peer size (8.6 k-15 k arguments,
0.2-1.3 M active attacks), built through the public path: the JSON file,
:func:`symbolic.suites.io.load_suite`, :func:`symbolic.engine.grounding.ground` and
:func:`symbolic.engine.status.evaluate`.  On it :func:`benchmarks.peers.compare`
times our labelling from the edge list (``ours``) against a C worklist on a
CSR, a plain-Python worklist, networkx and clingo, checks that all agree and
prints the ratios.  Timings depend on the machine's
load (reported); no test reads them.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import tempfile
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if __package__ in (None, ""):
    sys.path.insert(0, str(ROOT))
    sys.path.insert(0, str(ROOT / "benchmarks"))

import peers  # noqa: E402
import theories  # noqa: E402

GRAPHS = {
    "dense-peer": ("dense", {"k": 271, "groups": 8}),
    "mixed-peer": ("mixed", {"k": 180, "groups": 12}),
    "altderiv-peer": ("altderiv", {"m": 40, "q": 40, "groups": 8}),
    "af-uniform-peer": ("explicit", {"args": 8600, "attacks": 1_176_000, "columnar": True}),
    "af-acyclic-peer": ("explicit", {"args": 8600, "attacks": 1_176_000, "columnar": True, "acyclic": True}),
    "mixed": ("mixed", {"k": 100, "groups": 12}),
    "altderiv": ("altderiv", {"m": 20, "q": 20, "groups": 8}),
}


def active_graph(family: str, options: dict, where: Path):
    """``(n, src, dst)``: the active attacks of the seeded scenario, through the public path."""
    from symbolic.engine.grounding import ground
    from symbolic.suites.io import load_suite
    from symbolic.engine.status import evaluate

    path = where / "scenario.json"
    record = theories.FAMILIES[family](seed=0, **options)
    path.write_text(json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n", encoding="utf-8")
    scenario = load_suite(path)[0]
    evaluation = evaluate(ground(scenario.evidence_ids(), scenario.gold), scenario.target)
    src, dst = evaluation.attacks.active_pairs()
    return len(evaluation.arguments), src, dst


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--only", nargs="*", default=None, help="graph names to run")
    parser.add_argument("--fast", action="store_true", help="leave out the Python, networkx and clingo peers")
    args = parser.parse_args(argv)
    warnings.simplefilter("ignore")
    load = [round(x, 2) for x in os.getloadavg()]
    rows = {}
    with tempfile.TemporaryDirectory(prefix="paratrace-labelling-") as tmp:
        for name, (family, options) in GRAPHS.items():
            if args.only and name not in args.only:
                continue
            n, src, dst = active_graph(family, options, Path(tmp))
            rows[name] = {"family": family, **options, **peers.compare(n, src, dst, args.repeat, not args.fast)}
    report = {"benchmark": "labelling", "repeat": args.repeat,
              "machine": {"python": platform.python_version(), "cpus": os.cpu_count(), "loadavg_at_start": load,
                          "loadavg_at_end": [round(x, 2) for x in os.getloadavg()]},
              "graphs": rows}
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
