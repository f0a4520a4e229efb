"""Attacks and their neutralization (Definitions 2 and 4, SEMANTICS.md sections 3 and 5).

Derived attacks:

- **rebut**: ``A`` rebuts ``B`` on ``B'`` when ``conc(A) = comp(conc(B'))`` and
  ``B'`` has a defeasible or defeater top rule;
- **undercut**: an argument for ``¬applicable(rK)`` attacks every argument using ``rK``;
- **undermine**: ``A`` attacks ``B`` when ``conc(A) = comp(f)`` for a premise fact ``f`` of ``B``;

each propagated to every argument that contains the attacked element.
Explicit :class:`~symbolic.model.AttackEdge` records are normalized to the same
form and merged.  An attack is *neutralized* (Definition 4) iff some rule of
``targetRules`` is stronger in ``P+`` than its licensing rule; it is kept,
with the priority pair that defeated it, and left out of the labelling.
"""

from __future__ import annotations

from typing import Sequence

from .arguments import super_arguments
from .grounding import Theory
from .labels import AttackKind, RuleKind
from .literals import complement, excepted_rule, normalize_literal
from .results import Argument, Attack, PriorityOrder

__all__ = ["applicable_rules", "derive_attacks"]

_REBUTTABLE = (RuleKind.DEFEASIBLE, RuleKind.DEFEATER)


def applicable_rules(theory: Theory, arguments: Sequence[Argument]) -> frozenset[str]:
    """Rules whose every antecedent has a supporting (non-defeater) argument.

    Parameters
    ----------
    theory : Theory
    arguments : sequence of Argument

    Returns
    -------
    frozenset of str

    Examples
    --------
    >>> from symbolic.grounding import Theory
    >>> from symbolic.model import Fact, Rule
    >>> t = Theory(frozenset({"E-01"}), facts=(Fact(id="f1", literal="a", evidence=["E-01"]),),
    ...            rules=(Rule(id="r1", antecedents=["a"], consequent="b", evidence=["E-01"]),
    ...                   Rule(id="r2", antecedents=["c"], consequent="b", evidence=["E-01"])))
    >>> sorted(applicable_rules(t, [Argument("A1", "a", None, "f1", (), frozenset(), frozenset({"f1"}))]))
    ['r1']
    """
    supported = {a.conclusion for a in arguments if not a.defeater}
    return frozenset(r.id for r in theory.rules if all(x in supported for x in r.antecedents))


class _Context:
    """Indexes shared by attack derivation and neutralization."""

    def __init__(self, theory: Theory, arguments: Sequence[Argument], order: PriorityOrder):
        self.order = order
        self.args = {a.id: a for a in arguments}
        self.position = {a.id: i for i, a in enumerate(arguments)}
        self.supers = super_arguments(arguments)
        self.kind = {r.id: r.kind for r in theory.rules}
        self.fact_ids = {f.id for f in theory.facts}
        applicable = applicable_rules(theory, arguments)
        self.concluders: dict[str, list[str]] = {}
        for rule in theory.rules:
            if rule.id in applicable:
                self.concluders.setdefault(rule.consequent, []).append(rule.id)
        self.by_conclusion: dict[str, list[Argument]] = {}
        self.users: dict[str, list[str]] = {}
        self.premise_users: dict[str, list[str]] = {}
        self.by_top: dict[str, list[Argument]] = {}
        for a in arguments:
            self.by_conclusion.setdefault(a.conclusion, []).append(a)
            for rule_id in a.rules:
                self.users.setdefault(rule_id, []).append(a.id)
            for fact_id in a.premises:
                self.premise_users.setdefault(fact_id, []).append(a.id)
            self.by_top.setdefault(a.top_rule if a.top_rule is not None else a.fact, []).append(a)

    def target_rules(self, kind_of_on: str, on: str, target: str) -> list[str]:
        """``targetRules`` (Definition 4), the most direct rule first."""
        if kind_of_on == "rule":
            return [on]
        if kind_of_on == "argument":
            sub = self.args[on]
            rules = list(self.concluders.get(sub.conclusion, ()))
            if sub.top_rule in rules:
                rules.remove(sub.top_rule)
                rules.insert(0, sub.top_rule)
            return rules
        rules, stack, seen = [], [target], set()
        while stack:
            node = self.args[stack.pop()]
            if node.id in seen or on not in node.premises:
                continue
            seen.add(node.id)
            if node.top_rule is not None and node.top_rule not in rules:
                rules.append(node.top_rule)
            stack.extend(reversed(node.subs))
        return rules

    def defeat(self, kind_of_on: str, on: str, target: str, lic: str | None):
        if lic is None:
            return None
        for rule in self.target_rules(kind_of_on, on, target):
            if self.order.stronger(rule, lic):
                return (rule, lic)
        return None


