"""Benchmark of the trace graph and the trace normal form; prints JSON.

Usage::

    python benchmarks/trace_tnf.py           # synthetic 10^3 .. 10^5 attacks + peer corpus, best of 3
    python benchmarks/trace_tnf.py --quick   # 10^3 and 10^4 attacks only, one repeat

For each theory it times, on the same machine and in the same run:

- ``engine_ms``: :func:`symbolic.engine.status.evaluate` (the baseline);
- ``trace_ms``: :func:`symbolic.traces.trace.build_trace` on that evaluation;
- ``tnf_ms``: the whole :func:`symbolic.traces.tnf.tnf` (grounding, alias collapse,
  engine, trace, canonical projection) plus :func:`symbolic.traces.tnf.tnf_json`;

and reports ``trace_over_engine`` and ``tnf_over_engine`` ratios.  The
synthetic family is the ``uniform`` one of ``benchmarks/engine.py`` (one
complete rebut biclique of ``k`` pro and ``k`` con rules, two priorities); the
peer row runs all 600 records of the peer corpus copy, when present.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
import warnings
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from symbolic.scenario.model import Analysis  # noqa: E402
from symbolic.engine.status import evaluate  # noqa: E402
from symbolic.traces.tnf import tnf, tnf_json  # noqa: E402
from symbolic.traces.trace import build_trace  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from engine import EVIDENCE, uniform_theory  # noqa: E402

PEER = Path(__file__).resolve().parents[1] / ".." / "shared" / "data" / "neuro_symbolic" / "controlled_benchmark_600.jsonl"


def best(fn, repeat: int) -> tuple[float, object]:
    times, out = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - start)
    return min(times) * 1000, out


def synthetic(k: int, repeat: int) -> dict:
    theory, target = uniform_theory(k, 1)
    analysis = Analysis(facts=theory.facts, rules=theory.rules, priorities=theory.priorities)
    engine_ms, evaluation = best(lambda: evaluate(theory, target), repeat)
    trace_ms, graph = best(lambda: build_trace(evaluation), repeat)
    tnf_ms, text = best(lambda: tnf_json(tnf(EVIDENCE, analysis, target)), repeat)
    return {"family": "uniform", "k": k, "arguments": len(evaluation.arguments),
            "attacks": len(evaluation.attacks), "nodes": graph.number_of_nodes(),
            "edges": graph.number_of_edges(), "tnf_bytes": len(text.encode("utf-8")),
            "engine_ms": round(engine_ms, 2), "trace_ms": round(trace_ms, 2), "tnf_ms": round(tnf_ms, 2),
            "trace_over_engine": round(trace_ms / engine_ms, 2), "tnf_over_engine": round(tnf_ms / engine_ms, 2)}


def peer(repeat: int) -> dict | None:
    if not PEER.exists():
        return None
    from symbolic.engine.grounding import ground
    from symbolic.suites.peer import import_peer_file

    cases = [(s.evidence_ids(), s.gold, s.target) for s in import_peer_file(PEER)]
    theories = [(ground(e, a), t) for e, a, t in cases]
    engine_ms, evaluations = best(lambda: [evaluate(th, t) for th, t in theories], repeat)
    trace_ms, _ = best(lambda: [build_trace(ev) for ev in evaluations], repeat)
    tnf_ms, _ = best(lambda: [tnf_json(tnf(e, a, t)) for e, a, t in cases], repeat)
    return {"family": "peer_corpus", "cases": len(cases), "engine_ms": round(engine_ms, 2),
            "trace_ms": round(trace_ms, 2), "tnf_ms": round(tnf_ms, 2),
            "tnf_ms_per_case": round(tnf_ms / len(cases), 3),
            "trace_over_engine": round(trace_ms / engine_ms, 2), "tnf_over_engine": round(tnf_ms / engine_ms, 2)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="10^3 and 10^4 attacks, one repeat")
    args = parser.parse_args(argv)
    repeat = 1 if args.quick else 3
    sizes = (22, 71) if args.quick else (22, 71, 224)
    warnings.simplefilter("ignore")
    rows = [synthetic(k, repeat if k < 200 else 1) for k in sizes]
    peer_row = peer(repeat)
    if peer_row is not None:
        rows.append(peer_row)
    print(json.dumps({"benchmark": "trace_tnf", "python": platform.python_version(),
                      "machine": platform.machine(), "repeat": repeat, "rows": rows}, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
