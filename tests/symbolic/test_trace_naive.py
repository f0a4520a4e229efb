"""The columnar trace (symbolic.traces.trace_attacks, symbolic.traces.trace) against a naive construction.

The attack edges, their defeat sets and the skeleton's nodes and edges are
rebuilt here attack by attack, argument by argument and priority by priority,
straight from their definitions (docs/semantics.md section 12), and compared
with what the trace builds in bulk, on random seeded theories of every
generator the tests use (rebut teams with undercutters and undermined facts,
random rules with explicit edges, the benchmark families at small sizes).
"""

from __future__ import annotations

import sys
import warnings
from collections import defaultdict
from pathlib import Path

import pytest

from symbolic.engine.results import KINDS
from symbolic.scenario.model import Analysis, NodeType
from symbolic.traces.naming import EDGE_ARROW, Namer
from symbolic.traces.tnf import normal_form, tnf_json, trace_from_json
from trace_text import iter_tnf_json
from symbolic.traces.trace import neutralizers, trace_parts
from symbolic.traces.trace_attacks import attack_edges

from test_attack_table import random_case
from test_trace_stream import random_analysis

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
import theories  # noqa: E402

E = ("E-01",)



def _form(analysis: Analysis, target: str, query: str | None = None):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return normal_form(E, analysis, target, query=query)


def _cases():
    """(name, analysis, target) of every generator, seeded."""
    for seed in range(30):
        yield f"teams-{seed}", random_analysis(seed), "P0"
    for seed in range(40):
        yield f"random-{seed}", Analysis.model_validate(random_case(seed)), "p"
    for seed in range(3):
        for name, record in (("dense", theories.dense(k=6, groups=2, density=0.3, seed=seed)),
                             ("mixed", theories.mixed(k=5, groups=3, seed=seed)),
                             ("altderiv", theories.altderiv(m=3, q=3, groups=2, seed=seed)),
                             ("explicit", theories.explicit(args=30, attacks=90, seed=seed))):
            gold = dict(record["gold"])
            gold.pop("status", None)
            yield f"{name}-{seed}", Analysis.model_validate(gold), record["target"]


CASES = list(_cases())


def naive_attack_edges(evaluation) -> dict[str, tuple]:
    """Edge id -> (kind, lic node, state, explicit, defeat set or None), attack by attack."""
    namer = Namer(evaluation.theory.rules, evaluation.arguments)
    pooled: dict[tuple, list] = defaultdict(list)
    for attack in evaluation.attacks:
        key = (attack.kind, namer.argument_id(attack.attacker), namer.argument_id(attack.target))
        pooled[key].append(attack)
    out = {}
    for (kind, source, target), members in pooled.items():
        active = [a for a in members if a.active]
        lics = {namer.rule_id(a.lic) for a in (active or members) if a.lic is not None}
        defeats = None
        if not active:
            defeats = tuple(sorted({namer.priority_id(s, w) for a in members for s, w in neutralizers(evaluation, a)}))
        out[f"attack:{kind.value}:{source}{EDGE_ARROW}{target}"] = (
            kind, min(lics) if lics else None, "active" if active else "defeated",
            any(a.explicit for a in members), defeats)
    return out


def columnar_attack_edges(evaluation) -> tuple[list[str], dict[str, tuple]]:
    edges = attack_edges(evaluation, Namer(evaluation.theory.rules, evaluation.arguments))
    ids, out = [], {}
    for i in range(len(edges)):
        ident = edges.edge_id(i)
        chosen = int(edges.defeat_set[i])
        ids.append(ident)
        out[ident] = (KINDS[edges.kind[i]], edges.rule_nodes[edges.lic[i]] if edges.lic[i] >= 0 else None,
                      "active" if edges.active[i] else "defeated", bool(edges.explicit[i]),
                      edges.sets[chosen] if chosen >= 0 else None)
    used = {p for s in edges.sets for p in s}
    named = {Namer(evaluation.theory.rules).priority_id(s, w) for s, w in edges.pairs}
    assert used <= named  # every priority of a set comes from a listed pair
    return ids, out


@pytest.mark.parametrize("name, analysis, target", CASES, ids=[c[0] for c in CASES])
def test_attack_edges_and_defeat_sets_equal_the_naive_pooling(name, analysis, target):
    evaluation = _form(analysis, target).evaluation
    ids, columnar = columnar_attack_edges(evaluation)
    assert ids == sorted(ids)  # canonical order
    assert columnar == naive_attack_edges(evaluation)


