"""``paratrace compare``: paired comparison of logged runs.

Each nested run logs its per-case table (``cases.json``).  Runs are paired on
the cases they share; for every metric with per-case 0/1 outcomes the exact
McNemar test compares each run with the first one, and Benjamini-Hochberg
controls the false discovery rate across the whole family of tests.
"""

from __future__ import annotations

import html
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping, Sequence

from scorer.stats import benjamini_hochberg, paired_mcnemar

from ..errors import ExperimentError

__all__ = ["Comparison", "RunTable", "compare_tables", "load_run_table", "to_html", "to_markdown"]

BINARY_METRICS = ("ASA", "CLA", "NER", "PHA", "BRA", "DLA")


@dataclass(frozen=True)
class RunTable:
    """The per-case outcomes of one run: ``rows[case_id][metric]`` in {0, 1} or None."""

    run_id: str
    name: str
    rows: Mapping[str, Mapping[str, float | None]]


@dataclass(frozen=True)
class Comparison:
    """One paired test: ``other`` against ``base`` on ``metric``."""

    metric: str
    base: str
    other: str
    n: int
    base_rate: float
    other_rate: float
    b: int
    c: int
    pvalue: float
    qvalue: float


def load_run_table(client, run_id: str, workdir: str | Path) -> RunTable:
    """Read a run's ``cases.json`` table from MLflow.

    Raises
    ------
    ExperimentError
        If the run does not exist or has no per-case table.
    """
    try:
        run = client.get_run(run_id)
        local = client.download_artifacts(run_id, "cases.json", str(workdir))
    except Exception as exc:  # mlflow raises MlflowException / OSError variants
        raise ExperimentError(f"run {run_id}: no per-case table cases.json ({exc})") from None
    table = json.loads(Path(local).read_text(encoding="utf-8"))
    columns, data = table.get("columns", []), table.get("data", [])
    if "case_id" not in columns:
        raise ExperimentError(f"run {run_id}: cases.json has no case_id column")
    rows = {}
    for values in data:
        row = dict(zip(columns, values))
        rows[str(row["case_id"])] = {m: row.get(m) for m in BINARY_METRICS if m in row}
    return RunTable(run_id, run.info.run_name or run_id, rows)


def _outcome(value) -> bool | None:
    if value is None or value != value:  # None or NaN: not applicable
        return None
    if float(value) in (0.0, 1.0):
        return bool(value)
    return None


def compare_tables(tables: Sequence[RunTable]) -> list[Comparison]:
    """Exact McNemar of every run against the first, per metric, with BH q-values.

    Parameters
    ----------
    tables : sequence of RunTable
        At least two runs.

    Returns
    -------
    list of Comparison
        In (metric, run) order; a metric without paired applicable cases is skipped.

    Raises
    ------
    ExperimentError
        With fewer than two runs or no shared case.

    Examples
    --------
    >>> a = RunTable("a", "b1", {"c1": {"ASA": 1}, "c2": {"ASA": 0}, "c3": {"ASA": 0}})
    >>> b = RunTable("b", "b4", {"c1": {"ASA": 1}, "c2": {"ASA": 1}, "c3": {"ASA": 1}})
    >>> r = compare_tables([a, b])[0]
    >>> (r.metric, r.n, r.b, r.c, r.pvalue)
    ('ASA', 3, 0, 2, 0.5)
    """
    if len(tables) < 2:
        raise ExperimentError("compare needs at least two runs")
    base = tables[0]
    raw = []
    for metric in BINARY_METRICS:
        for other in tables[1:]:
            pairs = []
            for case in sorted(set(base.rows) & set(other.rows)):
                x = _outcome(base.rows[case].get(metric))
                y = _outcome(other.rows[case].get(metric))
                if x is not None and y is not None:
                    pairs.append((x, y))
            if not pairs:
                continue
            test = paired_mcnemar([p[0] for p in pairs], [p[1] for p in pairs])
            raw.append((metric, other, len(pairs), sum(p[0] for p in pairs) / len(pairs),
                        sum(p[1] for p in pairs) / len(pairs), test))
    if not raw:
        raise ExperimentError("the runs share no case with a paired 0/1 outcome")
    qvalues = benjamini_hochberg([t.pvalue for *_, t in raw])
    return [Comparison(metric, base.name, other.name, n, br, orate, t.b, t.c, t.pvalue, q)
            for (metric, other, n, br, orate, t), q in zip(raw, qvalues)]


_HEAD = ("metric", "base", "other", "n", "base rate", "other rate", "b", "c", "p", "q (BH)")


def _cells(c: Comparison) -> tuple[str, ...]:
    return (c.metric, c.base, c.other, str(c.n), f"{c.base_rate:.3f}", f"{c.other_rate:.3f}",
            str(c.b), str(c.c), f"{c.pvalue:.4g}", f"{c.qvalue:.4g}")


def to_markdown(comparisons: Sequence[Comparison]) -> str:
    """A Markdown table of the comparisons (deterministic)."""
    lines = ["| " + " | ".join(_HEAD) + " |", "|" + "---|" * len(_HEAD)]
    lines += ["| " + " | ".join(_cells(c)) + " |" for c in comparisons]
    return "# Paired comparison (exact McNemar, Benjamini-Hochberg)\n\n" + "\n".join(lines) + "\n"


def to_html(comparisons: Sequence[Comparison]) -> str:
    """A standalone HTML page of the comparisons."""
    head = "".join(f"<th>{html.escape(h)}</th>" for h in _HEAD)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(x)}</td>" for x in _cells(c)) + "</tr>"
                   for c in comparisons)
    return ("<!DOCTYPE html><html><head><meta charset='utf-8'><title>paratrace compare</title>"
            "<style>td,th{padding:4px 8px;border:1px solid #ccc}table{border-collapse:collapse}"
            "</style></head><body><h1>Paired comparison (exact McNemar, Benjamini-Hochberg)</h1>"
            f"<table><tr>{head}</tr>{body}</table></body></html>\n")
