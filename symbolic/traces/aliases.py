"""Proof-alias collapse (TNF step v, docs/semantics.md section 12).

A proof alias is a node with no normative content of its own: a rule stated
twice under two ids (same antecedent set, consequent and kind), a fact
restated under another id, or a rule whose consequent is one of its own
antecedents (a mere proof step).  :func:`collapse_aliases` merges the first
two kinds into one object grounded in the union of their fragments and drops
the third, on the grounded theory and before the engine runs, so the engine
never reasons with two copies of one norm.
"""

from __future__ import annotations

from typing import Iterable

from symbolic.engine.grounding import Dropped, Theory
from symbolic.scenario.literals import NEG, applicability_atom, excepted_rule, normalize_literal
from symbolic.scenario.model import Fact, Priority, Rule
from symbolic.traces.naming import Namer

__all__ = ["collapse_aliases"]


def _union(*groups: Iterable[str]) -> tuple[str, ...]:
    return tuple(sorted({e for group in groups for e in group}))


def collapse_aliases(theory: Theory) -> tuple[Theory, dict[str, str]]:
    """Collapse the proof aliases of a grounded theory (TNF step v).

    Parameters
    ----------
    theory : Theory
        A grounded theory.

    Returns
    -------
    (Theory, dict)
        The theory with one rule per rule content and one fact per literal
        (the first in input order is kept, grounded in the union of the
        fragments), priorities and attacks redirected, ``applicable(rK)``
        literals rewritten, proof-step rules dropped; and the map from each
        collapsed id to its representative.  Every collapse is listed in
        ``theory.dropped`` with its reason.

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
