"""``paratrace compare``: paired comparison of runs.

A run is named as ``paratrace run`` names it: its parent run id (every cell
of it), its name or its directory (``runs/<name>``, scored from its
``results.jsonl``, no MLflow needed), or a nested run id (one cell)
(:func:`resolve_runs`).  Each nested run logs its scored cases
(``case_results.jsonl``, one :class:`~scorer.records.CaseResult` per line).
The cells are relabelled by name, so that any two form two configurations,
and the scorer's own paired table does the rest
(:func:`scorer.summary.summarize`: exact McNemar on status correctness and
every 0/1 metric over the cases both share, Benjamini-Hochberg q-values
across the whole family).
"""

from __future__ import annotations

import dataclasses
import html
import json
import os
from pathlib import Path
from typing import Sequence

from scorer.records import CaseResult
from scorer.report_md import md_table
from scorer.summary import PairedRow, config_label, summarize

from ..errors import ExperimentError

__all__ = ["CASE_RESULTS", "case_results_jsonl", "compare_runs", "directory_results", "load_run_results",
           "resolve_runs", "to_html", "to_markdown"]

CASE_RESULTS = "case_results.jsonl"
_HEAD = ("metric", "run A", "run B", "paired cases", "rate A", "rate B", "only A", "only B", "p", "q (BH)")


def case_results_jsonl(results: Sequence[CaseResult]) -> str:
    """The text of a ``case_results.jsonl`` artifact (sorted by case id)."""
    return "".join(json.dumps(r.to_dict(), sort_keys=True) + "\n"
                   for r in sorted(results, key=lambda r: r.case_id))


def load_run_results(client, run_id: str, workdir: str | Path) -> tuple[str, list[CaseResult]]:
    """A run's name and scored cases, read from MLflow.

    Raises
    ------
    ExperimentError
        If the run does not exist or has no ``case_results.jsonl``.
    """
    try:
        run = client.get_run(run_id)
        local = client.download_artifacts(run_id, CASE_RESULTS, str(workdir))
    except Exception as exc:  # mlflow raises MlflowException / OSError variants
        raise ExperimentError(f"run {run_id}: no {CASE_RESULTS} artifact ({exc})") from None
    from symbolic.support.fsio import read_text

    lines = read_text(local, max_bytes=1 << 30, error=ExperimentError).splitlines()
    name = run.data.tags.get("paratrace.cell") or run.info.run_name or run_id  # the cell's full name
    return name, [CaseResult.from_dict(json.loads(x)) for x in lines if x.strip()]


def directory_results(root: str | Path) -> list[tuple[str, list[CaseResult]]]:
    """The cells of a run directory (``runs/<name>``), scored from its ``results.jsonl``.

    Nothing in the directory changes: the log is checked read-only and the
    report is written to a temporary directory.

    Raises
    ------
    ExperimentError
        If the directory has no frozen spec or result log, the log is damaged,
        or a suite of the spec cannot be loaded.
    """
    import tempfile

    from .plan import load_suites
    from .runlog import ResultLog
    from .scoring import score_log
    from .state import check_results, read_state_json

    root = Path(root)
    spec_path, results = root / "spec.json", root / "results.jsonl"
    if not os.path.lexists(spec_path) or not os.path.lexists(results):
        raise ExperimentError(f"{root}: not a run directory (expected spec.json and results.jsonl)")
    spec = read_state_json(spec_path, "the frozen spec of the run", f"move {root} away")
    suites = spec.get("suites")
    if not isinstance(suites, list) or not all(isinstance(x, str) for x in suites):
        raise ExperimentError(f"{spec_path}: field suites: expected a list of suite names, got {suites!r}")
    check_results(results, read_only=True)
    scenarios, _ = load_suites(suites)
    with tempfile.TemporaryDirectory(prefix="paratrace-compare-") as tmp:
        scores = score_log(ResultLog(results), scenarios, Path(tmp))
    several = len(scores) > 1
    return [(f"{suite.suite}: {cell.name}" if several else cell.name, list(cell.results))
            for suite in scores for cell in suite.cells if cell.results]


def _is_run_id(text: str) -> bool:
    return len(text) == 32 and all(c in "0123456789abcdef" for c in text)


def _mlflow_cells(client, run, workdir: Path) -> list[tuple[str, list[CaseResult]]]:
    """A parent run's cells (its nested runs), or the nested run itself."""
    if run.data.tags.get("paratrace.kind") != "experiment":
        return [load_run_results(client, run.info.run_id, workdir / run.info.run_id)]
    children = client.search_runs([run.info.experiment_id],
                                  filter_string=f"tags.`mlflow.parentRunId` = '{run.info.run_id}'")
    if not children:
        raise ExperimentError(f"run {run.info.run_id} ({run.info.run_name}): no nested runs (nothing scored)")
    return [load_run_results(client, child.info.run_id, workdir / child.info.run_id)
            for child in sorted(children, key=lambda r: r.info.run_name or r.info.run_id)]


def _by_name(client, name: str):
    """The paratrace run named ``name`` (a parent run, else a nested one)."""
    experiments = [e.experiment_id for e in client.search_experiments(filter_string="name LIKE 'paratrace%'")]
    if "'" in name and '"' in name:
        return None  # not a name MLflow's filter can quote (nor one paratrace makes)
    quoted = f'"{name}"' if "'" in name else f"'{name}'"
    found = client.search_runs(experiments, filter_string=f"attributes.run_name = {quoted}") if experiments else []
    parents = [r for r in found if r.data.tags.get("paratrace.kind") == "experiment"]
    chosen = parents or found
    if not chosen:
        return None
    if len(chosen) > 1:
        ids = ", ".join(r.info.run_id for r in chosen[:5])
        raise ExperimentError(f"run name {name!r} names {len(chosen)} runs ({ids}); give a run id")
    return chosen[0]


