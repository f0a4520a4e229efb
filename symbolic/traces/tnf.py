"""Trace normal form (paper Section 4.3 and Algorithm 4, docs/semantics.md section 10).

:func:`normal_form` turns an analysis over an evidence package into its TNF in six steps:
(i) normalize ids, propositions and status labels (the model types do this on construction);
(ii) turn serialized attack records and provenance events into typed objects
(:mod:`symbolic.traces.records`), resolving proof-step ids and adding the fragments of grounding
events; (iii) drop ungrounded objects (:func:`symbolic.engine.grounding.ground`); (v) collapse proof
aliases (:func:`collapse_aliases`), on the grounded theory and *before* the engine runs, so the
engine never sees two copies of one norm; (iv) evaluate (:func:`symbolic.engine.status.evaluate`);
(vi) give every node a canonical, content-derived id (:mod:`symbolic.traces.naming`) and sort.

Two traces are TNF-equivalent iff their TNF JSON is equal (:func:`tnf_equivalent`): renaming rules
or facts, reordering objects, spelling an attack as a record or restating a fact do not change it;
removing a priority that neutralizes an attack does.  A scorer aligns two TNFs edge by edge on
:func:`edge_id`; an attack edge's ``state`` and ``lic`` are compared after alignment.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from types import MappingProxyType
from typing import Iterable, Mapping

from pydantic import ValidationError

from symbolic.engine.grounding import Dropped, Theory, ground
from symbolic.scenario.labels import normalize_evidence_id
from symbolic.scenario.literals import NEG, applicability_atom, excepted_rule, normalize_literal
from symbolic.scenario.model import Analysis, Fact, Priority, Rule, Trace
from symbolic.traces.naming import Namer, edge_id
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
        The TNF, built on first access (``write_tnf(evaluation_rows(evaluation))`` writes its JSON).
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
        The engine's result on the grounded analysis, reused when steps (ii)-(v) leave its theory
        and target unchanged, so that the engine runs once.

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
    """The trace normal form of an analysis (Section 4.3, Algorithm 4): ``normal_form(...).trace``,
    with the parameters and errors of :func:`normal_form`.

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


# -- step (v): proof-alias collapse ------------------------------------------------------------

def _union(*groups: Iterable[str]) -> tuple[str, ...]:
    return tuple(sorted({e for group in groups for e in group}))


def collapse_aliases(theory: Theory) -> tuple[Theory, dict[str, str]]:
    """Collapse the proof aliases of a grounded theory (TNF step v): a rule stated twice (same
    antecedent set, consequent and kind), a fact restated, a rule whose consequent is one of its own
    antecedents (a mere proof step, dropped).

    Returns
    -------
    (Theory, dict)
        The theory with the first of each rule content and of each fact literal kept, grounded in
        the union of the fragments, priorities, attacks and ``applicable(rK)`` literals redirected,
        every collapse listed in ``dropped``; and the map from each collapsed id to its representative.

    Examples
    --------
    >>> from symbolic.scenario.model import Fact, Rule
    >>> e = ["E-01"]
    >>> t = Theory(frozenset(e), facts=(Fact(id="f1", literal="a", evidence=e),
    ...                                 Fact(id="f9", literal="a", evidence=e)),
    ...            rules=(Rule(id="r1", antecedents=["a"], consequent="p", evidence=e),
    ...                   Rule(id="r1b", antecedents=["a"], consequent="p", evidence=e)))
    >>> collapsed, aliases = collapse_aliases(t)
    >>> [r.id for r in collapsed.rules], aliases
    (['r1'], {'f9': 'f1', 'r1b': 'r1'})
    """
    dropped = list(theory.dropped)
    steps = {r.id for r in theory.rules if r.consequent in r.antecedents}
    for rule_id in sorted(steps):
        dropped.append(Dropped("rule", rule_id, "proof step without normative content "
                                                "(its consequent is one of its antecedents)"))
    rules = [r for r in theory.rules if r.id not in steps]
    namer = Namer(rules)
    content = namer.rule_content
    alias: dict[str, str] = {}
    first: dict[str, Rule] = {}
    evidence: dict[str, list] = {}
    for rule in rules:
        key = content(rule.id)
        if "[?]" in key:  # inside a cycle of exceptions: content does not identify it
            key = f"{key}#{rule.id}"
        if key in first:
            alias[rule.id] = first[key].id
        else:
            first[key] = rule
        evidence.setdefault(first[key].id, []).append(rule.evidence)

    def lit(literal: str) -> str:
        if not alias:
            return literal
        ref = excepted_rule(literal) or excepted_rule(NEG + literal)
        if ref is None or ref not in alias:
            return literal
        return (NEG if literal.startswith(NEG) else "") + applicability_atom(alias[ref])

    new_rules = tuple(_rule(r, lit, _union(*evidence[r.id])) for r in first.values())
    facts: dict[str, Fact] = {}
    fact_evidence: dict[str, list] = {}
    for fact in theory.facts:
        literal = lit(fact.literal)
        if literal in facts:
            alias[fact.id] = facts[literal].id
        else:  # a fact that keeps its literal is its own copy
            facts[literal] = fact if literal == fact.literal else \
                Fact(id=fact.id, literal=literal, evidence=fact.evidence, span=fact.span)
        fact_evidence.setdefault(literal, []).append(fact.evidence)
    new_facts = tuple(_with_evidence(f, _union(*fact_evidence[lit_])) for lit_, f in facts.items())
    for old, new in sorted(alias.items()):
        kind = "rule" if any(r.id == old for r in theory.rules) else "fact"
        dropped.append(Dropped(kind, old, f"proof alias of {new} (same content), collapsed into it"))

    def sub(name):
        return alias.get(name, name) if name is not None else None

    priorities = _collapse_priorities(theory.priorities, steps, sub, dropped)
    known = {r.id for r in theory.rules} | {f.id for f in theory.facts}
    attacks = []
    for a in theory.attacks:
        if {a.source, a.lic, a.target} & steps:
            dropped.append(Dropped("attack", f"{a.source}-{a.kind.value}->{a.target}",
                                   "refers to a proof-step rule"))
            continue
        target = a.target
        if target in alias:
            target = alias[target]
        elif target not in known:
            target = lit(normalize_literal(target))
        attacks.append(a.model_copy(update={"source": sub(a.source), "lic": sub(a.lic), "target": target}))
    table = _collapse_table(theory.attack_table, steps, alias, known, sub, lit, dropped)
    collapsed = Theory(theory.evidence, new_facts, new_rules, _dedupe(attacks),
                       priorities, tuple(dropped), table)
    return collapsed, dict(sorted(alias.items()))


