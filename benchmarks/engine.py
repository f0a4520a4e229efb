"""Benchmark of the argumentation engine (build + label + status); prints JSON.

Usage::

    python benchmarks/engine.py            # 10^3 .. 10^6 attacks, both families, best of 3
    python benchmarks/engine.py --quick    # 10^3 and 10^4 only, one repeat (seconds)

Two synthetic theory families, each sized by its number of derived attacks:

- ``uniform`` (little propagation): ``g`` conflict groups; in group ``i``,
  ``k`` defeasible rules ``F_i_j => P_i`` and ``k`` rules ``G_i_j => ¬P_i``
  over distinct facts, so every pro argument rebuts every con argument and
  back (``2 k^2`` attacks per group).  Half of the groups carry two
  priorities, so some attacks are neutralized (team reading).  Almost every
  rule argument is UNDEC: one worklist round.
- ``deep`` (acyclic, deep propagation): ``d`` layers; layer ``i`` has a team
  of ``k`` arguments for ``¬applicable(ry_i)`` (rule ``rx_i`` over ``k``
  facts) that undercuts the ``k`` arguments of rule ``ry_i``, which in turn
  conclude ``¬applicable(rx_{i+1})``.  The labelling alternates IN/OUT
  through ``2 d`` rounds and touches every attack.

Wall-clock phase times come from the best run; ``best_total_cpu_ms`` (process
CPU time) is less sensitive to other jobs on a shared machine.  Each
configuration runs in a fresh subprocess so that its peak RSS
(``ru_maxrss``) is its own; ``tracemalloc_mb`` is the peak of Python and
numpy allocations during one engine call (measured in a separate call,
since tracing slows the code down).  Times are the best of ``--repeat``
calls of the engine on the same theory.  The target row is the peer's
largest table row (8,600 arguments, 1.176 M attacks; claimed 6,230 ms and
420 MB, no code published).
"""

from __future__ import annotations

import argparse
import gc
import json
import math
import os
import platform
import resource
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from symbolic.engine.arguments import build_arguments  # noqa: E402
from symbolic.engine.attacks import derive_attacks  # noqa: E402
from symbolic.engine.grounding import Theory  # noqa: E402
from symbolic.engine.labelling import grounded_labelling  # noqa: E402
from symbolic.scenario.labels import Basis, RuleKind  # noqa: E402
from symbolic.scenario.model import Fact, Priority, Rule  # noqa: E402
from symbolic.engine.priorities import priority_order  # noqa: E402
from symbolic.engine.status import support_against  # noqa: E402

EVIDENCE = ("E-01",)
PEER_ROW = {"arguments": 8600, "attacks": 1_176_000, "total_ms": 6230, "peak_mb": 420}
GOAL = {"total_ms": 620, "peak_mb": 420}

# family -> list of (label, k, groups-or-layers); attacks: uniform 2k^2g, deep k^2(2d-1)
CONFIGS = {
    "uniform": [("1e3", 8, 8), ("1e4", 25, 8), ("1e5", 50, 20), ("peer", 271, 8), ("1e6", 100, 50)],
    "deep": [("1e3", 4, 32), ("1e4", 10, 50), ("1e5", 25, 80), ("peer", 280, 8), ("1e6", 50, 200)],
}
QUICK = {"1e3", "1e4"}


def _fact(ident: str, literal: str) -> Fact:
    return Fact.model_construct(id=ident, literal=literal, evidence=EVIDENCE, span=None)


def _rule(ident: str, body: tuple[str, ...], head: str) -> Rule:
    return Rule.model_construct(id=ident, antecedents=body, consequent=head, kind=RuleKind.DEFEASIBLE,
                                evidence=EVIDENCE, span=None)


def _priority(stronger: str, weaker: str) -> Priority:
    return Priority.model_construct(stronger=stronger, weaker=weaker, basis=Basis.SPECIFICITY,
                                    evidence=EVIDENCE, note=None)


def uniform_theory(k: int, groups: int) -> tuple[Theory, str]:
    """``groups`` complete rebut bicliques of ``k`` pro and ``k`` con arguments."""
    facts, rules, priorities = [], [], []
    for i in range(groups):
        for j in range(k):
            facts += [_fact(f"f{i}_{j}", f"F{i}_{j}"), _fact(f"g{i}_{j}", f"G{i}_{j}")]
            rules += [_rule(f"pro{i}_{j}", (f"F{i}_{j}",), f"P{i}"),
                      _rule(f"con{i}_{j}", (f"G{i}_{j}",), f"¬P{i}")]
        if i % 2 == 0:
            priorities += [_priority(f"con{i}_0", f"pro{i}_0"), _priority(f"pro{i}_1", f"con{i}_1")]
    return Theory(frozenset(EVIDENCE), tuple(facts), tuple(rules), (), tuple(priorities)), "P0"


