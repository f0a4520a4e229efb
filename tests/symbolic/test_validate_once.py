"""``paratrace validate --check-gold`` runs the engine once per case when the normal form's theory
equals the grounded one, and the result is the one computed twice."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest

from symbolic.engine import status
from optimize.status_outputs import scenario_normal_form, trace_disagreement
from symbolic.suites.io import load_suite
from symbolic.scenario.model import Analysis, Fact, Rule
from symbolic.engine.status import evaluate_analysis
from symbolic.traces.tnf import normal_form, tnf_json

ROOT = Path(__file__).resolve().parents[2]
SUITES = [ROOT / "experiments" / "suites" / "controlled-140.jsonl", ROOT / "experiments" / "suites" / "normative-en.jsonl"]
E = ["E-01"]


def _counting(monkeypatch) -> list:
    calls = []
    real = status.evaluate

    def counted(theory, target):
        calls.append(target)
        return real(theory, target)

    monkeypatch.setattr(status, "evaluate", counted)
    return calls


@pytest.mark.parametrize("suite", SUITES, ids=lambda p: p.stem)
def test_the_reused_evaluation_gives_the_same_normal_form_and_verdict(suite):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for scenario in load_suite(suite)[::5]:
            evaluated = evaluate_analysis(scenario.evidence_ids(), scenario.gold, scenario.target)
            shared, fresh = scenario_normal_form(scenario, evaluated=evaluated), scenario_normal_form(scenario)
            assert tnf_json(shared.trace) == tnf_json(fresh.trace)
            assert shared.evaluation.status is fresh.evaluation.status
            assert trace_disagreement(scenario, evaluated) == trace_disagreement(scenario)


def test_the_engine_runs_once_when_nothing_collapses(monkeypatch):
    analysis = Analysis(facts=[Fact(id="f1", literal="a", evidence=E)],
                        rules=[Rule(id="r1", antecedents=["a"], consequent="p", evidence=E)])
    evaluated = evaluate_analysis(E, analysis, "p")
    calls = _counting(monkeypatch)
    form = normal_form(E, analysis, "p", evaluated=evaluated)
    assert calls == [] and form.evaluation is evaluated


def test_the_engine_runs_again_when_the_collapse_changes_the_theory(monkeypatch):
    analysis = Analysis(facts=[Fact(id="f1", literal="a", evidence=E)],
                        rules=[Rule(id="r1", antecedents=["a"], consequent="p", evidence=E),
                               Rule(id="r1b", antecedents=["a"], consequent="p", evidence=E)])  # an alias
    evaluated = evaluate_analysis(E, analysis, "p")
    calls = _counting(monkeypatch)
    form = normal_form(E, analysis, "p", evaluated=evaluated)
    assert calls == ["p"] and form.evaluation is not evaluated
    assert [r.id for r in form.evaluation.theory.rules] == ["r1"]


def test_an_evaluation_of_another_target_is_not_reused(monkeypatch):
    analysis = Analysis(facts=[Fact(id="f1", literal="a", evidence=E)],
                        rules=[Rule(id="r1", antecedents=["a"], consequent="p", evidence=E)])
    evaluated = evaluate_analysis(E, analysis, "a")
    calls = _counting(monkeypatch)
    form = normal_form(E, analysis, "p", evaluated=evaluated)
    assert form.evaluation.target == "p" and calls == ["p"]
