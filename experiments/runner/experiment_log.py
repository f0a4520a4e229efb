"""Logging a scored experiment to MLflow: per suite a parent run carrying the
comparison, per cell a nested run with one trace per case.

* **Parent run** (one per suite and run directory): the manifest as params,
  the reports as text artifacts, the table ``cells.json`` (every cell's eight
  metrics with their 95 % intervals, applicable counts and outcome counts) and
  the table ``paired_tests.json`` (exact McNemar between every two cells on
  every 0/1 metric, Benjamini-Hochberg q-values; the scorer's paired table,
  :func:`scorer.summary.summarize`).
* **Nested run** per cell (:func:`~experiments.runner.tracking.log_group`) and
  one trace per case with its assessments
  (:func:`~experiments.runner.case_traces.log_case_trace`).

Cases whose outcome is ``infra_error`` were not computed: they get a trace
and an ``outcome`` feedback, no metric feedback, and they are left out of the
paired tests.

A resume logs into the same runs: the run directory's ``tracking.json``
holds an id that tags the parent run, nested runs are found by cell name, and
only cases without a trace get one.  Runs of this directory still marked
``RUNNING`` by a process that died are marked ``KILLED`` first; a run
interrupted while logging (Ctrl-C, ``SIGTERM``, ``SIGHUP``) is marked
``KILLED``, one that fails ``FAILED``.
"""

from __future__ import annotations

import json
import signal
import threading
import uuid
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator, Mapping, Sequence

from symbolic.support.redact import redact_text

from .case_traces import case_response, log_case_trace, logged_case_ids, synchronous_trace_export
from .run_artifacts import CASES_TEXT, case_rows_text
from .spec import CellKey
from .tracking import BENCHMARK_METRICS, RUN_TAG

__all__ = ["BENCHMARK_METRICS", "backbone_text", "cases_page", "cells_table", "log_experiment", "mark_stale_runs",
           "paired_table", "run_uid"]
_UID_FILE = "tracking.json"


def run_uid(root: str | Path) -> str:
    """The tracking id of a run directory (created once, kept in ``tracking.json``).

    The file is read as the rest of the run state (bounded, never blocking,
    strict JSON: :func:`~experiments.runner.state.read_state_json`) and
    written through a temporary file and a rename.

    Raises
    ------
    ExperimentError
        When ``tracking.json`` is not a regular file or not a record of the
        run's id (truncated, edited), naming it and the repair.
    """
    from symbolic.support.fsio import write_atomic

    from ..errors import ExperimentError
    from .state import read_state_json

    path = Path(root) / _UID_FILE
    repair = (f"delete {path} to have a new one written (the MLflow runs of earlier attempts then stay "
              "apart from this run's)")
    if path.exists() or path.is_symlink():
        uid = read_state_json(path, "the run's tracking id", repair).get("run_uid")
        if not isinstance(uid, str) or not uid or len(uid) > 64 or not uid.isalnum():
            raise ExperimentError(f"{path}: the run's tracking id is damaged (run_uid {uid!r:.80}); {repair}")
        return uid
    uid = uuid.uuid4().hex
    write_atomic(path, json.dumps({"run_uid": uid}) + "\n", error=ExperimentError)
    return uid


def mark_stale_runs(mlflow, suites: Sequence[str], uid: str) -> list[str]:
    """Mark ``KILLED`` every run of this run directory still ``RUNNING`` (its process died); return their ids."""
    client = mlflow.MlflowClient()
    stale = []
    for suite in suites:
        experiment = client.get_experiment_by_name(f"paratrace/{suite}")
        if experiment is None:
            continue
        parents = client.search_runs([experiment.experiment_id],
                                     filter_string=f"tags.`paratrace.run_uid` = '{uid}'")
        runs = list(parents)
        for parent in parents:
            runs += client.search_runs([experiment.experiment_id],
                                       filter_string=f"tags.`mlflow.parentRunId` = '{parent.info.run_id}'")
        for run in runs:
            if run.info.status == "RUNNING":
                client.set_terminated(run.info.run_id, status="KILLED")
                stale.append(run.info.run_id)
    return stale


