"""Statistics: Wilson, bootstrap TGC, exact McNemar, BH, confusion matrix, stability."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorer.errors import StatsError
from scorer.stats import (
    benjamini_hochberg,
    bootstrap_mean,
    bootstrap_tgc,
    confusion_matrix,
    mcnemar_exact,
    mean_sd,
    paired_mcnemar,
    stability,
    wilson,
)


def test_wilson_paper_value():
    ci = wilson(486, 567)
    assert (round(100 * ci.low, 1), round(100 * ci.high, 1)) == (82.6, 88.4)
    assert ci.numerator == 486 and ci.denominator == 567 and ci.method == "wilson"


def test_wilson_closed_form():
    k, n, z = 7, 20, 1.959963984540054
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    ci = wilson(k, n)
    assert ci.low == pytest.approx(centre - half, abs=1e-12)
    assert ci.high == pytest.approx(centre + half, abs=1e-12)


def test_wilson_extremes_stay_in_unit_interval():
    assert wilson(0, 10).low == 0.0 and wilson(10, 10).high == pytest.approx(1.0)
    assert 0 < wilson(0, 10).high < 0.35


@pytest.mark.parametrize("k,n", [(1, 0), (5, 4), (-1, 3), (True, 3), (1.5, 3)])
def test_wilson_rejects_bad_counts(k, n):
    with pytest.raises(StatsError):
        wilson(k, n)


@settings(max_examples=60, derandomize=True)
@given(st.integers(1, 500).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n))))
def test_wilson_contains_estimate(kn):
    k, n = kn
    ci = wilson(k, n)
    assert ci.low - 1e-12 <= k / n <= ci.high + 1e-12


def test_bootstrap_is_seeded_and_brackets_estimate():
    counts = [(3, 5), (4, 4), (0, 2), (7, 10), (0, 0)]
    a = bootstrap_tgc(counts, seed=1, n_resamples=400)
    assert a == bootstrap_tgc(counts, seed=1, n_resamples=400)
    big = [(137, 250), (80, 101), (333, 512)]
    assert bootstrap_tgc(big, seed=1, n_resamples=300) != bootstrap_tgc(big, seed=2, n_resamples=300)
    assert a.estimate == pytest.approx(14 / 21)
    assert a.low < a.estimate < a.high
    assert (a.numerator, a.denominator) == (14, 21)


def test_bootstrap_case_level_is_wider_when_cases_are_all_or_nothing():
    counts = [(10, 10)] * 5 + [(0, 10)] * 5
    edge = bootstrap_tgc(counts, seed=3, n_resamples=2000, level="edge")
    case = bootstrap_tgc(counts, seed=3, n_resamples=2000, level="case")
    assert case.high - case.low > edge.high - edge.low
    assert case.method == "bootstrap-case"


def test_bootstrap_edge_level_matches_binomial_spread():
    counts = [(50, 100)] * 4
    ci = bootstrap_tgc(counts, seed=0, n_resamples=4000)
    # normal approximation of the edge-level percentile interval: 0.5 +- 1.96 * sqrt(.25 / 400)
    assert ci.low == pytest.approx(0.5 - 1.96 * 0.025, abs=0.01)
    assert ci.high == pytest.approx(0.5 + 1.96 * 0.025, abs=0.01)


@pytest.mark.parametrize("counts", [[], [(0, 0)], [(3, 2)], [(1,)], [(-1, 2)]])
def test_bootstrap_rejects_bad_counts(counts):
    with pytest.raises(StatsError):
        bootstrap_tgc(counts, seed=0)


def test_mcnemar_exact_matches_binomial():
    # two-sided exact: 2 * P(X <= min(b, c)) for X ~ Bin(b + c, 1/2)
    b, c = 2, 10
    tail = sum(math.comb(12, i) for i in range(0, 3)) / 2 ** 12
    assert mcnemar_exact(b, c).pvalue == pytest.approx(2 * tail)
    assert mcnemar_exact(5, 5).pvalue == pytest.approx(1.0)
    assert mcnemar_exact(0, 0).pvalue == 1.0
    assert mcnemar_exact(0, 6).pvalue == pytest.approx(2 / 64)


def test_paired_mcnemar_counts_discordant_pairs():
    a = [True, True, True, False, False, True]
    b = [True, False, False, True, False, False]
    r = paired_mcnemar(a, b)
    assert (r.b, r.c, r.n) == (3, 1, 6)
    with pytest.raises(StatsError):
        paired_mcnemar([True], [True, False])


def test_benjamini_hochberg_against_hand_computation():
    p = [0.001, 0.008, 0.039, 0.041, 0.042, 0.06, 0.074, 0.205]
    m = len(p)
    expected = [min(1.0, min(p[j] * m / (j + 1) for j in range(i, m))) for i in range(m)]
    assert benjamini_hochberg(p) == pytest.approx(expected)
    shuffled = [p[3], p[0], p[7], p[1], p[2], p[6], p[4], p[5]]
    q = benjamini_hochberg(shuffled)
    assert q[1] == pytest.approx(expected[0]) and q[2] == pytest.approx(expected[7])
    with pytest.raises(StatsError):
        benjamini_hochberg([0.5, 1.2])
    with pytest.raises(StatsError):
        benjamini_hochberg([float("nan")])


def test_confusion_matrix_counts_failures():
    gold = ["accepted", "accepted", "both", "undecidable", "rejected"]
    pred = ["accepted", None, "accepted", "undecidable", "both"]
    cm = confusion_matrix(gold, pred)
    assert cm.columns[-1] == "failure"
    assert cm.count("accepted", "accepted") == 1 and cm.count("accepted", "failure") == 1
    assert cm.count("both", "accepted") == 1 and cm.count("rejected", "both") == 1
    assert cm.total == 5
    with pytest.raises(StatsError):
        confusion_matrix(["maybe"], ["both"])
    with pytest.raises(StatsError):
        confusion_matrix(["both"], [])


def test_mean_sd_is_sample_sd():
    mean, sd = mean_sd([0.7, 0.8, 0.9, 1.0])
    assert mean == pytest.approx(0.85) and sd == pytest.approx(0.12909944487358055)
    with pytest.raises(StatsError):
        mean_sd([])


def test_stability():
    runs = [{"a": "both", "b": "accepted", "c": None},
            {"a": "both", "b": "rejected", "c": None},
            {"a": "both", "b": "accepted", "c": "both"}]
    s = stability(runs, gold={"a": "both", "b": "accepted", "c": "both"})
    assert s.n_runs == 3 and s.n_cases == 3
    assert s.all_same == pytest.approx(1 / 3)          # only "a"; failures never agree
    assert s.pairwise_agreement == pytest.approx((1 + 1 / 3 + 0) / 3)
    assert s.per_run_accuracy == pytest.approx((2 / 3, 1 / 3, 1.0))
    assert s.accuracy_mean == pytest.approx(2 / 3)
    assert s.accuracy_sd == pytest.approx(1 / 3)
    assert stability(runs).accuracy_mean is None


def test_stability_rejects_mismatched_runs():
    with pytest.raises(StatsError):
        stability([{"a": "both"}])
    with pytest.raises(StatsError):
        stability([{"a": "both"}, {"b": "both"}])
    with pytest.raises(StatsError):
        stability([{"a": "both"}, {"a": "both"}], gold={})


def test_bootstrap_mean_is_seeded():
    values = [1, 2, 3, 9]
    ci = bootstrap_mean(values, seed=1, n_resamples=100)
    assert ci == bootstrap_mean(values, seed=1, n_resamples=100)
    assert ci.estimate == 3.75 and ci.low <= 3.75 <= ci.high and ci.method == "bootstrap-case"
    with pytest.raises(StatsError):
        bootstrap_mean([], seed=0)
    with pytest.raises(StatsError):
        bootstrap_mean([1.0], seed=0, n_resamples=0)
