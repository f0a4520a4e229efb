"""TNF JSON and DOT written from an evaluation's rows (write_tnf, write_dot of evaluation_rows)
against the object-per-edge trace.

The streamed text is byte-identical to ``tnf_json`` / ``to_dot`` of the
trace graph; the summarized form says the same as the defeat edges it leaves
out; ``paratrace status --defeats`` selects the form.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

from symbolic.traces import trace as trace_module
from symbolic.traces.dot import to_dot
from symbolic.suites.io import load_suite
from symbolic.scenario.model import Analysis, Fact, Priority, Rule
from symbolic.traces.tnf import normal_form, tnf_json
from symbolic.traces.defeat_sets import defeat_set_id
from trace_text import iter_dot, iter_tnf_json
from symbolic.traces.trace import build_trace

ROOT = Path(__file__).resolve().parents[2]
SUITES = [ROOT / "experiments" / "suites" / "controlled-140.jsonl", ROOT / "experiments" / "suites" / "normative-en.jsonl"]
E = ("E-01",)



def random_analysis(seed: int) -> Analysis:
    """Rebut teams with random priorities, undercutters and an undermined fact."""
    rng = random.Random(seed)
    facts, rules, priorities = [], [], []
    for g in range(rng.randint(1, 3)):
        k = rng.randint(1, 5)
        for j in range(k):
            facts += [Fact(id=f"f{g}_{j}", literal=f"F{g}_{j}", evidence=E),
                      Fact(id=f"h{g}_{j}", literal=f"H{g}_{j}", evidence=E)]
            rules += [Rule(id=f"p{g}_{j}", antecedents=[f"F{g}_{j}"], consequent=f"P{g}", evidence=E),
                      Rule(id=f"c{g}_{j}", antecedents=[f"H{g}_{j}"], consequent=f"¬P{g}", evidence=E)]
        for a in range(k):
            for b in range(k):
                if rng.random() < 0.4:
                    priorities.append(Priority(stronger=f"c{g}_{a}", weaker=f"p{g}_{b}", basis="hierarchy",
                                               evidence=E))
        if rng.random() < 0.6:
            rules.append(Rule(id=f"x{g}", antecedents=[f"H{g}_0"], consequent=f"¬applicable(p{g}_0)", evidence=E))
            if rng.random() < 0.3:
                priorities.append(Priority(stronger=f"p{g}_0", weaker=f"x{g}", basis="hierarchy", evidence=E))
        if rng.random() < 0.5:
            rules.append(Rule(id=f"u{g}", antecedents=[f"H{g}_0"], consequent=f"¬F{g}_0", evidence=E))
            rules.append(Rule(id=f"m{g}", antecedents=[f"P{g}"], consequent=f"Q{g}", evidence=E))
            priorities.append(Priority(stronger=f"p{g}_0", weaker=f"u{g}", basis="hierarchy", evidence=E))
            if any(r.id == f"x{g}" for r in rules):  # p_0 > u > x: the undercut is defeated by a closure pair
                priorities.append(Priority(stronger=f"u{g}", weaker=f"x{g}", basis="hierarchy", evidence=E))
    return Analysis(facts=facts, rules=rules, priorities=priorities)


def _form(analysis, query=None):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return normal_form(E, analysis, "P0", query=query)


@pytest.mark.parametrize("seed", range(40))
def test_streamed_json_and_dot_equal_the_trace(seed):
    form = _form(random_analysis(seed), query="Is P0 due?")
    assert "".join(iter_tnf_json(form.evaluation, query="Is P0 due?", defeats="edges")) == tnf_json(form.trace)
    graph = build_trace(form.evaluation, query="Is P0 due?")
    assert "".join(iter_dot(form.evaluation, query="Is P0 due?", name="c")) == to_dot(graph, name="c")


@pytest.mark.parametrize("suite", SUITES, ids=lambda p: p.stem)
def test_streamed_json_equals_the_trace_on_the_shipped_suites(suite):
    for scenario in load_suite(suite)[::7]:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            form = normal_form(scenario.evidence_ids(), scenario.gold, scenario.target, query=scenario.query)
        assert "".join(iter_tnf_json(form.evaluation, query=scenario.query)) == tnf_json(form.trace)


def expand_summary(text: str) -> dict:
    """The full form described by a summarized TNF: defeat edges regenerated from the sets."""
    data = json.loads(text)
    assert data.pop("schema_version") == "tnf-v1-summary"
    sets = {s["id"]: s["priorities"] for s in data.pop("defeat_sets")}
    edges = []
    for edge in data["edges"]:
        chosen = edge.pop("defeats", None)
        edges.append(edge)
        for priority in sets.get(chosen, ()):
            edges.append({"attack": edge["id"], "id": f"defeat:{priority}\u2192{edge['id']}", "source": priority,
                          "target": edge["target"], "type": "defeat"})
    return {"nodes": data["nodes"], "edges": sorted(edges, key=lambda e: e["id"])}


@pytest.mark.parametrize("seed", range(40))
def test_summary_form_says_the_same_as_the_defeat_edges(seed):
    form = _form(random_analysis(seed))
    full = json.loads(tnf_json(form.trace))
    summary = "".join(iter_tnf_json(form.evaluation, defeats="summary"))
    assert expand_summary(summary) == {"nodes": full["nodes"], "edges": full["edges"]}
    sets = json.loads(summary)["defeat_sets"]
    assert [s["id"] for s in sets] == sorted(defeat_set_id(s["priorities"]) for s in sets)


def test_auto_summarizes_only_above_the_limit(monkeypatch):
    form = _form(random_analysis(3))
    assert form.trace.edges and any(e.type.value == "defeat" for e in form.trace.edges)
    assert json.loads("".join(iter_tnf_json(form.evaluation)))["schema_version"] == "tnf-v1"
    monkeypatch.setattr(trace_module, "DEFEAT_EDGE_LIMIT", 0)
    assert json.loads("".join(iter_tnf_json(form.evaluation)))["schema_version"] == "tnf-v1-summary"
    with pytest.raises(ValueError, match="defeats must be one of"):
        list(iter_tnf_json(form.evaluation, defeats="some"))


def paratrace_cli(*args):
    """``paratrace ...`` as a process."""
    return subprocess.run([sys.executable, "-c", "from optimize.root import main; main()", *args],
                          capture_output=True, text=True, cwd=ROOT)


def small_dense_file(tmp_path) -> Path:
    """A small dense-priority theory of the benchmarks' generator, as a JSON file."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        import theories
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    path = tmp_path / "dense.json"
    path.write_text(json.dumps(theories.dense(k=6, groups=2, density=0.5)), encoding="utf-8")
    return path