def derive_attacks(theory: Theory, arguments: Sequence[Argument], order: PriorityOrder) -> Sequence[Attack]:
    """Derive, merge and neutralize the attacks of a theory (Definitions 2 and 4).

    Parameters
    ----------
    theory : Theory
        The grounded theory; ``theory.attacks`` holds the explicit edges.
    arguments : sequence of Argument
        The arguments of ``theory`` (:func:`symbolic.arguments.build_arguments`).
    order : PriorityOrder
        ``P+`` (:func:`symbolic.priorities.priority_order`).

    Returns
    -------
    sequence of Attack
        One record per distinct ``(attacker, target, kind, on, lic)``; an
        attack found both by derivation and by an explicit edge has
        ``explicit=True``.  ``defeated_by`` is the ``(stronger, weaker)`` pair
        of ``P+`` that neutralized it, or ``None``.

    Examples
    --------
    >>> from symbolic.grounding import Theory
    >>> from symbolic.model import Fact, Priority, Rule
    >>> from symbolic.arguments import build_arguments
    >>> from symbolic.priorities import priority_order
    >>> e = ["E-01"]
    >>> t = Theory(frozenset(e),
    ...     facts=(Fact(id="f1", literal="Delay(x)", evidence=e), Fact(id="f2", literal="ForceMajeure(x)", evidence=e)),
    ...     rules=(Rule(id="r1", antecedents=["Delay(x)"], consequent="Penalty(x)", evidence=e),
    ...            Rule(id="r2", antecedents=["ForceMajeure(x)"], consequent="¬Penalty(x)", evidence=e)),
    ...     priorities=(Priority(stronger="r2", weaker="r1", basis="exception", evidence=e),))
    >>> args = build_arguments(t)
    >>> sorted((a.attacker, a.target, str(a.kind), a.defeated_by) for a in derive_attacks(t, args, priority_order(t)))
    [('A3', 'A4', 'rebut', ('r2', 'r1')), ('A4', 'A3', 'rebut', None)]
    """
    ctx = _Context(theory, arguments, order)
    records: dict[tuple, Attack] = {}

    def add(attacker: str, target: str, kind: AttackKind, on: str, shape: str,
            lic: str | None, explicit: bool) -> None:
        key = (attacker, target, kind, on, lic)
        if key in records:
            if explicit and not records[key].explicit:
                old = records[key]
                records[key] = Attack(old.attacker, old.target, old.kind, old.on, old.lic,
                                      True, old.defeated_by)
            return
        records[key] = Attack(attacker, target, kind, on, lic, explicit,
                              ctx.defeat(shape, on, target, lic))

    for a in arguments:
        lic = a.top_rule
        for sub in ctx.by_conclusion.get(complement(a.conclusion), ()):
            if sub.top_rule is not None and ctx.kind[sub.top_rule] in _REBUTTABLE:
                for target in ctx.supers[sub.id]:
                    add(a.id, target, AttackKind.REBUT, sub.id, "argument", lic, False)
        excepted = excepted_rule(a.conclusion)
        if excepted is not None:
            for target in ctx.users.get(excepted, ()):
                add(a.id, target, AttackKind.UNDERCUT, excepted, "rule", lic, False)
        for fact in theory.facts:
            if fact.literal == complement(a.conclusion):
                for target in ctx.premise_users.get(fact.id, ()):
                    add(a.id, target, AttackKind.UNDERMINE, fact.id, "fact", lic, False)

    for edge in theory.attacks:
        source_is_rule = edge.source in ctx.kind
        lic = edge.lic if edge.lic is not None else (edge.source if source_is_rule else None)
        attackers = ctx.by_top.get(edge.source, ())
        if edge.target in ctx.kind:
            targets = [(t, edge.target, "rule") for t in ctx.users.get(edge.target, ())]
        elif edge.target in ctx.fact_ids:
            targets = [(t, edge.target, "fact") for t in ctx.premise_users.get(edge.target, ())]
        else:
            literal = normalize_literal(edge.target)
            targets = [(t, sub.id, "argument")
                       for sub in ctx.by_conclusion.get(literal, ()) for t in ctx.supers[sub.id]]
        for attacker in attackers:
            for target, on, shape in targets:
                add(attacker.id, target, edge.kind, on, shape, lic, True)
    return tuple(records.values())