@contextmanager
def _terminations(mlflow, started: list[str]) -> Iterator[None]:
    """Turn SIGTERM/SIGHUP into ``SystemExit``; on an interruption mark ``started`` runs KILLED."""
    previous = {}
    if threading.current_thread() is threading.main_thread():
        def stop(signum, _frame):
            raise SystemExit(128 + signum)

        for sig in (signal.SIGTERM, signal.SIGHUP):
            previous[sig] = signal.signal(sig, stop)
    try:
        yield
    except (KeyboardInterrupt, SystemExit):
        client = mlflow.MlflowClient()
        while mlflow.active_run() is not None:
            mlflow.end_run(status="KILLED")
        for run_id in started:
            if client.get_run(run_id).info.status in ("RUNNING", "FAILED"):
                client.set_terminated(run_id, status="KILLED")
        raise
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def cells_table(cells: Sequence, outcomes: Mapping[str, Mapping[str, int]] | None = None) -> dict[str, list]:
    """Columns of ``cells.json``: one row per cell, each metric with ``_ci_low``, ``_ci_high``, ``_n``."""
    columns: dict[str, list] = {k: [] for k in ("cell", "configuration", "backbone", "variant", "repeat")}
    for m in BENCHMARK_METRICS:
        for suffix in ("", "_ci_low", "_ci_high", "_n"):
            columns[m + suffix] = []
    for k in ("scored", "parse_failure", "infra_error"):
        columns[k] = []
    for cell in cells:
        for k in ("configuration", "backbone", "variant", "repeat"):
            columns[k].append(getattr(cell, k))
        columns["cell"].append(cell.name)
        metrics = cell.metrics()
        for m in BENCHMARK_METRICS:
            value, low, high, n = metrics.get(m, (None, None, None, 0))
            for suffix, v in (("", value), ("_ci_low", low), ("_ci_high", high), ("_n", n)):
                columns[m + suffix].append(v)
        counts = (outcomes or {}).get(cell.name, cell.outcomes)
        for k in ("scored", "parse_failure", "infra_error"):
            columns[k].append(int(counts.get(k, 0)))
    return columns


def paired_table(cells: Sequence, not_computed: Mapping[str, set[str]] | None = None, *,
                 seed: int = 0) -> dict[str, list] | None:
    """Columns of ``paired_tests.json`` (exact McNemar, BH q-values), or ``None`` with fewer than two cells.

    ``not_computed`` maps a cell name to case ids left out (infrastructure errors).
    """
    from ..errors import ExperimentError
    from .compare import compare_runs

    if len(cells) < 2:
        return None
    skip = not_computed or {}
    runs = [(c.name, [r for r in c.results if r.case_id not in skip.get(c.name, set())]) for c in cells]
    try:
        rows = compare_runs(runs, seed=seed)
    except ExperimentError:
        return None
    return {"metric": [r.metric for r in rows], "cell_a": [r.a[0] for r in rows], "cell_b": [r.b[0] for r in rows],
            "paired_cases": [r.n for r in rows], "rate_a": [r.a_rate for r in rows],
            "rate_b": [r.b_rate for r in rows], "only_a": [r.only_a for r in rows],
            "only_b": [r.only_b for r in rows], "p": [r.pvalue for r in rows], "q_bh": [r.qvalue for r in rows]}


def backbone_text(name: str, manifest: Mapping) -> str:
    """A backbone as a reader of the UI should see it: its name, model string and endpoint(s).

    >>> backbone_text("exact", {"backbones": {"exact": {"model": "openai/oracle",
    ...                                                 "api_base": "http://127.0.0.1:8001/v1"}}})
    'exact = openai/oracle at http://127.0.0.1:8001/v1'
    >>> backbone_text("openai/m", {})
    'openai/m'
    """
    info = (manifest.get("backbones") or {}).get(name) or {}
    model, base = info.get("model"), info.get("api_base")
    text = name if not model or model == name else f"{name} = {model}"
    if base:
        text += f" at {', '.join(base) if isinstance(base, (list, tuple)) else base}"
    return text


def cases_page(cell, cases: Mapping[str, Mapping], manifest: Mapping) -> str:
    """The nested run's ``cases.txt``: every case of the cell with its outcome, gold, answer and metrics.

    Parameters
    ----------
    cell : CellScore
    cases : mapping of str to mapping
        The cell's latest record per case id (``results.jsonl``).
    manifest : mapping
        The run's manifest (its ``backbones`` give the model and endpoint).
    """
    results = {r.case_id: r for r in cell.results}
    info = {"configuration": cell.configuration, "backbone": cell.backbone}
    rows = []
    for case_id in sorted(set(cases) | set(results)):
        record = cases.get(case_id) or {}
        outcome = str(record.get("outcome", "scored"))
        result = results.get(case_id) if outcome != "infra_error" else None
        response = case_response(record.get("output") or {}, result, info,
                                 BENCHMARK_METRICS if result is not None else ())
        rows.append({"case_id": case_id, "outcome": outcome, **response})
    return case_rows_text(cell.label, backbone_text(cell.backbone, manifest), rows, BENCHMARK_METRICS)


