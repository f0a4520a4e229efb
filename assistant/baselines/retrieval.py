"""Deterministic lexical retrieval over an evidence package (Okapi BM25 via ``bm25s``).

Used by the ``legalbench-rag`` baseline to pick the fragments an answer may
cite, by the ``react`` baseline's search tool, by ``graphrag`` to find the
graph entities a query mentions, and by :mod:`assistant.ingest.select` to fit
ingested documents into a token budget.  Scoring is the ``bm25s`` library's
Lucene variant; tokenization is ours: tokens are lower-cased alphanumeric
runs, CamelCase literals such as ``ForceMajeure(x)`` are split into words, and
a short list of English function words is ignored.  No embeddings, no network.
Ties are broken by the fragments' order in the package, so a ranking is a pure
function of its inputs.

References
----------
S. Robertson and H. Zaragoza, "The Probabilistic Relevance Framework: BM25
and Beyond", Foundations and Trends in IR 3(4), 2009.
X. H. Lù, "BM25S: Orders of magnitude faster lexical search via eager
sparse scoring", arXiv:2407.03618, 2024.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable

from symbolic.scenario.model import EvidenceFragment

from ..errors import ConfigurationError

__all__ = ["Hit", "STOPWORDS", "bm25_rank", "bm25_scores", "tokens"]

STOPWORDS = frozenset(
    "a an and any are as at be been by can could did do does for from had has have if in into is it its may "
    "must no nor not of on or shall should so than that the their then there these this those to under upon "
    "was were what when where whether which who will with would".split()
)
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
_WORD = re.compile(r"[a-z0-9]+")


def tokens(text: str) -> tuple[str, ...]:
    """Content words of ``text``: lower-cased, CamelCase split, function words dropped.

    Examples
    --------
    >>> tokens("Is the supplier liable for ForceMajeure(x)?")
    ('supplier', 'liable', 'force', 'majeure', 'x')
    """
    return tuple(w for w in _WORD.findall(_CAMEL.sub(" ", text).lower()) if w not in STOPWORDS)


@dataclass(frozen=True, slots=True)
class Hit:
    """One ranked fragment.

    Attributes
    ----------
    fragment : EvidenceFragment
    score : float
        Its BM25 score for the query (0 when no query word occurs in it).
    """

    fragment: EvidenceFragment
    score: float


def _document(fragment: EvidenceFragment) -> tuple[str, ...]:
    return tokens(" ".join(filter(None, (fragment.source, fragment.clause, fragment.text))))


def bm25_scores(query: str, documents: list[tuple[str, ...]], *, k1: float = 1.2, b: float = 0.75) -> list[float]:
    """BM25 score of each tokenized document for ``query`` (``bm25s``, Lucene variant).

    The inverse document frequency is ``log(1 + (N - df + 0.5) / (df + 0.5))``
    (always positive) and a term's weight ``tf / (tf + k1 (1 - b + b |d| / avgdl))``.

    Parameters
    ----------
    query : str
        The retrieval query (tokenized with :func:`tokens`).
    documents : list of tuple of str
        The tokenized documents.
    k1, b : float, optional
        Term-saturation and length-normalization parameters.

    Returns
    -------
    list of float
        One score per document (0 where no query word occurs).
    """
    import bm25s  # deferred: the CLI must not pay for scipy unless it retrieves

    wanted = list(dict.fromkeys(tokens(query)))
    if not documents or not wanted or not any(documents):
        return [0.0] * len(documents)
    index = bm25s.BM25(k1=k1, b=b, method="lucene")
    index.index([list(d) for d in documents], show_progress=False)
    return [float(x) for x in index.get_scores(wanted)]


def bm25_rank(query: str, fragments: Iterable[EvidenceFragment], k: int | None = None, *,
              k1: float = 1.2, b: float = 0.75) -> tuple[Hit, ...]:
    """Rank ``fragments`` by Okapi BM25 for ``query``; keep the ``k`` best.

    A fragment is indexed with its source, clause and text and scored by
    :func:`bm25_scores`.  Fragments scoring 0 are kept at the end, in package
    order, so ``k`` fragments come back whenever the package holds that many.

    Parameters
    ----------
    query : str
        The retrieval query.
    fragments : iterable of EvidenceFragment
        The evidence package.
    k : int, optional
        How many hits to return; all when ``None``.
    k1, b : float, optional
        BM25 term-saturation and length-normalization parameters.

    Returns
    -------
    tuple of Hit
        Best first; equal scores keep the package order.

    Raises
    ------
    ConfigurationError
        If ``k`` is negative.

    Examples
    --------
    >>> fs = [EvidenceFragment(id="E-01", text="The port was closed by a storm.", source="Notice"),
    ...       EvidenceFragment(id="E-02", text="Late delivery incurs a penalty.", source="Contract")]
    >>> [(h.fragment.id, round(h.score, 3)) for h in bm25_rank("Is a penalty due for late delivery?", fs)]
    [('E-02', 0.904), ('E-01', 0.0)]
    """
    if k is not None and k < 0:
        raise ConfigurationError(f"k must be >= 0, got {k}")
    fragments = tuple(fragments)
    scores = bm25_scores(query, [_document(f) for f in fragments], k1=k1, b=b)
    scored = sorted(((s, i) for i, s in enumerate(scores)), key=lambda pair: (-pair[0], pair[1]))
    return tuple(Hit(fragments[i], s) for s, i in scored[: k if k is not None else len(fragments)])
