"""Trace alignment (Algorithm 4): the mandatory edges of the gold trace and
their alignment with an assistant's trace in TNF.

**Admissible gold sets.**  A *subtrace* keeps a subset ``S`` of the gold
objects that is closed under attack: every gold argument that attacks an
argument buildable from ``S`` (actively or not) is buildable from ``S`` too,
so a subtrace never hides a conflict it takes part in.  It is
*status-preserving* when the engine gives ``S`` the gold status.  The
admissible gold sets are the inclusion-minimal status-preserving subtraces.
They are found from seeds -- nothing, one argument for the target or its
complement, or one of each -- closed under attackers, plus every minimal
subset of the priorities among the closed rules (explicit attack edges come
with their endpoints).  Only the target's dependency cone is searched
(grounded reachability) and statuses are memoized on STATUS signatures
(:class:`scorer.subtheory.Universe`).  Sets whose TNF edge sets coincide form
one equivalence class and are kept once.

**Alignment.**  Each class is a set of canonical edge ids
(:func:`symbolic.traces.naming.edge_id`).  The assistant's objects are put in TNF
the same way.  The chosen class minimizes the edit distance (symmetric
difference of edge ids, plus attack edges present on both sides with a
different ``state`` or ``lic``); ties go to the smallest sorted tuple of
edge ids.  An attack whose attributes are those of the full gold trace is not
a mismatch: an optional gold priority may turn an attack of a minimal
subtrace from active to defeated.
``matched`` are its edges the output has with the same attributes,
``missing`` the rest, ``unsupported`` the output edges in no gold class and
not in the full gold trace.

Penalty example: the only admissible set keeps the three facts, the three
rules and ``r3 > r2``; ``r2 > r1`` is optional (deleting it leaves the status
``accepted``), so an assistant that omits it loses no coverage.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from itertools import combinations
from typing import Iterable, Sequence

from symbolic.errors import PriorityCycleWarning
from symbolic.scenario.labels import Status
from symbolic.scenario.literals import complement
from symbolic.scenario.model import Analysis, EdgeType, Trace, TraceEdge
from symbolic.traces.naming import edge_id
from symbolic.engine.results import Evaluation
from symbolic.traces.tnf import tnf
from symbolic.traces.trace import trace_edge_attrs, trace_edge_map

from .records import AlignmentRecord
from .subtheory import Universe

__all__ = [
    "GoldClasses",
    "align_edges",
    "edge_map",
    "evaluation_edge_attrs",
    "evaluation_edges",
    "gold_classes",
    "trace_edges",
]

DEFAULT_MAX_SEEDS = 64
DEFAULT_MAX_PRIORITY_SUBSETS = 256


def edge_map(trace: Trace) -> dict[str, TraceEdge]:
    """Canonical edge id -> edge, for a trace in TNF.

    Parameters
    ----------
    trace : Trace

    Returns
    -------
    dict of str to TraceEdge
    """
    return {edge_id(e): e for e in trace.edges}


def trace_edges(evidence_ids: Iterable[str], analysis: Analysis, target: str,
                query: str | None = None) -> dict[str, TraceEdge]:
    """The TNF edges of an analysis, by canonical edge id.

    Parameters
    ----------
    evidence_ids : iterable of str
    analysis : Analysis
    target : str
    query : str, optional

    Returns
    -------
    dict of str to TraceEdge
    """
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PriorityCycleWarning)
        return edge_map(tnf(frozenset(evidence_ids), analysis, target, query=query))


def evaluation_edges(evaluation: Evaluation, query: str | None = None) -> dict[str, TraceEdge]:
    """The TNF edges of an engine evaluation over an already normalized theory.

    For a grounded theory whose proof aliases are collapsed (as in
    :class:`scorer.subtheory.Universe`) this is exactly what :func:`trace_edges`
    returns for the same objects (TNF steps iv-vi), without normalizing and
    evaluating them again.

    Parameters
    ----------
    evaluation : Evaluation
    query : str, optional

    Returns
    -------
    dict of str to TraceEdge
    """
    return trace_edge_map(evaluation, query=query)


def evaluation_edge_attrs(evaluation: Evaluation, query: str | None = None) -> dict[str, tuple]:
    """:func:`evaluation_edges` reduced to what an alignment compares: edge id -> attributes.

    The same ids in the same order; the value is ``(state, lic)`` for an
    attack edge and ``()`` for any other (:func:`symbolic.traces.trace.trace_edge_attrs`),
    which :func:`align_edges` takes in place of the edges.

    Parameters
    ----------
    evaluation : Evaluation
    query : str, optional

    Returns
    -------
    dict of str to tuple
    """
    return trace_edge_attrs(evaluation, query=query)


@dataclass(frozen=True, slots=True)
class GoldClasses:
    """The admissible gold edge sets of one scenario.

    Attributes
    ----------
    status : Status
        The gold status the subtraces preserve.
    classes : tuple of (tuple of str, dict)
        One entry per equivalence class, sorted by edge ids: the handles of a
        representative admissible object set and its TNF edge ids, each with
        its alignment attributes (:func:`evaluation_edge_attrs`).
    full : dict of str to tuple
        The edge ids of the full gold trace with their alignment attributes.
    fallback : bool
        No subtrace preserved the status (the gold label disagrees with the
        engine on the gold objects, or a cap cut the search short): the
        relevant gold objects form the only class.
    capped : bool
        ``max_seeds`` or ``max_priority_subsets`` cut the search short.
    evaluations : int
        Engine evaluations spent.
    """

    status: Status
    classes: tuple[tuple[tuple[str, ...], dict], ...]
    full: dict
    fallback: bool
    capped: bool
    evaluations: int


def _minimal(sets: Sequence[frozenset[str]]) -> list[frozenset[str]]:
    ordered = sorted(set(sets), key=lambda s: (len(s), sorted(s)))
    kept: list[frozenset[str]] = []
    for s in ordered:
        if not any(k <= s for k in kept):
            kept.append(s)
    return kept


def gold_classes(evidence_ids: Iterable[str], gold: Analysis, target: str, status: Status, *,
                 query: str | None = None, universe: Universe | None = None,
                 max_seeds: int = DEFAULT_MAX_SEEDS,
                 max_priority_subsets: int = DEFAULT_MAX_PRIORITY_SUBSETS) -> GoldClasses:
    """The admissible gold sets (inclusion-minimal status-preserving subtraces), Algorithm 4.

    Parameters
    ----------
    evidence_ids : iterable of str
        The evidence package.
    gold : Analysis
        The gold objects.
    target : str
        The target literal.
    status : Status
        The gold status ``y``.
    query : str, optional
        The question text (label of the query node).
    universe : Universe, optional
        Reuse a universe (and its STATUS memo) over the same gold objects.
    max_seeds : int
        Cap on the seeds tried.
    max_priority_subsets : int
        Cap on the priority subsets looked at per seed, including those skipped because they
        include a status-preserving subset already found; the search stops without the cap once
        every subset of one size includes a found one.

    Returns
    -------
    GoldClasses

    Examples
    --------
    >>> from symbolic.scenario.model import Analysis, Fact, Rule
    >>> e = ["E-01"]
    >>> g = Analysis(facts=[Fact(id="f1", literal="a", evidence=e), Fact(id="f2", literal="b", evidence=e)],
    ...              rules=[Rule(id="r1", antecedents=["a"], consequent="p", evidence=e),
    ...                     Rule(id="r2", antecedents=["b"], consequent="p", evidence=e)])
    >>> gc = gold_classes(e, g, "p", Status.ACCEPTED)
    >>> [handles for handles, _ in gc.classes]
    [('fact:f1', 'rule:r1'), ('fact:f2', 'rule:r2')]
    """
    evidence = frozenset(evidence_ids)
    u = universe if universe is not None else Universe(evidence, gold, target)
    before = u.evaluations
    full_edges = evaluation_edge_attrs(u.everything(), query)
    ev = u.evaluate(u.handles)
    rule_handle, fact_handle = u.rule_handles, u.fact_handles
    objs = {a.id: frozenset(rule_handle[r] for r in a.rules) | frozenset(fact_handle[f] for f in a.premises)
            for a in ev.arguments}
    attackers: dict[str, set[str]] = {}
    for att in ev.attacks:
        attackers.setdefault(att.target, set()).add(att.attacker)
    priorities = [h for h in u.handles if h.startswith("priority:") and h in u.relevant]
    explicit = [h for h in u.handles if h.startswith("attack:") and h in u.relevant]

    def closure(seed: Sequence[str]) -> frozenset[str]:
        s: set[str] = set()
        for a in seed:
            s |= objs[a]
        changed = True
        while changed:
            changed = False
            for a, needs in objs.items():
                if needs <= s:
                    for b in attackers.get(a, ()):
                        if not objs[b] <= s:
                            s |= objs[b]
                            changed = True
        return frozenset(s)

    def names(handles: frozenset[str]) -> set[str]:
        return {u.objects[h].id for h in handles}

    pro = [a.id for a in ev.arguments if a.conclusion == u.target and not a.defeater]
    con = [a.id for a in ev.arguments if a.conclusion == complement(u.target)]
    seeds: list[tuple[str, ...]] = [()] + [(a,) for a in pro + con] + [(a, b) for a in pro for b in con]
    capped = len(seeds) > max_seeds
    candidates: list[frozenset[str]] = []
    seen_closures: set[frozenset[str]] = set()
    for seed in seeds[:max_seeds]:
        base = closure(seed)
        if base in seen_closures:
            continue
        seen_closures.add(base)
        present = names(base)
        attack_handles = frozenset(
            h for h in explicit if u.effective(base | {h}) - base)
        qs = [h for h in priorities
              if u.objects[h].stronger in present and u.objects[h].weaker in present]
        found: list[frozenset[str]] = []
        looked = 0
        for size in range(len(qs) + 1):
            level_open = False  # a subset of this size that no found set is included in
            for subset in combinations(qs, size):
                if looked >= max_priority_subsets:
                    capped, level_open = True, False
                    break
                looked += 1
                chosen = frozenset(subset)
                if any(f <= chosen for f in found):
                    continue
                level_open = True
                if u.status(base | attack_handles | chosen) is status:
                    found.append(chosen)
            if not level_open:
                # Every subset of this size includes a found set, so every larger one does too
                # (none can be minimal); or the cap was reached.
                break
        candidates.extend(base | attack_handles | f for f in found)
    minimal = _minimal(candidates)
    fallback = not minimal
    if fallback:
        minimal = [frozenset(u.relevant)]
    classes: dict[tuple[str, ...], tuple[tuple[str, ...], dict]] = {}
    for handles in minimal:
        edges = evaluation_edge_attrs(u.evaluate(handles), query)
        key = tuple(sorted(edges))
        if key not in classes:
            classes[key] = (tuple(sorted(handles, key=u.handles.index)), edges)
    ordered = tuple(classes[k] for k in sorted(classes))
    return GoldClasses(status, ordered, full_edges, fallback, capped, u.evaluations - before)


def _attrs(edge: TraceEdge | tuple) -> tuple:
    """What the alignment compares of an edge: ``(state, lic)`` of an attack, ``()`` otherwise."""
    if type(edge) is tuple:  # already reduced (evaluation_edge_attrs)
        return edge
    return (edge.state, edge.lic) if edge.type is EdgeType.ATTACK else ()


def align_edges(classes: GoldClasses, output: dict[str, TraceEdge]) -> AlignmentRecord:
    """Align an output's TNF edges with the closest admissible gold class (Algorithm 4).

    Parameters
    ----------
    classes : GoldClasses
        From :func:`gold_classes`.
    output : dict of str to TraceEdge, or of str to tuple
        The output's TNF edges by canonical id (empty when it has no trace),
        or their alignment attributes (:func:`evaluation_edge_attrs`).

    Returns
    -------
    AlignmentRecord
        ``metadata`` holds ``distance``, ``gold_edges``, ``class_index``,
        ``n_classes``, ``gold_objects``, ``attribute_mismatch``, ``fallback`` and
        ``classes_capped`` (the seed or priority-subset cap cut the class search
        short: the chosen class is the closest among those generated).

    Examples
    --------
    >>> from symbolic.scenario.model import Analysis, Fact, Rule
    >>> e = ["E-01"]
    >>> g = Analysis(facts=[Fact(id="f1", literal="a", evidence=e)],
    ...              rules=[Rule(id="r1", antecedents=["a"], consequent="p", evidence=e)])
    >>> gc = gold_classes(e, g, "p", Status.ACCEPTED)
    >>> rec = align_edges(gc, trace_edges(e, g, "p"))
    >>> len(rec.missing), len(rec.unsupported), rec.metadata["distance"]
    (0, 0, 0)
    """
    full = classes.full

    def differs(i: str, gold: dict) -> bool:
        got = _attrs(output[i])
        return got != _attrs(gold[i]) and not (i in full and got == _attrs(full[i]))

    best = None
    for index, (handles, gold) in enumerate(classes.classes):
        mismatch = sorted(i for i in gold.keys() & output.keys() if differs(i, gold))
        distance = len(gold.keys() ^ output.keys()) + len(mismatch)
        key = (distance, tuple(sorted(gold)))
        if best is None or key < best[0]:
            best = (key, index, handles, gold, mismatch)
    (distance, _), index, handles, gold, mismatch = best
    known = set(classes.full)
    for _, edges in classes.classes:
        known |= edges.keys()
    matched = [i for i in gold if i in output and i not in mismatch]
    missing = [i for i in gold if i not in output or i in mismatch]
    unsupported = [i for i in output if i not in known]
    return AlignmentRecord(
        matched, missing, unsupported,
        metadata={"distance": distance, "gold_edges": len(gold), "class_index": index,
                  "n_classes": len(classes.classes), "gold_objects": list(handles),
                  "attribute_mismatch": mismatch, "fallback": classes.fallback,
                  "classes_capped": classes.capped},
    )
