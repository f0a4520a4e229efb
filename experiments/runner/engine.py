"""The runner: bounded concurrency, per-backbone rate limits, retries, a budget,
and an append-only log so that a killed run resumes with every case exactly once.

The runner knows nothing about assistants: it executes :class:`Task` objects
through a ``solve`` callable that returns a :class:`CaseOutcome`, and turns an
error that survives its retries into a hard-failure outcome through ``fail``.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from typing import Callable, Iterable, Literal, Mapping

from .limits import RateLimiter, retrying
from .runlog import ResultLog
from .spec import RunKey
from .state import RETRIED_OUTCOMES

__all__ = ["Budget", "CaseOutcome", "NOT_SCORED", "RETRYABLE", "RunSummary", "Task", "run_tasks"]

Outcome = Literal["scored", "parse_failure", "infra_error", "limit"]
#: Outcomes that are no model answer: never scored, retried by ``--resume`` when retryable.
NOT_SCORED = ("infra_error", "limit")
RETRYABLE = RETRIED_OUTCOMES


@dataclass(frozen=True)
class Task:
    """One unit of work: a key plus whatever the solver needs (scenario, backbone...)."""

    key: RunKey
    payload: object = None


@dataclass(frozen=True)
class CaseOutcome:
    """What a solver returns for one task.

    ``outcome`` separates scored cases, parse failures (the model answered but
    the output could not be repaired: scored incorrect), infrastructure errors
    (no answer after retries) and limits (a call hit its token or time bound);
    the last two are no model answer and are never scored.  ``cached`` counts
    the calls answered from the response cache (no tokens spent).
    """

    outcome: Outcome
    output: Mapping
    calls: int = 0
    tokens: int = 0
    extra: Mapping = field(default_factory=dict)
    cached: int = 0


@dataclass(frozen=True)
class Budget:
    """Optional ceilings on LM calls and tokens for one run."""

    max_calls: int | None = None
    max_tokens: int | None = None

    def exhausted(self, calls: int, tokens: int) -> bool:
        """Whether the spent amounts reach a ceiling."""
        return bool((self.max_calls and calls >= self.max_calls)
                    or (self.max_tokens and tokens >= self.max_tokens))


@dataclass
class RunSummary:
    """Counts for one invocation of :func:`run_tasks`."""

    total: int = 0
    skipped: int = 0
    done: int = 0
    scored: int = 0
    parse_failures: int = 0
    infra_errors: int = 0
    limits: int = 0
    retries: int = 0
    calls: int = 0
    tokens: int = 0
    cached: int = 0
    stopped_by_budget: bool = False
    pending: int = 0
    stopped_backbones: dict[str, str] = field(default_factory=dict)
    held: int = 0
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    _streaks: dict[str, int] = field(default_factory=dict, repr=False)

    def add(self, outcome: CaseOutcome, retries: int) -> None:
        with self._lock:
            self.done += 1
            self.retries += retries
            self.calls += outcome.calls
            self.tokens += outcome.tokens
            self.cached += outcome.cached
            if outcome.outcome == "scored":
                self.scored += 1
            elif outcome.outcome == "parse_failure":
                self.parse_failures += 1
            elif outcome.outcome == "limit":
                self.limits += 1
            else:
                self.infra_errors += 1

    def streak(self, backbone: str, outcome: CaseOutcome, threshold: int | None) -> None:
        """Count ``backbone``'s consecutive infrastructure errors; open its breaker at ``threshold``.

        Any other outcome (an answer, a parse failure, a limit) resets the count.
        The breaker's reason is the failure reason of the error that opened it.
        """
        with self._lock:
            if outcome.outcome != "infra_error":
                self._streaks[backbone] = 0
                return
            count = self._streaks[backbone] = self._streaks.get(backbone, 0) + 1
            if threshold and count >= threshold and backbone not in self.stopped_backbones:
                reason = str(((outcome.output or {}).get("meta") or {}).get("failure_reason") or "no reason given")
                self.stopped_backbones[backbone] = reason.splitlines()[0][:300] if reason.strip() else reason

    def stopped(self, backbone: str) -> bool:
        """Whether ``backbone``'s breaker is open (its cases are held for ``--resume``)."""
        with self._lock:
            return backbone in self.stopped_backbones

    def hold(self) -> None:
        """Count one case not started because its backbone's breaker is open."""
        with self._lock:
            self.held += 1

    @property
    def failures(self) -> int:
        """Cases without a correct-format answer: parse failures, infrastructure errors, limits."""
        return self.parse_failures + self.infra_errors + self.limits

    @property
    def not_scored(self) -> int:
        """Cases that got no model answer (infrastructure errors and limits)."""
        return self.infra_errors + self.limits


