"""TGC: trace-graph coverage (paper Section 5, Algorithm 4)."""

from __future__ import annotations

from ..records import MetricRecord
from .context import CaseContext

__all__ = ["trace_graph_coverage"]


def trace_graph_coverage(ctx: CaseContext) -> MetricRecord:
    """TGC on one case: the share of the mandatory gold edges the output's TNF has.

    The mandatory edges are those of the admissible gold class closest to the
    output (:func:`scorer.align.align_edges`); an attack edge counts only with
    the gold ``state`` and ``lic``.  The split-level value pools edges
    (``sum matched / sum gold``, :func:`scorer.metrics.aggregate.aggregate`).
    Not applicable to an output without a trace (nothing to align); a hard
    failure of a trace configuration matches no edge.

    Parameters
    ----------
    ctx : CaseContext

    Returns
    -------
    MetricRecord
        ``metadata``: ``matched``, ``gold`` (edge counts), ``missing``,
        ``unsupported`` (edge ids), ``distance``.

    Examples
    --------
    >>> from scorer.metrics._examples import penalty_context
    >>> r = trace_graph_coverage(penalty_context("accepted", trace="gold"))
    >>> r.value, r.metadata["matched"] == r.metadata["gold"]
    (1.0, True)
    >>> trace_graph_coverage(penalty_context("accepted")).value is None
    True
    """
    a = ctx.alignment
    if a is None:
        return MetricRecord("TGC", None, "no trace: the configuration emits no normative objects to align",
                            {})
    matched, gold = len(a.matched), len(a.matched) + len(a.missing)
    meta = {"matched": matched, "gold": gold, "missing": list(a.missing),
            "unsupported": list(a.unsupported), "distance": a.metadata.get("distance")}
    if gold == 0:
        return MetricRecord("TGC", None, "the admissible gold class has no edge", meta)
    if ctx.hard_failure:
        return MetricRecord("TGC", 0.0, f"hard failure: none of the {gold} mandatory gold edges matched", meta)
    why = f"{matched} of {gold} mandatory gold edges matched"
    if a.missing:
        why += f"; missing e.g. {a.missing[0]}"
    if a.unsupported:
        why += f"; {len(a.unsupported)} unsupported output edges"
    return MetricRecord("TGC", matched / gold, why, meta)
