"""Operational figures of a run from its outputs: latency (median, p95),
tokens and calls per case, and the share of valid, repaired and hard-failed
JSON outputs (the paper's stability and cost tables, Section 6 / Table 18).

Pure functions over :class:`~scorer.contract.OutputRecord`; fields a
configuration did not record (no latency, no usage) are reported as absent,
never as zero.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

from .contract import OutputRecord
from .report_md import md_table

__all__ = ["Operations", "operations", "operations_markdown"]


@dataclass(frozen=True, slots=True)
class Operations:
    """Operational summary of one run (one configuration, model, variant, repeat)."""

    n: int
    latency_median_ms: float | None
    latency_p95_ms: float | None
    prompt_tokens_mean: float | None
    completion_tokens_mean: float | None
    calls_mean: float | None
    valid_rate: float
    repaired_rate: float
    hard_failure_rate: float

    def to_dict(self) -> dict:
        """JSON-ready dict (absent figures stay ``None``)."""
        return {k: getattr(self, k) for k in self.__slots__}


def _mean(values: list[float]) -> float | None:
    return float(np.mean(values)) if values else None


def operations(outputs: Sequence[OutputRecord]) -> Operations:
    """Latency, tokens, calls and JSON validity rates of a run.

    Parameters
    ----------
    outputs : sequence of OutputRecord

    Returns
    -------
    Operations

    Raises
    ------
    ValueError
        If ``outputs`` is empty.

    Examples
    --------
    >>> from scorer.contract import OutputRecord
    >>> ok = OutputRecord(case_id="a", configuration="b4", model="m", common={"final_status": "both"},
    ...                   meta={"latency_ms": 100.0, "prompt_tokens": 10, "completion_tokens": 5, "calls": 1})
    >>> fixed = OutputRecord(case_id="b", configuration="b4", model="m", common={"final_status": "both"},
    ...                      meta={"latency_ms": 300.0, "repair_log": ["stripped fences"], "calls": 1})
    >>> bad = OutputRecord.failure(case_id="c", configuration="b4", model="m", raw_text="{", reason="truncated")
    >>> o = operations([ok, fixed, bad])
    >>> o.latency_median_ms, round(o.valid_rate, 3), round(o.repaired_rate, 3), round(o.hard_failure_rate, 3)
    (200.0, 0.333, 0.333, 0.333)
    """
    if not outputs:
        raise ValueError("no outputs to summarize")
    latencies = [o.meta.latency_ms for o in outputs if o.meta.latency_ms is not None]
    failed = sum(1 for o in outputs if o.meta.hard_failure)
    repaired = sum(1 for o in outputs if not o.meta.hard_failure and o.meta.repair_log)
    n = len(outputs)
    return Operations(
        n=n,
        latency_median_ms=float(np.median(latencies)) if latencies else None,
        latency_p95_ms=float(np.percentile(latencies, 95)) if latencies else None,
        prompt_tokens_mean=_mean([o.meta.prompt_tokens for o in outputs if o.meta.prompt_tokens is not None]),
        completion_tokens_mean=_mean([o.meta.completion_tokens for o in outputs
                                      if o.meta.completion_tokens is not None]),
        calls_mean=_mean([o.meta.calls for o in outputs if o.meta.calls is not None]),
        valid_rate=(n - failed - repaired) / n,
        repaired_rate=repaired / n,
        hard_failure_rate=failed / n,
    )


def _fmt(x: float | None, digits: int = 1) -> str:
    return "\u2014" if x is None else f"{x:.{digits}f}"


def operations_markdown(rows: Sequence[tuple[str, Operations]]) -> str:
    """A Markdown table: one row per labelled run (cell text escaped, so a label
    holding ``|`` stays one cell)."""
    head = ("Run", "Cases", "Latency median ms", "Latency p95 ms", "Prompt tokens/case",
            "Completion tokens/case", "Calls/case", "Valid JSON %", "Repaired %", "Hard failure %")
    body = [[label, str(o.n), _fmt(o.latency_median_ms), _fmt(o.latency_p95_ms), _fmt(o.prompt_tokens_mean),
             _fmt(o.completion_tokens_mean), _fmt(o.calls_mean, 2), _fmt(100 * o.valid_rate),
             _fmt(100 * o.repaired_rate), _fmt(100 * o.hard_failure_rate)] for label, o in rows]
    lines = [md_table(head, body)]
    return "# Operations: latency, tokens, JSON validity\n\n" + "\n".join(lines) + "\n"
