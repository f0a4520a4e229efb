"""The parser-validator: grounding checks that turn an :class:`Analysis` into a
:class:`Theory` (docs/semantics.md section 2).

An object is grounded iff it cites at least one fragment and every fragment id
it cites exists in the evidence package.  Priorities and explicit attacks must
also refer to grounded rules and facts.  Ungrounded objects are excluded from
reasoning and kept, with the reason, in :attr:`Theory.dropped`; nothing is
dropped silently.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Literal

from symbolic.scenario.literals import normalize_literal
from symbolic.scenario.model import Analysis, AttackColumns, AttackEdge, Fact, Priority, Rule

__all__ = ["Dropped", "Theory", "ground"]

ObjectKind = Literal["fact", "rule", "priority", "attack"]


@dataclass(frozen=True, slots=True)
class Dropped:
    """An object excluded from reasoning, and why."""

    kind: ObjectKind
    id: str
    reason: str


@dataclass(frozen=True, slots=True)
class Theory:
    """The grounded objects of one analysis over one evidence package."""

    evidence: frozenset[str]
    facts: tuple[Fact, ...] = ()
    rules: tuple[Rule, ...] = ()
    attacks: tuple[AttackEdge, ...] = ()
    priorities: tuple[Priority, ...] = ()
    dropped: tuple[Dropped, ...] = ()
    attack_table: AttackColumns | None = None

    def rule(self, rule_id: str) -> Rule | None:
        """The grounded rule with this id, if any."""
        for rule in self.rules:
            if rule.id == rule_id:
                return rule
        return None


def _missing(cited: Iterable[str], evidence: frozenset[str]) -> str | None:
    cited = tuple(cited)
    if not cited:
        return "cites no evidence fragment"
    unknown = sorted(set(cited) - evidence)
    if unknown:
        return "cites unknown evidence " + ", ".join(unknown)
    return None


def ground(evidence_ids: Iterable[str], analysis: Analysis) -> Theory:
    """Keep the grounded objects of ``analysis`` and report the others.

    Parameters
    ----------
    evidence_ids : iterable of str
        Normalized ids of the fragments in the evidence package.
    analysis : Analysis
        Candidate facts, rules, explicit attacks and priorities.

    Returns
    -------
    Theory
        Grounded objects, in input order, and the dropped ones with reasons.

    Examples
    --------
    >>> from symbolic.scenario.model import Analysis, Fact, Rule
    >>> a = Analysis(facts=[Fact(id="f1", literal="Delay(x)", evidence=["E-01"])],
    ...              rules=[Rule(id="r1", antecedents=["Delay(x)"], consequent="Penalty(x)",
    ...                          evidence=["E-09"])])
    >>> t = ground(["E-01"], a)
    >>> [f.id for f in t.facts], [(d.id, d.reason) for d in t.dropped]
    (['f1'], [('r1', 'cites unknown evidence E-09')])
    """
    evidence = frozenset(evidence_ids)
    dropped: list[Dropped] = []

    cited: dict[tuple[str, ...], str | None] = {}  # citations repeat across objects: each checked once

    def missing(citation: tuple[str, ...]) -> str | None:
        try:
            return cited[citation]
        except KeyError:
            reason = cited[citation] = _missing(citation, evidence)
            return reason
        except TypeError:  # an unhashable citation (objects built without validation)
            return _missing(citation, evidence)

    def keep(kind: ObjectKind, obj, ident: str, extra: str | None = None) -> bool:
        reason = missing(obj.evidence) or extra
        if reason:
            dropped.append(Dropped(kind, ident, reason))
        return reason is None

    facts = tuple(f for f in analysis.facts if keep("fact", f, f.id))
    rules = tuple(r for r in analysis.rules if keep("rule", r, r.id))
    fact_ids = {f.id for f in facts}
    rule_ids = {r.id for r in rules}
    known = fact_ids | rule_ids
    all_ids = {f.id for f in analysis.facts} | {r.id for r in analysis.rules}

    def ref(name: str, ids: set[str]) -> str | None:
        if name in ids:
            return None
        if name in all_ids:
            return f"refers to {name}, which was dropped as ungrounded"
        return f"refers to unknown {name}"

    kept = []
    for p in analysis.priorities:
        reason = missing(p.evidence) or ref(p.stronger, rule_ids) or ref(p.weaker, rule_ids)
        if reason:
            dropped.append(Dropped("priority", p.id, reason))
        else:
            kept.append(p)
    priorities = tuple(kept)

    def target_problem(target: str) -> str | None:
        if target in known:
            return None
        if target in all_ids:
            return ref(target, known)
        try:
            normalize_literal(target)
        except ValueError as exc:
            return f"target {target!r} is neither an object id nor a literal ({exc})"
        return None

    checks = (lambda source: ref(source, known), lambda lic: None if lic is None else ref(lic, rule_ids),
              target_problem)

    def attack_problem(edge: AttackEdge) -> str | None:
        return checks[0](edge.source) or checks[1](edge.lic) or checks[2](edge.target)

    attacks = tuple(
        e for e in analysis.attacks
        if keep("attack", e, f"{e.source}-{e.kind.value}->{e.target}", attack_problem(e))
    )
    table = _ground_table(analysis.attack_table, evidence, checks, dropped)
    return Theory(evidence, facts, rules, attacks, priorities, tuple(dropped), table)


def _problems(checks, sources, lics, targets) -> list[dict]:
    """The problem (or ``None``) of each distinct source, licensing rule and target; ``lics`` ``None``: none given."""
    return [{value: checks[0](value) for value in set(sources)},
            {None: None} if lics is None else {value: checks[1](value) for value in set(lics)},
            {value: checks[2](value) for value in set(targets)}]


def _ground_table(table: AttackColumns | None, evidence, checks, dropped) -> AttackColumns | None:
    """The grounded rows of an attack table; each distinct source, lic and target is checked once."""
    if table is None or not len(table):
        return None
    reason = _missing(table.evidence, evidence)
    if reason:
        dropped.append(Dropped("attack", f"attack_table ({len(table)} rows)", reason))
        return None
    found = _problems(checks, table.source, table.lic, table.target)
    if not any(problem for per_value in found for problem in per_value.values()):
        return table
    columns = (table.source, table.lics(), table.target)
    keep = []
    for source, lic, target, kind in zip(*columns, table.kinds()):
        problem = found[0][source] or found[1][lic] or found[2][target]
        if problem is not None:
            dropped.append(Dropped("attack", f"{source}-{kind.value}->{target}", problem))
        keep.append(problem is None)
    return table.select(keep)
