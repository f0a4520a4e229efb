"""Every metric end to end: the real runner, over real HTTP, against the oracle
backbones (perfect and noisy), through litellm/DSPy/Instructor like any model.

The perfect oracle answers every prompt from the gold of the case the prompt
names, so each metric must reach its top; the noisy oracle corrupts a seeded
share of its answers and reports which (its ledger), so each metric must stay
at its top on the untouched cases and fall only on the corrupted ones.
"""

from __future__ import annotations

import math
import os
from collections import Counter

import pytest

from assistant.oracle import OracleServer
from experiments.runner.plan import load_suites
from experiments.runner.run import run_experiment
from experiments.runner.spec import ExperimentSpec

NOISE, SEED = 0.3, 7
TOP = {"ASA": 1.0, "TGC": 1.0, "CLA": 1.0, "NER": 1.0, "PHA": 1.0, "BRA": 1.0, "DLA": 1.0}


@pytest.fixture(scope="module")
def api_key():
    old = os.environ.get("PARATRACE_API_KEY")
    os.environ["PARATRACE_API_KEY"] = "not-a-real-key"  # the OpenAI client wants a key; the oracle ignores it
    yield
    if old is None:
        os.environ.pop("PARATRACE_API_KEY", None)
    else:
        os.environ["PARATRACE_API_KEY"] = old


def _run(tmp_path_factory, suite: str, configurations, noise: float):
    scenarios, _ = load_suites([suite])
    workdir = tmp_path_factory.mktemp(f"{suite}-{noise}")
    with OracleServer(scenarios[suite], noise=noise, seed=SEED) as srv:
        spec = ExperimentSpec(name=f"oracle-{noise}", suites=[suite], configurations=configurations,
                              backbones=[{"model": f"openai/oracle-{noise}", "api_base": srv.base_url}],
                              concurrency=4, max_retries=0)
        run = run_experiment(spec, workdir=workdir, track=False)
        ledger = srv.oracle.ledger()
    cells = {c.configuration: c for c in run.scores[0].cells}
    return run, cells, ledger, {s.id: s for s in scenarios[suite]}


@pytest.fixture(scope="module")
def controlled(api_key, tmp_path_factory):
    return _run(tmp_path_factory, "controlled-140", ["b1", "b4"], 0.0)


@pytest.fixture(scope="module")
def normative(api_key, tmp_path_factory):
    return _run(tmp_path_factory, "normative-en", ["b1", "b4"], 0.0)


@pytest.fixture(scope="module")
def noisy(api_key, tmp_path_factory):
    return _run(tmp_path_factory, "normative-en", ["b1", "b4"], NOISE)


def _metric(cell, name):
    return cell.metrics()[name][0]


def test_b4_with_the_oracle_reaches_the_top_on_controlled_140(controlled):
    run, cells, ledger, _ = controlled
    assert run.summary.failures == 0 and ledger["answered"] > 0 and not ledger["corruptions"]
    b4 = cells["b4"]
    assert _metric(b4, "ASA") >= 0.99
    assert _metric(b4, "DLA") >= 0.95
    by_class = Counter()
    for r in b4.results:
        if r.metrics["DLA"].value is not None:
            by_class[r.metrics["DLA"].metadata["gold_class"]] += r.metrics["DLA"].value
    assert set(by_class) == {"missing_evidence", "incomplete_coverage", "extraction_error", "priority_inversion",
                             "attack_deletion", "invalid_proof_node"}
    assert by_class["attack_deletion"] >= 19 and by_class["invalid_proof_node"] >= 19


def test_b1_audit_prompt_localizes_every_class_with_the_oracle(controlled):
    _, cells, _, _ = controlled
    assert _metric(cells["b1"], "DLA") == 1.0 and _metric(cells["b1"], "ASA") == 1.0


