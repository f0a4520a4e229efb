"""Metrics on gold-contradiction cases: CLA, NER and UUCR (paper Section 5,
Definition 6).

The denominator of all three is fixed by the gold flag
``scenario.metadata.contradiction``, never by what the output says: a case the
assistant did not recognize as contradictory still counts.
"""

from __future__ import annotations

from symbolic.scenario.literals import atom

from ..records import MetricRecord
from .context import CaseContext, conflict_pairs

__all__ = [
    "conflict_localization_accuracy",
    "no_explosion_rate",
    "unsupported_unrelated",
    "unsupported_unrelated_conclusion_rate",
]


def _not_contradiction(name: str) -> MetricRecord:
    return MetricRecord(name, None, "not a gold-contradiction case", {})


def _gold_conflicts(ctx: CaseContext):
    g = ctx.gold
    pairs = conflict_pairs(g.universe, g.evaluation, frozenset(ctx.chosen))
    if not pairs:
        union = frozenset(h for handles, _ in g.classes.classes for h in handles)
        pairs = conflict_pairs(g.universe, g.evaluation, union)
    if not pairs:
        pairs = conflict_pairs(g.universe, g.evaluation)
    return pairs


def conflict_localization_accuracy(ctx: CaseContext) -> MetricRecord:
    """CLA on one gold-contradiction case: 1 iff the output locates every gold conflict.

    Gold conflicts are the conflict pairs (:func:`scorer.metrics.context.conflict_pairs`)
    among the objects of the chosen admissible gold class (falling back to all
    classes, then to the whole gold theory).  With a trace, the output's
    conflicts are computed the same way from its grounded objects and compared
    by content; every gold pair must be among them.  Without a trace, the only
    explicit localization is the citation: the output must report
    ``conflict_detected`` and cite, for every gold pair, at least one fragment
    grounding each of its two objects.

    Parameters
    ----------
    ctx : CaseContext

    Returns
    -------
    MetricRecord
        ``metadata``: ``gold_conflicts``, ``located`` (counts), ``missed`` (pairs of content keys).

    Examples
    --------
    >>> from scorer.metrics._examples import penalty_context
    >>> conflict_localization_accuracy(penalty_context("accepted", trace="gold", contradiction=True)).value
    1.0
    >>> conflict_localization_accuracy(penalty_context("accepted", trace="no-r2", contradiction=True)).value
    0.0
    """
    if not ctx.gold.scenario.metadata.contradiction:
        return _not_contradiction("CLA")
    gold = _gold_conflicts(ctx)
    if not gold:
        return MetricRecord("CLA", None, "gold-contradiction case without any conflict among the gold objects",
                            {})
    g = ctx.gold.universe
    if ctx.hard_failure:
        return MetricRecord("CLA", 0.0, "hard failure: no conflict located",
                            {"gold_conflicts": len(gold), "located": 0, "missed": _show(gold)})
    if ctx.has_trace:
        found = conflict_pairs(ctx.universe, ctx.evaluation)
        missed = {k: v for k, v in gold.items() if k not in found}
        how = "by the output's objects"
    else:
        detected = bool(ctx.output.common.conflict_detected)
        cited = ctx.cited or frozenset()

        def grounded(handle: str) -> bool:
            return bool(set(g.objects[handle].evidence) & cited)

        missed = {k: v for k, v in gold.items()
                  if not (detected and grounded(v[0]) and grounded(v[1]))}
        how = "by conflict_detected and the cited fragments (no trace)"
        if not detected:
            how += "; conflict_detected is not true"
    meta = {"gold_conflicts": len(gold), "located": len(gold) - len(missed), "missed": _show(missed)}
    if missed:
        first = sorted(missed.values())[0]
        return MetricRecord("CLA", 0.0, f"{len(missed)} of {len(gold)} gold conflicts not located {how}, "
                                        f"e.g. {first[0]} vs {first[1]}", meta)
    return MetricRecord("CLA", 1.0, f"all {len(gold)} gold conflicts located {how}", meta)


def _show(pairs) -> list[list[str]]:
    return sorted(sorted(k) for k in pairs)


