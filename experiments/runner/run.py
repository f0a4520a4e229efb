"""``paratrace run`` and ``paratrace demo``: plan, run (resumably), score,
report and track one experiment spec."""

from __future__ import annotations

import errno
import json
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Mapping, Sequence

from symbolic.scenario.model import Scenario

from ..errors import ExperimentError
from .engine import Budget, RunSummary, run_tasks
from .limits import RateLimiter
from .lock import RunLock
from .plan import (Estimate, RunPaths, check_spec, check_start, demo_pools, estimate, load_suites, manifest, plan,
                   prepare)
from .runlog import ResultLog
from .scoring import SuiteScore, score_log
from .solve import AssistantSolver, hard_failure
from .spec import ExperimentSpec
from .state import check_results, compact_superseded, read_state_json

__all__ = ["DEFAULT_STOP_AFTER", "ExperimentRun", "run_experiment"]

#: Consecutive infrastructure errors of one backbone after which the run stops its cases (the circuit breaker).
DEFAULT_STOP_AFTER = 5


@dataclass(frozen=True)
class ExperimentRun:
    """What one invocation did."""

    paths: RunPaths | None
    estimate: Estimate
    summary: RunSummary | None
    scores: tuple[SuiteScore, ...] = ()
    mlflow_runs: tuple[str, ...] = ()


def _log_mlflow(spec: ExperimentSpec, scores: Sequence[SuiteScore], man: Mapping, log: ResultLog,
                suites: Mapping, mlflow, uid: str) -> tuple[str, ...]:
    from .experiment_log import log_experiment
    from .run_artifacts import cell_params

    return log_experiment(mlflow, spec=spec, scores=scores, manifest=man, log=log, suites=suites, uid=uid,
                          cell_params=lambda suite, cell: cell_params(man, spec.seed, suite.suite, cell))


def run_experiment(spec: ExperimentSpec, *, workdir: str | Path = ".", resume: bool = False,
                   dry_run: bool = False, track: bool = True, repair: bool = False,
                   tracking_uri: str | None = None,
                   solver: Callable | None = None,
                   on_progress: Callable[[RunSummary, int], None] | None = None,
                   cache: bool = True, preflight: bool | None = None,
                   resolved: Mapping[str, object] | None = None,
                   stop_after: int | None = DEFAULT_STOP_AFTER) -> ExperimentRun:
    """Run ``spec``: every case of the grid exactly once, then score and track.

    Parameters
    ----------
    spec : ExperimentSpec
    workdir : path
        Holds ``runs/``, the response cache ``.paratrace-cache`` and (by
        default) ``mlflow.db``.
    resume : bool
        Continue a run that was interrupted; already recorded cases are skipped.
    dry_run : bool
        Only estimate calls and tokens; make no call and write nothing.  For
        a run that exists, the estimate is of what ``resume`` would still do.
    track : bool
        Log to MLflow: per suite a parent run with the comparison tables, per
        cell a nested run with one trace per case (see
        :mod:`experiments.runner.experiment_log`).
    repair : bool
        Move damaged, duplicate or conflicting lines of ``results.jsonl`` to
        ``results.quarantine.jsonl`` and run their cases again
        (:func:`~experiments.runner.state.check_results`).
    tracking_uri : str, optional
        MLflow tracking server or store (default ``$MLFLOW_TRACKING_URI``, else
        ``<workdir>/mlflow.db``).
    solver : callable, optional
        Replaces the assistant (tests, custom systems): ``solver(task) -> CaseOutcome``.
    on_progress : callable, optional
        ``on_progress(summary, total_todo)`` after every case.
    cache : bool
        Reuse and store validated replies in ``<workdir>/.paratrace-cache``
        (:mod:`assistant.cache`).
    preflight : bool, optional
        Resolve every backbone and send it a one-token completion before the
        run directory is prepared (default: when ``solver`` is not given).
    resolved : mapping, optional
        Already resolved backbones by name (:class:`assistant.backends.Backbone`),
        used instead of the model strings (tests, custom LMs).
    stop_after : int, optional
        The circuit breaker (:func:`~experiments.runner.engine.run_tasks`):
        a backbone whose cases end this many times in a row as infrastructure
        errors gets no further case; the rest stay pending for ``--resume``
        (``summary.stopped_backbones``).  ``None`` or ``0``: never stop.

    Raises
    ------
    ExperimentError
        On a bad suite, a frozen-spec mismatch, an existing run without
        ``resume``, damaged run state (without ``repair``), or a run directory
        in use by another process (:class:`~experiments.runner.lock.RunLock`).
    assistant.errors.BackendError
        On an unknown model string, or a backbone that does not answer the
        preflight (naming the backbone, its endpoint and the cause).
    """
    workdir = Path(workdir).resolve()
    check_spec(spec)
    suites, files = load_suites(spec.suites)
    tasks = plan(spec, suites)
    root = workdir / "runs" / spec.name
    planned = {t.key for t in tasks}
    if dry_run:
        # An existing run is estimated as --resume would continue it (same spec; nothing is written).
        continuing = resume or (root / "spec.json").exists()
        check_start(spec, workdir, resume=continuing)
        done = check_results(root / "results.jsonl", planned, read_only=True).keys if continuing else set()
        return ExperimentRun(None, estimate(tasks, done), None)
    resolved = dict(resolved or {})
    if preflight if preflight is not None else solver is None:
        from assistant.backends import probe

        from .preflight import resolve_backbones

        for name, backbone in resolved.items():
            probe(backbone, name=name)
        resolved.update(resolve_backbones(spec.model_copy(update={"backbones": tuple(
            b for b in spec.backbones if b.name not in resolved)}), cache=cache))
    with RunLock(root):
        # Everything below is validated under the lock and before the first model call.
        paths = prepare(spec, workdir, resume=resume)
        done = check_results(paths.results, planned, repair=repair).keys
        est = estimate(tasks, done)
        man = _manifest(spec, files, paths)
        from assistant.cache import CACHE_DIRNAME, use_cache

        mlflow = uid = None
        if track:
            from .experiment_log import mark_stale_runs, run_uid
            from .tracking import default_tracking_uri, prepare_store, setup_mlflow

            mlflow = setup_mlflow(workdir, autolog_dspy=False, tracking_uri=tracking_uri)
            with _store_writes(workdir, tracking_uri, "nothing was run yet"):
                prepare_store(default_tracking_uri(workdir, tracking_uri))
            uid = run_uid(paths.root)
            if resume:
                with _store_writes(workdir, tracking_uri, "nothing was run yet"):
                    mark_stale_runs(mlflow, list(suites), uid)
        log = ResultLog(paths.results)
        limiters = {b.name: RateLimiter(b.rate_per_minute) for b in spec.backbones}
        todo = len(tasks) - len(done)
        solver = solver or AssistantSolver(demo_pools=demo_pools(spec, suites), seed=spec.seed, resolved=resolved,
                                           timeout_s=spec.timeout_s, shipped_programs=spec.shipped_programs)
        with use_cache(workdir / CACHE_DIRNAME if cache else None):
            summary = run_tasks(
                tasks, solver, hard_failure, log, concurrency=spec.concurrency,
                limiters=limiters, max_retries=spec.max_retries, seed=spec.seed, backoff_s=spec.backoff_s,
                budget=Budget(spec.max_calls, spec.max_tokens),
                on_progress=(lambda s: on_progress(s, todo)) if on_progress else None,
                stop_after=stop_after,
            )
        compact_superseded(paths.results)  # a case run again keeps only its new record
        scores = tuple(score_log(log, suites, paths.reports, seed=spec.seed))
        with _store_writes(workdir, tracking_uri, f"{paths.results.name} and the reports are kept"):
            ids = _log_mlflow(spec, scores, man, log, suites, mlflow, uid) if track and scores else ()
    return ExperimentRun(paths, est, summary, scores, ids)


