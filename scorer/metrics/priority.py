"""PHA: priority handling accuracy on gold-priority cases (paper Section 5)."""

from __future__ import annotations

from ..records import MetricRecord
from .context import CaseContext

__all__ = ["priority_handling_accuracy"]


def _pair_keys(u, pairs) -> set[tuple[str, str]]:
    out = set()
    for s, w in pairs:
        if s in u.rule_handles and w in u.rule_handles:
            out.add((u.keys[u.rule_handles[s]], u.keys[u.rule_handles[w]]))
    return out


def priority_handling_accuracy(ctx: CaseContext) -> MetricRecord:
    """PHA on one gold-priority case: 1 iff the conflict is resolved by the right priorities.

    Required priorities are those of the chosen admissible gold class (the
    priorities without which the gold status is lost).  With a trace, the
    output must (a) hold every required priority in the same direction
    (compared by rule content), (b) hold no priority whose reverse is in the
    gold order ``P+`` (an inversion), and (c) reach the gold status.
    Without a trace: (c), and ``priority_applied`` must be true when some
    priority is required.  Applies only when ``metadata.priority`` is set.

    Parameters
    ----------
    ctx : CaseContext

    Returns
    -------
    MetricRecord
        ``metadata``: ``required``, ``missing``, ``inverted`` (priority content keys).

    Examples
    --------
    >>> from scorer.metrics._examples import penalty_context
    >>> priority_handling_accuracy(penalty_context("accepted", trace="gold", priority=True)).value
    1.0
    >>> r = priority_handling_accuracy(penalty_context("both", trace="inverted", priority=True))
    >>> r.value, len(r.metadata["inverted"])
    (0.0, 1)
    """
    if not ctx.gold.scenario.metadata.priority:
        return MetricRecord("PHA", None, "not a gold-priority case", {})
    g = ctx.gold.universe
    required_pairs = [(g.objects[h].stronger, g.objects[h].weaker) for h in ctx.chosen
                      if h.startswith("priority:")]
    required = sorted(_pair_keys(g, required_pairs))
    meta = {"required": [f"{s} > {w}" for s, w in required]}
    if ctx.hard_failure:
        return MetricRecord("PHA", 0.0, "hard failure on a priority case", {**meta, "missing": meta["required"],
                                                                             "inverted": []})
    problems = []
    if ctx.has_trace:
        out = ctx.universe
        have = _pair_keys(out, ((out.objects[h].stronger, out.objects[h].weaker) for h in out.handles
                                if h.startswith("priority:")))
        closure = _pair_keys(g, ctx.gold.evaluation.priorities.closure)
        missing = [p for p in required if p not in have]
        inverted = sorted((s, w) for s, w in have if (w, s) in closure)
        if missing:
            problems.append(f"{len(missing)} required priority missing or reversed")
        if inverted:
            problems.append(f"{len(inverted)} priority inverted against the gold order")
    else:
        missing, inverted = [], []
        if required and ctx.output.common.priority_applied is not True:
            problems.append("a priority is required but priority_applied is not true (no trace)")
            missing = list(required)
    if not ctx.correct:
        problems.append(f"status {ctx.pred.value} instead of {ctx.gold.status.value}")
    meta.update(missing=[f"{s} > {w}" for s, w in missing], inverted=[f"{s} > {w}" for s, w in inverted])
    if problems:
        return MetricRecord("PHA", 0.0, "; ".join(problems), meta)
    how = "required priorities present, none inverted" if ctx.has_trace else "priority_applied reported"
    return MetricRecord("PHA", 1.0, f"gold status reached; {how}", meta)
