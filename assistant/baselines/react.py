"""``react``: a ReAct agent that inspects the evidence with tools, then answers.

The agent (``dspy.ReAct``) sees the query and the fragment *ids* only
(:class:`~assistant.baselines.schemas.FragmentIndex`) and reads the evidence
through three tools: ``list_fragments`` (ids, sources, clauses),
``read_fragment`` (one fragment's text by id) and ``search`` (the fragments
best matching some words, by BM25).  It takes at most ``max_iters`` tool steps
(``finish`` ends early); then ReAct's extraction step gives the answer, its
citations and the status from the trajectory.  LM calls: one per step plus
one (plus the audit call in audit mode).

The tools read the current case's package from a context variable set around
the call, so one module serves many cases and threads.

References
----------
S. Yao et al., "ReAct: Synergizing Reasoning and Acting in Language Models",
ICLR 2023.
"""

from __future__ import annotations

import contextvars

import dspy

from symbolic.scenario.labels import normalize_evidence_id
from symbolic.scenario.model import Analysis

from ..errors import AssistantError, ConfigurationError
from ..evidence import EvidencePackage, fragment_line, neutralize
from .base import Baseline
from .retrieval import bm25_rank
from .schemas import FragmentIndex
from .signatures import InspectEvidence

__all__ = ["ReActBaseline", "TOOLS"]

_PACKAGE: contextvars.ContextVar[EvidencePackage | None] = contextvars.ContextVar("paratrace_react_package",
                                                                                   default=None)


def _package() -> EvidencePackage:
    package = _PACKAGE.get()
    if package is None:
        raise AssistantError("no evidence package is bound; the tools run inside ReActBaseline.forward")
    return package


def list_fragments() -> str:
    """List the evidence fragments: id, source and clause of each, one per line."""
    return "\n".join(fragment_line(f, text=False)[1:].replace("]", "", 1) for f in _package().fragments)


def read_fragment(fragment_id: str) -> str:
    """Return the full text of the fragment with this id (for example E-03)."""
    package = _package()
    try:
        wanted = normalize_evidence_id(fragment_id)
    except ValueError:
        wanted = fragment_id
    for f in package.fragments:
        if f.id == wanted:
            return fragment_line(f)
    return f"No fragment {fragment_id!r}; the ids are: " + ", ".join(f.id for f in package.fragments)


def search(words: str) -> str:
    """Return the ids and texts of the (at most 3) fragments that best match these words."""
    hits = [h for h in bm25_rank(words, _package().fragments, 3) if h.score > 0]
    if not hits:
        return "No fragment matches these words."
    return "\n".join(f"[{h.fragment.id}] {neutralize(h.fragment.text)}" for h in hits)


TOOLS = (list_fragments, read_fragment, search)


class ReActBaseline(Baseline):
    """Tool-using agent over the evidence, bounded by ``max_iters`` steps.

    Parameters
    ----------
    max_iters : int, optional
        Most tool steps before the answer is extracted.

    Raises
    ------
    ConfigurationError
        If ``max_iters`` is not positive.
    """

    name = "react"

    def __init__(self, max_iters: int = 6):
        super().__init__()
        if max_iters < 1:
            raise ConfigurationError(f"max_iters must be >= 1, got {max_iters}")
        self.agent = dspy.ReAct(InspectEvidence, tools=list(TOOLS), max_iters=max_iters)
        self.max_calls = max_iters + 1

    def forward(self, query: str, evidence: EvidencePackage, target: str | None = None,
                candidate: Analysis | None = None) -> dspy.Prediction:
        """Let the agent inspect the evidence and answer (then audit ``candidate`` when given)."""
        token = _PACKAGE.set(evidence)
        try:
            out = self.agent(query=query, evidence=FragmentIndex(fragments=evidence.fragments))
        finally:
            _PACKAGE.reset(token)
        return self.finish(query, evidence, out.result, candidate, trajectory=dict(out.trajectory))
