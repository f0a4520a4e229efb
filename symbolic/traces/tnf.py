"""Trace normal form (paper Section 4.3 and Algorithm 4, docs/semantics.md section 12).

:func:`tnf` turns an analysis over an evidence package into its trace normal
form in six steps:

(i)   normalize ids, propositions and status labels (:mod:`symbolic.scenario.labels`,
      :mod:`symbolic.scenario.literals`; the model types already normalize what they hold);
(ii)  turn serialized attack records and provenance events into typed objects
      (:mod:`symbolic.traces.records`), resolving proof-step ids to what they apply
      and adding the fragments of grounding events to the objects they name;
(iii) drop ungrounded objects (:func:`symbolic.engine.grounding.ground`);
(iv)  compute arguments, attacks, neutralization, labels and status with the
      engine (:func:`symbolic.engine.status.evaluate`);
(v)   collapse proof aliases: rules with the same content (antecedent set,
      consequent, kind) become one rule, facts with the same literal one fact,
      each grounded in the union of their fragments (aliases that also share
      their sources leave no trace at all); priorities and attacks that name
      an alias are redirected to it; a rule whose consequent is one of its own
      antecedents is a mere proof step and is dropped.  This is done on the
      grounded theory, *before* the engine runs, so the engine never sees two
      copies of one norm (a priority over ``r1`` then also governs its
      restatement ``r1b``);
(vi)  give every node a canonical, content-derived id and sort (the scheme is
      documented in :mod:`symbolic.traces.naming`): two TNF-equivalent traces
      serialize byte-identically under :func:`tnf_json`.

**Ids** (full table in :mod:`symbolic.traces.naming`): ``query:<target>``,
``evidence:E-01``, ``fact:Delay(x)``, ``rule:Delay(x)=>Penalty(x)`` (body
sorted and ``&``-joined; ``->`` strict, ``=>`` defeasible, ``~>`` defeater;
``¬applicable(r1)`` is written ``¬applicable[<content of r1>]``),
``priority:(<stronger rule content>)>(<weaker rule content>)``,
``arg:<conclusion>@<12 hex>`` (a hash of the derivation: the top rule's
content and the ids of the sub-arguments), ``conclusion:<literal>``,
``status:accepted``.  No id depends on an author's name or on the engine's
argument numbering.

**Equivalence.**  Two traces are TNF-equivalent iff their TNF JSON is equal
(:func:`tnf_equivalent`).  Renaming rules or facts, reordering objects,
spelling an attack as a record instead of a typed edge, restating a fact or
duplicating a rule under another id do not change the TNF; removing a
priority that neutralizes an attack does.  The query node's label is the
question text when one is given: pass the same ``query`` (or none) on both
sides when comparing.

**Alignment.**  A scorer aligns two TNFs edge by edge on :func:`edge_id`
(``grounding:evidence:E-01→fact:Delay(x)``,
``attack:rebut:<attacker arg>→<attacked arg>``, ``defeat:<priority>→<attack id>``);
an attack edge's ``state`` and ``lic`` are attributes to compare after
alignment, not part of its id.  The JSON of each edge carries its ``id``.

**JSON** (:func:`tnf_json`): ``{"edges": [...], "nodes": [...],
"schema_version": "tnf-v1"}`` with sorted keys, compact separators, UTF-8 text
(``ensure_ascii=False``), nodes sorted by id, edges by id; ``None`` fields
are omitted.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from types import MappingProxyType
from typing import Iterable, Mapping

from pydantic import ValidationError

from symbolic.traces.aliases import collapse_aliases
from symbolic.engine.grounding import Dropped, ground
from symbolic.scenario.labels import normalize_evidence_id
from symbolic.scenario.literals import NEG, applicability_atom, excepted_rule, normalize_literal
from symbolic.scenario.model import Analysis, Trace
from symbolic.traces.naming import edge_id
from symbolic.traces.records import Records, RecordError, parse_records
from symbolic.engine.results import Evaluation
from symbolic.traces.tnf_json import SCHEMA_VERSION, TraceFormatError, check_trace, tnf_equivalent, tnf_json, trace_from_json
from symbolic.traces.trace import build_trace
from symbolic.traces.trace_graph import graph_to_trace

__all__ = [
    "SCHEMA_VERSION",
    "NormalForm",
    "TraceFormatError",
    "check_trace",
    "collapse_aliases",
    "edge_id",
    "normal_form",
    "tnf",
    "tnf_equivalent",
    "tnf_json",
    "trace_from_json",
]

@dataclass(frozen=True)
class NormalForm:
    """A TNF with what produced it.

    Attributes
    ----------
    evaluation : Evaluation
        The engine's result on the normalized theory (author ids inside).
    aliases : mapping of str to str
        Every collapsed id (rule, fact or proof step) -> the id it stands for.
    records : Records
        The typed content of the raw records.
    unmatched : tuple of str
        Grounding events that name no fact, rule or priority (ignored).
    query : str or None
        The question, the query node's label.
    trace : Trace
        The trace normal form, built on first access (a large trace can
        instead be written from ``evaluation``: :func:`symbolic.traces.tnf_json.write_tnf` of
        :func:`symbolic.traces.trace.evaluation_rows` writes the same JSON).
    """

    evaluation: Evaluation
    aliases: Mapping[str, str]
    records: Records
    unmatched: tuple[str, ...] = ()
    query: str | None = None

    @cached_property
    def trace(self) -> Trace:
        """The trace normal form (computed once)."""
        return graph_to_trace(build_trace(self.evaluation, query=self.query))

    @property
    def dropped(self) -> tuple[Dropped, ...]:
        """Objects left out, with reasons (ungrounded, proof steps, aliases)."""
        return self.evaluation.theory.dropped


def normal_form(evidence_ids: Iterable[str], analysis: Analysis, target: str, *,
                query: str | None = None, raw_edges: Iterable = (), evaluated: Evaluation | None = None) -> NormalForm:
    """Compute the trace normal form and keep what produced it (Algorithm 4).

    Parameters
    ----------
    evidence_ids : iterable of str
        Ids of the evidence package, in any supported spelling (``E_01``).
    analysis : Analysis
        Facts, rules, explicit attacks and priorities.
    target : str
        The target literal, in any negation spelling.
    query : str, optional
        The question; the query node's label.
    raw_edges : iterable, optional
        Serialized attack records, priority records and provenance events
        (:func:`symbolic.traces.records.parse_records`).
    evaluated : Evaluation, optional
        The engine's result on the grounded analysis (as from
        :func:`symbolic.engine.status.evaluate_analysis`), reused as the normal
        form's evaluation when steps (ii)-(v) leave that theory and target
        unchanged (equal), so that the engine runs once; recomputed otherwise.

    Returns
    -------
    NormalForm

    Raises
    ------
    RecordError
        If a raw record, an evidence id or the target is malformed (a
        :class:`~symbolic.errors.ScenarioError` naming the field).

    Warns
    -----
    PriorityCycleWarning
        When the priorities contain a cycle.
    """
    return _normal_form(evidence_ids, analysis, target, query, raw_edges, evaluated)


def _normal_form(evidence_ids, analysis, target, query, raw_edges, evaluated) -> NormalForm:
    from symbolic.engine.status import evaluate

    evidence = set()
    for i, fragment in enumerate(evidence_ids):
        try:
            evidence.add(normalize_evidence_id(fragment))
        except ValueError as exc:
            raise RecordError(str(exc), field=f"evidence_ids.{i}", value=fragment) from None
    try:
        literal = normalize_literal(target)
    except ValueError as exc:
        raise RecordError(str(exc), field="target", value=target) from None
    records = parse_records(raw_edges)
    resolved = records.resolved()
    merged, unmatched = _merged(analysis, resolved)
    theory, alias = collapse_aliases(ground(frozenset(evidence), merged))
    ref = excepted_rule(literal) or excepted_rule(NEG + literal)
    if ref in alias:
        literal = (NEG if literal.startswith(NEG) else "") + applicability_atom(alias[ref])
    if evaluated is not None and evaluated.target == literal and _same_theory(evaluated.theory, theory):
        evaluation = evaluated  # the engine's input is equal: its result is the same
    else:
        evaluation = evaluate(theory, literal)
    aliases = {**records.aliases(), **alias}
    return NormalForm(evaluation, MappingProxyType(dict(sorted(aliases.items()))), records, unmatched, query)


def _same_theory(a, b) -> bool:
    """Whether two grounded theories are equal, field by field."""
    if a is b:
        return True
    return (a.attacks == b.attacks and a.evidence == b.evidence and a.facts == b.facts and a.rules == b.rules and a.priorities == b.priorities
            and a.dropped == b.dropped and a.attack_table == b.attack_table)


def _merged(analysis: Analysis, resolved) -> tuple[Analysis, tuple[str, ...]]:
    """The analysis with the raw records' attacks, priorities and grounding events added (TNF
    step ii), and the events naming no object; the analysis itself when there are none (its
    columnar lists kept as they are)."""
    if not (resolved.attacks or resolved.priorities or resolved.groundings):
        return analysis, ()
    facts, rules, priorities, unmatched = _add_groundings(
        analysis.facts, analysis.rules, analysis.priorities + resolved.priorities, resolved.groundings)
    try:
        attacks = analysis.attacks + resolved.attacks if resolved.attacks else analysis.attacks  # columns stay
        merged = Analysis(facts=facts, rules=rules, attacks=attacks,
                          priorities=priorities, attack_table=analysis.attack_table)
    except ValidationError as exc:
        raise RecordError(exc.errors()[0]["msg"], field="raw_edges") from None
    return merged, unmatched


def _add_groundings(facts, rules, priorities, groundings):
    """Add the fragments of grounding events to the objects they name."""
    if not groundings:  # nothing to add: the objects as they are
        return list(facts), list(rules), list(priorities), ()
    extra: dict[str, list[str]] = {}
    for g in groundings:
        extra.setdefault(g.object, []).append(g.fragment)
    known = {o.id for o in (*facts, *rules, *priorities)}
    unmatched = tuple(f"grounding event {g.fragment} -> {g.object}: no fact, rule or priority "
                      f"has this id" for g in groundings if g.object not in known)

    def add(obj):
        more = extra.get(obj.id)
        if not more:
            return obj
        evidence = tuple(dict.fromkeys((*obj.evidence, *more)))
        return obj.model_copy(update={"evidence": evidence})

    return ([add(f) for f in facts], [add(r) for r in rules], [add(p) for p in priorities], unmatched)


def tnf(evidence_ids: Iterable[str], analysis: Analysis, target: str, *,
        query: str | None = None, raw_edges: Iterable = ()) -> Trace:
    """The trace normal form of an analysis (Section 4.3, Algorithm 4).

    Parameters
    ----------
    evidence_ids : iterable of str
        Ids of the evidence package.
    analysis : Analysis
        Facts, rules, explicit attacks and priorities.
    target : str
        The target literal.
    query : str, optional
        The question; the query node's label.
    raw_edges : iterable, optional
        Serialized attack records and provenance events.

    Returns
    -------
    Trace
        Canonical ids, sorted nodes and edges (see :func:`normal_form`).

    Raises
    ------
    RecordError
        If a raw record is malformed.

    Examples
    --------
    >>> from symbolic.scenario.model import Analysis, Fact, Rule
    >>> a = Analysis(facts=[Fact(id="f1", literal="Delay(x)", evidence=["E_01"])],
    ...              rules=[Rule(id="r1", antecedents=["Delay(x)"], consequent="Penalty(x)",
    ...                          evidence=["E-02"])])
    >>> b = Analysis(facts=[Fact(id="fact_7", literal="Delay(x)", evidence=["E-01"])],
    ...              rules=[Rule(id="late", antecedents=["Delay(x)"], consequent="Penalty(x)",
    ...                          evidence=["E-02"])])
    >>> tnf_json(tnf(["E-01", "E-02"], a, "Penalty(x)")) == tnf_json(tnf(["e01", "E2"], b, "Penalty(x)"))
    True
    """
    return normal_form(evidence_ids, analysis, target, query=query, raw_edges=raw_edges).trace
