"""Benchmark of what users run: the CLI as a process and the API from JSON,
against the engine core and peers on the same graph; prints JSON.

Usage::

    python benchmarks/paths.py            # the issue's table at full size, repeat 3
    python benchmarks/paths.py --quick    # small sizes, repeat 2 (about a minute)

Inputs come from the seeded generator :mod:`benchmarks.theories` (seed 0),
written to a temporary directory.  For every input and path the report gives
``first_ms`` (the first run) and ``median_ms`` (over ``--repeat`` runs), and
for the CLI the peak RSS of the ``paratrace`` process and its output size:

- ``engine``: :func:`symbolic.engine.status.evaluate` on the grounded theory (the core);
- ``api``: :func:`symbolic.suites.io.load_suite` + :func:`symbolic.engine.status.evaluate_analysis`
  from the JSON file (full scenario -> status);
- ``tnf``: :func:`symbolic.traces.tnf.normal_form` and the streamed TNF JSON
  (:func:`symbolic.traces.tnf_json.write_tnf`) from the JSON file;
- ``cli_json``, ``cli_text``, ``cli_dot``, ``cli_validate``: ``paratrace
  status --format ...`` / ``paratrace validate --check-gold`` as a process,
  output to ``/dev/null``; ``cli_json_edges`` is ``--format json --attacks
  edges`` (one JSON object per attack edge, where ``cli_json`` writes the
  attack columns above the limit);
- ``cli_score``: ``paratrace score`` of the input's gold objects as a clean
  white-box output (:func:`scorer.defects.gold_output`) with ``--budget``
  ``SCORE_BUDGET``; it includes the scorer's own searches (admissible gold
  classes, NCR, the audit), each of which evaluates sub-theories with the engine;
  ``score_engine`` runs the same scoring in process (:func:`scorer.cli.run_score`)
  and times the engine calls inside it, so ``score_cpu_over_its_engine_calls``
  says what the scoring costs beyond the engine work it needs (modules imported
  before timing).

Ratios ``<path>_over_engine`` compare each path with the core on the same
input (``<path>_cpu_over_engine``: the same on CPU time, ``cpu_ms``, which
the machine's load disturbs much less).  For the CLI,
``<path>_minus_startup_cpu_over_engine`` subtracts the one-case process's
CPU time, and ``<path>_after_one_case_cpu_over_engine`` times the command
in a process that has first run the one-case command (``after_one_case``):
the start-up is then left out exactly, where the difference of two
processes' times carries their noise (tens of ms, more than 3x the engine
on a small input).  ``peers`` times, on the active attack graph of the peer-size inputs,
our labelling (:func:`symbolic.engine.labelling.grounded_state` from the edge list)
against a C worklist on a CSR, a plain-Python worklist, networkx and clingo's
grounded encoding (:mod:`benchmarks.peers`), and checks that all agree.
The verdict reads the *paired* ratios, ``*_over_paired_engine``: ``api`` and
``tnf`` each over the engine run right after each of their runs in this process,
each CLI path after one case over the engine run right after it in the same
process (``after_one_case.engine_cpu_ms``), so that a ratio's two times are
taken moments apart on the same machine state.
``engine_after`` times the engine core again once an input's processes have run, and
``engine_drift`` is its CPU time over the first (1.0: no drift; on a shared machine the same call
has taken 2x as long minutes apart, so a ratio whose input drifted is to be read with it).
``verdicts`` holds each goal of :data:`GOALS` against this run's numbers
(with ``--quick`` the inputs are small, so only the ratios mean much).
Timings depend on the machine's load (reported); no test reads them.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import tempfile
import time
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if __package__ in (None, ""):
    sys.path.insert(0, str(ROOT / "benchmarks"))
    sys.path.insert(0, str(ROOT))  # first, so that ``scorer`` is the package, not benchmarks/scorer.py

import numpy as np  # noqa: E402

import peers  # noqa: E402
import theories  # noqa: E402
from path_runs import run_cli, run_cli_warm, summary  # noqa: E402
from path_verdicts import GOALS, ratios, verdicts  # noqa: E402

TINY = ROOT / "tests" / "symbolic" / "fixtures" / "penalty_suite.jsonl"

# name -> (family, options, paths); the issue's table rows, at full size.
FULL = {
    "dense-12.8k": ("dense", {"k": 40, "groups": 4},
                    ("cli_json", "cli_text", "cli_dot", "cli_validate", "cli_score", "tnf")),
    "dense-141k": ("dense", {"k": 133, "groups": 4}, ("cli_json", "cli_text", "tnf")),
    "dense-peer": ("dense", {"k": 271, "groups": 8},
                   ("cli_json", "cli_json_edges", "cli_text", "cli_dot", "cli_validate", "tnf")),
    "text-90k": ("dense", {"k": 106, "groups": 4}, ("cli_text",)),
    "tnf-1e5": ("dense", {"k": 112, "groups": 4}, ("tnf", "cli_json")),
    "mixed": ("mixed", {"k": 100, "groups": 12}, ("cli_json", "cli_text", "tnf")),
    "altderiv": ("altderiv", {"m": 20, "q": 20, "groups": 8}, ("cli_json", "tnf")),
    "mixed-peer": ("mixed", {"k": 180, "groups": 12}, ("cli_json", "cli_text", "tnf")),
    "altderiv-peer": ("altderiv", {"m": 40, "q": 40, "groups": 8}, ("cli_json", "tnf")),
    "af-list-peer": ("explicit", {"args": 8600, "attacks": 1_176_000}, ("cli_json",)),
    "af-columnar-peer": ("explicit", {"args": 8600, "attacks": 1_176_000, "columnar": True},
                         ("cli_json", "cli_validate")),
    "af-columnar-acyclic": ("explicit", {"args": 8600, "attacks": 1_176_000, "columnar": True, "acyclic": True},
                            ("cli_json",)),
}
QUICK = {
    "dense-12.8k": FULL["dense-12.8k"],
    "mixed": ("mixed", {"k": 20, "groups": 6}, ("cli_json", "cli_text", "cli_score", "tnf")),
    "altderiv": ("altderiv", {"m": 6, "q": 6, "groups": 4}, ("cli_json", "tnf")),
    "af-columnar-peer": ("explicit", {"args": 2000, "attacks": 50_000, "columnar": True}, ("cli_json",)),
}
PEER_GRAPHS = {"dense-peer", "mixed-peer", "altderiv-peer", "af-list-peer", "af-columnar-peer", "af-columnar-acyclic"}
# ``paratrace score`` runs with this budget (engine work units) so that dense-12.8k (252,000 units) is scored.
SCORE_BUDGET = 1_000_000



def _timed(fn, repeat: int, engine=None) -> tuple[dict, object]:
    """First-run and median times of ``fn`` over ``repeat`` runs, and its last result.

    With ``engine``, each run is followed by one of ``engine``: ``engine_cpu_ms``
    is its median CPU time measured alongside, so that the ratio of the two does
    not carry the machine's drift (docs/performance.md).
    """
    times, cpu, core, out = [], [], [], None
    for _ in range(repeat):
        start, start_cpu = time.perf_counter(), time.process_time()
        out = fn()
        times.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
        if engine is not None:
            start = time.process_time()
            engine()
            core.append(time.process_time() - start)
    row = summary(times, cpu)
    if core:
        row["engine_cpu_ms"] = round(statistics.median(core) * 1e3, 1)
    return row, out


def _with_gold_status(path: Path, status: str) -> Path:
    """A copy of the input whose gold status is the computed one, for ``validate --check-gold``.

    The generator writes a placeholder status (:mod:`benchmarks.theories`); the
    check would stop at the first case whose gold status differs and time an error.
    """
    record = json.loads(path.read_text(encoding="utf-8"))
    record["gold"]["status"] = status
    out = path.with_name(path.stem + ".gold.json")
    out.write_text(json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n", encoding="utf-8")
    return out


def _gold_outputs(suite: Path) -> Path:
    """The suite's gold objects as one clean white-box output record (:func:`scorer.defects.gold_output`)."""
    from scorer.defects import gold_output
    from symbolic.suites.io import load_suite

    out = suite.with_name(suite.stem + ".outputs.jsonl")
    records = [gold_output(scenario, configuration="b4").model_dump_json() for scenario in load_suite(suite)]
    out.write_text("\n".join(records) + "\n", encoding="utf-8")
    return out


