"""BRA: belief revision accuracy on update pairs (paper Section 5).

An update pair is a base case and its update (``metadata.pair`` shared,
``metadata.role`` ``base`` / ``update``).  Within one run, the pair scores 1
iff both members are answered correctly.  Each member's record carries the
pair's value; the split-level value counts each pair once (its ``update``
member).
"""

from __future__ import annotations

from typing import Iterable, Mapping

from ..records import MetricRecord
from .context import CaseContext

__all__ = ["belief_revision_accuracy", "pair_placeholder"]


def pair_placeholder(ctx: CaseContext) -> MetricRecord:
    """The BRA record of one case scored alone.

    A pair member's value needs its partner, so a single case gets "not
    applicable" with the pair in ``metadata``; :func:`belief_revision_accuracy`
    fills it in when both members are scored.

    Parameters
    ----------
    ctx : CaseContext

    Returns
    -------
    MetricRecord
    """
    md = ctx.gold.scenario.metadata
    if md.pair is None:
        return MetricRecord("BRA", None, "not a member of an update pair", {})
    return MetricRecord("BRA", None, f"{md.role} of pair {md.pair}: the partner was not scored in this run",
                        {"pair": md.pair, "role": md.role, "correct": ctx.correct})


def belief_revision_accuracy(members: Iterable[MetricRecord]) -> Mapping[str, MetricRecord]:
    """Pair up the BRA placeholders of one run and score each complete pair.

    Parameters
    ----------
    members : iterable of MetricRecord
        Placeholders from :func:`pair_placeholder` of one run (same configuration,
        model, variant and repeat).

    Returns
    -------
    dict of str to MetricRecord
        ``"<pair>/<role>"`` -> the member's filled record; members whose partner
        is missing keep their placeholder.

    Examples
    --------
    >>> base = MetricRecord("BRA", None, "", {"pair": "p1", "role": "base", "correct": True})
    >>> upd = MetricRecord("BRA", None, "", {"pair": "p1", "role": "update", "correct": False})
    >>> out = belief_revision_accuracy([base, upd])
    >>> out["p1/update"].value, out["p1/base"].explanation
    (0.0, 'pair p1: base correct, update wrong')
    """
    by_pair: dict[str, dict[str, MetricRecord]] = {}
    for rec in members:
        if "pair" in rec.metadata:
            by_pair.setdefault(rec.metadata["pair"], {})[rec.metadata["role"]] = rec
    out: dict[str, MetricRecord] = {}
    for pair, roles in sorted(by_pair.items()):
        if set(roles) != {"base", "update"}:
            for role, rec in roles.items():
                out[f"{pair}/{role}"] = rec
            continue
        b, u = roles["base"].metadata["correct"], roles["update"].metadata["correct"]
        value = 1.0 if (b and u) else 0.0
        why = f"pair {pair}: base {'correct' if b else 'wrong'}, update {'correct' if u else 'wrong'}"
        for role, rec in roles.items():
            out[f"{pair}/{role}"] = MetricRecord("BRA", value, why, dict(rec.metadata))
    return out