def _rule(rule: Rule, lit, evidence: tuple[str, ...]) -> Rule:
    """``rule`` with its literals rewritten by ``lit`` and the given evidence (itself when nothing changes)."""
    antecedents, consequent = tuple(lit(a) for a in rule.antecedents), lit(rule.consequent)
    if antecedents == rule.antecedents and consequent == rule.consequent and evidence == rule.evidence:
        return rule  # every field equal: the same rule, without validating it again
    return Rule(id=rule.id, antecedents=antecedents, consequent=consequent, kind=rule.kind, evidence=evidence,
                span=rule.span)


def _with_evidence(fact: Fact, evidence: tuple[str, ...]) -> Fact:
    """``fact`` grounded in ``evidence`` (itself when that is its evidence)."""
    return fact if evidence == fact.evidence else fact.model_copy(update={"evidence": evidence})


def _collapse_priorities(priorities, steps, sub, dropped: list) -> tuple:
    """The priorities redirected to their representatives; those naming a proof step, comparing
    two aliases of one rule or repeating another dropped (each listed in ``dropped``).  A priority
    that compares a rule with itself in the input is kept: it is a cycle (Definition 3)."""
    out = []
    for p in priorities:
        if p.stronger in steps or p.weaker in steps:
            dropped.append(Dropped("priority", p.id, "refers to a proof-step rule"))
            continue
        stronger, weaker = sub(p.stronger), sub(p.weaker)
        # Both fields are required, hence already set: an unchanged priority is its own copy.
        q = p if stronger == p.stronger and weaker == p.weaker else \
            p.model_copy(update={"stronger": stronger, "weaker": weaker})
        if q.stronger == q.weaker and p.stronger != p.weaker:
            # Two copies of one norm compared: no ranking.  A rule compared with itself in the input
            # (``r2 > r2``) is a cycle of length one (Definition 3) and stays: the rule loses all its
            # comparisons in the normal form exactly as in the engine run on the raw theory.
            dropped.append(Dropped("priority", p.id, "compares two aliases of one rule"))
            continue
        out.append(q)
    return _dedupe(out)


def _dedupe(items):
    """``items`` without repeats, first occurrences in order.

    Two equal priorities or attacks share their endpoints, so when no two items share them (a
    tuple of two strings, hashed far faster than the model) every item is kept as it is.
    """
    items = tuple(items)
    ends = {(item.stronger, item.weaker) if isinstance(item, Priority) else (item.source, item.target)
            for item in items}
    if len(ends) == len(items):
        return items
    seen, out = set(), []
    for item in items:
        if item not in seen:
            seen.add(item)
            out.append(item)
    return tuple(out)


def _collapse_table(table, steps, alias, known, sub, lit, dropped):
    """The attack table with aliases redirected and rows naming a proof step dropped (per distinct name)."""
    if table is None:
        return None
    target_of = {}
    for target in set(table.target):
        if target in alias:
            target_of[target] = alias[target]
        elif target not in known:
            target_of[target] = lit(normalize_literal(target))
        else:
            target_of[target] = target
    lics = table.lics()
    touched = steps and (steps & (set(table.source) | set(lics) | set(table.target)))
    if touched:
        keep = []
        for source, lic, target, kind in zip(table.source, lics, table.target, table.kinds()):
            bad = bool({source, lic, target} & steps)
            if bad:
                dropped.append(Dropped("attack", f"{source}-{kind.value}->{target}", "refers to a proof-step rule"))
            keep.append(not bad)
        table = table.select(keep)
        lics = table.lics()
    sources = _mapped(table.source, {x: sub(x) for x in set(table.source)}) if alias else table.source
    targets = _mapped(table.target, target_of)
    lic = _mapped(lics, {x: sub(x) for x in set(lics)}) if table.lic is not None and alias else table.lic
    if sources is table.source and targets is table.target and lic is table.lic:
        return table
    return table.model_copy(update={"source": sources, "target": targets, "lic": lic})


def _mapped(column: tuple, names: dict) -> tuple:
    """``column`` with each value replaced by ``names[value]``; the column itself when none changes.

    ``names`` maps each distinct value once, so an unchanged column costs a pass over the distinct
    values, not over the rows.
    """
    if all(new == old for old, new in names.items()):
        return column
    return tuple(map(names.__getitem__, column))
