"""Splits by scenario and update-pair cluster: no pair straddles, seeded, stratified, digested."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from experiments.suites.registry import load_suite
from experiments.errors import SplitError
from experiments.splits import cluster_keys, digest, split_scenarios
from scorer.metrics._examples import penalty_scenario
from symbolic.scenario.model import Metadata


def _case(i: int, pair: int | None = None, role: str | None = None, tags=()):
    md = Metadata(pair=None if pair is None else f"p{pair}", role=role, tags=tuple(tags))
    return penalty_scenario().model_copy(update={"id": f"c{i:02d}", "metadata": md})


def _assert_cluster_closed(split, scenarios):
    keys = cluster_keys(scenarios)
    where = {}
    for name in ("train", "val", "test"):
        for s in getattr(split, name):
            assert where.setdefault(keys[s.id], name) == name, f"cluster of {s.id} straddles splits"


@settings(max_examples=40, derandomize=True, deadline=None)
@given(st.lists(st.integers(min_value=0, max_value=5), min_size=6, max_size=16), st.integers(0, 1000))
def test_no_cluster_straddles_splits(pairs, seed):
    # every second case joins pair pairs[i] (so pairs of 2+ members form), the rest are singletons
    cases = [_case(i, p if i % 2 else None, "base" if i % 2 else None) for i, p in enumerate(pairs)]
    try:
        split = split_scenarios(cases, seed=seed)
    except SplitError:
        assert len(set(cluster_keys(cases).values())) < 3
        return
    _assert_cluster_closed(split, cases)
    ids = [s.id for part in (split.train, split.val, split.test) for s in part]
    assert sorted(ids) == sorted(c.id for c in cases)


def test_normative_suite_pairs_stay_together_and_priority_cases_reach_every_split():
    suite = load_suite("normative-en")
    split = split_scenarios(suite, seed=3)
    _assert_cluster_closed(split, suite)
    for part in (split.train, split.val, split.test):
        assert any(s.gold.priorities for s in part)
    assert split_scenarios(suite, seed=3).digests == split.digests
    assert split_scenarios(suite, seed=4).digests != split.digests


def test_controlled_variants_join_their_base_and_its_pair():
    cases = [_case(0, 1, "base"), _case(1, 1, "update"), _case(2, tags=("base:c01",)), _case(3)]
    assert cluster_keys(cases) == {"c00": "c00", "c01": "c00", "c02": "c00", "c03": "c03"}


def test_digest_depends_on_content_not_order():
    a, b = _case(0), _case(1)
    assert digest([a, b]) == digest([b, a])
    changed = a.model_copy(update={"query": "Another question?"})
    assert digest([changed, b]) != digest([a, b])


@pytest.mark.parametrize("fractions", [(1, 1), (0.5, 0, 0.5), (1, -1, 1)])
def test_bad_fractions(fractions):
    with pytest.raises(SplitError, match="fractions"):
        split_scenarios([_case(i) for i in range(6)], fractions=fractions)


def test_too_few_clusters_and_duplicates():
    with pytest.raises(SplitError, match="2 clusters"):
        split_scenarios([_case(0, 1, "base"), _case(1, 1, "update"), _case(2)])
    with pytest.raises(SplitError, match="share the id 'c00'"):
        split_scenarios([_case(0), _case(0), _case(1), _case(2)])
