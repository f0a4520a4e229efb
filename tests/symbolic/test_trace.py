"""The trace graph (docs/semantics.md section 12) and the canonical naming scheme."""

from __future__ import annotations


import networkx as nx
import pytest

from symbolic.engine.grounding import Theory, ground
from symbolic.scenario.labels import AttackKind, Status
from symbolic.scenario.model import Analysis, EdgeType, Fact, NodeType, Priority, Rule, TraceEdge
from symbolic.traces.naming import EDGE_ARROW, Namer, edge_id
from symbolic.engine.results import Argument, Attack, Evaluation, Label, Labelling, PriorityOrder
from symbolic.engine.status import evaluate, evaluate_analysis
from symbolic.traces.trace import build_trace, neutralizers
from symbolic.traces.trace_graph import graph_to_trace, trace_to_graph

from penalty_cases import trace_case

CASE = trace_case()
PENALTY = Analysis.model_validate(CASE["analysis"])
EVAL = evaluate_analysis(CASE["evidence"], PENALTY, CASE["target"])
GRAPH = build_trace(EVAL, query=CASE["query"])


def of_type(graph, node_type):
    return sorted(n for n, d in graph.nodes(data=True) if d["type"] is node_type)


def edges_of(graph, edge_type):
    return [(u, v, k, d) for u, v, k, d in graph.edges(keys=True, data=True) if d["type"] is edge_type]


def test_node_and_edge_types_of_the_penalty_trace():
    assert {d["type"] for _, d in GRAPH.nodes(data=True)} == set(NodeType)
    assert {d["type"] for *_, d in GRAPH.edges(data=True)} == set(EdgeType)
    assert GRAPH.graph["status"] is Status.ACCEPTED and GRAPH.graph["target"] == "Penalty(x)"
    assert GRAPH.nodes["query:Penalty(x)"]["label"] == CASE["query"]
    assert list(GRAPH.successors("conclusion:Penalty(x)")) == ["status:accepted"]


def test_attacks_are_edges_between_arguments_never_nodes():
    arguments = set(of_type(GRAPH, NodeType.ARGUMENT))
    attacks = edges_of(GRAPH, EdgeType.ATTACK)
    assert len(attacks) == 4
    for u, v, key, data in attacks:
        assert u in arguments and v in arguments
        assert data["kind"] is AttackKind.REBUT and data["state"] in ("active", "defeated")
        assert data["lic"].startswith("rule:") and data["lic"] in GRAPH
        assert key == edge_id(TraceEdge(source=u, target=v, type="attack", kind=data["kind"]))
    assert not [n for n in GRAPH if "attack" in n.split(":")[0]]


def test_every_argument_is_derived_and_concludes():
    for arg in EVAL.arguments:
        node = Namer(EVAL.theory.rules, EVAL.arguments).argument_id(arg.id)
        data = GRAPH.nodes[node]
        assert data["names"] == (arg.id,)
        assert data["labelling"] is EVAL.labelling.labels[arg.id]
        preds = {GRAPH.nodes[p]["type"] for p in GRAPH.predecessors(node)
                 if any(d["type"] is EdgeType.DERIVATION for d in GRAPH.get_edge_data(p, node).values())}
        assert preds == ({NodeType.FACT} if arg.fact else {NodeType.RULE, NodeType.ARGUMENT})
        assert f"conclusion:{arg.conclusion}" in GRAPH.successors(node)
    rounds = {GRAPH.nodes[n]["round"] for n in of_type(GRAPH, NodeType.ARGUMENT)}
    assert rounds <= set(range(len(EVAL.labelling.rounds)))


def test_grounding_edges_come_from_the_cited_fragments():
    grounding = {(u, v) for u, v, _, _ in edges_of(GRAPH, EdgeType.GROUNDING)}
    assert ("evidence:E-04", "rule:Delay(x)=>Penalty(x)") in grounding
    assert ("evidence:E-06", "priority:(GrossNegligence(x)=>Penalty(x))>(ForceMajeure(x)=>¬Penalty(x))") in grounding
    assert len(grounding) == 8
    assert GRAPH.nodes["rule:Delay(x)=>Penalty(x)"]["names"] == ("r1",)


