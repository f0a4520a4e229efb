"""The floors of issue 30, measured through the entry points users run; prints JSON.

Usage::

    python benchmarks/floors.py                         # this tree alone
    python benchmarks/floors.py --before /path/to/tree  # paired: each command of this tree, then of that one

Rows (whole ``paratrace`` processes, run from the console entry point of each tree, alternately;
wall and CPU time of the child (user + system) and its peak RSS, first run and median):

- ``peer_json``: ``status --format json`` on the peer-size dense theory
  (``theories.py dense --k 271 --groups 8``: 8,672 arguments, 1.18 M attacks), floor 10 s and 1 GB;
- ``<suite>_json``, ``<suite>_text``: ``status`` over each shipped suite, floor "no slower";
- ``case_text``, ``case_json``: one case (``penalty_suite.jsonl --case penalty-as-given``), floor 0.6 s wall;

and, in this process, ``api_vs_clingo``: the engine API (``load_suite`` + ``evaluate_analysis``) on the
peer-size explicit framework (``theories.py explicit --args 8600 --attacks 1176000 --columnar``)
against clingo's grounded encoding on the engine's active attack graph (``peers.clingo_grounded``),
in the same run, floor 5x.  With ``--before`` every row also gets ``after_over_before`` (medians of
the pairwise ratios).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if __package__ in (None, ""):
    sys.path.insert(0, str(ROOT))

__all__ = ["main", "run_cli"]


def run_cli(tree: Path, args: list[str]) -> dict:
    """One ``paratrace`` process from ``tree``: wall and CPU seconds, peak RSS in MB, exit code."""
    code = "import sys; from optimize.console import main; sys.argv = ['paratrace'] + sys.argv[1:]; main()"
    env = {**os.environ, "PYTHONPATH": str(tree)}
    start = time.perf_counter()
    child = subprocess.Popen([sys.executable, "-c", code, *args], cwd=tree, env=env, stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    return {"wall_s": wall, "cpu_s": usage.ru_utime + usage.ru_stime, "rss_mb": usage.ru_maxrss / 1024,
            "rc": child.returncode}


def _summary(runs: list[dict]) -> dict:
    return {f"{k}_{which}": round(v, 3) for k in ("wall_s", "cpu_s", "rss_mb")
            for which, v in (("first", runs[0][k]), ("median", statistics.median(r[k] for r in runs)))}


def _paired(name: str, args: list[str], trees: list[Path], repeat: int) -> dict:
    runs = {str(t): [] for t in trees}
    for _ in range(repeat):
        for tree in trees:
            runs[str(tree)].append(run_cli(tree, args))
    row = {"args": args, "after": _summary(runs[str(trees[0])])}
    if len(trees) > 1:
        a, b = runs[str(trees[0])], runs[str(trees[1])]
        row["before"] = _summary(b)
        row["after_over_before"] = {k: round(statistics.median(x[k] / y[k] for x, y in zip(a, b)), 3)
                                    for k in ("wall_s", "cpu_s")}
    print(json.dumps({name: row}), file=sys.stderr)
    return row


def api_vs_clingo(path: Path, repeat: int) -> dict:
    """The engine API on the explicit framework against clingo on its active attacks, in this process."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from peers import clingo_grounded

    from symbolic.engine.status import evaluate_analysis
    from symbolic.suites.io import load_suite

    times, cpu, evaluation = [], [], None
    for _ in range(repeat):
        start, start_cpu = time.perf_counter(), time.process_time()
        scenario = load_suite(path)[0]
        evaluation = evaluate_analysis(scenario.evidence_ids(), scenario.gold, scenario.target)
        times.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    src, dst = evaluation.attacks.active_pairs()
    start = time.perf_counter()
    _, clingo = clingo_grounded(len(evaluation.arguments), src, dst)
    clingo_s = time.perf_counter() - start
    api = statistics.median(times)
    return {"api_first_s": round(times[0], 3), "api_median_s": round(api, 3),
            "api_median_cpu_s": round(statistics.median(cpu), 3), "clingo": clingo,
            "clingo_total_s": round(clingo_s, 3), "clingo_solve_over_api": round(clingo["solve_ms"] / 1e3 / api, 1),
            "clingo_total_over_api": round(clingo_s / api, 1)}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, help="another checkout, run alternately with this one")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--only", nargs="*", help="row names to run (default: all)")
    args = parser.parse_args(argv)
    trees = [ROOT] + ([args.before.resolve()] if args.before else [])
    out: dict = {}
    with tempfile.TemporaryDirectory() as tmp:
        dense, explicit = Path(tmp) / "dense.json", Path(tmp) / "explicit.json"
        theories = [sys.executable, str(ROOT / "benchmarks" / "theories.py")]
        subprocess.run([*theories, "dense", "--k", "271", "--groups", "8", "-o", str(dense)], check=True,
                       stdout=subprocess.DEVNULL)
        subprocess.run([*theories, "explicit", "--args", "8600", "--attacks", "1176000", "--columnar", "-o",
                        str(explicit)], check=True, stdout=subprocess.DEVNULL)
        fixture = ROOT / "tests" / "symbolic" / "fixtures" / "penalty_suite.jsonl"
        rows = {"case_text": ["status", str(fixture), "--case", "penalty-as-given"],
                "case_json": ["status", str(fixture), "--case", "penalty-as-given", "--format", "json"]}
        for suite in sorted((ROOT / "experiments" / "suites").glob("*.jsonl")):
            for fmt in ("json", "text"):
                rows[f"{suite.stem}_{fmt}"] = ["status", str(suite), "--format", fmt]
        rows["peer_json"] = ["status", str(dense), "--format", "json"]
        for name, cli in rows.items():
            if not args.only or name in args.only:
                out[name] = _paired(name, cli, trees, args.repeat)
        if not args.only or "api_vs_clingo" in args.only:
            out["api_vs_clingo"] = api_vs_clingo(explicit, args.repeat)
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
