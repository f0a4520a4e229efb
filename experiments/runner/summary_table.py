"""The summary a run prints: per suite, the eight metrics (rows) of each cell
(columns), in tables of at most :data:`CELLS_PER_TABLE` cells so that every
table fits :data:`SUMMARY_WIDTH` columns, and one line saying what the numbers
are and where they are defined."""

from __future__ import annotations

from typing import Iterable, Sequence

__all__ = ["CELLS_PER_TABLE", "LEGEND", "SUMMARY_WIDTH", "TABLE_METRICS", "cell_header", "metric_text",
           "summary_tables"]

TABLE_METRICS = ("ASA", "TGC", "CLA", "NER", "PHA", "BRA", "NCR", "DLA")
#: The widest a summary table gets, in terminal columns.
SUMMARY_WIDTH = 100
#: Cells side by side in one table (a metric column and three value columns fit 100 columns).
CELLS_PER_TABLE = 3
#: What a value means, in one line.
LEGEND = "value [95% interval] (cases); n/a: no case applies; NCR counts edits (>1 expected); docs/metrics.md"


def metric_text(value: float | None, low: float | None, high: float | None, n: int) -> str:
    """One metric of one cell as the summary shows it.

    Examples
    --------
    >>> metric_text(0.5, 0.25, 0.75, 4), metric_text(1.15, None, None, 7), metric_text(None, None, None, 0)
    ('0.50 [0.25,0.75] (4)', '1.15 (7)', 'n/a')
    """
    if value is None:
        return "n/a"
    if low is None or high is None:
        return f"{value:.2f} ({n})"
    return f"{value:.2f} [{low:.2f},{high:.2f}] ({n})"


def cell_header(cell) -> str:
    """A cell's column header: configuration and backbone, then the variant and repeat when they vary.

    Examples
    --------
    >>> from types import SimpleNamespace as NS
    >>> cell_header(NS(configuration="b4", backbone="scripted/null", variant="standard", repeat=0))
    'b4 scripted/null'
    >>> cell_header(NS(configuration="b3", backbone="m", variant="five-shot", repeat=2))
    'b3 m five-shot r2'
    """
    parts = [cell.configuration, cell.backbone]
    if cell.variant != "standard":
        parts.append(cell.variant)
    if cell.repeat:
        parts.append(f"r{cell.repeat}")
    return " ".join(parts)


def _chunks(items: Sequence, size: int) -> Iterable[Sequence]:
    for start in range(0, len(items), size):
        yield items[start:start + size]


def summary_tables(suite) -> list:
    """The rich tables of one :class:`~experiments.runner.scoring.SuiteScore`: metrics down, cells across."""
    from rich.table import Table

    tables = []
    cells = list(suite.cells)
    for part, chunk in enumerate(_chunks(cells, CELLS_PER_TABLE)):
        title = suite.suite if len(cells) <= CELLS_PER_TABLE else f"{suite.suite} ({part + 1})"
        table = Table(title=title)
        table.add_column("metric", no_wrap=True)
        metrics = [cell.metrics() for cell in chunk]
        for cell in chunk:
            table.add_column(cell_header(cell), justify="right", overflow="fold", max_width=27)
        for name in TABLE_METRICS:
            row = []
            for cell, values in zip(chunk, metrics):
                if not values:
                    row.append(cell.not_scored_text() or "not scored" if name == TABLE_METRICS[0] else "")
                else:
                    row.append(metric_text(*values.get(name, (None, None, None, 0))))
            table.add_row(name, *row)
        tables.append(table)
    return tables
