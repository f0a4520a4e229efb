"""Statistics over labels and runs: status confusion matrices, mean and sample
SD, and repeated-run stability (paper Section 6.1).  Re-exported by
:mod:`scorer.stats`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import combinations
from typing import Mapping, Sequence

from .errors import StatsError

__all__ = [
    "FAILURE_LABEL",
    "STATUS_LABELS",
    "ConfusionMatrix",
    "Stability",
    "confusion_matrix",
    "mean_sd",
    "stability",
]

STATUS_LABELS = ("accepted", "rejected", "both", "undecidable")
FAILURE_LABEL = "failure"


@dataclass(frozen=True, slots=True)
class ConfusionMatrix:
    """Status confusion matrix: rows are gold labels, columns predicted labels.

    The last column, ``failure``, counts hard failures (no predicted status).
    """

    labels: tuple[str, ...]
    columns: tuple[str, ...]
    counts: tuple[tuple[int, ...], ...]

    def count(self, gold: str, pred: str) -> int:
        """The number of cases with this gold and predicted label."""
        return self.counts[self.labels.index(gold)][self.columns.index(pred)]

    @property
    def total(self) -> int:
        """Number of cases."""
        return sum(sum(row) for row in self.counts)

    def to_dict(self) -> dict:
        """JSON-ready dict."""
        return {"labels": list(self.labels), "columns": list(self.columns),
                "counts": [list(row) for row in self.counts]}


def confusion_matrix(gold: Sequence[str], pred: Sequence[str | None],
                     labels: Sequence[str] = STATUS_LABELS) -> ConfusionMatrix:
    """Count gold/predicted status pairs; ``None`` predictions go to ``failure``.

    Parameters
    ----------
    gold : sequence of str
        Gold labels.
    pred : sequence of str or None
        Predicted labels, aligned with ``gold``; ``None`` for a hard failure.
    labels : sequence of str
        Row and column order (the four statuses by default).

    Returns
    -------
    ConfusionMatrix

    Raises
    ------
    StatsError
        If the sequences differ in length or contain a label outside ``labels``.

    Examples
    --------
    >>> cm = confusion_matrix(["both", "accepted", "both"], ["both", None, "rejected"])
    >>> cm.count("both", "both"), cm.count("both", "rejected"), cm.count("accepted", "failure")
    (1, 1, 1)
    """
    gold, pred = list(gold), list(pred)
    if len(gold) != len(pred):
        raise StatsError(f"gold and predicted labels differ in length: {len(gold)} and {len(pred)}")
    labels = tuple(str(x) for x in labels)
    columns = labels + (FAILURE_LABEL,)
    table = [[0] * len(columns) for _ in labels]
    for i, (g, p) in enumerate(zip(gold, pred)):
        g = str(g)
        p = FAILURE_LABEL if p is None else str(p)
        if g not in labels:
            raise StatsError(f"item {i}: gold label {g!r} is not one of {', '.join(labels)}")
        if p not in columns:
            raise StatsError(f"item {i}: predicted label {p!r} is not one of {', '.join(columns)}")
        table[labels.index(g)][columns.index(p)] += 1
    return ConfusionMatrix(labels, columns, tuple(tuple(row) for row in table))


def mean_sd(values: Sequence[float]) -> tuple[float, float | None]:
    """Mean and sample standard deviation (``ddof=1``; ``None`` for one value).

    Raises
    ------
    StatsError
        If ``values`` is empty.

    Examples
    --------
    >>> mean_sd([0.8, 0.9, 1.0])
    (0.9, 0.09999999999999998)
    >>> mean_sd([0.5])
    (0.5, None)
    """
    data = [float(v) for v in values]
    if not data:
        raise StatsError("mean_sd needs at least one value")
    mean = math.fsum(data) / len(data)
    if len(data) == 1:
        return mean, None
    return mean, math.sqrt(math.fsum((v - mean) ** 2 for v in data) / (len(data) - 1))


@dataclass(frozen=True, slots=True)
class Stability:
    """Repeated-run stability of one configuration.

    Attributes
    ----------
    n_runs, n_cases : int
    accuracy_mean : float or None
        Mean per-run status accuracy (``None`` without gold labels).
    accuracy_sd : float or None
        Sample SD of the per-run accuracy (``None`` with one run or no gold).
    per_run_accuracy : tuple of float
    all_same : float
        Share of cases whose status is identical in every run.
    pairwise_agreement : float
        Mean over cases and over run pairs of status agreement.

    A hard failure (``None``) agrees with nothing, not even another failure.
    """

    n_runs: int
    n_cases: int
    accuracy_mean: float | None
    accuracy_sd: float | None
    per_run_accuracy: tuple[float, ...]
    all_same: float
    pairwise_agreement: float

    def to_dict(self) -> dict:
        """JSON-ready dict."""
        return {"n_runs": self.n_runs, "n_cases": self.n_cases,
                "accuracy_mean": self.accuracy_mean, "accuracy_sd": self.accuracy_sd,
                "per_run_accuracy": list(self.per_run_accuracy), "all_same": self.all_same,
                "pairwise_agreement": self.pairwise_agreement}


def stability(runs: Sequence[Mapping[str, str | None]],
              gold: Mapping[str, str] | None = None) -> Stability:
    """Stability of statuses over repeated runs of one configuration.

    Parameters
    ----------
    runs : sequence of mapping
        One mapping ``case_id -> predicted status`` (``None`` = hard failure)
        per run; every run must cover the same cases.
    gold : mapping, optional
        ``case_id -> gold status``, for the per-run accuracy mean and SD.

    Returns
    -------
    Stability

    Raises
    ------
    StatsError
        With fewer than two runs, runs over different cases, or gold missing a case.

    Examples
    --------
    >>> runs = [{"c1": "both", "c2": "accepted"}, {"c1": "both", "c2": "rejected"},
    ...         {"c1": "both", "c2": "accepted"}]
    >>> s = stability(runs, gold={"c1": "both", "c2": "accepted"})
    >>> s.all_same, round(s.pairwise_agreement, 4), round(s.accuracy_mean, 4)
    (0.5, 0.6667, 0.8333)
    """
    runs = [dict(r) for r in runs]
    if len(runs) < 2:
        raise StatsError(f"stability needs at least two runs, got {len(runs)}")
    cases = sorted(runs[0])
    for i, run in enumerate(runs[1:], start=2):
        if sorted(run) != cases:
            diff = sorted(set(run) ^ set(cases))
            raise StatsError(f"run {i} covers different cases than run 1: {', '.join(diff[:5])}")
    if not cases:
        raise StatsError("stability needs at least one case")
    same = agree = 0.0
    pairs = list(combinations(range(len(runs)), 2))
    for case in cases:
        labels = [run[case] for run in runs]
        same += all(x is not None and x == labels[0] for x in labels)
        agree += sum(labels[i] is not None and labels[i] == labels[j] for i, j in pairs) / len(pairs)
    per_run: tuple[float, ...] = ()
    mean = sd = None
    if gold is not None:
        missing = [c for c in cases if c not in gold]
        if missing:
            raise StatsError(f"gold lacks cases {', '.join(missing[:5])}")
        per_run = tuple(sum(run[c] is not None and run[c] == gold[c] for c in cases) / len(cases)
                        for run in runs)
        mean, sd = mean_sd(per_run)
    return Stability(len(runs), len(cases), mean, sd, per_run, same / len(cases),
                     agree / len(cases))
