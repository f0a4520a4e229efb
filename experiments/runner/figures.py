"""Images for MLflow: the status confusion matrix and per-metric bars."""

from __future__ import annotations

from typing import Mapping, Sequence

__all__ = ["confusion_figure", "metric_bars"]

STATUSES = ("accepted", "rejected", "both", "undecidable")


def _pyplot():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def confusion_figure(gold: Sequence[str], pred: Sequence[str | None], title: str):
    """Gold status (rows) against predicted status (columns; hard failures as ``failed``)."""
    plt = _pyplot()
    cols = STATUSES + ("failed",)
    counts = [[sum(1 for g, p in zip(gold, pred) if g == r and (p or "failed") == c) for c in cols]
              for r in STATUSES]
    fig, ax = plt.subplots(figsize=(5.5, 4.2))
    ax.imshow(counts, cmap="Blues")
    ax.set_xticks(range(len(cols)), cols, rotation=30)
    ax.set_yticks(range(len(STATUSES)), STATUSES)
    ax.set_xlabel("predicted")
    ax.set_ylabel("gold")
    for i, row in enumerate(counts):
        for j, n in enumerate(row):
            ax.text(j, i, str(n), ha="center", va="center")
    ax.set_title(title, fontsize=9)
    fig.tight_layout()
    return fig


def metric_bars(metrics: Mapping[str, tuple[float | None, float | None, float | None, int]], title: str):
    """One bar per rate metric with its interval as an error bar."""
    plt = _pyplot()
    names = [m for m, (v, *_rest) in sorted(metrics.items()) if v is not None and m != "NCR" and 0 <= v <= 1]
    values = [metrics[m][0] for m in names]
    lows = [max(0.0, v - (metrics[m][1] if metrics[m][1] is not None else v)) for m, v in zip(names, values)]
    highs = [max(0.0, (metrics[m][2] if metrics[m][2] is not None else v) - v) for m, v in zip(names, values)]
    fig, ax = plt.subplots(figsize=(6, 3.6))
    ax.bar(names, values, yerr=[lows, highs], capsize=4, color="#4C72B0")
    ax.set_ylim(0, 1.05)
    ax.set_title(title, fontsize=9)
    fig.tight_layout()
    return fig