def run_tasks(
    tasks: Iterable[Task],
    solve: Callable[[Task], CaseOutcome],
    fail: Callable[[Task, BaseException], CaseOutcome],
    log: ResultLog,
    *,
    concurrency: int = 4,
    limiters: Mapping[str, RateLimiter] | None = None,
    max_retries: int = 3,
    seed: int = 0,
    budget: Budget = Budget(),
    backoff_s: float = 1.0,
    on_progress: Callable[[RunSummary], None] | None = None,
    sleep: Callable[[float], None] = time.sleep,
    stop_after: int | None = None,
) -> RunSummary:
    """Run every task whose key has no record in ``log`` yet.

    Parameters
    ----------
    tasks : iterable of Task
        In a fixed order; keys must be unique.
    solve : callable
        ``solve(task) -> CaseOutcome``; may raise.  Transient errors
        (:func:`~experiments.runner.limits.is_transient`) are retried with
        exponential backoff.
    fail : callable
        ``fail(task, exc) -> CaseOutcome`` builds the hard-failure record of a
        task whose error survived the retries.
    log : ResultLog
        Receives one record per finished task, durably; a task whose latest
        record is an infrastructure error is run again.
    concurrency : int
        Worker threads.
    limiters : mapping of str to RateLimiter
        Per backbone name (``task.key.backbone``).
    max_retries, seed : int
        Retry policy; the seed fixes the backoff jitter.
    backoff_s : float
        First backoff in seconds (exponential, full jitter).
    budget : Budget
        No new task starts once calls or tokens reach a ceiling; the rest stay
        pending for ``--resume``.
    on_progress : callable, optional
        Called after every finished task with the running summary.
    stop_after : int, optional
        The circuit breaker: once a backbone's cases end ``stop_after`` times in
        a row as infrastructure errors (after their retries), no further case of
        that backbone starts; they stay pending for ``--resume`` and the
        backbone is in ``summary.stopped_backbones`` with the last error.
        Cases already running finish.  ``None`` or ``0``: never stop.

    Returns
    -------
    RunSummary
    """
    tasks = list(tasks)
    keys = [t.key for t in tasks]
    if len(set(keys)) != len(keys):
        raise ValueError("run keys are not unique")
    done_keys = log.completed()
    todo = [t for t in tasks if t.key not in done_keys]
    summary = RunSummary(total=len(tasks), skipped=len(tasks) - len(todo))
    limiters = dict(limiters or {})

    def work(index: int, task: Task):
        if summary.stopped(task.key.backbone):
            summary.hold()  # its backbone failed over and over while this case waited
            return
        limiter = limiters.get(task.key.backbone)
        attempts = 0

        def attempt():
            nonlocal attempts
            attempts += 1
            if limiter:
                limiter.acquire()
            return solve(task)

        try:
            outcome = retrying(max_retries, seed=seed + index, base_s=backoff_s, sleep=sleep)(attempt)
        except Exception as exc:  # every error becomes a recorded hard failure
            outcome = fail(task, exc)
        record = {**dict(outcome.extra), "outcome": outcome.outcome, "output": dict(outcome.output),
                  "calls": outcome.calls, "tokens": outcome.tokens, "attempts": attempts,
                  "transient_exhausted": outcome.outcome == "infra_error"}
        log.append(task.key, record)
        summary.add(outcome, max(attempts - 1, 0))
        summary.streak(task.key.backbone, outcome, stop_after)
        if on_progress:
            on_progress(summary)

    queue = deque(enumerate(todo))
    with ThreadPoolExecutor(max_workers=concurrency) as pool:
        running = set()
        while queue or running:
            while queue and len(running) < concurrency:
                if budget.exhausted(summary.calls, summary.tokens):
                    summary.stopped_by_budget = True
                    break
                index, task = queue.popleft()
                if summary.stopped(task.key.backbone):
                    summary.hold()
                    continue
                running.add(pool.submit(work, index, task))
            if not running:
                break
            finished, running = wait(running, return_when=FIRST_COMPLETED)
            for future in finished:
                future.result()
    summary.pending = len(queue) + summary.held
    return summary