def naive_skeleton(evaluation):
    """Node id -> (type, label, names) and the set of skeleton edge ids, object by object."""
    theory = evaluation.theory
    namer = Namer(theory.rules, evaluation.arguments)
    nodes: dict[str, dict] = {}
    edges: set[str] = set()

    def node(ident, kind, label, name=None):
        data = nodes.setdefault(ident, {"type": kind, "label": label, "names": set()})
        if name is not None:
            data["names"].add(name)

    def ground(ident, evidence):
        for fragment in evidence:
            node(f"evidence:{fragment}", NodeType.EVIDENCE, fragment)
            edges.add(f"grounding:evidence:{fragment}{EDGE_ARROW}{ident}")

    for fact in theory.facts:
        ident = namer.fact_id(fact.literal)
        node(ident, NodeType.FACT, namer.literal(fact.literal), fact.id)
        ground(ident, fact.evidence)
    for rule in theory.rules:
        ident = namer.rule_id(rule.id)
        node(ident, NodeType.RULE, namer.rule_label(rule.id), rule.id)
        ground(ident, rule.evidence)
    bases = defaultdict(set)
    for p in theory.priorities:
        ident = namer.priority_id(p.stronger, p.weaker)
        node(ident, NodeType.PRIORITY, None, f"{p.stronger}>{p.weaker}")
        bases[ident].add((str(p.basis), p.stronger, p.weaker))
        ground(ident, p.evidence)
    unresolved = evaluation.priorities.unresolved
    for ident, found in bases.items():
        (_, s, w), tags = min(found), sorted({b for b, _, _ in found})
        if s in unresolved or w in unresolved:
            tags.append("unresolved")
        nodes[ident]["label"] = f"{namer.priority_label(s, w)} [{', '.join(tags)}]"
    labels = defaultdict(set)
    for arg in evaluation.arguments:
        ident = namer.argument_id(arg.id)
        labels[ident].add(str(evaluation.labelling.labels.get(arg.id)))
        conclusion = namer.literal(arg.conclusion)
        via = "fact" if arg.top_rule is None else namer.rule_label(arg.top_rule)
        node(ident, NodeType.ARGUMENT, None, arg.id)
        nodes[ident]["label"] = f"{'/'.join(sorted(labels[ident]))}: {conclusion} via {via}"
        head = namer.fact_id(arg.conclusion) if arg.top_rule is None else namer.rule_id(arg.top_rule)
        for source in (head, *(namer.argument_id(s) for s in arg.subs)):
            edges.add(f"derivation:{source}{EDGE_ARROW}{ident}")
        node(f"conclusion:{conclusion}", NodeType.CONCLUSION, conclusion)
        edges.add(f"derivation:{ident}{EDGE_ARROW}conclusion:{conclusion}")
    return nodes, edges


@pytest.mark.parametrize("name, analysis, target", CASES, ids=[c[0] for c in CASES])
def test_skeleton_nodes_and_edges_equal_the_naive_construction(name, analysis, target):
    evaluation = _form(analysis, target, query="Why?").evaluation
    skeleton, _ = trace_parts(evaluation, query="Why?")
    nodes, edges = naive_skeleton(evaluation)
    built = {n: d for n, d in skeleton.nodes.items() if d["type"] not in (NodeType.QUERY, NodeType.STATUS)}
    closure = {n for n, d in built.items() if d["type"] is NodeType.PRIORITY and n not in nodes}
    assert all(built[n]["label"].endswith(" [closure]") for n in closure)
    target_node = f"conclusion:{Namer(evaluation.theory.rules).literal(evaluation.target)}"
    for ident, data in built.items():
        if ident in closure:
            continue
        if ident == target_node and ident not in nodes:  # the goal: a conclusion no argument reaches
            continue
        want = nodes[ident]
        assert (data["type"], data["label"], data["names"]) == (want["type"], want["label"], tuple(sorted(want["names"])))
    assert set(nodes) <= set(built)
    ids = {key for _, _, key, _ in skeleton.edges}
    assert len(ids) == len(skeleton.edges)  # each edge id once
    assert edges <= ids
    rest = {k for k in ids - edges if not k.startswith("status:")}
    assert all(k.startswith("derivation:priority:") for k in rest)  # closure priorities' derivations


@pytest.mark.parametrize("name, analysis, target", CASES[::3], ids=[c[0] for c in CASES[::3]])
def test_streamed_tnf_round_trips_through_trace_from_json(name, analysis, target):
    form = _form(analysis, target, query="Why?")
    for defeats in ("edges", "summary"):
        text = "".join(iter_tnf_json(form.evaluation, query="Why?", defeats=defeats))
        assert tnf_json(trace_from_json(text)) == tnf_json(form.trace)
    text = "".join(iter_tnf_json(form.evaluation, query="Why?", attacks="columns"))
    assert tnf_json(trace_from_json(text)) == tnf_json(form.trace)