def _command(cli: str, path: Path, status: str) -> list[str]:
    """The ``paratrace`` arguments of path ``cli`` on the input ``path`` (whose computed status is ``status``)."""
    fmt = cli.split("_")[1]
    if fmt == "validate":
        return ["validate", str(_with_gold_status(path, status)), "--check-gold"]
    if fmt == "score":
        suite = _with_gold_status(path, status)
        return ["score", "--suite", str(suite), "--outputs", str(_gold_outputs(suite)),
                "--report", str(path.with_name(path.stem + ".report")), "--budget", str(SCORE_BUDGET)]
    return ["status", str(path), "-f", fmt] + (["--attacks", "edges"] if cli.endswith("_edges") else [])


def _score_engine(path: Path, status: str) -> dict:
    """``paratrace score``'s work in process: its engine calls (count, CPU) against its whole CPU time."""
    import scorer.report  # noqa: F401 - imported before timing: the statistics' import is start-up, not work
    import scorer.subtheory
    import symbolic.engine.status
    from scorer.cli import run_score

    spent = {"calls": 0, "cpu": 0.0}
    originals = {module: module.evaluate for module in (scorer.subtheory, symbolic.engine.status)}

    def timed(fn):
        def call(*args, **kwargs):
            start = time.process_time()
            try:
                return fn(*args, **kwargs)
            finally:
                spent["cpu"] += time.process_time() - start
                spent["calls"] += 1
        return call

    args = _command("cli_score", path, status)
    suite, outputs, report = Path(args[2]), Path(args[4]), Path(args[6])
    for module, fn in originals.items():
        module.evaluate = timed(fn)
    try:
        start = time.process_time()
        run_score(suite, [outputs], report.with_name(report.name + "-inprocess"), budget=SCORE_BUDGET)
        total = time.process_time() - start
    finally:
        for module, fn in originals.items():
            module.evaluate = fn
    return {"engine_calls": spent["calls"], "engine_cpu_ms": round(spent["cpu"] * 1e3, 1),
            "score_cpu_ms": round(total * 1e3, 1),
            "score_cpu_over_its_engine_calls": round(total / max(spent["cpu"], 1e-9), 2)}