def unsupported_unrelated(ctx: CaseContext) -> tuple[str, ...]:
    """The emitted conclusions that are both unsupported and unrelated (Definition 6).

    *Unsupported*: no argument of the gold theory, nor of the output's own
    grounded objects, concludes it.  *Unrelated*: its atom is neither the
    target's nor any atom of the target's dependency cone in the gold theory.

    Parameters
    ----------
    ctx : CaseContext

    Returns
    -------
    tuple of str
        Sorted literals.
    """
    supported = set(ctx.gold.conclusions)
    if ctx.evaluation is not None:
        supported.update(a.conclusion for a in ctx.evaluation.arguments)
        supported.update(_all_output_conclusions(ctx))
    related = ctx.gold.related_atoms
    return tuple(c for c in ctx.emitted if c not in supported and atom(c) not in related)


def _all_output_conclusions(ctx: CaseContext) -> set[str]:
    return {a.conclusion for a in ctx.universe.everything().arguments}


def no_explosion_rate(ctx: CaseContext) -> MetricRecord:
    """NER on one gold-contradiction case: 1 iff the output does not explode (Definition 6).

    Explosion is emitting, on a contradiction case, at least one conclusion
    that is both unsupported by any grounded argument and unrelated to the
    query (:func:`unsupported_unrelated`).  An output that emits no
    conclusion does not explode.  A hard failure scores 0.

    Parameters
    ----------
    ctx : CaseContext

    Returns
    -------
    MetricRecord
        ``metadata``: ``emitted``, ``unsupported_unrelated``.

    Examples
    --------
    >>> from scorer.metrics._examples import penalty_context
    >>> no_explosion_rate(penalty_context("both", contradiction=True,
    ...                                   emitted=["Penalty(x)", "MoonIsCheese(x)"])).value
    0.0
    >>> no_explosion_rate(penalty_context("both", contradiction=True, emitted=["Penalty(x)"])).value
    1.0
    """
    if not ctx.gold.scenario.metadata.contradiction:
        return _not_contradiction("NER")
    if ctx.hard_failure:
        return MetricRecord("NER", 0.0, "hard failure on a contradiction case", {"emitted": 0})
    bad = unsupported_unrelated(ctx)
    meta = {"emitted": len(ctx.emitted), "unsupported_unrelated": list(bad)}
    if bad:
        return MetricRecord("NER", 0.0, f"explosion: emitted {len(bad)} unsupported conclusion(s) unrelated "
                                        f"to the query, e.g. {bad[0]}", meta)
    return MetricRecord("NER", 1.0, f"no unsupported unrelated conclusion among {len(ctx.emitted)} emitted",
                        meta)


def unsupported_unrelated_conclusion_rate(ctx: CaseContext) -> MetricRecord:
    """UUCR on one gold-contradiction case: the share of emitted conclusions that are
    unsupported and unrelated (Definition 6); lower is better.

    0 when nothing is emitted; 1 on a hard failure.  The split-level value is
    the mean over gold-contradiction cases.

    Parameters
    ----------
    ctx : CaseContext

    Returns
    -------
    MetricRecord
        ``metadata``: ``emitted``, ``unsupported_unrelated``.

    Examples
    --------
    >>> from scorer.metrics._examples import penalty_context
    >>> unsupported_unrelated_conclusion_rate(penalty_context(
    ...     "both", contradiction=True, emitted=["Penalty(x)", "MoonIsCheese(x)"])).value
    0.5
    """
    if not ctx.gold.scenario.metadata.contradiction:
        return _not_contradiction("UUCR")
    if ctx.hard_failure:
        return MetricRecord("UUCR", 1.0, "hard failure on a contradiction case (scored as the worst rate)",
                            {"emitted": 0})
    bad = unsupported_unrelated(ctx)
    meta = {"emitted": len(ctx.emitted), "unsupported_unrelated": list(bad)}
    if not ctx.emitted:
        return MetricRecord("UUCR", 0.0, "no conclusion emitted", meta)
    return MetricRecord("UUCR", len(bad) / len(ctx.emitted),
                        f"{len(bad)} of {len(ctx.emitted)} emitted conclusions unsupported and unrelated",
                        meta)