def resolve_runs(refs: Sequence[str], *, workdir: str | Path = ".", tracking_uri: str | None = None,
                 download_dir: str | Path) -> list[tuple[str, list[CaseResult]]]:
    """The cells to compare, from what ``paratrace run`` prints.

    Each reference is, in this order: a run directory (a path holding
    ``spec.json`` and ``results.jsonl``), a run name with a directory
    ``<workdir>/runs/<name>``, an MLflow run id (a parent run gives all its
    cells, a nested run one), or an MLflow run name.  Cells keep their names
    (``b4 | scripted/null | standard | r0``); where two references give cells
    of the same name, each is prefixed with its reference.

    Parameters
    ----------
    refs : sequence of str
    workdir : path
        Holds ``runs/`` and (by default) ``mlflow.db``.
    tracking_uri : str, optional
        MLflow tracking URI (default ``$MLFLOW_TRACKING_URI`` or ``<workdir>/mlflow.db``).
    download_dir : path
        Where MLflow artifacts are downloaded (a temporary directory).

    Returns
    -------
    list of (str, list of CaseResult)

    Raises
    ------
    ExperimentError
        If a reference names nothing, names several runs, or a run has no
        scored cases.
    """
    workdir, download_dir = Path(workdir), Path(download_dir)
    client = None
    groups: list[tuple[str, list[tuple[str, list[CaseResult]]]]] = []
    for ref in refs:
        path = Path(ref)
        named = workdir / "runs" / ref
        if (path / "spec.json").is_file():
            groups.append((ref, directory_results(path)))
            continue
        if path.name == ref and (named / "spec.json").is_file():
            groups.append((ref, directory_results(named)))
            continue
        if client is None:
            from .tracking import default_tracking_uri, setup_mlflow

            uri = default_tracking_uri(workdir, tracking_uri)
            store = Path(uri[len("sqlite:///"):].partition("?")[0]) if uri.startswith("sqlite:///") else None
            if store is not None and not store.is_file():  # reading must not create an empty store
                raise ExperimentError(f"{ref!r}: no run directory ({named} or {path}) and no MLflow store at "
                                      f"{store}; give the run's --workdir or --tracking-uri")
            client = setup_mlflow(workdir, autolog_dspy=False, tracking_uri=uri).MlflowClient()
        run = None
        if _is_run_id(ref):
            try:
                run = client.get_run(ref)
            except Exception:  # noqa: BLE001 - MLflow raises MlflowException for an unknown id
                run = None
        run = run or _by_name(client, ref)
        if run is None:
            raise ExperimentError(f"{ref!r}: no run directory ({named} or {path}) and no MLflow run of that id "
                                  "or name; give what `paratrace run` printed (run name, parent run id or "
                                  "runs/<name>)")
        groups.append((ref, _mlflow_cells(client, run, download_dir)))
    names = [name for _, cells in groups for name, _ in cells]
    return [((f"{ref}: {name}" if names.count(name) > 1 else name), results)
            for ref, cells in groups for name, results in cells]


def compare_runs(runs: Sequence[tuple[str, Sequence[CaseResult]]], *, seed: int = 0) -> list[PairedRow]:
    """Paired tests between every two runs.

    Parameters
    ----------
    runs : sequence of (name, case results)
        At least two runs; names must differ.

    Returns
    -------
    list of PairedRow

    Raises
    ------
    ExperimentError
        With fewer than two runs, repeated names, or no shared case.
    """
    names = [name for name, _ in runs]
    if len(runs) < 2:
        raise ExperimentError("compare needs at least two cells (a run with two cells, or two runs)")
    if len(set(names)) != len(names):
        raise ExperimentError(f"run names repeat ({', '.join(names)}); give distinct runs")
    relabelled = [dataclasses.replace(r, configuration=name, model="", variant=None, repeat=0)
                  for name, results in runs for r in results]
    rows = list(summarize(relabelled, seed=seed, n_resamples=200).paired)
    if not rows:
        raise ExperimentError("the runs share no case with a paired 0/1 outcome")
    return rows


def _cells(row: PairedRow) -> list[str]:
    return [row.metric, config_label(row.a), config_label(row.b), str(row.n), f"{row.a_rate:.3f}",
            f"{row.b_rate:.3f}", str(row.only_a), str(row.only_b), f"{row.pvalue:.4g}", f"{row.qvalue:.4g}"]


def to_markdown(rows: Sequence[PairedRow]) -> str:
    """The comparison as Markdown (deterministic)."""
    return ("# Paired comparison (exact McNemar, Benjamini-Hochberg)\n\n"
            + md_table(_HEAD, [_cells(r) for r in rows]) + "\n")


def to_html(rows: Sequence[PairedRow]) -> str:
    """The comparison as a standalone HTML page."""
    head = "".join(f"<th>{html.escape(h)}</th>" for h in _HEAD)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(x)}</td>" for x in _cells(r)) + "</tr>" for r in rows)
    return ("<!DOCTYPE html><html><head><meta charset='utf-8'><title>paratrace compare</title>"
            "<style>td,th{padding:4px 8px;border:1px solid #ccc}table{border-collapse:collapse}"
            "</style></head><body><h1>Paired comparison (exact McNemar, Benjamini-Hochberg)</h1>"
            f"<table><tr>{head}</tr>{body}</table></body></html>\n")
