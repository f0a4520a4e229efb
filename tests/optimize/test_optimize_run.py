"""One run end to end: results come from the held-out split, which shares no cluster with the demos."""

from __future__ import annotations

import json

import pytest

from experiments.suites.registry import load_suite
from optimize.data import demo_cases
from optimize.errors import OptimizeError
from optimize.run import RunSpec, read_evaluation, run_optimization
from experiments.splits import cluster_keys, digest


@pytest.fixture(scope="module")
def outcome(tmp_path_factory):
    suite = [s for s in load_suite("normative-en") if s.id.startswith(("bank-", "comp-"))]
    out = run_optimization(RunSpec(optimizer="labeled", budget="3", seed=2, suite="normative-en"), suite,
                           tmp_path_factory.mktemp("run") / "labeled")
    return suite, out


def test_reported_scores_are_the_held_out_means(outcome):
    _, out = outcome
    evaluation = read_evaluation(out.directory)
    cases = evaluation["test"]
    assert sorted(cases) == sorted(out.split.ids("test"))
    mean_after = sum(c["after"]["score"] for c in cases.values()) / len(cases)
    assert out.manifest.scores_after["objective"] == pytest.approx(mean_after, abs=1e-6)
    assert out.manifest.scores_before["ASA"] == pytest.approx(
        sum(c["before"]["correct"] for c in cases.values()) / len(cases))
    assert out.manifest.splits["test"] == digest(out.split.test)


def test_demos_come_from_train_clusters_only(outcome):
    suite, out = outcome
    keys = cluster_keys(suite)
    train_clusters = {keys[i] for i in out.split.ids("train")}
    used = set().union(*demo_cases(out.program, suite).values())
    assert used and {keys[i] for i in used} <= train_clusters
    held_out = {keys[i] for i in (*out.split.ids("val"), *out.split.ids("test"))}
    assert not train_clusters & held_out


def test_evaluation_file_is_checked(tmp_path):
    with pytest.raises(OptimizeError, match="cannot read"):
        read_evaluation(tmp_path)
    (tmp_path / "evaluation.json").write_text(json.dumps({"test": {}}), encoding="utf-8")
    with pytest.raises(OptimizeError, match="not a held-out evaluation"):
        read_evaluation(tmp_path)


def test_each_held_out_case_records_whether_it_was_scored_and_its_tokens(outcome):
    from optimize.ledger import collect_runs, ledger_rows, render_ledger

    _, out = outcome
    cases = read_evaluation(out.directory)["test"]
    for when in ("before", "after"):
        assert all(isinstance(c[when]["scored"], bool) and c[when]["tokens"] > 0 for c in cases.values())
        rate = sum(c[when]["scored"] for c in cases.values()) / len(cases)
        assert getattr(out.manifest, f"scores_{when}")["scored_rate"] == pytest.approx(rate)
    row = ledger_rows(collect_runs(out.directory))[0]
    assert row.tokens_after == pytest.approx(sum(c["after"]["tokens"] for c in cases.values()) / len(cases))
    assert "| scored | tokens/case |" in render_ledger([row])


def test_the_compile_shows_one_line_per_case_the_optimizer_scores(tmp_path):
    """An optimizer that scores cases while it compiles (bootstrap) is not silent for the whole compile."""
    suite = [s for s in load_suite("normative-en") if s.id.startswith("bank-")]
    lines: list[str] = []
    run_optimization(RunSpec(optimizer="bootstrap", budget="2", seed=0, suite="normative-en"), suite,
                     tmp_path / "bootstrap", progress=lines.append)
    start = next(i for i, line in enumerate(lines) if line.startswith("compiling with bootstrap"))
    end = next(i for i, line in enumerate(lines) if line.startswith("after "))
    compile_lines = [line for line in lines if line.startswith("compile: ")]
    assert compile_lines and lines[start + 1:end] == compile_lines
    assert [int(line.split()[1]) for line in compile_lines] == list(range(1, len(compile_lines) + 1))
    assert all(line.split("(", 1)[1].split(":")[0] in {s.id for s in suite} for line in compile_lines)
