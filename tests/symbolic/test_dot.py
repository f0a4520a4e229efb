"""Graphviz DOT rendering of traces."""

from __future__ import annotations

import re

from symbolic.traces.dot import dot_escape, to_dot
from symbolic.scenario.model import Analysis, Trace, TraceEdge, TraceNode
from symbolic.traces.naming import edge_id
from symbolic.engine.status import evaluate_analysis
from symbolic.traces.tnf import tnf
from symbolic.traces.trace import build_trace

from penalty_cases import trace_case

CASE = trace_case()
PENALTY = Analysis.model_validate(CASE["analysis"])
TRACE = tnf(CASE["evidence"], PENALTY, CASE["target"], query=CASE["query"])
DOT = to_dot(TRACE)

_QUOTED = r'"(?:[^"\\]|\\.)*"'
_NODE = re.compile(rf"^  ({_QUOTED}) \[label=({_QUOTED}), (.*)\];$")
_EDGE = re.compile(rf"^  ({_QUOTED}) -> ({_QUOTED}) \[(.*)\];$")


def unquote(text: str) -> str:
    return re.sub(r"\\(.)", lambda m: "\n" if m.group(1) == "n" else m.group(1), text[1:-1])


def parse(dot: str):
    nodes, edges = {}, []
    for line in dot.splitlines()[4:-1]:
        if m := _EDGE.match(line):
            edges.append((unquote(m.group(1)), unquote(m.group(2)), m.group(3)))
        elif m := _NODE.match(line):
            nodes[unquote(m.group(1))] = (unquote(m.group(2)), m.group(3))
        else:
            raise AssertionError(f"unparsable DOT line: {line!r}")
    return nodes, edges


def test_dot_contains_every_node_and_edge():
    nodes, edges = parse(DOT)
    assert set(nodes) == {n.id for n in TRACE.nodes}
    assert {n: label for n, (label, _) in nodes.items()} == {n.id: n.label for n in TRACE.nodes}
    assert sorted((u, v) for u, v, _ in edges) == sorted((e.source, e.target) for e in TRACE.edges)
    assert DOT.startswith('digraph "trace" {\n') and DOT.endswith("}\n")


def test_defeated_attacks_are_dashed_and_active_ones_are_not():
    _, edges = parse(DOT)
    attacks = {edge_id(e): e for e in TRACE.edges if e.type.value == "attack"}
    seen = 0
    for _, _, attrs in edges:
        m = re.search(rf"id=({_QUOTED})", attrs)
        if m and unquote(m.group(1)) in attacks:
            seen += 1
            defeated = attacks[unquote(m.group(1))].state == "defeated"
            assert ("style=dashed" in attrs) == defeated
            assert ("(defeated)" in attrs) == defeated
    assert seen == len(attacks) == 4
    assert sum('label="neutralizes"' in attrs for *_, attrs in edges) == 3


def test_dot_is_deterministic_and_independent_of_input_order():
    shuffled = Trace(nodes=TRACE.nodes[::-1], edges=TRACE.edges[::-1])
    assert to_dot(shuffled) == DOT == to_dot(TRACE)


def test_graph_input_shows_author_ids():
    graph = build_trace(evaluate_analysis(CASE["evidence"], PENALTY, CASE["target"]))
    nodes, _ = parse(to_dot(graph))
    assert nodes["rule:Delay(x)=>Penalty(x)"][0] == "Delay(x) => Penalty(x)\n(r1)"
    assert nodes["fact:Delay(x)"][0] == "Delay(x)\n(f1)"


def test_labels_and_ids_are_escaped():
    nasty = 'say "hi" \\ back\nslash'
    t = Trace(nodes=[TraceNode(id='fact:"q"\\', type="fact", label=nasty),
                     TraceNode(id="evidence:E-01", type="evidence", label="")],
              edges=[TraceEdge(source="evidence:E-01", target='fact:"q"\\', type="grounding")])
    nodes, edges = parse(to_dot(t, name='my "graph"'))
    assert nodes['fact:"q"\\'][0] == nasty
    assert nodes["evidence:E-01"][0] == "evidence:E-01"  # an empty label falls back to the id
    assert edges == [("evidence:E-01", 'fact:"q"\\', "color=gray50")]
    assert to_dot(t, name='my "graph"').startswith('digraph "my \\"graph\\"" {')
    assert dot_escape("a\r\nb\rc") == '"a\\nb\\nc"'
