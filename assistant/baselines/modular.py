"""``dspy-modular``: extraction, check and answer as DSPy modules, without the engine.

The DSPy-style modular pipeline of B4 with the symbolic engine taken out: the
LM extracts facts, rules, attacks and priorities with fragment ids (the
schema of B3/B4, :class:`~assistant.extraction.Extraction`), checks its own
extraction for conflicts, unsupported objects and gaps
(:class:`~assistant.baselines.signatures.CheckExtraction`), and then decides
the status itself from both
(:class:`~assistant.baselines.signatures.AnswerFromExtraction`).  Three LM
calls (four in audit mode).  The trace holds the extracted objects and the
parser-validator's rejections, nothing computed.
"""

from __future__ import annotations

import dspy

from symbolic.scenario.literals import normalize_literal
from symbolic.scenario.model import Analysis

from ..evidence import EvidencePackage
from ..extraction import to_analysis
from .base import Baseline
from .signatures import AnswerFromExtraction, CheckExtraction, ExtractNorms, ExtractNormsForTarget

__all__ = ["DSPyModular"]


class DSPyModular(Baseline):
    """Extract, check, answer; the LM decides the status."""

    name = "dspy-modular"
    max_calls = 3

    def __init__(self):
        super().__init__()
        self.extract = dspy.Predict(ExtractNorms)
        self.extract_for_target = dspy.Predict(ExtractNormsForTarget)
        self.check = dspy.Predict(CheckExtraction)
        self.decide = dspy.Predict(AnswerFromExtraction)

    def forward(self, query: str, evidence: EvidencePackage, target: str | None = None,
                candidate: Analysis | None = None) -> dspy.Prediction:
        """Extract, check, answer (then audit ``candidate`` when given)."""
        if target:
            extraction = self.extract_for_target(query=query, evidence=evidence,
                                                 target=normalize_literal(target)).extraction
        else:
            extraction = self.extract(query=query, evidence=evidence).extraction
        check = self.check(query=query, evidence=evidence, extraction=extraction).check
        result = self.decide(query=query, evidence=evidence, extraction=extraction, check=check).result
        return self.finish(query, evidence, result, candidate, analysis=to_analysis(extraction),
                           extraction=extraction, check=check)