def deep_theory(k: int, layers: int) -> tuple[Theory, str]:
    """``layers`` alternating undercut teams of ``k`` arguments each."""
    facts, rules = [], []
    for i in range(layers):
        facts += [_fact(f"x{i}_{j}", f"X{i}") for j in range(k)]
        facts += [_fact(f"y{i}_{j}", f"Y{i}") for j in range(k)]
        rules += [_rule(f"rx{i}", (f"X{i}",), f"¬applicable(ry{i})"),
                  _rule(f"ry{i}", (f"Y{i}",), f"¬applicable(rx{i + 1})")]
    return Theory(frozenset(EVIDENCE), tuple(facts), tuple(rules), (), ()), f"¬applicable(rx{layers})"


FAMILIES = {"uniform": uniform_theory, "deep": deep_theory}


def run_engine(theory: Theory, target: str) -> dict:
    """One engine call, timed by phase (wall-clock milliseconds) plus its total CPU time."""
    c0 = time.process_time()
    t0 = time.perf_counter()
    arguments = build_arguments(theory)
    t1 = time.perf_counter()
    order = priority_order(theory)
    attacks = derive_attacks(theory, arguments, order)
    t2 = time.perf_counter()
    labelling = grounded_labelling([a.id for a in arguments], attacks)
    t3 = time.perf_counter()
    support, against = support_against(target, arguments, labelling)
    t4 = time.perf_counter()
    c4 = time.process_time()
    counts: dict[str, int] = {}
    for label in labelling.labels.values():
        counts[label.value] = counts.get(label.value, 0) + 1
    return {
        "arguments_ms": (t1 - t0) * 1e3, "attacks_ms": (t2 - t1) * 1e3, "label_ms": (t3 - t2) * 1e3,
        "status_ms": (t4 - t3) * 1e3, "total_ms": (t4 - t0) * 1e3, "total_cpu_ms": (c4 - c0) * 1e3,
        "arguments": len(arguments), "attacks": len(attacks),
        "active": int((attacks.defeat < 0).sum()), "rounds": len(labelling.rounds),
        "labels": counts, "support_against": [support, against],
    }


def single(family: str, size: str, k: int, n: int, repeat: int, materialize_all: bool = False) -> dict:
    """Measure one configuration in this process."""
    theory, target = FAMILIES[family](k, n)
    gc.collect()
    rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    runs = [run_engine(theory, target) for _ in range(repeat)]
    rss_peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    best = min(runs, key=lambda r: r["total_ms"])
    gc.collect()
    tracemalloc.start()
    run_engine(theory, target)
    traced = tracemalloc.get_traced_memory()[1] / 2**20
    tracemalloc.stop()
    materialize = None
    if materialize_all:  # what a caller pays to turn the lazy view into Attack objects (no tracing)
        arguments = build_arguments(theory)
        attacks = derive_attacks(theory, arguments, priority_order(theory))
        gc.collect()
        rss0 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        t0 = time.perf_counter()
        objects = attacks.to_tuple()
        elapsed = (time.perf_counter() - t0) * 1e3
        rss1 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        materialize = {"ms": round(elapsed, 1), "rss_peak_growth_mb": round(rss1 - rss0, 1),
                       "objects": len(objects)}
        del objects
    phases = ("arguments_ms", "attacks_ms", "label_ms", "status_ms", "total_ms", "total_cpu_ms")
    row = {"family": family, "size": size, "k": k, "n": n,
           **{p: round(best[p], 1) for p in phases},
           "total_ms_all_runs": [round(r["total_ms"], 1) for r in runs],
           "best_total_cpu_ms": round(min(r["total_cpu_ms"] for r in runs), 1),
           **{key: best[key] for key in ("arguments", "attacks", "active", "rounds", "labels", "support_against")},
           "ns_per_attack": round(best["total_ms"] * 1e6 / max(best["attacks"], 1), 1),
           "rss_before_engine_mb": round(rss_before, 1), "rss_peak_mb": round(rss_peak, 1),
           "tracemalloc_mb": round(traced, 1)}
    if materialize is not None:
        row["materialize_all_attacks"] = materialize
    return row


