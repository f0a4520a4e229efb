"""``paratrace status --format text`` of a large theory: the tables become streamed plain lines."""

from __future__ import annotations

import io

from rich.console import Console

from symbolic.traces import text as cli_render
from symbolic.suites.io import load_suite
from symbolic.engine.status import evaluate_analysis
from pathlib import Path

SUITE = Path(__file__).resolve().parent / "fixtures" / "penalty_suite.jsonl"


def _render(scenario, evaluation) -> str:
    out = io.StringIO()
    cli_render.render_text(Console(file=out, width=100, highlight=False), scenario, evaluation)
    return out.getvalue()


def test_large_tables_are_plain_lines(monkeypatch):
    scenario = load_suite(SUITE)[0]
    evaluation = evaluate_analysis(scenario.evidence_ids(), scenario.gold, scenario.target)
    small = _render(scenario, evaluation)
    assert "Grounded labelling (Algorithm 1)" in small and "\t" not in small
    monkeypatch.setattr(cli_render, "TABLE_LIMIT", 0)
    large = _render(scenario, evaluation)
    lines = large.splitlines()
    header = lines.index(f"Attacks (Definition 2) and neutralization (Definition 4): {len(evaluation.attacks)} attacks")
    rows = lines[header + 2:]
    assert len(rows) == len(evaluation.attacks)
    expected = sorted(f"{a.attacker}\t{a.target}\t{a.kind.value}\t{a.on}\t{a.lic or '-'}\t"
                      + ("active" if a.defeated_by is None else "defeated by %s > %s" % a.defeated_by)
                      for a in evaluation.attacks)
    assert sorted(rows) == expected
    labels = lines[lines.index("argument\tconclusion\tderivation\tlabel") + 1:header]
    assert [line.split("\t")[0] for line in labels] == [a.id for a in evaluation.arguments]
    assert "status " in large and "accepted" in large


def test_large_priority_base_is_listed_after_the_panel(monkeypatch):
    scenario = next(s for s in load_suite(SUITE) if s.gold.priorities)
    evaluation = evaluate_analysis(scenario.evidence_ids(), scenario.gold, scenario.target)
    monkeypatch.setattr(cli_render, "TABLE_LIMIT", 0)
    lines = _render(scenario, evaluation).splitlines()
    base = sorted(evaluation.priorities.base)
    assert base and any(f"Priority base P0: {len(base)} pairs (listed below the panel)" in line for line in lines)
    start = lines.index(f"Priority base P0: {len(base)} pairs") + 1
    assert lines[start:start + len(base)] == [f"{a} > {b}" for a, b in base]
    assert lines[start + len(base)].startswith("Grounded labelling (Algorithm 1): ")


def test_priority_base_rows_are_the_pairs_sorted_as_strings():
    import random

    names = ["r1", "r10", "r1_", "r2", "é", "a", "ab", "a\\b", "Z", "r1>"]
    for seed in range(200):
        rng = random.Random(seed)
        base = frozenset((rng.choice(names), rng.choice(names)) for _ in range(rng.randint(0, 30)))
        got = b"".join(cli_render._base_rows(base)).decode("utf-8")
        assert got == "".join(f"{a} > {b}\n" for a, b in sorted(base))