def test_defeat_edges_name_the_attack_they_neutralize():
    attacks = {k: (u, v, d) for u, v, k, d in edges_of(GRAPH, EdgeType.ATTACK)}
    defeats = edges_of(GRAPH, EdgeType.DEFEAT)
    assert len(defeats) == 3
    for u, v, key, data in defeats:
        attacker, target, attack = attacks[data["attack"]]
        assert attack["state"] == "defeated" and target == v
        assert GRAPH.nodes[u]["type"] is NodeType.PRIORITY
        assert key == f"defeat:{u}{EDGE_ARROW}{data['attack']}"
    assert all(d["state"] == "active" or any(x[3]["attack"] == k for x in defeats)
               for k, (_, _, d) in attacks.items())


def test_neutralizers_include_the_engines_pair():
    for attack in EVAL.attacks:
        pairs = neutralizers(EVAL, attack)
        assert (attack.defeated_by in pairs) if not attack.active else pairs == frozenset()


def test_neutralizers_for_undercut_and_undermine():
    e = ["E-01"]
    theory = ground(e, Analysis(
        facts=[Fact(id="f1", literal="a", evidence=e), Fact(id="f2", literal="b", evidence=e),
               Fact(id="f3", literal="c", evidence=e)],
        rules=[Rule(id="r1", antecedents=["a"], consequent="p", evidence=e),
               Rule(id="r2", antecedents=["b"], consequent="¬applicable(r1)", evidence=e),
               Rule(id="r3", antecedents=["c"], consequent="¬a", evidence=e)],
        priorities=[Priority(stronger="r1", weaker="r2", basis="exception", evidence=e),
                    Priority(stronger="r1", weaker="r3", basis="exception", evidence=e)]))
    ev = evaluate(theory, "p")
    rule_arg = next(a.id for a in ev.arguments if a.top_rule == "r1")
    fact_arg = next(a.id for a in ev.arguments if a.fact == "f1")
    found = {(a.kind, a.on, a.target): neutralizers(ev, a) for a in ev.attacks}
    assert found[(AttackKind.UNDERCUT, "r1", rule_arg)] == {("r1", "r2")}
    assert found[(AttackKind.UNDERMINE, "f1", rule_arg)] == {("r1", "r3")}
    # undermining the fact argument itself: no rule of it depends on f1, nothing neutralizes it
    assert found[(AttackKind.UNDERMINE, "f1", fact_arg)] == frozenset()


def hand_built() -> Evaluation:
    """Two copies of one rule (an alias the caller did not collapse), one attack each."""
    e = ("E-01",)
    theory = Theory(frozenset(e),
                    facts=(Fact(id="f1", literal="a", evidence=e), Fact(id="f2", literal="b", evidence=e)),
                    rules=(Rule(id="r1", antecedents=["a"], consequent="p", evidence=e),
                           Rule(id="r1b", antecedents=["a"], consequent="p", evidence=e),
                           Rule(id="r2", antecedents=["b"], consequent="¬p", evidence=e)),
                    priorities=(Priority(stronger="r1", weaker="r2", basis="hierarchy", evidence=e),))
    args = (Argument("A1", "a", None, "f1", (), frozenset(), frozenset({"f1"})),
            Argument("A2", "b", None, "f2", (), frozenset(), frozenset({"f2"})),
            Argument("A3", "p", "r1", None, ("A1",), frozenset({"r1"}), frozenset({"f1"}), strict=False),
            Argument("A4", "p", "r1b", None, ("A1",), frozenset({"r1b"}), frozenset({"f1"}), strict=False),
            Argument("A5", "¬p", "r2", None, ("A2",), frozenset({"r2"}), frozenset({"f2"}), strict=False))
    attacks = (Attack("A5", "A3", AttackKind.REBUT, "A3", "r2", defeated_by=("r1", "r2")),
               Attack("A5", "A4", AttackKind.REBUT, "A4", "r2"),
               Attack("A3", "A5", AttackKind.REBUT, "A5", "r1"),
               Attack("A4", "A5", AttackKind.REBUT, "A5", "r1b"))
    order = PriorityOrder(frozenset({("r1", "r2")}), (), frozenset(), frozenset({("r1", "r2")}))
    labels = Labelling({"A1": Label.IN, "A2": Label.IN, "A3": Label.UNDEC, "A4": Label.UNDEC,
                        "A5": Label.UNDEC}, rounds=(("A1", "A2"),))
    return Evaluation("p", Status.BOTH, True, True, theory, args, attacks, order, labels)