def _records(log) -> dict[tuple, dict[str, dict]]:
    grouped: dict[tuple, dict[str, dict]] = {}
    for record in log.records():
        cell = CellKey.of(record["key"])
        grouped.setdefault(cell, {})[record["key"]["case"]] = record
    return grouped


def _children(mlflow, experiment_id: str, parent_id: str) -> dict[str, str]:
    runs = mlflow.search_runs([experiment_id], filter_string=f"tags.`mlflow.parentRunId` = '{parent_id}'",
                              output_format="list")
    return {r.data.tags.get("paratrace.cell", r.info.run_name): r.info.run_id for r in runs}


def log_experiment(mlflow, *, spec, scores: Sequence, manifest: Mapping, log, suites: Mapping[str, Sequence],
                   uid: str, cell_params) -> tuple[str, ...]:
    """Log every suite of a scored run; return the parent run ids.

    Parameters
    ----------
    mlflow : module
        Set up by :func:`~experiments.runner.tracking.setup_mlflow`.
    spec : ExperimentSpec
    scores : sequence of SuiteScore
    manifest : mapping
    log : ResultLog
        The run's per-case records (outcomes, outputs).
    suites : mapping of str to sequence of Scenario
    uid : str
        :func:`run_uid` of the run directory.
    cell_params : callable
        ``cell_params(suite, cell) -> dict`` of the nested run's params.
    """
    from .figures import confusion_figure, metric_bars
    from .run_artifacts import cell_texts
    from .tracking import GroupLog, log_group, log_table, parent_run

    synchronous_trace_export()
    records = _records(log)
    ids: list[str] = []
    started: list[str] = []
    with _terminations(mlflow, started):
        for suite in scores:
            scenarios = {s.id: s for s in suites[suite.suite]}
            with parent_run(mlflow, suite.suite, spec.name, manifest, run_uid=uid) as parent:
                parent_id, experiment_id = parent.info.run_id, parent.info.experiment_id
                ids.append(parent_id)
                started.append(parent_id)
                existing = _children(mlflow, experiment_id, parent_id)
                for name in sorted(suite.files):
                    path = Path(name)
                    if path.suffix in (".md", ".csv"):
                        mlflow.log_text(redact_text(path.read_text(encoding="utf-8")), f"report/{path.name}")
                not_computed: dict[str, set[str]] = {}
                outcomes: dict[str, dict[str, int]] = {}
                for cell in suite.cells:
                    cases = records.get(cell.key, {})
                    not_computed[cell.name] = {c for c, r in cases.items() if r.get("outcome") == "infra_error"}
                    outcomes[cell.name] = {o: sum(1 for r in cases.values() if r.get("outcome") == o)
                                           for o in ("scored", "parse_failure", "infra_error")}
                    results = {r.case_id: r for r in cell.results}
                    run_id = existing.get(cell.name)
                    info = {"configuration": cell.configuration, "backbone": cell.backbone,
                            "variant": cell.variant, "repeat": cell.repeat}

                    def traces(rid, cases=cases, results=results, info=info, continued=run_id is not None):
                        started.append(rid)
                        done = logged_case_ids(mlflow, rid, experiment_id) if continued else set()
                        for case_id in sorted(cases):
                            if case_id in done or case_id not in scenarios:
                                continue
                            log_case_trace(mlflow, scenario=scenarios[case_id], record=cases[case_id],
                                           result=results.get(case_id), cell=info, metrics=BENCHMARK_METRICS)

                    gold = [r.status_gold for r in cell.results]
                    pred = [r.status_pred for r in cell.results]
                    metrics = cell.metrics()
                    log_group(mlflow, GroupLog(
                        name=cell.label, params=cell_params(suite, cell),
                        metrics={k: v for k, v in metrics.items() if k in BENCHMARK_METRICS},
                        operations=cell.operational_metrics(), table=cell.table(),
                        texts={**cell_texts(cell), CASES_TEXT: cases_page(cell, cases, manifest)},
                        tags={"paratrace.cell": cell.name, "paratrace.kind": "cell", RUN_TAG: spec.name},
                        figures={"confusion_matrix.png": confusion_figure(gold, pred, cell.name),
                                 "metrics.png": metric_bars(metrics, cell.name)},
                    ), run_id=run_id, on_run=traces)
                continued = bool(existing)
                log_table(mlflow, cells_table(suite.cells, outcomes), "cells.json", replace=continued)
                paired = paired_table(suite.cells, not_computed, seed=spec.seed)
                if paired is not None:
                    log_table(mlflow, paired, "paired_tests.json", replace=continued)
                mlflow.set_tags({"paratrace.cells": str(len(suite.cells)),
                                 "paratrace.cases": str(sum(len(c.results) for c in suite.cells))})
    return tuple(ids)
