"""``graphrag``: an LM-built entity/relation graph, answered from a neighbourhood.

Two LM calls (three in audit mode):

1. *Indexing* (:class:`~assistant.baselines.signatures.ExtractGraph`): entities
   and relations over all fragments, each citing fragment ids; the query is
   not shown (GraphRAG's index is query-independent).
2. *Local search* (:class:`~assistant.baselines.signatures.AnswerFromGraph`):
   the entities the query (and the target literal, when given) mention are
   matched lexically, their ``hops``-neighbourhood is rendered as text
   (:func:`~assistant.baselines.graph.render`), and the LM answers from it and
   from the neighbourhood's source fragments, which are the only ids it may
   cite.

References
----------
D. Edge et al., "From Local to Global: A Graph RAG Approach to Query-Focused
Summarization", arXiv:2404.16130, 2024.
"""

from __future__ import annotations

import dspy

from symbolic.scenario.model import Analysis

from ..errors import ConfigurationError
from ..evidence import EvidencePackage
from .base import Baseline
from .graph import build_graph, cited_fragments, neighbourhood, render, seed_entities
from .signatures import AnswerFromGraph, ExtractGraph

__all__ = ["GraphRAG"]


class GraphRAG(Baseline):
    """Graph index, neighbourhood of the query entities, answer.

    Parameters
    ----------
    hops : int, optional
        Radius of the neighbourhood around the matched entities.

    Raises
    ------
    ConfigurationError
        If ``hops`` is negative.
    """

    name = "graphrag"
    max_calls = 2

    def __init__(self, hops: int = 2):
        super().__init__()
        if hops < 0:
            raise ConfigurationError(f"hops must be >= 0, got {hops}")
        self.hops = hops
        self.index = dspy.Predict(ExtractGraph)
        self.answer = dspy.Predict(AnswerFromGraph)

    def forward(self, query: str, evidence: EvidencePackage, target: str | None = None,
                candidate: Analysis | None = None) -> dspy.Prediction:
        """Index the fragments as a graph, answer from the query's neighbourhood (then audit)."""
        kg = self.index(evidence=evidence).graph
        graph = build_graph(kg)
        seeds = seed_entities(graph, query if not target else f"{query} {target}")
        nodes = neighbourhood(graph, seeds, self.hops)
        wanted = set(cited_fragments(graph, nodes))
        sources = EvidencePackage(fragments=tuple(f for f in evidence.fragments if f.id in wanted))
        summary = render(graph, nodes)
        result = self.answer(query=query, graph=summary, evidence=sources).result
        return self.finish(query, evidence, result, candidate, graph=graph, knowledge_graph=kg, seeds=seeds,
                           neighbourhood=nodes, summary=summary)
