"""Bounds of the scorer reported, never turned into scores: the NCR search
stopped by a cap, the scoring budget of a case, the alignment caps."""

from __future__ import annotations

import pytest

from scorer.budget import CaseBudget, argument_bound
from scorer.contract import CommonV1, OutputRecord, TraceV2
from scorer.metrics._stress import alternative_derivations, redundant_routes
from scorer.ncr import ncr_witness
from scorer.report import write_report
from scorer.score import score_case, score_suite
from scorer.summary import summarize


def _gold_output(scenario, status="accepted", config="c"):
    g = scenario.gold
    return OutputRecord(case_id=scenario.id, configuration=config, model="m",
                        common=CommonV1(final_status=status),
                        trace=TraceV2(facts=g.facts, rules=g.rules, priorities=g.priorities))


def test_redundant_routes_minimal_flip_is_exact_when_the_search_fits():
    s = redundant_routes(3)
    w = ncr_witness(s.evidence_ids(), s.gold, s.target)
    assert (w.cost, w.censored, w.stopped) == (3, False, False)
    assert score_case(s, _gold_output(s)).metrics["NCR"].value == 3.0


def test_redundant_routes_past_the_cap_is_a_lower_bound_not_a_no_flip_claim():
    s = redundant_routes(8)  # 26 objects, true minimal flip 8
    w = ncr_witness(s.evidence_ids(), s.gold, s.target)
    assert w.edit_set_size == 26 and w.stopped and not w.censored and w.cost != 27
    assert 2 <= w.lower_bound <= 8 and w.stopped_by == "max_evaluations"
    rec = score_case(s, _gold_output(s)).metrics["NCR"]
    assert rec.value is None and rec.metadata["lower_bound"] == w.lower_bound
    assert f"≥ {w.lower_bound}, search stopped" in rec.explanation and "no edit of up to" not in rec.explanation


def test_a_stopped_search_is_left_out_of_the_mean_and_counted_apart():
    exact, capped = redundant_routes(3), redundant_routes(8)
    results = score_suite([exact, capped], [_gold_output(exact), _gold_output(capped)])
    summary = summarize(results, n_resamples=50)
    ncr = next(r for r in summary.metric_rows if r.metric == "NCR")
    assert (ncr.estimate, ncr.n_applicable, ncr.n_cases) == (3.0, 1, 2)
    (limits,) = summary.limits
    assert limits.ncr_stopped == 1 and limits.ncr_bounds[0] >= 2 and limits.not_scored == 0


def test_an_incorrect_answer_keeps_the_gate_even_when_the_search_stopped():
    s = redundant_routes(8)
    rec = score_case(s, _gold_output(s, status="both")).metrics["NCR"]
    assert rec.value == 0.0 and "correctness gate" in rec.explanation


def test_a_case_over_the_budget_is_not_scored_and_never_counted():
    small, big = alternative_derivations(3), alternative_derivations(9)
    outputs = [_gold_output(small), _gold_output(big)]
    results = score_suite([small, big], outputs, budget=300)  # below one evaluation of the big case
    by_case = {r.case_id: r for r in results}
    assert by_case[small.id].not_scored is None and by_case[small.id].correct
    lost = by_case[big.id]
    assert lost.not_scored.startswith("budget:") and not lost.correct
    assert all(m.value is None and m.explanation.startswith("not scored (budget)") for m in lost.metrics.values())
    summary = summarize(results, n_resamples=50)
    assert summary.accuracy[0].n_cases == 1 and summary.accuracy[0].accuracy.estimate == 1.0
    assert summary.limits[0].not_scored == 1
    # with the default budget the same case is scored
    assert score_case(big, outputs[1]).not_scored is None


def test_a_theory_with_exponentially_many_arguments_is_refused_before_it_is_built():
    s = alternative_derivations(23)  # 2**23 arguments for the target: far past the engine's limit
    r = score_case(s, _gold_output(s))
    assert r.not_scored and "arguments" in r.not_scored
    from symbolic.engine.grounding import ground

    assert argument_bound(ground(s.evidence_ids(), s.gold), 10_000) == 10_001


def test_budget_outcome_and_report_are_byte_deterministic(tmp_path):
    cases = [redundant_routes(3), redundant_routes(8), alternative_derivations(9)]
    outputs = [_gold_output(s) for s in cases]
    texts = []
    for run in ("a", "b"):
        results = score_suite(cases, outputs, budget=300)
        summary = summarize(results, outputs=outputs, scenarios=cases, n_resamples=50)
        write_report(tmp_path / run, summary=summary, scenarios=cases, outputs=outputs, results=results)
        texts.append({p.name: p.read_bytes() for p in sorted((tmp_path / run).iterdir())})
    assert texts[0] == texts[1]
    md = texts[0]["summary.md"].decode()
    lost = sum(1 for r in results if r.not_scored)
    stopped = sum(1 for r in results if r.metrics["NCR"].metadata.get("stopped_by") == "budget")
    assert lost >= 1 and stopped >= 1
    assert "Scoring limits" in md and f"| c / m | 3 | {lost} | {stopped} |" in md


def test_alignment_cap_is_reported_per_case():
    s = redundant_routes(3)
    r = score_case(s, _gold_output(s))
    assert r.alignment.metadata["classes_capped"] is False


def test_case_budget_rejects_nonsense():
    with pytest.raises(ValueError, match="positive"):
        CaseBudget(0)


def test_a_stopped_search_carries_a_verified_upper_bound():
    s = redundant_routes(8)
    w = ncr_witness(s.evidence_ids(), s.gold, s.target)
    assert w.stopped and len(w.upper_bound) == 8  # one object per route: the true minimum
    from scorer.subtheory import Universe

    u = Universe(s.evidence_ids(), s.gold, s.target)
    assert u.status(frozenset(u.handles).difference(w.upper_bound)) is not w.status
    rec = score_case(s, _gold_output(s)).metrics["NCR"]
    assert "≤ 8" in rec.explanation and rec.value is None


def test_lower_bound_meeting_the_verified_edit_is_exact():
    s = redundant_routes(3)
    w = ncr_witness(s.evidence_ids(), s.gold, s.target, max_size=2)  # sizes 1-2 exhausted, greedy edit of 3
    assert not w.stopped and w.cost == 3 and len(w.witness) == 3
