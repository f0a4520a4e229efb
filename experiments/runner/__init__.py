"""The experiment runner: frozen specs, a resumable result log, bounded
concurrency with rate limits and retries, and MLflow tracking."""

from .engine import Budget, CaseOutcome, RunSummary, Task, run_tasks
from .limits import RateLimiter, is_transient, retrying
from .manifest import redact
from .runlog import ResultLog
from .spec import Backbone, ExperimentSpec, RunKey, load_spec

__all__ = [
    "Backbone",
    "Budget",
    "CaseOutcome",
    "ExperimentSpec",
    "RateLimiter",
    "ResultLog",
    "RunKey",
    "RunSummary",
    "Task",
    "is_transient",
    "load_spec",
    "redact",
    "retrying",
    "run_tasks",
]