def test_cli_defeats_option(tmp_path):
    path = small_dense_file(tmp_path)
    edges, summary = paratrace_cli("status", str(path), "-f", "json", "--defeats", "edges"), \
        paratrace_cli("status", str(path), "-f", "json", "--defeats", "summary")
    assert edges.returncode == summary.returncode == 0, edges.stderr + summary.stderr
    full = json.loads(edges.stdout)
    short = json.loads(summary.stdout)
    assert {k: v for k, v in full.items() if k != "tnf"} == {k: v for k, v in short.items() if k != "tnf"}
    assert expand_summary(json.dumps(short["tnf"])) == {"nodes": full["tnf"]["nodes"], "edges": full["tnf"]["edges"]}
    bad = paratrace_cli("status", str(path), "-f", "json", "--defeats", "some")
    assert bad.returncode == 2 and "--defeats" in bad.stderr and "Traceback" not in bad.stderr


@pytest.mark.parametrize("seed", range(10))
def test_dot_summary_leaves_out_defeat_edges_and_names_the_sets(seed):
    form = _form(random_analysis(seed))
    full = "".join(iter_dot(form.evaluation, defeats="edges"))
    short = "".join(iter_dot(form.evaluation, defeats="summary"))
    assert "".join(iter_dot(form.evaluation)) == full  # small traces: auto writes every edge
    dropped = [line for line in full.splitlines() if "neutralizes" in line]
    assert not [line for line in short.splitlines() if "neutralizes" in line]
    sets = dict(line.strip()[3:].split(": ", 1) for line in short.splitlines() if line.strip().startswith("// "))
    named = {line.split('defeats="')[1].split('"')[0] for line in short.splitlines() if 'defeats="' in line}
    assert named == set(sets) and bool(dropped) == bool(named)
    kept = [line for line in full.splitlines() if "neutralizes" not in line]
    assert [line.split(", defeats=")[0] + ("];" if ", defeats=" in line else "") for line in short.splitlines()
            if not line.strip().startswith("// ")] == kept