def test_nodes_with_one_canonical_id_merge_deterministically():
    graph = build_trace(hand_built())
    assert graph.nodes["rule:a=>p"]["names"] == ("r1", "r1b")
    pro = [n for n in of_type(graph, NodeType.ARGUMENT) if n.startswith("arg:p@")]
    assert len(pro) == 1 and graph.nodes[pro[0]]["names"] == ("A3", "A4")
    attacks = {(u, v): d for u, v, _, d in edges_of(graph, EdgeType.ATTACK)}
    assert len(attacks) == 2
    # one copy of the attack on p is active, so the merged edge is active and has no defeat edge
    con = next(n for n in of_type(graph, NodeType.ARGUMENT) if n.startswith("arg:¬p@"))
    assert attacks[(con, pro[0])]["state"] == "active"
    assert not edges_of(graph, EdgeType.DEFEAT)
    assert graph.nodes["query:p"]["label"] == "p"


def test_graph_and_trace_round_trip():
    trace = graph_to_trace(GRAPH)
    again = graph_to_trace(trace_to_graph(trace))
    assert again == trace
    assert nx.utils.graphs_equal(nx.MultiDiGraph(trace_to_graph(trace)), trace_to_graph(again))
    assert len(trace.edges) == GRAPH.number_of_edges() and len(trace.nodes) == GRAPH.number_of_nodes()


def test_namer_applicability_cycles_and_unknown_rules():
    rules = [Rule(id="r5", antecedents=["x"], consequent="¬applicable(r6)"),
             Rule(id="r6", antecedents=["y"], consequent="¬applicable(r5)"),
             Rule(id="r7", antecedents=["applicable(r9)"], consequent="q", kind="defeater")]
    n = Namer(rules)
    assert n.rule_id("r5") == "rule:x=>¬applicable[?]"
    assert n.rule_id("r7") == "rule:applicable(r9)~>q"
    assert n.rule_id("r42") == "rule:r42"
    assert n.literal("applicable(r6)") == "applicable[?]"


def test_argument_ids_depend_on_derivation_not_numbering():
    rules = [Rule(id="r1", antecedents=["a", "b"], consequent="p")]
    sub_a = Argument("A1", "a", None, "f1", (), frozenset(), frozenset({"f1"}))
    sub_b = Argument("A2", "b", None, "f2", (), frozenset(), frozenset({"f2"}))
    top = Argument("A3", "p", "r1", None, ("A1", "A2"), frozenset({"r1"}), frozenset({"f1", "f2"}))
    swapped = [Argument("A9", "b", None, "g", (), frozenset(), frozenset({"g"})),
               Argument("A8", "a", None, "h", (), frozenset(), frozenset({"h"})),
               Argument("A7", "p", "rx", None, ("A9", "A8"), frozenset({"rx"}), frozenset({"g", "h"}))]
    one = Namer(rules, [sub_a, sub_b, top])
    two = Namer([Rule(id="rx", antecedents=["b", "a"], consequent="p")], swapped)
    assert one.argument_id("A3") == two.argument_id("A7")
    assert one.argument_id("A3").startswith("arg:p@") and one.argument_id("A1") != one.argument_id("A2")
    assert one.derivation("A3") == f"rule:a&b=>p({one.argument_id('A1')},{one.argument_id('A2')})"
    assert one.derivation("A1") == "fact:a"


@pytest.mark.parametrize("edge, expected", [
    (TraceEdge(source="evidence:E-01", target="fact:a", type="grounding"), "grounding:evidence:E-01→fact:a"),
    (TraceEdge(source="arg:a@1", target="arg:b@2", type="attack", kind="undercut", state="defeated",
               lic="rule:x=>y"), "attack:undercut:arg:a@1→arg:b@2"),
    (TraceEdge(source="priority:(x)>(y)", target="arg:b@2", type="defeat", attack="attack:rebut:arg:a@1→arg:b@2"),
     "defeat:priority:(x)>(y)→attack:rebut:arg:a@1→arg:b@2"),
    (TraceEdge(source="conclusion:p", target="status:both", type="status"), "status:conclusion:p→status:both"),
])
def test_edge_ids(edge, expected):
    assert edge_id(edge) == expected