def test_the_component_audit_is_in_run_reports(controlled):
    run, _, _, _ = controlled
    audit = (run.scores[0].report_dir / "audit.csv").read_text(encoding="utf-8").splitlines()
    rows = {tuple(row.split(",")[:2]) for row in audit[1:]}
    b4 = "b4 / openai/oracle-0.0 / standard"
    assert {("no_priority_edges", "gold"), ("no_priority_edges", b4), ("no_tnf", b4),
            ("no_trace_graph", b4)} <= rows
    assert not any(source.startswith("b1 ") for _, source in rows)  # B1's audit verdict is no trace


@pytest.mark.parametrize("config, metrics", [
    ("b4", ("ASA", "TGC", "CLA", "NER", "PHA", "BRA")),
    ("b1", ("ASA", "CLA", "NER", "PHA", "BRA")),
])
def test_every_metric_reaches_its_top_on_normative_en(normative, config, metrics):
    run, cells, ledger, _ = normative
    assert run.summary.failures == 0 and not ledger["corruptions"]
    for name in metrics:
        assert _metric(cells[config], name) == TOP[name], name
    assert _metric(cells[config], "UUCR") == 0.0


def _corrupted(ledger, predictor):
    return {case for c in ledger["corruptions"] if c["predictor"] == predictor for case in c["cases"]}


def test_noisy_oracle_corrupts_about_the_stated_rate(noisy):
    run, _, ledger, scenarios = noisy
    assert run.summary.failures == 0
    n = len(scenarios)
    for predictor in ("answer", "extract"):
        share = len(_corrupted(ledger, predictor)) / n
        assert abs(share - NOISE) <= 3 * math.sqrt(NOISE * (1 - NOISE) / n), (predictor, share)
    assert {c["kind"] for c in ledger["corruptions"]} >= {"old_clause_id", "wrong_status", "dropped_priority",
                                                         "missing_exception"}


def test_b1_status_accuracy_falls_by_exactly_the_wrong_statuses(noisy):
    _, cells, ledger, scenarios = noisy
    wrong = {c["case_id"] for c in ledger["corruptions"] if c["predictor"] == "answer" and c["kind"] == "wrong_status"}
    assert wrong
    assert _metric(cells["b1"], "ASA") == pytest.approx(1 - len(wrong) / len(scenarios))
    assert {r.case_id for r in cells["b1"].results if not r.correct} == wrong


@pytest.mark.parametrize("metric", ["ASA", "TGC", "CLA", "PHA", "BRA"])
def test_b4_metrics_stay_at_the_top_on_clean_cases_and_fall_only_on_corrupted_ones(noisy, metric):
    _, cells, ledger, scenarios = noisy
    corrupted = _corrupted(ledger, "extract")
    pairs = {s.metadata.pair for s in scenarios.values() if s.id in corrupted and s.metadata.pair}
    results = cells["b4"].results
    applicable = [r for r in results if r.metrics[metric].value is not None]
    for r in applicable:
        touched = r.case_id in corrupted or (metric == "BRA" and scenarios[r.case_id].metadata.pair in pairs)
        if not touched:
            assert r.metrics[metric].value == TOP[metric], (metric, r.case_id)
    value = _metric(cells["b4"], metric)
    share = len([r for r in applicable if r.case_id in corrupted]) / len(applicable)
    if metric == "BRA":
        share = len([p for p in pairs if p]) / max(1, len({scenarios[r.case_id].metadata.pair for r in applicable}))
    assert TOP[metric] - value <= share + 1e-9, (metric, value, share)


def test_b4_metrics_fall_with_the_noisy_oracle(noisy):
    _, cells, _, _ = noisy
    for metric in ("ASA", "TGC", "PHA"):
        assert _metric(cells["b4"], metric) < TOP[metric], metric


def test_operations_table_escapes_run_labels(controlled):
    import re

    run, _, _, _ = controlled
    text = (run.scores[0].report_dir / "operations.md").read_text(encoding="utf-8")
    rows = [line for line in text.splitlines() if line.startswith("|")]
    assert len(rows) == 2 + 2  # header, rule, b1, b4
    widths = {len(re.split(r"(?<!\\)\|", line)) for line in rows}
    assert widths == {12}  # 10 cells between 11 unescaped bars
    assert "b4 \\| openai/oracle-0.0 \\| standard \\| r0" in text
