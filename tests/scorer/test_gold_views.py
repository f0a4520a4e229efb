"""scorer.gold_views: a suite scored again reuses its gold sides and gets exactly the same results."""

from __future__ import annotations

from pathlib import Path

import pytest

from scorer import gold_views as gold_views_module
from scorer.defects import gold_output
from scorer.gold_views import GoldViews
from scorer.metrics._examples import penalty_output, penalty_scenario
from scorer.metrics.context import gold_view
from scorer.score import score_suite
from symbolic.suites.io import load_suite

SUITE = Path(__file__).resolve().parents[2] / "experiments" / "suites" / "controlled-140.jsonl"


@pytest.fixture(scope="module")
def cases():
    scenarios = load_suite(SUITE)[:24]
    outputs = [gold_output(s, configuration="b4") for s in scenarios]
    outputs += [o.model_copy(update={"configuration": "b1", "trace": None}) for o in outputs]
    return scenarios, outputs


def _counting(monkeypatch) -> list:
    calls = []

    def counted(scenario, **options):
        calls.append(scenario.id)
        return gold_view(scenario, **options)

    monkeypatch.setattr(gold_views_module, "gold_view", counted)
    return calls


def test_scoring_twice_computes_each_gold_side_once_and_gives_the_same_results(cases, monkeypatch):
    scenarios, outputs = cases
    plain = score_suite(scenarios, outputs)
    calls = _counting(monkeypatch)
    views = GoldViews()
    first = score_suite(scenarios, outputs, gold_views=views)
    again = score_suite(scenarios, outputs[:30], gold_views=views)
    assert first == plain
    assert again == score_suite(scenarios, outputs[:30])
    assert sorted(calls) == sorted(s.id for s in scenarios) and views.computed == len(scenarios)


def test_budget_runs_out_the_same_way_every_time(monkeypatch):
    """The output side spends from the gold universe's budget: each scoring starts from the same state."""
    scenario = penalty_scenario()
    outputs = [penalty_output("accepted", "gold"), penalty_output("both", "gold")]
    outputs[1] = outputs[1].model_copy(update={"configuration": "other"})
    gold_spend = gold_view(scenario, budget=None).universe.budget.spent
    seen = set()
    for budget in range(max(gold_spend - 40, 1), gold_spend + 400, 7):
        plain = score_suite([scenario], outputs, budget=budget)
        views = GoldViews()
        shared = [score_suite([scenario], outputs, budget=budget, gold_views=views) for _ in range(3)]
        assert all(s == plain for s in shared), budget
        seen.add(tuple(r.not_scored is not None for r in plain))
    assert len(seen) > 1  # the range crosses the budgets at which scoring stops


def test_nothing_is_kept_past_max_edges(cases, monkeypatch):
    scenarios, outputs = cases
    calls = _counting(monkeypatch)
    views = GoldViews(max_edges=0)
    assert score_suite(scenarios, outputs, gold_views=views) == score_suite(scenarios, outputs, gold_views=views)
    assert len(calls) == 2 * len(scenarios) and views.held == 0


def test_another_scenario_under_the_same_id_is_computed_again():
    views = GoldViews()
    one = penalty_scenario()
    two = one.model_copy()
    views.view(one)
    views.view(two)
    views.view(two)
    assert views.computed == 2


def test_a_negative_bound_is_refused():
    with pytest.raises(ValueError, match="max_edges"):
        GoldViews(max_edges=-1)


def test_each_view_starts_from_the_state_right_after_the_gold_side():
    views = GoldViews()
    first = views.view(penalty_scenario(), budget=10_000)
    spent, memo, count = first.universe.budget.spent, dict(first.universe._memo), first.universe.evaluations
    u = first.universe
    untried = next(u.handles[:k] for k in range(len(u.handles)) if u.effective(u.handles[:k]) not in u._memo)
    u.evaluate(untried)  # work done while scoring one output...
    assert u.budget.spent > spent and u.evaluations == count + 1
    second = views.view(penalty_scenario(), budget=10_000)  # ...is not seen by the next scoring
    assert (second.universe.budget.spent, second.universe._memo, second.universe.evaluations) == (spent, memo, count)
    assert second.universe is not u and second.universe.budget is not u.budget