def peer_corpus(repeat: int) -> dict:
    """Throughput of load -> status over the 600-record peer corpus, when present."""
    path = Path(__file__).resolve().parents[1] / ".." / "shared" / "data" / "neuro_symbolic" / "controlled_benchmark_600.jsonl"
    try:
        from symbolic.suites.peer import import_peer_file
        from symbolic.engine.status import evaluate_analysis
    except ImportError as exc:
        return {"skipped": f"symbolic.suites.peer not importable: {exc}"}
    if not path.exists():
        return {"skipped": f"{path} not found"}
    import warnings

    best_load = best_eval = float("inf")
    for _ in range(repeat):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            t0 = time.perf_counter()
            scenarios = import_peer_file(path)
            t1 = time.perf_counter()
            for s in scenarios:
                evaluate_analysis(s.evidence_ids(), s.gold, s.target)
            t2 = time.perf_counter()
        best_load, best_eval = min(best_load, t1 - t0), min(best_eval, t2 - t1)
    n = len(scenarios)
    return {"records": n, "import_ms": round(best_load * 1e3, 1), "evaluate_ms": round(best_eval * 1e3, 1),
            "records_per_s_evaluate": round(n / best_eval, 1),
            "records_per_s_import_and_evaluate": round(n / (best_load + best_eval), 1),
            "note": "import_peer_file also runs the engine once per record to check the gold label"}


def _slope(xs: list[float], ys: list[float]) -> float | None:
    """Least-squares slope of log(y) on log(x); 1.0 means linear."""
    points = [(math.log(x), math.log(y)) for x, y in zip(xs, ys) if x > 0 and y > 0]
    if len(points) < 2:
        return None
    mx = sum(p[0] for p in points) / len(points)
    my = sum(p[1] for p in points) / len(points)
    den = sum((p[0] - mx) ** 2 for p in points)
    return round(sum((p[0] - mx) * (p[1] - my) for p in points) / den, 2) if den else None


def _scaling(rows: list[dict]) -> dict:
    """Log-log slopes against the number of attacks (total, and the attack-proportional phases)."""
    attacks = [r["attacks"] for r in rows]
    return {"total_ms_vs_attacks": _slope(attacks, [r["total_ms"] for r in rows]),
            "attacks_plus_label_ms_vs_attacks": _slope(attacks, [r["attacks_ms"] + r["label_ms"] for r in rows]),
            "arguments_ms_vs_arguments": _slope([r["arguments"] for r in rows], [r["arguments_ms"] for r in rows])}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="10^3 and 10^4 attacks only, one repeat")
    parser.add_argument("--repeat", type=int, default=None, help="engine calls per configuration (best is kept)")
    parser.add_argument("--single", nargs=4, metavar=("FAMILY", "SIZE", "K", "N"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    repeat = args.repeat or (1 if args.quick else 3)
    if args.single:
        family, size, k, n = args.single
        print(json.dumps(single(family, size, int(k), int(n), repeat, materialize_all=size == "peer")))
        return 0
    load_at_start = [round(x, 2) for x in os.getloadavg()]
    rows = []
    for family, configs in CONFIGS.items():
        for size, k, n in configs:
            if args.quick and size not in QUICK:
                continue
            out = subprocess.run([sys.executable, __file__, "--single", family, size, str(k), str(n),
                                  "--repeat", str(repeat)], capture_output=True, text=True, check=True)
            rows.append(json.loads(out.stdout))
    peer_rows = [r for r in rows if r["size"] == "peer"]
    report = {
        "benchmark": "engine", "quick": args.quick, "repeat": repeat,
        "machine": {"python": platform.python_version(), "cpus": os.cpu_count(),
                    "loadavg_at_start": load_at_start,
                    "loadavg_at_end": [round(x, 2) for x in os.getloadavg()]},
        "peer_claim": PEER_ROW, "goal": GOAL,
        "rows": rows,
        "peer_shape": [{"family": r["family"], "total_ms": r["total_ms"], "best_total_cpu_ms": r["best_total_cpu_ms"],
                        "rss_peak_mb": r["rss_peak_mb"],
                        "speedup_vs_claim": round(PEER_ROW["total_ms"] / r["total_ms"], 2),
                        "meets_goal": r["total_ms"] <= GOAL["total_ms"] and r["rss_peak_mb"] <= GOAL["peak_mb"]}
                       for r in peer_rows],
        "scaling": {family: _scaling([r for r in rows if r["family"] == family]) for family in CONFIGS},
        "peer_corpus": peer_corpus(repeat),
    }
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
