"""``paratrace run`` and ``paratrace demo``: plan, run (resumably), score,
report and track one experiment spec."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Mapping, Sequence

from symbolic.model import Scenario

from .engine import Budget, RunSummary, run_tasks
from .limits import RateLimiter
from .pipeline import Estimate, RunPaths, check_spec, demo_pools, estimate, manifest, plan, prepare, suite_label
from .runlog import ResultLog
from .scoring import SuiteScore, score_log
from .solve import AssistantSolver, hard_failure
from .spec import ExperimentSpec

__all__ = ["ExperimentRun", "load_suites", "run_experiment"]


@dataclass(frozen=True)
class ExperimentRun:
    """What one invocation did."""

    paths: RunPaths | None
    estimate: Estimate
    summary: RunSummary | None
    scores: tuple[SuiteScore, ...] = ()
    mlflow_runs: tuple[str, ...] = ()


def load_suites(names: Sequence[str]) -> tuple[dict[str, list[Scenario]], dict[str, Path | None]]:
    """Load suites by registry name, or from a JSONL path; keyed by :func:`suite_label`."""
    from symbolic.io import load_suite as load_file

    from ..suites.registry import get_suite, load_suite

    scenarios, files = {}, {}
    for name in names:
        label = suite_label(name)
        if label != name:
            scenarios[label], files[label] = load_file(name), Path(name)
        else:
            scenarios[label], files[label] = load_suite(name), get_suite(name).path
    return scenarios, files


def _log_mlflow(spec: ExperimentSpec, scores: Sequence[SuiteScore], man: Mapping, workdir: Path,
                paths: RunPaths) -> tuple[str, ...]:
    from .compare import CASE_RESULTS, case_results_jsonl
    from .figures import confusion_figure, metric_bars
    from .tracking import GroupLog, log_group, parent_run, setup_mlflow

    mlflow = setup_mlflow(workdir, autolog_dspy=False)
    ids = []
    for suite in scores:
        with parent_run(mlflow, suite.suite, spec.name, man) as parent:
            ids.append(parent.info.run_id)
            for name in sorted(suite.files):
                path = Path(name)
                if path.suffix in (".md", ".csv"):
                    mlflow.log_text(path.read_text(encoding="utf-8"), f"report/{path.name}")
            for cell in suite.cells:
                # Only model answers are in the metrics; cases without one are counted, not scored.
                metrics = cell.metrics()
                extra = {k: (v, None, None, len(cell.outputs)) for k, v in cell.operational_metrics().items()}
                extra.update({"not_scored": (float(cell.not_scored), None, None, cell.not_scored),
                              "scored_cases": (float(len(cell.results)), None, None, len(cell.results))})
                failed = [o for o, r in zip(sorted(cell.outputs, key=lambda o: o.case_id),
                                            sorted(cell.results, key=lambda r: r.case_id))
                          if not r.correct and o.trace is not None]
                texts = {f"traces/{o.case_id}.dot": _dot(o) for o in failed}
                texts["cases.csv"] = _csv(cell.table())
                texts[CASE_RESULTS] = case_results_jsonl(cell.results)
                gold = [r.status_gold for r in cell.results]
                pred = [r.status_pred for r in cell.results]
                log_group(mlflow, GroupLog(
                    name=cell.name,
                    params={"configuration": cell.configuration, "backbone": cell.backbone,
                            "variant": cell.variant, "repeat": cell.repeat, "suite": suite.suite,
                            "prompt_hash": cell.prompt_hash or "unknown",
                            "suite_digest": man.get("suites", {}).get(suite.suite, "unknown"),
                            "schema_hash": man.get("schema_hash", "unknown"),
                            "git_revision": man.get("git_revision", "unknown"),
                            "seed": man.get("seed", spec.seed),
                            **{f"backbone.{k}": v for k, v in man.get("backbones", {}).get(cell.backbone, {}).items()},
                            **{f"packages.{k}": v for k, v in man.get("packages", {}).items()},
                            **{f"outcomes.{k}": v for k, v in cell.outcomes.items()}},
                    metrics={**metrics, **extra}, table=cell.table(), texts=texts,
                    figures={"confusion_matrix.png": confusion_figure(gold, pred, cell.name),
                             "metrics.png": metric_bars(metrics, cell.name)} if cell.results else {},
                ))
    return tuple(ids)


def _trace_dspy(workdir: Path, suite: str) -> None:
    """Record DSPy traces (``mlflow.dspy.autolog``) into the suite's experiment."""
    from .tracking import setup_mlflow

    mlflow = setup_mlflow(workdir, autolog_dspy=True)
    mlflow.set_experiment(f"paratrace/{suite}")
    mlflow.set_experiment_tag("mlflow.experimentKind", "custom_model_development")


