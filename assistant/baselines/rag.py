"""``legalbench-rag``: retrieve, then answer from the retrieved fragments only.

After LegalBench-RAG (Pipitone and Houir Alami, 2024): a retriever picks the
``k`` fragments most relevant to the query and the LM answers with citations
restricted to them.  Retrieval is deterministic BM25
(:func:`~assistant.baselines.retrieval.bm25_rank`) over the query text and,
when given, the words of the target literal; the answer step's validators only
accept ids of retrieved fragments.  One LM call (two in audit mode).

References
----------
N. Pipitone and G. Houir Alami, "LegalBench-RAG: A Benchmark for
Retrieval-Augmented Generation in the Legal Domain", arXiv:2408.10343, 2024.
"""

from __future__ import annotations

import dspy

from symbolic.scenario.model import Analysis

from ..errors import ConfigurationError
from ..evidence import EvidencePackage
from .base import Baseline
from .retrieval import bm25_rank
from .signatures import AnswerFromRetrieved

__all__ = ["LegalBenchRAG", "retrieve"]


def retrieve(query: str, evidence: EvidencePackage, k: int, target: str | None = None) -> EvidencePackage:
    """The ``k`` fragments of ``evidence`` ranking highest for the query (and target), in package order.

    Examples
    --------
    >>> from symbolic.scenario.model import EvidenceFragment
    >>> pkg = EvidencePackage.of([
    ...     EvidenceFragment(id="E1", text="A storm closed the port.", source="Notice"),
    ...     EvidenceFragment(id="E2", text="Late delivery incurs a penalty.", source="Contract"),
    ...     EvidenceFragment(id="E3", text="Force majeure excuses the penalty.", source="Contract")])
    >>> sorted(retrieve("Is a penalty due?", pkg, k=2).ids)
    ['E-02', 'E-03']
    >>> sorted(retrieve("Is a penalty due?", pkg, k=1, target="¬Storm(x)").ids)
    ['E-01']
    """
    text = query if not target else f"{query} {target}"
    chosen = {h.fragment.id for h in bm25_rank(text, evidence.fragments, k)}
    return EvidencePackage(fragments=tuple(f for f in evidence.fragments if f.id in chosen))


class LegalBenchRAG(Baseline):
    """Retrieval-augmented, grounded answer over the top-``k`` fragments.

    Parameters
    ----------
    k : int, optional
        Fragments retrieved (all of them when the package is smaller).

    Raises
    ------
    ConfigurationError
        If ``k`` is not positive.
    """

    name = "legalbench-rag"
    max_calls = 1

    def __init__(self, k: int = 4):
        super().__init__()
        if k < 1:
            raise ConfigurationError(f"k must be >= 1, got {k}")
        self.k = k
        self.answer = dspy.Predict(AnswerFromRetrieved)

    def forward(self, query: str, evidence: EvidencePackage, target: str | None = None,
                candidate: Analysis | None = None) -> dspy.Prediction:
        """Retrieve ``k`` fragments, answer from them (then audit ``candidate`` when given)."""
        retrieved = retrieve(query, evidence, self.k, target)
        result = self.answer(query=query, evidence=retrieved).result
        return self.finish(query, evidence, result, candidate, retrieved=tuple(sorted(retrieved.ids)))
