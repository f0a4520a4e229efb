"""A priority that compares a rule with itself is a cycle (Definition 3), in every output.

Facts A, B; r1: A => P; r2: B => ¬P; priorities r2 > r1 and r2 > r2.  The self-loop makes r2
unresolved: it loses all its comparisons, ``r2 > r1`` included, so the two rule arguments attack
each other unopposed, both are UNDEC and the status of P is ``both`` (docs/semantics.md
section 5).  The normal form once dropped ``r2 > r2`` as "two aliases of one rule", kept
``r2 > r1`` and wrote ``rejected`` in json and dot while text said ``both``; every format is
checked here through the CLI, and the trace normal form and the argument graph of the HTML page
through the API.
"""

from __future__ import annotations

import json
import re

import pytest
from typer.testing import CliRunner

import optimize.root as root
from assistant.render_svg import argument_svg
from symbolic.suites.io import load_suite
from symbolic.scenario.model import Analysis, Fact, Priority, Rule
from symbolic.engine.status import evaluate_analysis
from symbolic.traces.tnf import normal_form, tnf, tnf_json, trace_from_json
from symbolic.traces.trace import build_trace

runner = CliRunner()
E = ["E-01"]
EVIDENCE = [{"id": "E-01", "text": "clause", "source": "contract"}]


def _record(priorities) -> dict:
    return {
        "id": "self-loop", "query": "P?", "target": "P", "evidence": EVIDENCE,
        "gold": {
            "status": "both",
            "facts": [{"id": "f1", "literal": "A", "evidence": E}, {"id": "f2", "literal": "B", "evidence": E}],
            "rules": [{"id": "r1", "antecedents": ["A"], "consequent": "P", "evidence": E},
                      {"id": "r2", "antecedents": ["B"], "consequent": "¬P", "evidence": E}],
            "priorities": [{"stronger": s, "weaker": w, "basis": "exception", "evidence": E}
                           for s, w in priorities],
        },
    }


@pytest.fixture()
def suite(tmp_path):
    path = tmp_path / "self_loop.jsonl"
    path.write_text(json.dumps(_record([("r2", "r1"), ("r2", "r2")]), ensure_ascii=False) + "\n",
                    encoding="utf-8")
    return path


@pytest.fixture()
def long_suite(tmp_path):
    """The same theory with 1,225 more priorities among 50 unrelated rules (a list this long once
    took a columnar path of its own through the alias collapse)."""
    record = _record([("r2", "r1"), ("r2", "r2")])
    gold = record["gold"]
    gold["facts"].append({"id": "fx", "literal": "X", "evidence": E})
    gold["rules"] += [{"id": f"x{i}", "antecedents": ["X"], "consequent": f"Q{i}", "evidence": E}
                      for i in range(50)]
    gold["priorities"] += [{"stronger": f"x{i}", "weaker": f"x{j}", "basis": "hierarchy", "evidence": E}
                           for i in range(50) for j in range(i)]
    path = tmp_path / "self_loop_long.jsonl"
    path.write_text(json.dumps(record, ensure_ascii=False) + "\n", encoding="utf-8")
    return path


def test_long_priority_lists_say_both_in_every_format(long_suite):
    assert "status both" in _status(long_suite)
    for options in ((), ("--attacks", "columns"), ("--defeats", "edges")):
        assert json.loads(_status(long_suite, "--format", "json", *options))["status"] == "both"
    assert '"status:both"' in _status(long_suite, "--format", "dot")


def _status(*args):
    result = runner.invoke(root.app, ["status", *map(str, args)])
    assert result.exit_code == 0, result.output
    return result.stdout


def test_text_says_both_and_names_the_cycle(suite):
    out = _status(suite)
    assert "status both" in out and "s(p)=1 a(p)=1" in out
    assert "Unresolved priorities (cycles): {r2}" in out


