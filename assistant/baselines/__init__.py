"""Reasoning-style baselines of the paper (Table 4) as DSPy modules.

Each baseline takes the query, the evidence package and optionally the target
literal and a candidate analysis, exactly like configurations B1-B4
(:mod:`assistant.configs`), and returns the same prediction shape: ``common``
(:class:`~scorer.contract.CommonV1`) and ``trace`` (``None``, or a
:class:`~scorer.contract.TraceV2` holding only what the baseline's LM emitted).
None of them uses the symbolic engine; in every one the LM decides the status.

* ``legalbench-rag`` (:class:`LegalBenchRAG`): BM25 retrieval, answer citing retrieved fragments only.
* ``graphrag`` (:class:`GraphRAG`): LM-built entity/relation graph, answer from the query's neighbourhood.
* ``react`` (:class:`ReActBaseline`): ``dspy.ReAct`` agent with evidence-inspection tools.
* ``self-refine`` (:class:`SelfRefine`): answer, feedback, revision, bounded rounds.
* ``tot`` (:class:`TreeOfThought`): distinct normative readings, valued, best one chosen.
* ``dspy-modular`` (:class:`DSPyModular`): extraction, check, answer, without the engine.

Audit mode: each baseline answers the query in its own style and then answers
B1's audit prompt for ``trace.diagnostics`` (:mod:`assistant.baselines.base`).
The baselines' compact and zero-shot instructions are in
:mod:`assistant.baselines.variants`, where :func:`assistant.variants.instruction` finds them.

>>> sorted(BASELINES)
['dspy-modular', 'graphrag', 'legalbench-rag', 'react', 'self-refine', 'tot']
"""

from __future__ import annotations

import dspy

from symbolic.support.registry import Entry, Registry

from .base import Baseline
from .graphrag import GraphRAG
from .modular import DSPyModular
from .rag import LegalBenchRAG
from .react import ReActBaseline
from .refine import SelfRefine
from .tot import TreeOfThought

__all__ = [
    "BASELINES",
    "Baseline",
    "DSPyModular",
    "GraphRAG",
    "LegalBenchRAG",
    "ReActBaseline",
    "SelfRefine",
    "TreeOfThought",
]

#: The reasoning-style baselines (paper Table 4), by configuration name.
BASELINES: Registry[dspy.Module] = Registry("baseline", (
    Entry.of_class(cls.name, cls, paper="Table 4")
    for cls in (LegalBenchRAG, GraphRAG, ReActBaseline, SelfRefine, TreeOfThought, DSPyModular)))

