"""Evidence selection: the fragments a query needs, within a token budget.

When the fragments fit the budget all are kept.  Otherwise they are ranked by
BM25 for the query (and target literal) with ``bm25s``
(:func:`assistant.baselines.retrieval.bm25_rank`), re-scored with
pseudo-relevance feedback from the three best hits (so a log entry that names
the alert a ranked review names comes next), and taken best first; each
one taken brings the clauses it cross-references (``subject to clause 14``),
transitively, when they fit too; what budget is left goes to the fragments that
score nothing, in package order.  An amendment's clause that cites a
kept clause comes along with it, and so does a clause of another document
that cites it (a notice given under it) and the preamble of its document
(parties, dates; an email's header).  The result records every fragment
kept and left out, with its tokens, rank, score and the reason.  Tokens are
estimated as ``ceil(characters / 4)``, like the scripted backend's counts.
"""

from __future__ import annotations

from collections import deque

import math
from dataclasses import dataclass
from typing import Iterable, Mapping

from symbolic.scenario.model import EvidenceFragment

from ..errors import ConfigurationError
from .clauses import find_references

__all__ = ["DEFAULT_BUDGET", "Selection", "cross_references", "fragment_tokens", "select"]

DEFAULT_BUDGET = 2000
FEEDBACK = 3
FEEDBACK_WEIGHT = 0.5


def _ranked(query: str, fragments: tuple[EvidenceFragment, ...], feedback: int, weight: float):
    """BM25 hits for ``query``, re-scored with pseudo-relevance feedback from the ``feedback`` best,
    and the plain BM25 score of each fragment.

    The second query is the source and text of the best hits; its scores,
    scaled to the first query's best score, are added with ``weight``
    (Rocchio-style feedback, Manning et al., *Introduction to Information
    Retrieval*, 2008, ch. 9).
    """
    from ..baselines.retrieval import Hit, bm25_rank

    hits = bm25_rank(query, fragments)
    direct = {h.fragment.id: h.score for h in hits}
    top = [h for h in hits[:feedback] if h.score > 0]
    if not top or weight <= 0:
        return hits, direct
    second = {h.fragment.id: h.score for h in bm25_rank(" ".join(f"{h.fragment.source} {h.fragment.text}"
                                                                for h in top), fragments)}
    scale = top[0].score / max(max(second.values()), 1e-12)
    order = {f.id: i for i, f in enumerate(fragments)}
    rescored = [Hit(h.fragment, h.score + weight * scale * second[h.fragment.id]) for h in hits]
    return tuple(sorted(rescored, key=lambda h: (-h.score, order[h.fragment.id]))), direct


def fragment_tokens(fragment: EvidenceFragment) -> int:
    """Estimated prompt tokens of a fragment: ``ceil(len(text) / 4)`` (at least 1)."""
    return max(1, math.ceil(len(fragment.text) / 4))


def _matches(clause: str | None, target: str) -> bool:
    if not clause:
        return False
    clause = clause.removeprefix("cl. ").removeprefix("clause ").removeprefix("Clause ")
    return clause == target or clause.startswith(target + ".") or clause.startswith(target + ", para")


def cross_references(fragments: Iterable[EvidenceFragment]) -> dict[str, tuple[str, ...]]:
    """Fragment id to the fragments its text cross-references, for fragments without locators.

    A reference resolves to the fragments of the same source whose clause it
    names (``clause 14`` names ``14``, ``14.2``; ``Appendix 2`` names
    ``Appendix 2, para 4``), else of any source when the same source has none.

    Examples
    --------
    >>> fs = [EvidenceFragment(id="E1", text="Subject to clause 14, 0.5% a day.", source="SA", clause="12.2"),
    ...       EvidenceFragment(id="E2", text="Force majeure excuses delay.", source="SA", clause="14.1")]
    >>> cross_references(fs)
    {'E-01': ('E-02',), 'E-02': ()}
    """
    fragments = tuple(fragments)
    out = {}
    for frag in fragments:
        found: list[str] = []
        for ref in find_references(frag.text):
            if _matches(frag.clause, ref.target):
                continue
            same = [f.id for f in fragments if f.id != frag.id and f.source == frag.source
                    and _matches(f.clause, ref.target)]
            found += same or [f.id for f in fragments if f.id != frag.id and _matches(f.clause, ref.target)]
        out[frag.id] = tuple(dict.fromkeys(found))
    return out


@dataclass(frozen=True, slots=True)
class Selection:
    """The outcome of :func:`select`.

    Attributes
    ----------
    fragments : tuple of EvidenceFragment
        The kept fragments, in package order.
    record : dict
        ``budget_tokens``, ``total_tokens``, ``kept_tokens``, ``retriever``,
        ``kept`` and ``left_out`` (each a list of ``{id, tokens, rank, score,
        reason}``).
    """

    fragments: tuple[EvidenceFragment, ...]
    record: dict

    @property
    def kept_ids(self) -> tuple[str, ...]:
        """Ids of the kept fragments, in package order."""
        return tuple(f.id for f in self.fragments)


