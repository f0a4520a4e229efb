"""``paratrace compare``: paired comparison of logged runs.

Each nested run logs its scored cases (``case_results.jsonl``, one
:class:`~scorer.records.CaseResult` per line).  The runs are relabelled by
run name, so that any two runs form two configurations, and the scorer's own
paired table does the rest (:func:`scorer.summary.summarize`: exact McNemar on
status correctness and every 0/1 metric over the cases both runs share,
Benjamini-Hochberg q-values across the whole family).
"""

from __future__ import annotations

import dataclasses
import html
import json
from pathlib import Path
from typing import Sequence

from scorer.records import CaseResult
from scorer.report_md import md_table
from scorer.summary import PairedRow, config_label, summarize

from ..errors import ExperimentError

__all__ = ["CASE_RESULTS", "case_results_jsonl", "compare_runs", "load_run_results", "to_html",
           "to_markdown"]

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
    lines = Path(local).read_text(encoding="utf-8").splitlines()
    return run.info.run_name or run_id, [CaseResult.from_dict(json.loads(x)) for x in lines if x.strip()]


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
        raise ExperimentError("compare needs at least two runs")
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
