"""``tot``: Tree-of-Thought over candidate normative paths.

After Tree of Thoughts (Yao et al., 2023), one level deep: the LM proposes
between two and ``breadth`` distinct readings of which rule, exception or
priority governs (:class:`~assistant.baselines.signatures.ProposePaths`), each
with the answer it leads to; each reading is valued on its own
(:class:`~assistant.baselines.signatures.EvaluatePath`: sure / likely /
impossible, ToT's value prompt); the best-valued reading is chosen, ties
going to the earlier proposal, and its answer is the output.  LM calls:
``1 + number of paths`` (plus the audit call in audit mode).

References
----------
S. Yao et al., "Tree of Thoughts: Deliberate Problem Solving with Large
Language Models", NeurIPS 2023.
"""

from __future__ import annotations

import dspy

from symbolic.scenario.model import Analysis

from ..errors import ConfigurationError
from ..evidence import EvidencePackage
from .base import Baseline
from .signatures import EvaluatePath, ProposePaths

__all__ = ["TreeOfThought", "VALUES", "choose"]

VALUES = {"sure": 1.0, "likely": 0.5, "impossible": 0.0}


def choose(verdicts) -> int:
    """Index of the best verdict (``sure`` > ``likely`` > ``impossible``); the first on a tie.

    Examples
    --------
    >>> choose(["likely", "sure", "sure"]), choose(["impossible", "impossible"])
    (1, 0)
    """
    scores = [VALUES[v] for v in verdicts]
    return scores.index(max(scores))


class TreeOfThought(Baseline):
    """Propose readings, value each, keep the best.

    Parameters
    ----------
    breadth : int, optional
        Most readings proposed (at least 2).

    Raises
    ------
    ConfigurationError
        If ``breadth`` is below 2.
    """

    name = "tot"

    def __init__(self, breadth: int = 3):
        super().__init__()
        if breadth < 2:
            raise ConfigurationError(f"breadth must be >= 2, got {breadth}")
        self.breadth = breadth
        self.max_calls = 1 + breadth
        self.propose = dspy.Predict(ProposePaths)
        self.evaluate = dspy.Predict(EvaluatePath)

    def forward(self, query: str, evidence: EvidencePackage, target: str | None = None,
                candidate: Analysis | None = None) -> dspy.Prediction:
        """Propose, value, choose (then audit ``candidate`` when given)."""
        paths = self.propose(query=query, evidence=evidence, breadth=self.breadth).proposals.paths
        values = [self.evaluate(query=query, evidence=evidence, path=p).value for p in paths]
        best = choose([v.verdict for v in values])
        return self.finish(query, evidence, paths[best].answer, candidate, paths=tuple(paths),
                           values=tuple(values), chosen=best)
