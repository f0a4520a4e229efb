"""The ``graphrag`` baseline's graph: build, select a neighbourhood, render.

GraphRAG (Edge et al., 2024) indexes a corpus into an entity/relation graph
with an LM and answers a *local* question from the neighbourhood of the
entities the question mentions, together with the source text units of that
neighbourhood.  Here the index is built per case over its fragments, entities
are matched to the query lexically (no embeddings), and the neighbourhood is
every entity within ``hops`` edges of a matched one, ignoring direction.

References
----------
D. Edge et al., "From Local to Global: A Graph RAG Approach to Query-Focused
Summarization", arXiv:2404.16130, 2024.
"""

from __future__ import annotations

from typing import Iterable

import networkx as nx

from ..errors import ConfigurationError
from .retrieval import tokens
from .schemas import KnowledgeGraph

__all__ = ["build_graph", "cited_fragments", "neighbourhood", "render", "seed_entities"]


def build_graph(kg: KnowledgeGraph) -> nx.MultiDiGraph:
    """A directed multigraph with one node per entity and one edge per relation.

    Node attributes: ``name``, ``kind``, ``evidence`` (tuple of fragment ids);
    edge attributes: ``relation``, ``evidence``.

    Examples
    --------
    >>> g = build_graph(KnowledgeGraph(
    ...     entities=[{"id": "n1", "name": "late delivery", "evidence": ["E1"]},
    ...               {"id": "n2", "name": "penalty", "evidence": ["E2"]}],
    ...     relations=[{"source": "n1", "target": "n2", "relation": "triggers", "evidence": ["E2"]}]))
    >>> sorted(g.nodes), list(g.edges(data="relation"))
    (['n1', 'n2'], [('n1', 'n2', 'triggers')])
    """
    graph = nx.MultiDiGraph()
    for e in kg.entities:
        graph.add_node(e.id, name=e.name, kind=e.kind, evidence=tuple(e.evidence))
    for r in kg.relations:
        graph.add_edge(r.source, r.target, relation=r.relation, evidence=tuple(r.evidence))
    return graph


def seed_entities(graph: nx.MultiDiGraph, query: str) -> tuple[str, ...]:
    """Entities whose name or kind shares a content word with ``query``, in node order.

    Examples
    --------
    >>> g = nx.MultiDiGraph()
    >>> g.add_node("n1", name="storm", kind="event"); g.add_node("n2", name="penalty", kind="obligation")
    >>> seed_entities(g, "Is a penalty due?")
    ('n2',)
    """
    wanted = set(tokens(query))
    return tuple(n for n, data in graph.nodes(data=True)
                 if wanted & set(tokens(f"{data.get('name', '')} {data.get('kind', '')}")))


def neighbourhood(graph: nx.MultiDiGraph, seeds: Iterable[str], hops: int = 2) -> tuple[str, ...]:
    """The nodes within ``hops`` edges of a seed (direction ignored), in node order.

    With no seed the whole graph is the neighbourhood (the question names no
    entity the index knows, so nothing narrows the context).

    Raises
    ------
    ConfigurationError
        If ``hops`` is negative.

    Examples
    --------
    >>> g = nx.MultiDiGraph([("a", "b"), ("b", "c"), ("c", "d")])
    >>> neighbourhood(g, ["a"], hops=2), neighbourhood(g, [], hops=1)
    (('a', 'b', 'c'), ('a', 'b', 'c', 'd'))
    """
    if hops < 0:
        raise ConfigurationError(f"hops must be >= 0, got {hops}")
    seeds = [s for s in seeds if s in graph]
    if not seeds:
        return tuple(graph.nodes)
    undirected = graph.to_undirected(as_view=True)
    reached: set[str] = set()
    for seed in seeds:
        reached |= set(nx.single_source_shortest_path_length(undirected, seed, cutoff=hops))
    return tuple(n for n in graph.nodes if n in reached)


def _cites(evidence: Iterable[str]) -> str:
    return "[" + ", ".join(evidence) + "]"


def render(graph: nx.MultiDiGraph, nodes: Iterable[str]) -> str:
    """The subgraph on ``nodes`` as text: one line per entity, then one per relation.

    Examples
    --------
    >>> g = build_graph(KnowledgeGraph(
    ...     entities=[{"id": "n1", "name": "late delivery", "kind": "event", "evidence": ["E1"]},
    ...               {"id": "n2", "name": "penalty", "kind": "obligation", "evidence": ["E2"]}],
    ...     relations=[{"source": "n1", "target": "n2", "relation": "triggers", "evidence": ["E2"]}]))
    >>> print(render(g, ["n1", "n2"]))
    Entities:
    - n1: late delivery (event) [E-01]
    - n2: penalty (obligation) [E-02]
    Relations:
    - n1 late delivery --triggers--> n2 penalty [E-02]
    """
    keep = [n for n in graph.nodes if n in set(nodes)]
    inside = set(keep)
    lines = ["Entities:"]
    for n in keep:
        data = graph.nodes[n]
        kind = f" ({data['kind']})" if data.get("kind") else ""
        lines.append(f"- {n}: {data['name']}{kind} {_cites(data['evidence'])}")
    lines.append("Relations:")
    edges = [(u, v, d) for u, v, d in graph.edges(data=True) if u in inside and v in inside]
    for u, v, d in edges:
        lines.append(f"- {u} {graph.nodes[u]['name']} --{d['relation']}--> {v} {graph.nodes[v]['name']} "
                     f"{_cites(d['evidence'])}")
    if not edges:
        lines.append("- (none)")
    if not keep:
        lines[1:1] = ["- (none)"]
    return "\n".join(lines)


def cited_fragments(graph: nx.MultiDiGraph, nodes: Iterable[str]) -> tuple[str, ...]:
    """Fragment ids cited by the entities in ``nodes`` and the relations among them, sorted.

    Examples
    --------
    >>> g = nx.MultiDiGraph()
    >>> g.add_node("a", evidence=("E-02",)); g.add_node("b", evidence=("E-01",))
    >>> g.add_edge("a", "b", evidence=("E-03",))
    0
    >>> cited_fragments(g, ["a"]), cited_fragments(g, ["a", "b"])
    (('E-02',), ('E-01', 'E-02', 'E-03'))
    """
    inside = set(nodes)
    ids = {e for n in inside if n in graph for e in graph.nodes[n].get("evidence", ())}
    ids |= {e for u, v, d in graph.edges(data=True) if u in inside and v in inside for e in d.get("evidence", ())}
    return tuple(sorted(ids))
