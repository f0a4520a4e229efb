"""Benchmark of the experiment runner (prints JSON; not a test).

1. Scaling: a solver that answers after a fixed delay (a stand-in for an LM
   call), cases per second at concurrency 1, 4 and 16, and the speed-up over
   concurrency 1 measured in the same run; with a per-backbone rate limit the
   throughput must flatten at the limit.
2. Overhead: the runner's own cost per case (planning, the durable append with
   fsync, bookkeeping) with a solver that returns at once.
3. Full path: the same scaling through the real assistant (B1, DSPy, Instructor,
   the scripted LM answering after the delay).

Usage: ``python benchmarks/runner.py [--quick]``.
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

from experiments.runner.engine import CaseOutcome, Task, run_tasks  # noqa: E402
from experiments.runner.limits import RateLimiter  # noqa: E402
from experiments.runner.runlog import ResultLog  # noqa: E402
from experiments.runner.spec import RunKey  # noqa: E402


def tasks(n: int, backbone: str = "m") -> list[Task]:
    return [Task(RunKey("bench", f"c{i:05d}", "b1", backbone, "standard", 0), i) for i in range(n)]


def fail(task, exc):
    return CaseOutcome("infra_error", {"error": type(exc).__name__})


def timed_run(n: int, delay: float, concurrency: int, rate: float | None = None) -> float:
    def solve(task):
        if delay:
            time.sleep(delay)
        return CaseOutcome("scored", {"case": task.key.case}, calls=1, tokens=100)

    with tempfile.TemporaryDirectory() as tmp:
        log = ResultLog(Path(tmp) / "r.jsonl")
        limiters = {"m": RateLimiter(rate)} if rate else None
        started = time.perf_counter()
        run_tasks(tasks(n), solve, fail, log, concurrency=concurrency, limiters=limiters)
        return time.perf_counter() - started


def full_path(n: int, delay: float, concurrency: int) -> float:
    from assistant.backends import Backbone as Resolved
    from assistant.scripted import Script, scripted_lm
    from experiments.runner.solve import AssistantSolver, CaseWork
    from experiments.runner.spec import Backbone
    from symbolic.scenario.model import EvidenceFragment, Gold, Scenario

    def reply(messages):
        time.sleep(delay)
        return json.dumps({"result": {"answer": "The penalty is due.", "status": "accepted",
                                      "cited": ["E-01"], "conflict": False, "priority_applied": False}})

    script = Script([reply] * (4 * n), fallback="null")
    resolved = Resolved("scripted/bench", scripted_lm("scripted/bench", script), "scripted", True)
    solver = AssistantSolver(resolved={"m": resolved})
    scenario = Scenario(id="s", query="Is the penalty due?", target="Penalty(x)",
                        evidence=[EvidenceFragment(id="E-01", text="A penalty is due on delay.", source="C")],
                        gold=Gold(status="accepted"))
    work = [Task(RunKey("bench", f"c{i:05d}", "b1", "m", "standard", 0),
                 CaseWork(scenario, Backbone(model="scripted/bench", alias="m"))) for i in range(n)]
    with tempfile.TemporaryDirectory() as tmp:
        log = ResultLog(Path(tmp) / "r.jsonl")
        started = time.perf_counter()
        summary = run_tasks(work, solver, fail, log, concurrency=concurrency)
        elapsed = time.perf_counter() - started
    if summary.scored != n or summary.calls != n:
        raise SystemExit(f"full path: {summary.scored}/{n} scored with {summary.calls} calls; "
                         "the benchmark must measure valid single-call cases")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer cases")
    args = parser.parse_args()
    n = 32 if args.quick else 96
    delay = 0.2
    out: dict = {"cases": n, "delay_s": delay, "cpus": os.cpu_count(), "scaling": {}, "rate_limited": {}}
    base = None
    for c in (1, 4, 16):
        seconds = timed_run(n, delay, c)
        rate = n / seconds
        base = base or rate
        out["scaling"][str(c)] = {"seconds": round(seconds, 3), "cases_per_s": round(rate, 2),
                                  "speedup_vs_1": round(rate / base, 2), "ideal": c}
    limit = 600.0  # calls per minute = 10 per second
    for c in (4, 16):
        seconds = timed_run(n, delay, c, rate=limit)
        out["rate_limited"][str(c)] = {"limit_per_s": limit / 60, "cases_per_s": round(n / seconds, 2)}
    m = 2000 if not args.quick else 500
    overhead = timed_run(m, 0.0, 1)
    out["overhead_ms_per_case"] = round(1000 * overhead / m, 3)
    out["overhead_goal_ms"] = 5.0
    full_path(2, delay, 1)  # warm-up: imports, schema building, first-call caches
    full = {}
    fbase = None
    for c in (1, 4, 16):
        seconds = full_path(n // 2, delay, c)
        rate = (n // 2) / seconds
        fbase = fbase or rate
        full[str(c)] = {"cases_per_s": round(rate, 2), "speedup_vs_1": round(rate / fbase, 2)}
    out["full_path_b1_scripted"] = full
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
