"""Benchmark of the runner's MLflow logging (prints JSON; not a test).

Runs a suite (default ``controlled-140``) on four configurations with the
scripted backbone, tracked to a fresh SQLite store (or ``--tracking-uri``),
and reports per nested run the number of traces kept and of distinct cases
traced, the seconds spent running and logging, and traces per second.  No
trace may be dropped: 140 cases on four configurations keep 560 traces.

Usage: ``python benchmarks/tracking.py [--suite controlled-140] [--limit N] [--tracking-uri URI]``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "true")
os.environ.setdefault("MLFLOW_DISABLE_TELEMETRY", "true")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--suite", default="controlled-140")
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--tracking-uri", default=None)
    args = parser.parse_args()

    from experiments.runner import run as run_module
    from experiments.runner.run import run_experiment
    from experiments.runner.spec import ExperimentSpec

    with tempfile.TemporaryDirectory(prefix="paratrace-bench-tracking-") as tmp:
        os.chdir(tmp)
        spec = ExperimentSpec(name="bench-tracking", suites=[args.suite], configurations=["b1", "b2", "b3", "b4"],
                              backbones=[{"model": "scripted/null"}], concurrency=4, limit=args.limit)
        timings = {}
        real_log = run_module._log_mlflow

        def timed(*a, **kw):
            started = time.perf_counter()
            try:
                return real_log(*a, **kw)
            finally:
                timings["logging_s"] = time.perf_counter() - started

        run_module._log_mlflow = timed
        started = time.perf_counter()
        result = run_experiment(spec, workdir=tmp, track=True, tracking_uri=args.tracking_uri)
        total = time.perf_counter() - started
        import mlflow

        client = mlflow.MlflowClient()
        parent = client.get_run(result.mlflow_runs[0])
        experiment = parent.info.experiment_id
        children = client.search_runs([experiment], filter_string=f"tags.`mlflow.parentRunId` = '{parent.info.run_id}'")
        runs = {}
        for child in children:
            traces = mlflow.search_traces(locations=[experiment], run_id=child.info.run_id, return_type="list",
                                          include_spans=False)
            cases = {t.info.tags.get("paratrace.case_id") for t in traces}
            runs[child.info.run_name] = {"traces": len(traces), "distinct_cases": len(cases),
                                         "cases_run": sum(child.data.params.get(f"outcomes.{o}", "0").isdigit()
                                                          and int(child.data.params[f"outcomes.{o}"])
                                                          for o in ("scored", "parse_failure", "infra_error"))}
        kept = sum(r["traces"] for r in runs.values())
        print(json.dumps({"suite": args.suite, "cells": len(runs), "cases": result.summary.done,
                          "traces_kept": kept, "per_run": runs, "run_and_log_s": round(total, 1),
                          "logging_s": round(timings.get("logging_s", float("nan")), 1),
                          "traces_per_s": round(kept / timings["logging_s"], 2) if timings.get("logging_s") else None},
                         indent=2, sort_keys=True))


if __name__ == "__main__":
    main()