def _dot(output) -> str:
    from symbolic.dot import to_dot

    return to_dot(output.trace.trace())


def _csv(rows: Sequence[Mapping]) -> str:
    import csv
    import io

    if not rows:
        return ""
    columns = list(rows[0])
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=columns, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return buf.getvalue()


def run_experiment(spec: ExperimentSpec, *, workdir: str | Path = ".", resume: bool = False,
                   dry_run: bool = False, track: bool = True,
                   solver: Callable | None = None,
                   on_progress: Callable[[RunSummary, int], None] | None = None,
                   cache: bool = True, preflight: bool | None = None,
                   resolved: Mapping[str, object] | None = None) -> ExperimentRun:
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
        Only estimate calls and tokens; make no call and write nothing.
    track : bool
        Log to MLflow.
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

    Raises
    ------
    ExperimentError
        On a bad suite, a frozen-spec mismatch, or an existing run without ``resume``.
    assistant.errors.BackendError
        On an unknown model string, or a backbone that does not answer the
        preflight (naming the backbone, its endpoint and the cause).
    """
    workdir = Path(workdir).resolve()
    check_spec(spec)
    suites, files = load_suites(spec.suites)
    tasks = plan(spec, suites)
    root = workdir / "runs" / spec.name
    done = ResultLog(root / "results.jsonl").completed() if (resume and root.exists()) else set()
    est = estimate(tasks, done)
    if dry_run:
        return ExperimentRun(None, est, None)
    resolved = dict(resolved or {})
    if preflight if preflight is not None else solver is None:
        from assistant.backends import probe

        from .preflight import resolve_backbones

        for name, backbone in resolved.items():
            probe(backbone, name=name)
        resolved.update(resolve_backbones(spec.model_copy(update={"backbones": tuple(
            b for b in spec.backbones if b.name not in resolved)}), cache=cache))
    paths = prepare(spec, workdir, resume=resume)
    man = manifest(spec, files)
    if not paths.manifest.exists():
        paths.manifest.write_text(json.dumps(man, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    else:
        man = json.loads(paths.manifest.read_text(encoding="utf-8"))
    from assistant.cache import CACHE_DIRNAME, use_cache

    if track:
        _trace_dspy(workdir, next(iter(suites)))
    log = ResultLog(paths.results)
    limiters = {b.name: RateLimiter(b.rate_per_minute) for b in spec.backbones}
    todo = len(tasks) - len(done)
    solver = solver or AssistantSolver(demo_pools=demo_pools(spec, suites), seed=spec.seed, resolved=resolved)
    with use_cache(workdir / CACHE_DIRNAME if cache else None):
        summary = run_tasks(
            tasks, solver, hard_failure, log, concurrency=spec.concurrency,
            limiters=limiters, max_retries=spec.max_retries, seed=spec.seed, backoff_s=spec.backoff_s,
            budget=Budget(spec.max_calls, spec.max_tokens),
            on_progress=(lambda s: on_progress(s, todo)) if on_progress else None,
        )
    scores = tuple(score_log(log, suites, paths.reports, seed=spec.seed))
    ids = _log_mlflow(spec, scores, man, workdir, paths) if track and scores else ()
    return ExperimentRun(paths, est, summary, scores, ids)
