"""Statistics for the reports (paper Section 6.1, "Statistical analysis").

* Wilson score intervals for case-level rates (statsmodels ``proportion_confint``);
* a seeded bootstrap interval for trace graph coverage (TGC), which pools edges;
* the two-sided exact McNemar test on paired case outcomes (statsmodels ``mcnemar``);
* Benjamini-Hochberg q-values across a metric family (statsmodels ``multipletests``);
* status confusion matrices and repeated-run stability -- mean and sample SD
  of a per-run rate, the share of cases with the same status in every run, the
  mean pairwise agreement (:mod:`scorer.stats_runs`, re-exported here).

Every function is pure; randomness only enters through ``seed``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal, Sequence

import numpy as np
from statsmodels.stats.contingency_tables import mcnemar
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.proportion import proportion_confint

from .errors import StatsError
from .stats_runs import (
    FAILURE_LABEL,
    STATUS_LABELS,
    ConfusionMatrix,
    Stability,
    confusion_matrix,
    mean_sd,
    stability,
)

__all__ = [
    "FAILURE_LABEL",
    "STATUS_LABELS",
    "ConfusionMatrix",
    "Interval",
    "McNemar",
    "Stability",
    "benjamini_hochberg",
    "bootstrap_mean",
    "bootstrap_tgc",
    "confusion_matrix",
    "mcnemar_exact",
    "mean_sd",
    "paired_mcnemar",
    "stability",
    "wilson",
]

# Confusion matrices, mean/SD and repeated-run stability live in scorer.stats_runs
# and are re-exported here.


@dataclass(frozen=True, slots=True)
class Interval:
    """A point estimate with a two-sided ``1 - alpha`` interval.

    Attributes
    ----------
    estimate, low, high : float
        Proportions in ``[0, 1]``.
    numerator, denominator : float
        The counts behind ``estimate``.
    method : str
        ``"wilson"``, ``"bootstrap-edge"`` or ``"bootstrap-case"``.
    """

    estimate: float
    low: float
    high: float
    numerator: float
    denominator: float
    method: str

    def to_dict(self) -> dict:
        """JSON-ready dict."""
        return {"estimate": self.estimate, "low": self.low, "high": self.high,
                "numerator": self.numerator, "denominator": self.denominator,
                "method": self.method}


def _count(name: str, value) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 0:
        raise StatsError(f"{name} must be a non-negative integer, got {value!r}")
    return int(value)


def wilson(k: int, n: int, alpha: float = 0.05) -> Interval:
    """Wilson score interval for ``k`` successes in ``n`` cases.

    Parameters
    ----------
    k, n : int
        Successes and trials, ``0 <= k <= n``, ``n > 0``.
    alpha : float
        One minus the confidence level.

    Returns
    -------
    Interval

    Raises
    ------
    StatsError
        If the counts are not integers with ``0 <= k <= n`` and ``n > 0``.

    Examples
    --------
    >>> ci = wilson(486, 567)
    >>> round(100 * ci.estimate, 1), round(100 * ci.low, 1), round(100 * ci.high, 1)
    (85.7, 82.6, 88.4)
    """
    k, n = _count("k", k), _count("n", n)
    if n == 0 or k > n:
        raise StatsError(f"need 0 <= k <= n and n > 0, got k={k}, n={n}")
    if not 0.0 < alpha < 1.0:
        raise StatsError(f"alpha must be in (0, 1), got {alpha!r}")
    low, high = proportion_confint(k, n, alpha=alpha, method="wilson")
    return Interval(k / n, float(low), float(high), float(k), float(n), "wilson")


def bootstrap_tgc(per_case_edge_counts: Sequence[tuple[int, int]], *, seed: int,
                  n_resamples: int = 2000, alpha: float = 0.05,
                  level: Literal["edge", "case"] = "edge") -> Interval:
    """Percentile bootstrap interval for pooled trace graph coverage (TGC).

    TGC pools edges: ``sum(matched) / sum(gold)``.  At ``level="edge"`` (the
    paper's) the pooled gold edges are resampled with replacement; the number
    of matched edges among ``N`` edges drawn with replacement from a pool
    holding ``K`` matched ones is exactly ``Binomial(N, K / N)``, which is how
    each resample is drawn.  ``level="case"`` resamples whole cases (a
    cluster bootstrap, wider when edges of one case are correlated).

    Parameters
    ----------
    per_case_edge_counts : sequence of (int, int)
        ``(matched, gold_total)`` per case; cases with ``gold_total == 0`` add nothing.
    seed : int
        Seed of the ``numpy.random.default_rng`` generator.
    n_resamples : int
        Number of bootstrap resamples.
    alpha : float
        One minus the confidence level.
    level : {"edge", "case"}
        Resampling unit.

    Returns
    -------
    Interval

    Raises
    ------
    StatsError
        If a count is invalid (``matched > gold_total``) or no gold edge exists.

    Examples
    --------
    >>> ci = bootstrap_tgc([(3, 4), (2, 2), (0, 1)], seed=7, n_resamples=500)
    >>> ci.estimate, ci.low <= ci.estimate <= ci.high, ci.method
    (0.7142857142857143, True, 'bootstrap-edge')
    >>> ci == bootstrap_tgc([(3, 4), (2, 2), (0, 1)], seed=7, n_resamples=500)
    True
    """
    pairs = []
    for i, pair in enumerate(per_case_edge_counts):
        try:
            matched, total = pair
        except (TypeError, ValueError):
            raise StatsError(f"case {i}: expected (matched, gold_total), got {pair!r}") from None
        matched, total = _count(f"case {i} matched", matched), _count(f"case {i} gold_total", total)
        if matched > total:
            raise StatsError(f"case {i}: matched {matched} exceeds gold_total {total}")
        if total:
            pairs.append((matched, total))
    if not pairs:
        raise StatsError("TGC needs at least one gold edge")
    if n_resamples < 1 or not 0.0 < alpha < 1.0:
        raise StatsError(f"need n_resamples >= 1 and alpha in (0, 1), got {n_resamples}, {alpha}")
    rng = np.random.default_rng(seed)
    matched = np.array([m for m, _ in pairs], dtype=np.int64)
    totals = np.array([t for _, t in pairs], dtype=np.int64)
    big_k, big_n = int(matched.sum()), int(totals.sum())
    if level == "edge":
        draws = rng.binomial(big_n, big_k / big_n, size=n_resamples) / big_n
    elif level == "case":
        idx = rng.integers(0, len(pairs), size=(n_resamples, len(pairs)))
        draws = matched[idx].sum(axis=1) / totals[idx].sum(axis=1)
    else:
        raise StatsError(f"level must be 'edge' or 'case', got {level!r}")
    low, high = np.quantile(draws, [alpha / 2, 1 - alpha / 2])
    return Interval(big_k / big_n, float(low), float(high), float(big_k), float(big_n),
                    f"bootstrap-{level}")


def bootstrap_mean(values: Sequence[float], *, seed: int, n_resamples: int = 2000,
                   alpha: float = 0.05) -> Interval:
    """Seeded percentile bootstrap interval of a mean over cases.

    Parameters
    ----------
    values : sequence of float
        One value per case (non-empty).
    seed : int
    n_resamples : int
    alpha : float

    Returns
    -------
    Interval
        ``method="bootstrap-case"``.

    Raises
    ------
    StatsError
        If ``values`` is empty or ``alpha``/``n_resamples`` are invalid.

    Examples
    --------
    >>> ci = bootstrap_mean([1.0, 2.0, 2.0, 5.0], seed=0, n_resamples=200)
    >>> ci.estimate, ci.low <= 2.5 <= ci.high
    (2.5, True)
    """
    data = np.asarray(list(values), dtype=float)
    if data.size == 0:
        raise StatsError("bootstrap_mean needs at least one value")
    if n_resamples < 1 or not 0.0 < alpha < 1.0:
        raise StatsError(f"need n_resamples >= 1 and alpha in (0, 1), got {n_resamples}, {alpha}")
    rng = np.random.default_rng(seed)
    draws = data[rng.integers(0, data.size, size=(n_resamples, data.size))].mean(axis=1)
    low, high = np.quantile(draws, [alpha / 2, 1 - alpha / 2])
    total = float(data.sum())
    return Interval(total / data.size, float(low), float(high), total, float(data.size),
                    "bootstrap-case")


@dataclass(frozen=True, slots=True)
class McNemar:
    """Exact McNemar test on the discordant pairs.

    Attributes
    ----------
    b : int
        Cases only the first configuration gets right.
    c : int
        Cases only the second configuration gets right.
    n : int
        Number of paired cases.
    pvalue : float
        Two-sided exact (binomial) p-value; 1.0 when there is no discordant pair.
    """

    b: int
    c: int
    n: int
    pvalue: float

    def to_dict(self) -> dict:
        """JSON-ready dict."""
        return {"b": self.b, "c": self.c, "n": self.n, "pvalue": self.pvalue}


def mcnemar_exact(b: int, c: int, n: int | None = None) -> McNemar:
    """Two-sided exact McNemar test from the discordant counts.

    Parameters
    ----------
    b, c : int
        Discordant counts (first-only correct, second-only correct).
    n : int, optional
        Total paired cases, for the record; defaults to ``b + c``.

    Returns
    -------
    McNemar

    Raises
    ------
    StatsError
        If a count is negative or ``n < b + c``.

    Examples
    --------
    >>> round(mcnemar_exact(3, 9).pvalue, 4)
    0.146
    >>> mcnemar_exact(0, 0).pvalue
    1.0
    """
    b, c = _count("b", b), _count("c", c)
    n = b + c if n is None else _count("n", n)
    if n < b + c:
        raise StatsError(f"n={n} is smaller than the discordant pairs b + c = {b + c}")
    if b + c == 0:
        return McNemar(b, c, n, 1.0)
    result = mcnemar([[0, b], [c, 0]], exact=True)
    return McNemar(b, c, n, float(min(1.0, result.pvalue)))


def paired_mcnemar(a_outcomes: Sequence[bool], b_outcomes: Sequence[bool]) -> McNemar:
    """Exact McNemar test on two aligned sequences of per-case correctness.

    Parameters
    ----------
    a_outcomes, b_outcomes : sequence of bool
        Correctness of configurations A and B on the same cases, in the same order.

    Returns
    -------
    McNemar

    Raises
    ------
    StatsError
        If the sequences differ in length.

    Examples
    --------
    >>> r = paired_mcnemar([True, True, False, True], [False, True, False, False])
    >>> (r.b, r.c, r.n, r.pvalue)
    (2, 0, 4, 0.5)
    """
    a, b = list(a_outcomes), list(b_outcomes)
    if len(a) != len(b):
        raise StatsError(f"paired outcomes differ in length: {len(a)} and {len(b)}")
    only_a = sum(1 for x, y in zip(a, b) if x and not y)
    only_b = sum(1 for x, y in zip(a, b) if y and not x)
    return mcnemar_exact(only_a, only_b, len(a))


def benjamini_hochberg(pvalues: Sequence[float]) -> tuple[float, ...]:
    """Benjamini-Hochberg q-values (false discovery rate) for a family of p-values.

    Parameters
    ----------
    pvalues : sequence of float
        p-values in ``[0, 1]``, in any order.

    Returns
    -------
    tuple of float
        q-values in the input order.

    Raises
    ------
    StatsError
        If a p-value is outside ``[0, 1]`` or not a number.

    Examples
    --------
    >>> [round(q, 4) for q in benjamini_hochberg([0.01, 0.04, 0.03, 0.2])]
    [0.04, 0.0533, 0.0533, 0.2]
    >>> benjamini_hochberg([])
    ()
    """
    values = []
    for p in pvalues:
        if isinstance(p, bool) or not isinstance(p, (int, float)) or math.isnan(p) or not 0 <= p <= 1:
            raise StatsError(f"p-values must be numbers in [0, 1], got {p!r}")
        values.append(float(p))
    if not values:
        return ()
    _, qvalues, _, _ = multipletests(values, method="fdr_bh")
    return tuple(float(q) for q in qvalues)
