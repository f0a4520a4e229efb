"""The runner: resume after a crash, retries, hard failures, budget, rate limits."""

from __future__ import annotations

import json
import threading

import pytest

from experiments.runner.engine import Budget, CaseOutcome, Task, run_tasks
from experiments.runner.limits import RateLimiter, is_transient
from experiments.runner.runlog import ResultLog
from experiments.runner.spec import RunKey


class Status429(Exception):
    status_code = 429


class Status500(Exception):
    status_code = 500


def tasks(n):
    return [Task(RunKey("s", f"c{i:03d}", "b4", "m", "standard", 0), payload=i) for i in range(n)]


def ok(task):
    return CaseOutcome("scored", {"case": task.key.case}, calls=1, tokens=10)


def fail(task, exc):
    return CaseOutcome("infra_error", {"case": task.key.case, "error": type(exc).__name__})


def test_every_case_once_after_a_crash_mid_run(tmp_path):
    log = ResultLog(tmp_path / "r.jsonl")
    crash_at = 7

    class Crash(BaseException):
        pass

    def crashing(task):
        if task.payload == crash_at:
            raise Crash()
        return ok(task)

    with pytest.raises(Crash):
        run_tasks(tasks(20), crashing, fail, log, concurrency=1, sleep=lambda s: None)
    # a torn last line, as a kill during a write would leave
    with open(tmp_path / "r.jsonl", "a") as fh:
        fh.write('{"key": {"suite": "s", "ca')
    log = ResultLog(tmp_path / "r.jsonl")
    first = len(log.completed())
    assert first == crash_at
    summary = run_tasks(tasks(20), ok, fail, log, concurrency=4, sleep=lambda s: None)
    assert summary.skipped == crash_at and summary.done == 20 - crash_at
    cases = [r["key"]["case"] for r in log.records()]
    assert sorted(cases) == [f"c{i:03d}" for i in range(20)]
    assert len(cases) == len(set(cases))


def test_transient_errors_are_retried_then_recorded_as_hard_failures(tmp_path):
    log = ResultLog(tmp_path / "r.jsonl")
    calls: dict[str, int] = {}
    lock = threading.Lock()
    errors = [TimeoutError(), Status429(), Status500()]

    def flaky(task):
        with lock:
            calls[task.key.case] = calls.get(task.key.case, 0) + 1
            n = calls[task.key.case]
        if task.payload == 0:
            raise errors[(n - 1) % 3]          # never recovers
        if task.payload == 1 and n < 3:
            raise errors[n - 1]                # recovers on the third attempt
        if task.payload == 2:
            raise ValueError("malformed JSON")  # not transient: no retry
        return ok(task)

    waits = []
    summary = run_tasks(tasks(4), flaky, fail, log, max_retries=3, sleep=waits.append)
    by_case = {r["key"]["case"]: r for r in log.records()}
    assert calls == {"c000": 4, "c001": 3, "c002": 1, "c003": 1}
    assert by_case["c000"]["outcome"] == "infra_error" and by_case["c000"]["attempts"] == 4
    assert by_case["c001"]["outcome"] == "scored"
    assert by_case["c002"]["output"]["error"] == "ValueError"
    assert summary.infra_errors == 2 and summary.scored == 2 and summary.retries == 5
    assert len(waits) == 5 and all(w >= 0 for w in waits)


def test_backoff_is_seeded(tmp_path):
    def always(task):
        raise TimeoutError()

    runs = []
    for name in ("a", "b"):
        waits = []
        run_tasks(tasks(2), always, fail, ResultLog(tmp_path / f"{name}.jsonl"),
                  concurrency=1, max_retries=2, seed=5, sleep=waits.append)
        runs.append(waits)
    assert runs[0] == runs[1] and len(runs[0]) == 4


def test_budget_stops_new_work_and_resume_finishes(tmp_path):
    log = ResultLog(tmp_path / "r.jsonl")
    summary = run_tasks(tasks(10), ok, fail, log, concurrency=1, budget=Budget(max_calls=3))
    assert summary.stopped_by_budget and summary.done == 3 and summary.pending == 7
    summary = run_tasks(tasks(10), ok, fail, log, concurrency=2)
    assert summary.done == 7 and len(log.completed()) == 10


def test_duplicate_keys_are_refused(tmp_path):
    with pytest.raises(ValueError, match="not unique"):
        run_tasks(tasks(2) + tasks(1), ok, fail, ResultLog(tmp_path / "r.jsonl"))


def test_rate_limiter_spaces_calls():
    now = [0.0]
    slept = []

    def sleep(s):
        slept.append(s)
        now[0] += s

    limiter = RateLimiter(120, clock=lambda: now[0], sleep=sleep)
    for _ in range(4):
        limiter.acquire()
    assert slept == [0.5, 0.5, 0.5]
    RateLimiter(None).acquire()


def test_transient_classification():
    assert is_transient(Status429()) and is_transient(Status500()) and is_transient(TimeoutError())
    assert not is_transient(ValueError()) and not is_transient(KeyError())


def test_corrupt_log_line_is_a_clear_error(tmp_path):
    path = tmp_path / "r.jsonl"
    path.write_text('{"nokey": 1}\n')
    from experiments.errors import ExperimentError

    with pytest.raises(ExperimentError, match=r"r.jsonl:1"):
        ResultLog(path).completed()
    assert json.loads(path.read_text()) == {"nokey": 1}