@pytest.mark.parametrize("options", [
    (), ("--defeats", "edges"), ("--defeats", "summary"), ("--attacks", "edges"), ("--attacks", "columns"),
])
def test_json_says_both_and_keeps_the_self_loop(suite, options):
    record = json.loads(_status(suite, "--format", "json", *options))
    assert (record["status"], record["support"], record["against"]) == ("both", True, True)
    assert record["dropped"] == []  # r2 > r2 is a cycle, not an alias comparison
    tnf_text = json.dumps(record["tnf"], ensure_ascii=False)
    assert "status:both" in tnf_text and "status:rejected" not in tnf_text
    priorities = sorted(n["id"] for n in record["tnf"]["nodes"] if n["type"] == "priority")
    assert priorities == ["priority:(B=>¬P)>(A=>P)", "priority:(B=>¬P)>(B=>¬P)"]
    assert '"state":"defeated"' not in json.dumps(record["tnf"], separators=(",", ":"))


@pytest.mark.parametrize("options", [(), ("--defeats", "summary")])
def test_dot_says_both(suite, options):
    out = _status(suite, "--format", "dot", *options)
    assert '"status:both"' in out and "status:rejected" not in out
    assert len(re.findall(r'label="UNDEC: ', out)) == 2
    assert "(defeated)" not in out


def test_every_format_agrees_with_the_engine(suite):
    scenario = load_suite(suite)[0]
    engine = evaluate_analysis(scenario.evidence_ids(), scenario.gold, scenario.target)
    assert engine.status.value == "both"
    assert engine.priorities.unresolved == frozenset({"r2"})
    form = normal_form(scenario.evidence_ids(), scenario.gold, scenario.target, query=scenario.query)
    assert form.evaluation.status.value == "both"
    assert form.dropped == ()


def _analysis(priorities) -> Analysis:
    return Analysis(
        facts=[Fact(id="f1", literal="A", evidence=E), Fact(id="f2", literal="B", evidence=E)],
        rules=[Rule(id="r1", antecedents=["A"], consequent="P", evidence=E),
               Rule(id="r2", antecedents=["B"], consequent="¬P", evidence=E)],
        priorities=[Priority(stronger=s, weaker=w, basis="exception", evidence=E) for s, w in priorities])


def test_tnf_api_and_its_json_round_trip_say_both():
    trace = tnf(E, _analysis([("r2", "r1"), ("r2", "r2")]), "P", query="P?")
    statuses = [n.id for n in trace.nodes if n.type == "status"]
    assert statuses == ["status:both"]
    again = trace_from_json(tnf_json(trace))
    assert [n.id for n in again.nodes if n.type == "status"] == ["status:both"]


def test_trace_graph_and_html_argument_graph_say_both():
    evaluation = evaluate_analysis(E, _analysis([("r2", "r1"), ("r2", "r2")]), "P")
    graph = build_trace(evaluation, query="P?")
    assert "status:both" in graph.nodes and "status:rejected" not in graph.nodes
    svg = argument_svg(evaluation)
    labels = dict(re.findall(r'data-id="(A\d)" data-label="(\w+)"', svg))
    assert labels == {"A1": "IN", "A2": "IN", "A3": "UNDEC", "A4": "UNDEC"}
    assert 'class="attack defeated"' not in svg


def test_a_comparison_of_two_aliases_is_still_dropped():
    """r2b restates r2: ``r2 > r2b`` compares one norm with itself through its copies and is dropped
    by the alias collapse (docs/semantics.md section 12), unlike a rule compared with itself."""
    analysis = _analysis([("r2", "r1")])
    analysis = analysis.model_copy(update={
        "rules": [*analysis.rules, Rule(id="r2b", antecedents=["B"], consequent="¬P", evidence=E)],
        "priorities": [*analysis.priorities, Priority(stronger="r2", weaker="r2b", basis="exception", evidence=E)]})
    form = normal_form(E, analysis, "P")
    assert ("priority", "r2>r2b", "compares two aliases of one rule") in {
        (d.kind, d.id, d.reason) for d in form.dropped}
    assert form.evaluation.status.value == "rejected"