def select(query: str, fragments: Iterable[EvidenceFragment], *, budget: int = DEFAULT_BUDGET,
           target: str | None = None, cross_refs: Mapping[str, Iterable[str]] | None = None,
           companions: Mapping[str, Iterable[tuple[str, str]]] | None = None, depth: int = 1, feedback: int = FEEDBACK,
           weight: float = FEEDBACK_WEIGHT, max_fragments: int | None = None) -> Selection:
    """Select the fragments for ``query`` within ``budget`` tokens (see the module docstring).

    Parameters
    ----------
    query : str
        The question.
    fragments : iterable of EvidenceFragment
        The ingested fragments.
    budget : int, optional
        Token budget for the evidence (default :data:`DEFAULT_BUDGET`).
    target : str, optional
        The target literal; its words join the query.
    cross_refs : mapping, optional
        Fragment id to the ids it cross-references (an ingested package's
        locators); found with :func:`cross_references` when omitted.
    companions : mapping, optional
        Fragment id to ``(fragment, relation)`` pairs of fragments that come
        along with it like its cross-references (for ingested documents:
        clauses of other documents citing it, ``"amends"`` or ``"cites"``,
        and its document's preamble or email header, ``"opens the document
        of"``).
    depth : int, optional
        How many cross-reference hops a kept fragment brings along (default 1:
        the clauses it cites, not the clauses those cite).
    feedback : int, optional
        How many best hits feed the second, feedback query (0: none).
    weight : float, optional
        Weight of the feedback scores.
    max_fragments : int, optional
        At most this many fragments are kept (the assistant's own limit,
        :class:`assistant.evidence.Limits`); the rest are left out as
        ``over the fragment limit``, as over the budget.

    Returns
    -------
    Selection

    Raises
    ------
    ConfigurationError
        If ``budget`` is not positive.

    Examples
    --------
    >>> fs = [EvidenceFragment(id="E1", text="Subject to clause 14, a penalty of 0.5% a day is due.", source="SA",
    ...                        clause="12.2"),
    ...       EvidenceFragment(id="E2", text="Force majeure excuses delay.", source="SA", clause="14.1"),
    ...       EvidenceFragment(id="E3", text="Prices are net of VAT and exclude freight.", source="SA", clause="7")]
    >>> sel = select("Is the penalty due?", fs, budget=22)
    >>> sel.kept_ids, [(x["id"], x["reason"]) for x in sel.record["left_out"]]
    (('E-01', 'E-02'), [('E-03', 'over budget (rank 3 by feedback from the best hits, score 0.009)')])
    """
    if budget <= 0:
        raise ConfigurationError(f"the evidence budget must be a positive number of tokens, got {budget}")
    fragments = tuple(fragments)
    cost = {f.id: fragment_tokens(f) for f in fragments}
    total = sum(cost.values())
    record: dict = {"query": query, "budget_tokens": budget, "total_tokens": total,
                    "retriever": "bm25s (lucene, k1=1.2, b=0.75)"
                                 + (f", feedback from the {feedback} best hits (weight {weight:g})" if feedback else ""),
                    "kept": [], "left_out": []}
    limit = len(fragments) if max_fragments is None else max_fragments
    if total <= budget and len(fragments) <= limit:
        record["kept"] = [{"id": f.id, "tokens": cost[f.id], "reason": "all fragments fit the budget"}
                          for f in fragments]
        record["kept_tokens"] = total
        return Selection(fragments, record)
    refs = {k: tuple(v) for k, v in (cross_refs if cross_refs is not None else cross_references(fragments)).items()}
    hits, direct = _ranked(f"{query} {target or ''}", fragments, feedback, weight)
    rank = {h.fragment.id: (i + 1, h.score) for i, h in enumerate(hits)}
    kept: dict[str, str] = {}
    why_not: dict[str, str] = {}
    used = 0

    def fits(fid: str) -> bool:
        return used + cost[fid] <= budget and len(kept) < limit

    def over(fid: str) -> str:
        return "over budget" if len(kept) < limit else f"over the fragment limit ({limit})"

    citers = {k: tuple(v) for k, v in (companions or {}).items()}

    def closure(fid: str) -> list[tuple[str, str]]:
        seen, order, todo = set(), [], deque([(fid, 0, "")])
        while todo:
            cur, hops, why = todo.popleft()
            if cur in seen or cur in kept or cur not in cost:
                continue
            seen.add(cur)
            order.append((cur, why))
            todo.extend((a, hops, f"{relation} {cur}") for a, relation in citers.get(cur, ()))
            if hops < depth:
                todo.extend((r, hops + 1, f"cross-referenced by {cur}") for r in refs.get(cur, ()))
        return order

    for hit in hits:
        fid = hit.fragment.id
        r, score = rank[fid]
        if fid in kept:
            continue
        if hit.score <= 0:
            if fits(fid):
                kept[fid] = "budget left (no query word)"
                used += cost[fid]
            else:
                why_not.setdefault(fid, f"{over(fid)} (no query word)")
            continue
        how = f"BM25 rank {r}" if direct[fid] > 0 else f"rank {r} by feedback from the best hits"
        if not fits(fid):
            why_not.setdefault(fid, f"{over(fid)} ({how}, score {score:.3f})")
            continue
        group = closure(fid)
        kept[fid] = f"{how} (score {score:.3f})"
        used += cost[fid]
        for ref, why in group[1:]:
            if fits(ref):
                kept[ref] = why
                used += cost[ref]
            else:
                why_not[ref] = f"{why} but {over(ref)}"
    for f in fragments:
        r, score = rank[f.id]
        entry = {"id": f.id, "tokens": cost[f.id], "rank": r, "score": round(score, 6)}
        if f.id in kept:
            record["kept"].append({**entry, "reason": kept[f.id]})
        else:
            record["left_out"].append({**entry, "reason": why_not.get(f.id, "over budget")})
    record["kept_tokens"] = used
    return Selection(tuple(f for f in fragments if f.id in kept), record)