_FULL = ("database or disk is full", "disk i/o error", "no space left on device")


@contextmanager
def _store_writes(workdir: Path, tracking_uri: str | None, kept: str):
    """A tracking store that cannot be written for lack of room (SQLite's "database or disk is full"
    wrapped by SQLAlchemy and MLflow) becomes one typed error naming the store."""
    try:
        yield
    except Exception as exc:  # noqa: BLE001 - only a full store is turned into a typed error; the rest is raised
        chain, seen = [], exc
        while seen is not None and len(chain) < 10:
            chain.append(seen)
            seen = seen.__cause__ or seen.__context__
        from .tracking import default_tracking_uri

        if any("_alembic_tmp_" in str(e) for e in chain):
            raise ExperimentError(f"{default_tracking_uri(workdir, tracking_uri)}: the MLflow store is damaged (an "
                                  "upgrade of its tables was cut short, as by a full disk); move it away to have a "
                                  f"new one created, or pass --no-track; {kept}") from None
        if not any(isinstance(e, OSError) and e.errno == errno.ENOSPC or any(m in str(e).lower() for m in _FULL)
                   for e in chain):
            raise
        raise ExperimentError(f"{default_tracking_uri(workdir, tracking_uri)}: cannot write the MLflow store: "
                              f"database or disk is full; {kept} (free space, then run again with --resume)") from None


def _manifest(spec: ExperimentSpec, files, paths: RunPaths) -> dict:
    """The run's manifest: written on the first start, read back (strictly) on a resume."""
    from symbolic.support.fsio import write_atomic

    if paths.manifest.exists() or paths.manifest.is_symlink():
        return read_state_json(paths.manifest, "the manifest of the run",
                               f"delete {paths.manifest} to have it written again (its date and git revision "
                               "then become today's)")
    man = manifest(spec, files)
    write_atomic(paths.manifest, json.dumps(man, indent=2, sort_keys=True) + "\n", error=ExperimentError)
    return man
