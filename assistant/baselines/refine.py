"""``self-refine``: answer, feedback, revision, for a bounded number of rounds.

After Self-Refine (Madaan et al., 2023): the LM drafts an answer (B1's
:class:`~assistant.signatures.AnswerWithCitations`), gives feedback on it
(:class:`~assistant.baselines.signatures.CritiqueAnswer`) and revises it
(:class:`~assistant.baselines.signatures.ReviseAnswer`); the loop stops when
the feedback says ``done`` or after ``max_rounds`` revisions.  LM calls:
``1 + 2r`` for ``r`` revisions, plus one feedback call that stops the loop
early (plus the audit call in audit mode).

References
----------
A. Madaan et al., "Self-Refine: Iterative Refinement with Self-Feedback",
NeurIPS 2023.
"""

from __future__ import annotations

import dspy

from symbolic.scenario.model import Analysis

from ..errors import ConfigurationError
from ..evidence import EvidencePackage
from ..signatures import AnswerWithCitations
from .base import Baseline
from .signatures import CritiqueAnswer, ReviseAnswer

__all__ = ["SelfRefine"]


class SelfRefine(Baseline):
    """Draft, then up to ``max_rounds`` feedback-and-revision rounds.

    Parameters
    ----------
    max_rounds : int, optional
        Most revisions.

    Raises
    ------
    ConfigurationError
        If ``max_rounds`` is negative.
    """

    name = "self-refine"

    def __init__(self, max_rounds: int = 2):
        super().__init__()
        if max_rounds < 0:
            raise ConfigurationError(f"max_rounds must be >= 0, got {max_rounds}")
        self.max_rounds = max_rounds
        self.max_calls = 1 + 2 * max_rounds
        self.draft = dspy.Predict(AnswerWithCitations)
        self.critique = dspy.Predict(CritiqueAnswer)
        self.revise = dspy.Predict(ReviseAnswer)

    def forward(self, query: str, evidence: EvidencePackage, target: str | None = None,
                candidate: Analysis | None = None) -> dspy.Prediction:
        """Draft, refine until the feedback is satisfied or the rounds run out (then audit)."""
        answer = self.draft(query=query, evidence=evidence).result
        history = []
        for _ in range(self.max_rounds):
            feedback = self.critique(query=query, evidence=evidence, answer=answer).feedback
            history.append(feedback)
            if feedback.done:
                break
            answer = self.revise(query=query, evidence=evidence, answer=answer, feedback=feedback).result
        return self.finish(query, evidence, answer, candidate, feedback=tuple(history))