def _one_case_like(cli: str, case: str) -> list[str]:
    """The command of path ``cli`` on the one-case fixture: the start-up ``after_one_case`` runs first."""
    fmt = cli.split("_")[1]
    if fmt == "validate":
        return ["validate", str(TINY), "--check-gold"]
    return ["status", str(TINY), "--case", case, "-f", fmt] + (["--attacks", "edges"] if cli.endswith("_edges") else [])


def _in_process(path: Path, repeat: int) -> tuple[dict, object, object]:
    """The in-process rows of ``path`` (engine, api, tnf), the evaluation, and a function that times the
    engine again (for ``engine_drift``)."""
    from symbolic.engine.grounding import ground
    from symbolic.suites.io import load_suite
    from symbolic.engine.status import evaluate, evaluate_analysis
    from symbolic.traces.tnf import normal_form
    from symbolic.traces.tnf_json import write_tnf
    from symbolic.traces.trace import evaluation_rows

    scenario = load_suite(path)[0]
    theory = ground(scenario.evidence_ids(), scenario.gold)
    engine, evaluation = _timed(lambda: evaluate(theory, scenario.target), repeat)

    def api():
        s = load_suite(path)[0]
        return evaluate_analysis(s.evidence_ids(), s.gold, s.target)

    def tnf():
        s = load_suite(path)[0]
        form = normal_form(s.evidence_ids(), s.gold, s.target, query=s.query)
        return sum(len(piece) for piece in write_tnf(evaluation_rows(form.evaluation, query=s.query)))

    core = lambda: evaluate(theory, scenario.target)  # noqa: E731
    api_row, _ = _timed(api, repeat, core)
    tnf_row, chars = _timed(tnf, repeat, core)
    row = {"arguments": len(evaluation.arguments), "attacks": len(evaluation.attacks),
           "active": int(np.count_nonzero(evaluation.attacks.defeat < 0)) if hasattr(evaluation.attacks, "defeat")
           else None, "status": str(evaluation.status), "engine": engine, "api": api_row,
           "tnf": {**tnf_row, "chars": chars}}
    return row, evaluation, lambda: _timed(lambda: evaluate(theory, scenario.target), repeat)[0]


