"""ASA: answer status accuracy (paper Section 5)."""

from __future__ import annotations

from ..records import MetricRecord
from .context import CaseContext

__all__ = ["answer_status_accuracy"]


def answer_status_accuracy(ctx: CaseContext) -> MetricRecord:
    """ASA on one case: 1 iff the predicted four-valued status equals the gold status.

    Applies to every case.  A hard failure scores 0.

    Parameters
    ----------
    ctx : CaseContext

    Returns
    -------
    MetricRecord
        ``metadata``: ``gold``, ``predicted``.

    Examples
    --------
    >>> from scorer.metrics._examples import penalty_context
    >>> answer_status_accuracy(penalty_context("accepted")).value
    1.0
    >>> answer_status_accuracy(penalty_context("both")).explanation
    'predicted both, gold accepted'
    """
    gold = ctx.gold.status.value
    if ctx.hard_failure:
        return MetricRecord("ASA", 0.0, f"hard failure ({ctx.output.meta.failure_reason}); gold {gold}",
                            {"gold": gold, "predicted": None})
    pred = ctx.pred.value
    if ctx.shortcut:
        return MetricRecord("ASA", 0.0, f"predicted {pred} by a shortcut (facts {', '.join(ctx.shortcut)} assert "
                            f"the target), gold {gold}", {"gold": gold, "predicted": pred, "shortcut": True})
    return MetricRecord("ASA", 1.0 if ctx.correct else 0.0, f"predicted {pred}, gold {gold}",
                        {"gold": gold, "predicted": pred})
