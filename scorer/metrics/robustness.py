"""NCR: normative counterfactual robustness (paper Section 5, Algorithm 5)."""

from __future__ import annotations

from ..ncr import consistent_with_witness
from ..records import MetricRecord
from .context import CaseContext

__all__ = ["normative_counterfactual_robustness"]


def normative_counterfactual_robustness(ctx: CaseContext) -> MetricRecord:
    """NCR on one case: the size of the smallest edit of the gold normative objects
    that flips the gold status, behind a correctness gate.

    The witness comes from :func:`scorer.ncr.ncr_witness` (unit costs, search by
    non-decreasing cost in canonical order, right-censored at
    ``|Delta_N| + 1`` when no deletion flips the status).  When a cap or the
    case's budget stopped the search, the minimum is unknown: a correct answer
    gets no value ("≥ k, search stopped", ``metadata["lower_bound"]``), left out
    of the mean and counted apart in the report.  *Gate*: an incorrect answer (or a hard failure) has
    NCR 0 -- no edit is needed to make it wrong; the raw witness cost is kept in
    ``metadata["raw_cost"]`` either way.  With a trace, ``consistent`` says
    whether deleting the witness from the output's own objects moves its
    status to the gold counterfactual; without a trace it is ``None`` (not
    reconstructable).  Not applicable when the search was not run.

    Parameters
    ----------
    ctx : CaseContext

    Returns
    -------
    MetricRecord
        ``metadata``: ``raw_cost``, ``censored``, ``witness``, ``alternatives``,
        ``counterfactual``, ``edit_set_size``, ``consistent``, ``searched``, ``evaluations``,
        ``cap_reached``, ``lower_bound``, ``stopped_by``.

    Examples
    --------
    >>> from scorer.metrics._examples import penalty_context
    >>> r = normative_counterfactual_robustness(penalty_context("accepted", trace="gold"))
    >>> r.value, r.metadata["consistent"], ("priority:r3>r2",) in r.metadata["alternatives"]
    (1.0, True, True)
    >>> normative_counterfactual_robustness(penalty_context("both")).value
    0.0
    """
    w = ctx.gold.ncr
    if w is None:
        return MetricRecord("NCR", None, "NCR search not run for this scoring", {})
    meta = w.to_dict()
    meta["raw_cost"] = meta.pop("cost")
    consistent, why = (None, "no trace: consistency with the witness is not reconstructable")
    if w.stopped:
        meta["consistent"] = None
        bound = (f"≥ {w.lower_bound}, search stopped ({w.stopped_by}) after {w.searched} edit sets: "
                 f"no edit of fewer than {w.lower_bound} objects flips {w.status.value}")
        if w.upper_bound is not None:
            bound += (f"; ≤ {len(w.upper_bound)}: deleting {', '.join(w.upper_bound)} flips it "
                      "(a verified edit, not shown minimal)")
        if not ctx.correct:
            gate = "hard failure" if ctx.hard_failure else f"incorrect answer ({ctx.pred.value})"
            return MetricRecord("NCR", 0.0, f"correctness gate: {gate} has NCR 0; gold witness: {bound}", meta)
        return MetricRecord("NCR", None, f"not scored: {bound} (bounds, not a value: left out of the mean)", meta)
    if ctx.has_trace:
        consistent, why = consistent_with_witness(w, ctx.gold.universe, ctx.universe)
    meta["consistent"] = consistent
    raw = (f"censored at {w.cost} (no edit of up to {w.edit_set_size} objects flips {w.status.value})"
           if w.censored else
           f"deleting {', '.join(w.witness)} flips {w.status.value} to {w.counterfactual.value}")
    if not ctx.correct:
        gate = "hard failure" if ctx.hard_failure else f"incorrect answer ({ctx.pred.value})"
        return MetricRecord("NCR", 0.0, f"correctness gate: {gate} has NCR 0; gold witness: {raw}", meta)
    return MetricRecord("NCR", float(w.cost), f"{raw}; {why}", meta)
