"""Attacks and their neutralization (Definitions 2 and 4, docs/semantics.md sections 4 and 5).

Derived attacks:

- **rebut**: ``A`` rebuts ``B`` on ``B'`` when ``conc(A) = comp(conc(B'))`` and
  ``B'`` has a defeasible or defeater top rule;
- **undercut**: an argument for ``¬applicable(rK)`` attacks every argument using ``rK``;
- **undermine**: ``A`` attacks ``B`` when ``conc(A) = comp(f)`` for a premise fact ``f`` of ``B``;

each propagated to every argument that contains the attacked element.
Explicit :class:`~symbolic.scenario.model.AttackEdge` records are normalized to the same
form (:meth:`_Builder.reach`) and merged (:func:`symbolic.engine.explicit.merge_explicit`, the
columnar machinery that keeps a million explicit edges as cheap as derived attacks).  An attack is
*neutralized* (Definition 4) iff some rule of ``targetRules`` is stronger in ``P+`` than its
licensing rule (:meth:`_Builder.first_rule`, the attacked sub-argument's own top rule first); it
is kept, with the priority pair that defeated it, and left out of the labelling.

This module is the one place where Definition 2 is read: :meth:`_Builder.rebuts`,
:meth:`_Builder.undercuts`, :meth:`_Builder.undermines` and :meth:`_Builder.reach`.  Derivation is
indexed (by conclusion, rule used and premise: :class:`~symbolic.engine.arguments.ArgumentIndex`)
and emits whole blocks ``attackers x targets`` as integer columns (an
:class:`~symbolic.engine.results.AttackTable`), so its cost is proportional to the number of
attacks, never to all pairs of arguments.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from symbolic.engine.arguments import ArgumentIndex
from symbolic.engine.results import (SHAPE_ARGUMENT, SHAPE_FACT, SHAPE_RULE, Argument, AttackTable,
                                     PriorityOrder)
from symbolic.engine.explicit import merge_explicit
from symbolic.engine.grounding import Theory
from symbolic.scenario.labels import AttackKind, RuleKind
from symbolic.scenario.literals import complement, excepted_rule, normalize_literal
from symbolic.engine.target_rules import TargetRules

__all__ = ["derive_attacks"]

_REBUTTABLE = (RuleKind.DEFEASIBLE, RuleKind.DEFEATER)  # the top rules a rebut can hit
_COLUMNS = ("attacker", "target", "on", "lic", "defeat", "kind", "shape", "explicit")


class _Builder:
    """Indexes, neutralization (Definition 4) and the growing attack columns."""

    def __init__(self, theory: Theory, arguments: Sequence[Argument], order: PriorityOrder,
                 target_rules: TargetRules | None = None):
        self.index = ArgumentIndex(arguments)
        self.theory = theory
        self.rule_ids = tuple(r.id for r in theory.rules)
        self.rule_code = {r: i for i, r in enumerate(self.rule_ids)}
        self.fact_ids = tuple(f.id for f in theory.facts)
        self.fact_code = {f: i for i, f in enumerate(self.fact_ids)}
        self.kind = {r.id: r.kind for r in theory.rules}
        self.target_rules = target_rules or TargetRules(theory, arguments, order.closure)
        self.numbers: dict[tuple[str, str], int] = {}  # defeating pairs, numbered as first met
        self.blocks: list[tuple] = []

    # -- Definition 4 ------------------------------------------------------
    @property
    def stronger_than(self) -> dict[str, set[str]]:
        """For each rule, the rules stronger than it in ``P+`` (:class:`TargetRules`)."""
        return self.target_rules.stronger_than

    def pair(self, strong: str, weak: str) -> int:
        """Index of ``(strong, weak)`` in the table's defeating pairs (numbered as first met)."""
        return self.numbers.setdefault((strong, weak), len(self.numbers))

    def lic_codes(self, attackers: Sequence[int]) -> np.ndarray:
        """Licensing rule codes of ``attackers``: their top rules (-1 for facts)."""
        top = self.index.top
        return np.array([self.rule_code[top[a]] if top[a] is not None else -1 for a in attackers],
                        dtype=np.int32)

    def rebut_rules(self, sub: int) -> list[str]:
        """``targetRules`` of an attack on sub-argument ``sub``, its own top rule first."""
        rules = self.target_rules.of_conclusion(self.index.conclusion[sub])
        top = self.index.top[sub]
        return [top] + [r for r in rules if r != top] if top in rules else rules

    def first_rule(self, rules, lic: str | None) -> str | None:
        """The first of ``rules`` with ``rule >+ lic``, or ``None`` (Definition 4)."""
        strong = self.stronger_than.get(lic) if lic is not None else None
        if strong:
            for rule in rules:
                if rule in strong:
                    return rule
        return None

    def first_stronger(self, rules, lic: str | None) -> int:
        """The first of ``rules`` with ``rule >+ lic``, as a pair index, or -1 (Definition 4)."""
        rule = self.first_rule(rules, lic)
        return self.pair(rule, lic) if rule is not None else -1

    def depending_rules(self, target: int, fact: str) -> list[str]:
        """``targetRules`` of undermining ``fact`` in argument ``target`` (by position)."""
        return self.target_rules.of_undermine(self.index.ids[target], fact)

    # -- emission ------------------------------------------------------------
    def block(self, attackers, lics, targets, on, kind, shape, defeat) -> None:
        """Emit ``attackers x targets`` (target-major); ``defeat`` has shape (targets, attackers).

        Blocks are kept as they are and written once into the columns by :meth:`columns`.
        """
        if len(attackers) and len(targets):
            self.blocks.append((attackers, lics, targets, on, kind, shape, defeat))

    def columns(self) -> dict[str, np.ndarray]:
        """The attack columns of every block, each allocated once at its final size."""
        sizes = [len(b[0]) * len(b[2]) for b in self.blocks]
        total = sum(sizes)
        dtypes = {"kind": np.int8, "shape": np.int8, "explicit": bool}
        out = {name: np.empty(total, dtype=dtypes.get(name, np.int32)) for name in _COLUMNS}
        out["explicit"][:] = False
        start = 0
        for (attackers, lics, targets, on, kind, shape, defeat), size in zip(self.blocks, sizes):
            end, grid = start + size, (len(targets), len(attackers))
            out["attacker"][start:end].reshape(grid)[...] = np.asarray(attackers, dtype=np.int32)
            out["target"][start:end].reshape(grid)[...] = np.asarray(targets, dtype=np.int32)[:, None]
            if np.isscalar(on):
                out["on"][start:end] = on
            else:
                out["on"][start:end].reshape(grid)[...] = np.asarray(on, dtype=np.int32)[:, None]
            out["lic"][start:end].reshape(grid)[...] = lics
            out["defeat"][start:end].reshape(grid)[...] = defeat
            out["kind"][start:end] = kind
            out["shape"][start:end] = shape
            start = end
        return out

    # -- Definition 2 ----------------------------------------------------------
    def rebuts(self) -> None:
        """Rebuts, one block per complementary pair of conclusions.

        The arguments concluding a literal attack every rebuttable sub-argument (defeasible or
        defeater top rule) concluding its complement, and every argument containing it.  An
        attack licensed by ``lic`` is neutralized by the first rule of the attacked conclusion's
        team (``targetRules``) stronger than ``lic``, the sub-argument's own top rule first: one
        default row of defeats per block, overridden where a sub-argument's top rule beats an
        attacker.  Pairs are numbered in the order they are first needed: the defaults by
        licensing rule, then the overrides top rule by top rule, attacker by attacker.
        """
        index, top, containers = self.index, self.index.top, self.index.containers
        for literal, attackers in index.by_conclusion.items():
            attacked = complement(literal)
            subs = [b for b in index.by_conclusion.get(attacked, ()) if self.rebuttable(b)]
            if not subs:
                continue
            lic_names = [top[a] for a in attackers]
            rules = self.target_rules.of_conclusion(attacked)
            # Each attacker's licensing rule, as its position among the block's distinct ones.
            lics = {lic: i for i, lic in enumerate(dict.fromkeys(lic_names))}
            of_attacker = np.fromiter(map(lics.__getitem__, lic_names), dtype=np.intp, count=len(lic_names))
            # The default row: the first rule of the team stronger than each licensing rule.
            default = np.array([self.first_stronger(rules, lic) for lic in lics], dtype=np.int32)
            # The rows of top rules that beat a licensing rule themselves (found by set look-ups,
            # numbered top rule by top rule, then licensing rule by first attacker).
            tops = {rule: i for i, rule in enumerate(dict.fromkeys(top[b] for b in subs))}
            stronger, own = self.stronger_than, {}
            for _, j, rule, lic in sorted((tops[rule], j, rule, lic) for lic, j in lics.items()
                                          if lic is not None for rule in stronger.get(lic, set()) & tops.keys()):
                own.setdefault(rule, default.copy())[j] = self.pair(rule, lic)
            rows = {rule: own_row[of_attacker] for rule, own_row in own.items()}  # per attacker
            default = default[of_attacker]
            targets = [t for sub in subs for t in containers[sub]]
            defeat = np.empty((len(targets), len(attackers)), dtype=np.int32)
            row = 0
            for sub in subs:
                n_rows = len(containers[sub])
                defeat[row:row + n_rows] = rows.get(top[sub], default)
                row += n_rows
            on = np.repeat(np.asarray(subs, dtype=np.int32), [len(containers[sub]) for sub in subs])
            self.block(attackers, self.lic_codes(attackers), targets, on, 0, SHAPE_ARGUMENT, defeat)

    def rebuttable(self, sub: int) -> bool:
        """Whether argument ``sub`` can be rebutted (a defeasible or defeater top rule)."""
        top = self.index.top[sub]
        return top is not None and self.kind[top] in _REBUTTABLE

    def reach(self, target: str, kind: AttackKind) -> list[tuple[int, int, int, list[str] | None]]:
        """What an explicit edge of ``kind`` on ``target`` attacks, after normalizing it to the form
        of a derived attack: ``(attacked argument, on, shape, targetRules or None)`` for each.

        A rebut of rule ``rK`` attacks the conclusions ``rK`` draws (the same team reading of
        ``targetRules`` as a derived rebut, Definition 4); any other edge on a rule attacks every
        argument using it; an edge on a fact, every argument with that premise (its ``targetRules``
        depend on the attacked argument: ``None``); an edge on a literal, every argument concluding
        it, and its super-arguments (a rebut only those with a defeasible or defeater top rule).
        """
        index = self.index
        if target in self.rule_code and kind is AttackKind.REBUT:
            return [(t, sub, SHAPE_ARGUMENT, self.rebut_rules(sub))
                    for sub in index.by_top.get(target, ()) if self.rebuttable(sub)
                    for t in index.containers[sub]]
        if target in self.rule_code:
            on = self.rule_code[target]
            return [(t, on, SHAPE_RULE, [target]) for t in index.users.get(target, ())]
        if target in self.fact_code:
            on = self.fact_code[target]
            return [(t, on, SHAPE_FACT, None) for t in index.premise_users.get(target, ())]
        return [(t, sub, SHAPE_ARGUMENT, self.rebut_rules(sub))
                for sub in index.by_conclusion.get(normalize_literal(target), ())
                if kind is not AttackKind.REBUT or self.rebuttable(sub)
                for t in index.containers[sub]]

    def undercuts(self) -> None:
        """Undercuts: an argument for ``¬applicable(rK)`` attacks every argument using ``rK``, on
        ``rK``; neutralized when ``rK >+ lic`` (``targetRules`` is ``{rK}``)."""
        index = self.index
        for literal, attackers in index.by_conclusion.items():
            excepted = excepted_rule(literal)
            if excepted is None or excepted not in self.rule_code:
                continue
            users = index.users.get(excepted, ())
            lic_names = [index.top[a] for a in attackers]
            row = np.array([self.first_stronger((excepted,), lic) for lic in lic_names], dtype=np.int32)
            self.block(attackers, self.lic_codes(attackers), users, self.rule_code[excepted], 1,
                       SHAPE_RULE, np.broadcast_to(row, (len(users), len(attackers))))

    def undermines(self) -> None:
        """Undermines: an argument for ``comp(f)`` attacks every argument with premise ``f``, on
        ``f``; ``targetRules`` are the rules of the attacked argument whose derivation uses ``f``."""
        index = self.index
        for fact in self.theory.facts:
            attackers = index.by_conclusion.get(complement(fact.literal))
            if not attackers:
                continue
            targets = index.premise_users.get(fact.id)
            if not targets:
                continue
            lic_names = [index.top[a] for a in attackers]
            defeat = np.full((len(targets), len(attackers)), -1, dtype=np.int32)
            for j, lic in enumerate(lic_names):
                if lic is not None and self.stronger_than.get(lic):
                    for i, target in enumerate(targets):
                        defeat[i, j] = self.first_stronger(self.depending_rules(target, fact.id), lic)
            self.block(attackers, self.lic_codes(attackers), targets, self.fact_code[fact.id], 2,
                       SHAPE_FACT, defeat)

    def table(self) -> AttackTable:
        self.rebuts()
        self.undercuts()
        self.undermines()
        columns = merge_explicit(self, self.columns())
        return AttackTable(self.index.ids, self.rule_ids, self.fact_ids, tuple(self.numbers), columns)