def _peers(evaluation, repeat: int) -> dict:
    """Our labelling against the peers on the active attack graph of ``evaluation`` (:func:`peers.compare`)."""
    src, dst = evaluation.attacks.active_pairs()
    return peers.compare(len(evaluation.arguments), src, dst, repeat)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes, repeat 2")
    parser.add_argument("--repeat", type=int, default=None)
    parser.add_argument("--only", nargs="*", default=None, help="input names to run")
    args = parser.parse_args(argv)
    repeat = args.repeat or (2 if args.quick else 3)
    inputs = QUICK if args.quick else FULL
    warnings.simplefilter("ignore")
    load = [round(x, 2) for x in os.getloadavg()]
    rows, peer_rows = {}, {}
    with tempfile.TemporaryDirectory(prefix="paratrace-paths-") as tmp:
        first_case = json.loads(TINY.read_text(encoding="utf-8").splitlines()[0])["id"]
        # one untimed run, so that the timed ones find the bytecode of every module written
        run_cli(["status", str(TINY), "--case", first_case, "-f", "json"], 1)
        rows["tiny"] = {"cli_json": run_cli(["status", str(TINY), "--case", first_case, "-f", "json"], repeat),
                        "cli_text": run_cli(["status", str(TINY), "--case", first_case], repeat)}
        for name, (family, options, paths) in inputs.items():
            if args.only and name not in args.only:
                continue
            path = Path(tmp) / f"{name}.json"
            record = theories.FAMILIES[family](seed=0, **options)
            path.write_text(json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n", encoding="utf-8")
            del record
            row, evaluation, engine_again = _in_process(path, repeat)
            for cli in paths:
                if cli == "tnf":
                    continue
                times = repeat if row["attacks"] < 200_000 else 1
                row[cli] = run_cli(_command(cli, path, row["status"]), times)
                if cli != "cli_score":
                    row[cli]["after_one_case"] = run_cli_warm(_command(cli, path, row["status"]),
                                                           _one_case_like(cli, first_case), path, times)
                if cli == "cli_score":
                    row["score_engine"] = _score_engine(path, row["status"])
            # The machine's speed drifts: the engine timed again after the processes, to read the ratios by.
            row["engine_after"] = engine_again()
            row["engine_drift"] = round(row["engine_after"]["cpu_ms"] / max(row["engine"]["cpu_ms"], 1e-3), 2)
            row.update(ratios(row, rows["tiny"]))
            rows[name] = row
            if name in PEER_GRAPHS:
                peer_rows[name] = _peers(evaluation, repeat)
                clingo = peer_rows[name]["clingo"].get("solve_ms")
                if clingo:
                    peer_rows[name]["clingo_over_api"] = round(clingo / max(row["api"]["median_ms"], 1e-3), 2)
            del evaluation
    report = {"benchmark": "paths", "quick": args.quick, "repeat": repeat,
              "machine": {"python": platform.python_version(), "cpus": os.cpu_count(), "loadavg_at_start": load,
                          "pythondontwritebytecode_set": "PYTHONDONTWRITEBYTECODE" in os.environ,
                          "loadavg_at_end": [round(x, 2) for x in os.getloadavg()]},
              "goals": GOALS, "verdicts": verdicts(rows, peer_rows, PEER_GRAPHS), "rows": rows, "peers": peer_rows}
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
