"""The skeleton of a trace (symbolic.traces.skeleton) against a plain reference.

- the skeleton's dicts (:attr:`Skeleton.nodes`, :attr:`Skeleton.edges`) equal, in content *and
  order*, a reference that builds them object by object as the former dict skeleton did;
- the streamed TNF and DOT (an evaluation's rows) equal the graph's (``tnf_json``, ``to_dot``);
- on seeded random theories whose ids and literals hold what could break an order taken from
  integer keys: ids that are prefixes of others, ``)>(`` and ``→`` inside rule contents, quotes,
  backslashes and non-ASCII text, rules of equal content (one priority node of several names),
  one pair with several bases, several evidence fragments, priority cycles and closure pairs.
"""

from __future__ import annotations

import random
import warnings
from collections import defaultdict

import pytest

from symbolic.scenario.model import Analysis, EdgeType, Fact, NodeType, Priority, Rule
from symbolic.traces.naming import EDGE_ARROW, Namer
from symbolic.engine.status import evaluate_analysis
from symbolic.traces.dot import to_dot
from symbolic.traces.tnf import normal_form, tnf_json
from trace_text import iter_dot, iter_tnf_json
from symbolic.traces.trace import build_trace, trace_parts
from symbolic.traces.trace_graph import graph_to_trace



EVIDENCE = ("E-01", "E-02", "E-03")
TAME = "abcPQ"
WILD = ["a", "ab", "a(b)", 'q"x', "b\\c", "¬z", "é", "p)>(q", "r→s", "@1", "a_1", "a_10", "(a)"]


def weird_analysis(seed: int, wild: bool = True) -> Analysis:
    """Rebut teams over names drawn from ``WILD`` (or tame letters), with duplicate rule contents,
    repeated pairs of several bases, several fragments, cycles and chains (closure pairs)."""
    rng = random.Random(seed)
    names = WILD if wild else list(TAME)
    word = lambda: rng.choice(names) + rng.choice(["", "", "1", "(x)"])  # noqa: E731
    facts, rules, priorities = [], [], []
    for g in range(rng.randint(1, 3)):
        head = f"{word()}{g}"
        team = []
        for j in range(rng.randint(1, 4)):
            for sign in ("", "¬"):
                body = word()
                facts.append(Fact(id=f"f{g}{sign and 'n'}{j}", literal=body, evidence=rng.sample(EVIDENCE, 1)))
                rid = f"{rng.choice(names if wild else ['r'])}{g}{sign and 'n'}{j}".replace(" ", "")
                rules.append(Rule(id=rid, antecedents=[body], consequent=sign + head,
                                  evidence=rng.sample(EVIDENCE, rng.randint(1, 2))))
                team.append(rid)
                if rng.random() < 0.2:  # the same content under another id
                    rules.append(Rule(id=rid + "'", antecedents=[body], consequent=sign + head, evidence=EVIDENCE[:1]))
                    team.append(rid + "'")
        for _ in range(rng.randint(0, 3 * len(team))):
            s, w = rng.sample(team, 2)
            for basis in rng.sample(["hierarchy", "specificity", "temporal"], rng.choice([1, 1, 2])):
                priorities.append(Priority(stronger=s, weaker=w, basis=basis,
                                           evidence=rng.sample(EVIDENCE, rng.randint(1, 2))))
    return Analysis(facts=facts, rules=rules, priorities=priorities)


def _cases():
    for seed in range(60):
        yield f"wild-{seed}", weird_analysis(seed), True
    for seed in range(30):
        yield f"tame-{seed}", weird_analysis(seed, wild=False), False


WEIRD = list(_cases())


def _evaluations(analysis: Analysis):
    """The engine's evaluation (rules of equal content kept apart) and the normal form's."""
    target = next(r.consequent for r in analysis.rules).lstrip("¬")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield evaluate_analysis(EVIDENCE, analysis, target)
        yield normal_form(EVIDENCE, analysis, target, query="Why?").evaluation