def derive_attacks(theory: Theory, arguments: Sequence[Argument], order: PriorityOrder, *,
                   target_rules: TargetRules | None = None) -> AttackTable:
    """Derive, merge and neutralize the attacks of a theory (Definitions 2 and 4).

    ``targetRules`` (Definition 4, team reading): for a rebut on ``B'`` every
    applicable rule concluding ``conc(B')``; for an undercut of ``rK``,
    ``{rK}``; for undermining fact ``f`` in ``B``, the rules of ``B`` whose
    derivation uses ``f``.  Explicit edges: a source rule (fact) stands for
    the arguments with that top rule (that fact); a target rule for every
    argument using it, a target fact for every argument with that premise, a
    target literal for every argument concluding it and its super-arguments;
    ``lic`` defaults to the source rule.

    Parameters
    ----------
    theory : Theory
        The grounded theory; ``theory.attacks`` holds the explicit edges.
    arguments : sequence of Argument
        The arguments of ``theory`` (:func:`symbolic.engine.arguments.build_arguments`).
    order : PriorityOrder
        ``P+`` (:func:`symbolic.engine.priorities.priority_order`).
    target_rules : TargetRules, optional
        ``targetRules`` over ``theory``, ``arguments`` and ``order``, when already built.

    Returns
    -------
    AttackTable
        A lazy sequence with one :class:`~symbolic.engine.results.Attack` per distinct
        ``(attacker, target, kind, on, lic)``; one found both by derivation and
        by an explicit edge has ``explicit=True``.  ``defeated_by`` is the
        ``(stronger, weaker)`` pair of ``P+`` that neutralized it (the attacked
        rule itself first when it qualifies), or ``None``.

    Raises
    ------
    KeyError
        If an explicit edge's licensing rule is not a rule of ``theory``.

    Examples
    --------
    >>> from symbolic.engine.grounding import Theory
    >>> from symbolic.scenario.model import Fact, Priority, Rule
    >>> from symbolic.engine.arguments import build_arguments
    >>> from symbolic.engine.priorities import priority_order
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
    return _Builder(theory, arguments, order, target_rules).table()
