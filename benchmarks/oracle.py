"""The oracle tables: every configuration against the perfect and the noisy
oracle backbones, through the real runner over HTTP; prints JSON.

Usage::

    python benchmarks/oracle.py                    # noise 0.3, seed 7, B1-B4, both suites
    python benchmarks/oracle.py --noise 0.2 --seed 1 --suites normative-en

For controlled-140 it reports, per configuration, ASA and DLA by defect class
(the layout of the paper's Tables 7 and 10); for normative-en every metric.
The noisy oracle's ledger gives how many answers of each predictor it
corrupted, and how.  Wall and CPU times of each run are included (they depend
on the machine's load); the NCR and budget figures of the redundant-routes
stress case close the report.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
import warnings
from collections import Counter, defaultdict
from pathlib import Path

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "true")
os.environ.setdefault("MLFLOW_DISABLE_TELEMETRY", "true")
os.environ.setdefault("PARATRACE_API_KEY", "oracle")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

METRICS = ("ASA", "TGC", "CLA", "NER", "UUCR", "PHA", "BRA", "NCR", "DLA")


def _pct(x):
    return None if x is None else round(100 * x, 1)


def run_suite(suite: str, configs, noise: float, seed: int, workdir: Path) -> dict:
    from assistant.oracle import OracleServer
    from experiments.runner.run import load_suites, run_experiment
    from experiments.runner.spec import ExperimentSpec

    scenarios, _ = load_suites([suite])
    cases = {s.id: s for s in scenarios[suite]}
    with OracleServer(scenarios[suite], noise=noise, seed=seed) as srv:
        spec = ExperimentSpec(name=f"{suite}-{noise}-{seed}", suites=[suite], configurations=list(configs),
                              backbones=[{"model": f"openai/oracle-{suite}-{noise}-{seed}",
                                          "api_base": srv.base_url, "alias": f"oracle-{noise}"}],
                              concurrency=4, max_retries=0)
        wall, cpu = time.perf_counter(), time.process_time()
        run = run_experiment(spec, workdir=workdir, track=False)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        ledger = srv.oracle.ledger()
    out = {"noise": noise, "seed": seed, "wall_s": round(wall, 1), "cpu_s": round(cpu, 1),
           "hard_failures": run.summary.failures,
           "corrupted": dict(sorted(Counter(f"{c['predictor']}/{c['kind']}" for c in ledger["corruptions"]).items())),
           "configurations": {}}
    for cell in run.scores[0].cells:
        row = {m: (_pct(v[0]) if m != "NCR" else (None if v[0] is None else round(v[0], 2)))
               for m, v in cell.metrics().items()}
        if suite.startswith("controlled"):
            asa, dla = defaultdict(list), defaultdict(list)
            for r in cell.results:
                cls = cases[r.case_id].metadata.defect_class.value
                asa[cls].append(float(r.correct))
                if r.metrics["DLA"].value is not None:
                    dla[cls].append(r.metrics["DLA"].value)
            row = {"ASA": row["ASA"], "DLA": row["DLA"],
                   "ASA_by_class": {k: _pct(sum(v) / len(v)) for k, v in sorted(asa.items())},
                   "DLA_by_class": {k: _pct(sum(v) / len(v)) for k, v in sorted(dla.items())}}
        out["configurations"][cell.configuration] = row
    return out


def routes_figures() -> dict:
    from scorer.contract import CommonV1, OutputRecord, TraceV2
    from scorer.metrics._stress import redundant_routes
    from scorer.score import score_case

    s = redundant_routes(8)
    g = s.gold
    out = OutputRecord(case_id=s.id, configuration="gold", model="-", common=CommonV1(final_status="accepted"),
                       trace=TraceV2(facts=g.facts, rules=g.rules, priorities=g.priorities))
    cpu = time.process_time()
    rec = score_case(s, out).metrics["NCR"]
    return {"objects": rec.metadata["edit_set_size"], "true_minimal_flip": 8, "ncr_value": rec.value,
            "lower_bound": rec.metadata["lower_bound"], "stopped_by": rec.metadata["stopped_by"],
            "upper_bound": None if rec.metadata["upper_bound"] is None else len(rec.metadata["upper_bound"]),
            "edit_sets_searched": rec.metadata["searched"], "engine_evaluations": rec.metadata["evaluations"],
            "explanation": rec.explanation, "cpu_s": round(time.process_time() - cpu, 2)}


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--noise", type=float, default=0.3)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--configs", default="b1,b2,b3,b4")
    parser.add_argument("--suites", default="controlled-140,normative-en")
    args = parser.parse_args(argv)
    warnings.simplefilter("ignore")
    configs = [c.strip() for c in args.configs.split(",") if c.strip()]
    report = {}
    with tempfile.TemporaryDirectory() as tmp:
        for suite in [s.strip() for s in args.suites.split(",") if s.strip()]:
            report[suite] = {"oracle": run_suite(suite, configs, 0.0, args.seed, Path(tmp)),
                             "noisy": run_suite(suite, configs, args.noise, args.seed, Path(tmp))}
    report["redundant_routes_ncr"] = routes_figures()
    print(json.dumps(report, indent=1, ensure_ascii=False))


if __name__ == "__main__":
    main()
