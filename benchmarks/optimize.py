"""Benchmark of the optimizers: LM calls and wall time per optimizer and budget; prints JSON.

Usage::

    python benchmarks/optimize.py                       # every optimizer, two budgets, bank-* cases
    python benchmarks/optimize.py --select bank-,comp-  # more cases
    python benchmarks/optimize.py --optimizers gepa,mipro --budgets gepa=20:80,mipro=2:8

Runs on the offline tutor LM (:mod:`optimize.tutor`) through the real DSPy /
Instructor path, so the numbers are the optimizers' own overhead and call
counts, not a model's latency.  For each (optimizer, budget) it reports the
LM calls of the compile, its wall and process CPU time, and the held-out
objective before and after.  The baseline measured in the same run is one
evaluation pass of the unoptimized program over the held-out split:
``wall_ratio`` is compile wall time over that pass, ``calls_ratio`` compile
LM calls over that pass's calls.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import logging
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "true")
os.environ.setdefault("MLFLOW_DISABLE_TELEMETRY", "true")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

DEFAULT_BUDGETS = {"labeled": (2, 4), "bootstrap": (2, 4), "random-search": (2, 4), "mipro": (2, 6),
                   "gepa": (20, 60), "simba": (1, 3)}


def _budgets(text: str | None) -> dict[str, tuple[str, ...]]:
    budgets = {k: tuple(str(b) for b in v) for k, v in DEFAULT_BUDGETS.items()}
    for item in filter(None, (x.strip() for x in (text or "").split(","))):
        name, _, values = item.partition("=")
        budgets[name.strip()] = tuple(v for v in values.split(":") if v)
    return budgets


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--select", default="bank-", help="case id prefixes of normative-en (comma-separated)")
    parser.add_argument("--optimizers", default=",".join(DEFAULT_BUDGETS))
    parser.add_argument("--budgets", default=None, help="name=b1:b2,... (overrides the defaults)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)

    import dspy

    from assistant.adapter import InstructorAdapter
    from assistant.configs import build
    from experiments.suites.registry import load_suite
    from optimize.data import LMCallCounter, evaluate, to_examples
    from optimize.objectives import Objective
    from optimize.optimizers import make_optimizer
    from experiments.splits import split_scenarios
    from optimize.tutor import Tutor, tutor_backbone

    for name in ("dspy", "optuna", "gepa"):
        logging.getLogger(name).setLevel(logging.ERROR)
    prefixes = tuple(p for p in args.select.split(",") if p)
    suite = [s for s in load_suite("normative-en") if s.id.startswith(prefixes)]
    split = split_scenarios(suite, seed=args.seed)
    objective = Objective(suite)
    budgets = _budgets(args.budgets)

    def context(tutor):
        return dspy.context(lm=tutor_backbone(tutor).lm, adapter=InstructorAdapter(constrained=True))

    tutor = Tutor(suite, seed=args.seed)
    with context(tutor):
        evaluate(build("b4"), [*split.train, *split.val], objective)  # warm-up: imports, gold views
        with LMCallCounter() as base_calls:
            started = time.perf_counter()
            before = evaluate(build("b4"), split.test, objective)
            base_wall = time.perf_counter() - started
    results = []
    for name in [n for n in args.optimizers.split(",") if n]:
        for budget in budgets[name]:
            tutor = Tutor(suite, seed=args.seed)
            with context(tutor):
                wall0, cpu0 = time.perf_counter(), time.process_time()
                with LMCallCounter() as counter, contextlib.redirect_stderr(io.StringIO()), \
                        contextlib.redirect_stdout(io.StringIO()):
                    program = make_optimizer(name, objective, budget=budget, seed=args.seed).compile(
                        build("b4"), trainset=to_examples(split.train), valset=to_examples(split.val))
                wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
                after = evaluate(program, split.test, objective)
            results.append({
                "optimizer": name, "budget": budget, "lm_calls": counter.calls,
                "wall_s": round(wall, 3), "cpu_s": round(cpu, 3),
                "wall_ratio": round(wall / base_wall, 2), "calls_ratio": round(counter.calls / base_calls.calls, 2),
                "heldout_before": round(before.metrics["objective"], 4),
                "heldout_after": round(after.metrics["objective"], 4),
            })
    print(json.dumps({
        "lm": "scripted tutor (offline)", "cases": {"train": len(split.train), "val": len(split.val),
                                                    "test": len(split.test)},
        "baseline": {"what": "one held-out evaluation pass of the unoptimized b4", "wall_s": round(base_wall, 3),
                     "lm_calls": base_calls.calls},
        "results": results,
    }, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
