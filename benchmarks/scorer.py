"""Benchmark of the scorer: full TNF alignment and NCR on 1,000 cases; prints JSON.

Usage::

    python benchmarks/scorer.py              # 1,000 cases, seed 0
    python benchmarks/scorer.py --cases 200  # quicker

Cases are synthetic normative theories drawn with a seeded generator, each
with up to 20 grounded objects (the NCR edit set): 3-6 facts; pro and con
rules on the target, some through an intermediate literal; an exception
(undercutter) to a pro rule with a rebuttal of it; acyclic priorities
between conflicting rules; a distractor fact and rule outside the target's
cone; about 8 % of the cases keep no fact on the cone (undecidable).  Outputs cycle through the clean gold
trace, each of the six injected defect classes, and a black-box answer with
a status only, so alignment works on matching and non-matching traces alike.

Reported: total wall time of :func:`scorer.score.score_suite` (one output per
case, so no gold-side caching helps), per-case mean / p50 / p95 / max of
:func:`scorer.score.score_case` timed one by one, the per-case cost as a share
of a typical LLM call (8 s, the brief's figure), and the work done: edit-set
sizes, NCR costs (censored ones apart), engine evaluations of the NCR search,
admissible gold classes.  Wall times depend on the machine's load (the 1-min
load average is reported); CPU times (``process_time``) much less so.  Goal: under 30 s in total, per case under 1 % of an LLM call.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import sys
import time
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scorer.defects import gold_output, inject  # noqa: E402
from scorer.contract import CommonV1, OutputRecord  # noqa: E402
from scorer.score import score_case, score_suite  # noqa: E402
from symbolic.scenario.model import (  # noqa: E402
    DEFECT_CLASSES,
    EvidenceFragment,
    Fact,
    Gold,
    Metadata,
    Priority,
    Rule,
    Scenario,
)
from symbolic.errors import PriorityCycleWarning  # noqa: E402
from symbolic.traces.tnf import normal_form  # noqa: E402
from symbolic.scenario.model import Analysis  # noqa: E402

LLM_CALL_SECONDS = 8.0
MAX_OBJECTS = 40


def synthetic_case(i: int, rng: random.Random, max_objects: int = MAX_OBJECTS) -> Scenario:
    """One random theory with at most ``max_objects`` grounded objects (sizes scale with it)."""
    ev = [f"E-{k:02d}" for k in range(1, 13)]
    pick = lambda: [rng.choice(ev)]  # noqa: E731
    n_facts = rng.randint(3, max(6, max_objects // 5))
    facts = [Fact(id=f"f{k}", literal=f"A{k}(c)", evidence=pick()) for k in range(1, n_facts + 1)]
    atoms = [f.literal for f in facts]
    rules: list[Rule] = []

    def add(ants, cons, kind="defeasible"):
        rules.append(Rule(id=f"r{len(rules) + 1}", antecedents=ants, consequent=cons, kind=kind,
                          evidence=pick()))
        return rules[-1].id

    pro = [add(rng.sample(atoms, rng.randint(1, 2)), "P(c)") for _ in range(rng.randint(1, max(3, max_objects // 10)))]
    con = [add(rng.sample(atoms, rng.randint(1, 2)), "¬P(c)") for _ in range(rng.randint(1, max(2, max_objects // 13)))]
    for step in range(max(1, max_objects // 20)):  # intermediate literals: longer derivations
        if rng.random() < 0.5:
            add([rng.choice(atoms)], f"M{step}(c)")
            pro.append(add([f"M{step}(c)"], "P(c)"))
    if rng.random() < 0.5:
        add([rng.choice(atoms)], f"¬applicable({pro[0]})")
        if rng.random() < 0.5:
            add([rng.choice(atoms)], f"applicable({pro[0]})")
    if rng.random() < 0.3:
        facts.append(Fact(id="f99", literal="Unrelated(c)", evidence=pick()))
        add(["Unrelated(c)"], "Other(c)")
    rank = {r: rng.random() for r in pro + con}
    pairs = [(a, b) for a in pro for b in con] + [(b, a) for a in pro for b in con]
    rng.shuffle(pairs)
    priorities = []
    for s, w in pairs:
        if len(facts) + len(rules) + len(priorities) >= max_objects:
            break
        if rank[s] > rank[w] and rng.random() < 0.6:
            priorities.append(Priority(stronger=s, weaker=w, basis="specificity", evidence=pick()))
    while len(facts) + len(rules) + len(priorities) > max_objects:
        priorities.pop() if priorities else facts.pop()
    if rng.random() < 0.08:  # absence of proof: no fact on the cone, so undecidable (NCR censored)
        facts = [Fact(id="f99", literal="Unrelated(c)", evidence=pick())]
    analysis = Analysis(facts=facts, rules=rules, priorities=priorities)
    with warnings.catch_warnings():  # a collapsed alias may close a priority cycle: part of the case
        warnings.simplefilter("ignore", PriorityCycleWarning)
        status = normal_form(ev, analysis, "P(c)").evaluation.status  # TNF semantics (aliases collapsed)
    fragments = [EvidenceFragment(id=e, text=f"Synthetic clause {e}.", source="Synthetic") for e in ev]
    return Scenario(id=f"syn-{i:04d}", query="Does P hold for c?", target="P(c)", evidence=fragments,
                    gold=Gold(**analysis.model_dump(), status=status),
                    metadata=Metadata(contradiction=bool(con) and bool(pro), priority=bool(priorities)))


def synthetic_output(sc: Scenario, i: int, rng: random.Random) -> OutputRecord:
    """Cycle: gold trace, the six defects, a black-box answer."""
    slot = i % (len(DEFECT_CLASSES) + 2)
    if slot == 0:
        return gold_output(sc, configuration="bench", model="synthetic")
    if slot <= len(DEFECT_CLASSES):
        inj = inject(sc, DEFECT_CLASSES[slot - 1], configuration="bench", model="synthetic")
        if inj is not None:
            return inj.output
        return gold_output(sc, configuration="bench", model="synthetic")
    status = rng.choice(["accepted", "rejected", "both", "undecidable"])
    return OutputRecord(case_id=sc.id, configuration="bench", model="synthetic",
                        common=CommonV1(final_status=status, conflict_detected=rng.random() < 0.5))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cases", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--max-objects", type=int, default=MAX_OBJECTS, help="largest NCR edit set per case")
    args = ap.parse_args(argv)
    rng = random.Random(args.seed)
    scenarios = [synthetic_case(i, rng, args.max_objects) for i in range(args.cases)]
    outputs = [synthetic_output(sc, i, rng) for i, sc in enumerate(scenarios)]

    t0, c0 = time.perf_counter(), time.process_time()
    results = score_suite(scenarios, outputs)
    total, total_cpu = time.perf_counter() - t0, time.process_time() - c0

    per_case, per_case_cpu = [], []
    for sc, out in zip(scenarios, outputs):
        t, c = time.perf_counter(), time.process_time()
        score_case(sc, out)
        per_case.append(time.perf_counter() - t)
        per_case_cpu.append(time.process_time() - c)
    per_case.sort()
    engine: list[float] = []  # the engine core on the same cases: one normal form of the gold analysis
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PriorityCycleWarning)
        for sc in scenarios:
            t = time.perf_counter()
            normal_form(sc.evidence_ids(), sc.gold, sc.target)
            engine.append(time.perf_counter() - t)

    ncr = [r.metrics["NCR"].metadata for r in results]
    sizes = [m["edit_set_size"] for m in ncr]
    uncensored = [m["raw_cost"] for m in ncr if not m["censored"]]
    aligned = [r.alignment for r in results if r.alignment is not None]
    mean = statistics.fmean(per_case)
    report = {
        "benchmark": "scorer",
        "python": platform.python_version(),
        "machine": platform.machine(),
        "cases": args.cases,
        "seed": args.seed,
        "score_suite_seconds": round(total, 3),
        "score_suite_cpu_seconds": round(total_cpu, 3),
        "load_average_1min": round(os.getloadavg()[0], 2),
        "goal_total_seconds": 30.0,
        "per_case_ms": {
            "mean": round(1000 * mean, 3),
            "p50": round(1000 * per_case[len(per_case) // 2], 3),
            "p95": round(1000 * per_case[int(0.95 * (len(per_case) - 1))], 3),
            "max": round(1000 * per_case[-1], 3),
        },
        "per_case_cpu_ms_mean": round(1000 * statistics.fmean(per_case_cpu), 3),
        "max_objects": args.max_objects,
        "engine_per_case_ms_mean": round(1000 * statistics.fmean(engine), 3),
        "score_over_engine": round(mean / statistics.fmean(engine), 2),
        "score_over_engine_per_evaluation": round(
            mean / statistics.fmean(engine) / max(statistics.fmean(m["evaluations"] for m in ncr), 1), 3),
        "per_case_share_of_llm_call": round(mean / LLM_CALL_SECONDS, 6),
        "goal_share_of_llm_call": 0.01,
        "edit_set_size": {"min": min(sizes), "mean": round(statistics.fmean(sizes), 2), "max": max(sizes)},
        "ncr": {
            "censored": sum(m["censored"] for m in ncr),
            "cost_histogram": {str(k): uncensored.count(k) for k in sorted(set(uncensored))},
            "cap_reached": sum(m["cap_reached"] for m in ncr),
            "edit_sets_searched_mean": round(statistics.fmean(m["searched"] for m in ncr), 1),
            "engine_evaluations_mean": round(statistics.fmean(m["evaluations"] for m in ncr), 1),
        },
        "alignment": {
            "aligned_outputs": len(aligned),
            "gold_classes_mean": round(statistics.fmean(a.metadata["n_classes"] for a in aligned), 2),
            "fallback": sum(a.metadata["fallback"] for a in aligned),
            "tgc_mean": round(statistics.fmean(a.coverage or 0.0 for a in aligned), 4),
        },
        "gold_status": {s: sum(r.status_gold == s for r in results)
                        for s in ("accepted", "rejected", "both", "undecidable")},
    }
    print(json.dumps(report, indent=2, sort_keys=True))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