def reference_skeleton(evaluation, query=None):
    """Nodes (dict, in creation order) and edges (list, in creation order) of the trace's skeleton,
    object by object, as the former dict skeleton built them."""
    theory = evaluation.theory
    namer = Namer(theory.rules, evaluation.arguments)
    nodes: dict[str, dict] = {}
    edges: list = []
    keys: set[str] = set()

    def node(ident, kind, label, name=None, **attrs):
        data = nodes.setdefault(ident, {"type": kind, "label": label, "names": (), **attrs})
        if name is not None and name not in data["names"]:
            data["names"] = tuple(sorted(data["names"] + (name,)))
        return ident

    def edge(source, target, kind):
        key = f"{kind.value}:{source}{EDGE_ARROW}{target}"
        if key not in keys:
            keys.add(key)
            edges.append((source, target, key, {"type": kind}))

    def ground(ident, evidence):
        for fragment in evidence:
            edge(node(f"evidence:{fragment}", NodeType.EVIDENCE, fragment), ident, EdgeType.GROUNDING)

    for fact in theory.facts:
        ground(node(namer.fact_id(fact.literal), NodeType.FACT, namer.literal(fact.literal), fact.id), fact.evidence)
    for rule in theory.rules:
        ground(node(namer.rule_id(rule.id), NodeType.RULE, namer.rule_label(rule.id), rule.id), rule.evidence)
    unresolved = evaluation.priorities.unresolved
    bases: dict[str, set[str]] = defaultdict(set)
    for p in theory.priorities:
        ident = namer.priority_id(p.stronger, p.weaker)
        node(ident, NodeType.PRIORITY, "", f"{p.stronger}>{p.weaker}", pair=(p.stronger, p.weaker))
        bases[ident].add(str(p.basis))
        s, w = nodes[ident]["pair"]
        tags = sorted(bases[ident]) + (["unresolved"] if s in unresolved or w in unresolved else [])
        nodes[ident]["label"] = f"{namer.priority_label(s, w)} [{', '.join(tags)}]"
        ground(ident, p.evidence)
    labels = evaluation.labelling.labels
    rounds = {a: k for k, members in enumerate(evaluation.labelling.rounds) for a in members}
    seen: dict[str, set[str]] = defaultdict(set)
    for arg in evaluation.arguments:
        ident = namer.argument_id(arg.id)
        seen[ident].add(str(labels.get(arg.id)))
        via = "fact" if arg.top_rule is None else namer.rule_label(arg.top_rule)
        conclusion = namer.literal(arg.conclusion)
        node(ident, NodeType.ARGUMENT, "", arg.id, labelling=labels.get(arg.id), round=rounds.get(arg.id))
        nodes[ident]["label"] = f"{'/'.join(sorted(seen[ident]))}: {conclusion} via {via}"
        edge(namer.fact_id(arg.conclusion) if arg.fact is not None else namer.rule_id(arg.top_rule), ident,
             EdgeType.DERIVATION)
        for sub in arg.subs:
            edge(namer.argument_id(sub), ident, EdgeType.DERIVATION)
        edge(ident, node(f"conclusion:{conclusion}", NodeType.CONCLUSION, conclusion), EdgeType.DERIVATION)
    return namer, nodes, edges


@pytest.mark.parametrize("name, analysis, wild", WEIRD, ids=[c[0] for c in WEIRD])
def test_skeleton_dicts_equal_the_reference_in_order(name, analysis, wild):
    for evaluation in _evaluations(analysis):
        skeleton, attack = trace_parts(evaluation, query="Why?")
        namer, nodes, edges = reference_skeleton(evaluation)
        built = list(skeleton.nodes.items())
        # the reference stops before the closure priorities and the goal, query and status nodes
        assert built[:len(nodes)] == list(nodes.items())
        rest = built[len(nodes):]
        closure = [(n, d) for n, d in rest if d["type"] is NodeType.PRIORITY]
        assert [d["type"] for _, d in rest[len(closure):]][-2:] == [NodeType.QUERY, NodeType.STATUS]
        for ident, data in closure:
            s, w = data["pair"]
            assert ident == namer.priority_id(s, w) and data["names"] == (f"{s}>{w}",)
            assert data["label"] == f"{namer.priority_label(s, w)} [closure]"
        assert {namer.priority_id(*p) for p in attack.pairs} <= {n for n, d in built if d["type"] is NodeType.PRIORITY}
        got = skeleton.edges
        assert got[:len(edges)] == edges
        tail = got[len(edges):]
        assert all(e[2].startswith(("derivation:priority:", "status:")) for e in tail)
        assert len({e[2] for e in got}) == len(got)


@pytest.mark.parametrize("name, analysis, wild", WEIRD, ids=[c[0] for c in WEIRD])
def test_streamed_tnf_and_dot_equal_the_graph(name, analysis, wild):
    for evaluation in _evaluations(analysis):
        graph = build_trace(evaluation, query="Why?")
        assert "".join(iter_tnf_json(evaluation, query="Why?", defeats="edges")) == tnf_json(graph_to_trace(graph))
        assert "".join(iter_dot(evaluation, query="Why?", name="c", defeats="edges")) == to_dot(graph, name="c")
