"""DLA: defect localization accuracy on defective controlled cases (paper Table 6;
docs/metrics.md, DLA).  The defect classes, and the location comparison, are those of
:mod:`scorer.defects.classes`."""

from __future__ import annotations

from ..defects.classes import is_defect, same_location
from ..records import MetricRecord
from .context import CaseContext

__all__ = ["defect_localization_accuracy"]


def defect_localization_accuracy(ctx: CaseContext) -> MetricRecord:
    """DLA on one defective controlled case: 1 iff the output names the gold defect
    class and, when the gold annotates one, its location.

    The output's report is ``trace.diagnostics``; an output without it (no
    trace, or no diagnostics block) located nothing and scores 0.  Applies only
    when ``metadata.defect_class`` is set and is not ``none``.

    Parameters
    ----------
    ctx : CaseContext

    Returns
    -------
    MetricRecord
        ``metadata``: ``gold_class``, ``gold_location``, ``predicted_class``, ``predicted_location``.

    Examples
    --------
    >>> from scorer.metrics._examples import penalty_context
    >>> defect_localization_accuracy(penalty_context(
    ...     "accepted", trace="gold", defect=("priority_inversion", "r3>r2"),
    ...     diagnostics=("priority_inversion", "r3 > r2"))).value
    1.0
    """
    gold_class = ctx.gold.defect
    if not is_defect(gold_class):
        return MetricRecord("DLA", None, "not a defective controlled case", {})
    gold_loc = ctx.gold.scenario.metadata.defect_location
    meta = {"gold_class": gold_class.value, "gold_location": gold_loc,
            "predicted_class": None, "predicted_location": None}
    if ctx.hard_failure:
        return MetricRecord("DLA", 0.0, "hard failure: no defect reported", meta)
    diag = ctx.output.trace.diagnostics if ctx.output.trace is not None else None
    if diag is None:
        return MetricRecord("DLA", 0.0, "no diagnostics emitted: the defect is not located", meta)
    meta.update(predicted_class=diag.defect_class.value, predicted_location=diag.location)
    if diag.defect_class is not gold_class:
        return MetricRecord("DLA", 0.0, f"reported {diag.defect_class.value}, gold {gold_class.value}", meta)
    if not same_location(diag.location, gold_loc, ctx.gold.scenario.candidate):
        return MetricRecord("DLA", 0.0, f"right class {gold_class.value}, wrong location "
                                        f"{diag.location!r} (gold {gold_loc!r})", meta)
    return MetricRecord("DLA", 1.0, f"{gold_class.value} located at {gold_loc or diag.location!r}", meta)
