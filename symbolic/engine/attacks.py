"""Attacks (Definition 2) and their neutralization (Definition 4), docs/semantics.md sections 4 and 5.

Each kind of attack is one function of this module, read against Definition 2:

- :func:`rebuts`: ``A`` rebuts ``B`` on ``B'`` when ``conc(A) = comp(conc(B'))`` and ``B'`` has a
  defeasible or defeater top rule;
- :func:`undercuts`: an argument for ``¬applicable(rK)`` attacks every argument using ``rK``;
- :func:`undermines`: ``A`` attacks ``B`` when ``conc(A) = comp(f)`` for a premise fact ``f`` of ``B``;
- :func:`reach`: what an explicit edge attacks, normalized to the same form.

Each attack reaches every argument that contains the attacked element (internal-target
propagation: :attr:`ArgumentIndex.containers <symbolic.engine.arguments.ArgumentIndex>`).  An attack
licensed by ``lic`` is neutralized (Definition 4) by the first rule of ``targetRules`` (Definition 4,
:mod:`symbolic.engine.target_rules`) that is stronger than ``lic`` in ``P+`` (Definition 3):
:func:`neutralizer`.  Each function emits whole blocks ``attackers x targets`` as integer columns,
so the cost is proportional to the attacks, never to all pairs of arguments; explicit edges are
merged in by :func:`symbolic.engine.explicit.merge_explicit`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

import numpy as np

from symbolic.engine.arguments import ArgumentIndex
from symbolic.engine.explicit import COLUMNS, merge_explicit
from symbolic.engine.grounding import Theory
from symbolic.engine.results import (SHAPE_ARGUMENT, SHAPE_FACT, SHAPE_RULE, Argument, AttackTable,
                                     PriorityOrder)
from symbolic.engine.target_rules import TargetRules
from symbolic.scenario.labels import AttackKind, RuleKind
from symbolic.scenario.literals import complement, excepted_rule, normalize_literal

__all__ = ["Frame", "derive_attacks", "neutralizer", "reach", "rebuts", "undercuts", "undermines"]

_REBUTTABLE = (RuleKind.DEFEASIBLE, RuleKind.DEFEATER)  # the top rules a rebut can hit
REBUT, UNDERCUT, UNDERMINE = 0, 1, 2  # codes of the attack kinds (:data:`symbolic.engine.results.KINDS`)


@dataclass(frozen=True)
class Frame:
    """What the attack functions read: the theory, its arguments indexed, ``targetRules`` and ``P+``.

    ``pairs`` numbers the ``(stronger, weaker)`` pairs of ``P+`` that neutralize an attack, as first
    met (the ``defeat`` column holds these numbers): the one thing the functions add to.
    """

    theory: Theory
    index: ArgumentIndex
    target_rules: TargetRules
    pairs: dict[tuple[str, str], int] = field(default_factory=dict)
    rule_ids: tuple[str, ...] = field(init=False)
    rule_code: dict[str, int] = field(init=False)
    fact_ids: tuple[str, ...] = field(init=False)
    fact_code: dict[str, int] = field(init=False)
    kind: dict[str, RuleKind] = field(init=False)

    def __post_init__(self):
        rules, facts = tuple(r.id for r in self.theory.rules), tuple(f.id for f in self.theory.facts)
        for name, value in (("rule_ids", rules), ("rule_code", {r: i for i, r in enumerate(rules)}),
                            ("fact_ids", facts), ("fact_code", {f: i for i, f in enumerate(facts)}),
                            ("kind", {r.id: r.kind for r in self.theory.rules})):
            object.__setattr__(self, name, value)


# -- Definition 4 ----------------------------------------------------------------------------

def neutralizer(frame: Frame, rules: Sequence[str], lic: str | None) -> int:
    """The pair ``(t, lic)`` with ``t`` the first of ``rules`` such that ``t >+ lic``, numbered in
    ``frame.pairs``; -1 when there is none (an active attack, and every attack of a fact).

    >>> frame = Frame(Theory(frozenset()), ArgumentIndex([]), TargetRules(Theory(frozenset()), [], [("r2", "r1")]))
    >>> neutralizer(frame, ["r3", "r2"], "r1"), neutralizer(frame, ["r1"], "r2"), frame.pairs
    (0, -1, {('r2', 'r1'): 0})
    """
    strong = frame.target_rules.stronger_than.get(lic) if lic is not None else None
    for rule in rules if strong else ():
        if rule in strong:
            return frame.pairs.setdefault((rule, lic), len(frame.pairs))
    return -1


def _rebut_rules(frame: Frame, sub: int) -> list[str]:
    """``targetRules`` of a rebut on sub-argument ``sub``: the rules concluding its conclusion, its own top rule first."""
    rules = frame.target_rules.of_conclusion(frame.index.conclusion[sub])
    top = frame.index.top[sub]
    return [top] + [r for r in rules if r != top] if top in rules else rules


def _rebuttable(frame: Frame, sub: int) -> bool:
    """Whether argument ``sub`` has a defeasible or defeater top rule."""
    top = frame.index.top[sub]
    return top is not None and frame.kind[top] in _REBUTTABLE


def _lics(frame: Frame, attackers: Sequence[int]) -> np.ndarray:
    """The licensing rule of each attacker, its top rule (as a rule code; -1 for a fact)."""
    top, code = frame.index.top, frame.rule_code
    return np.array([code[top[a]] if top[a] is not None else -1 for a in attackers], dtype=np.int32)


# -- Definition 2 ----------------------------------------------------------------------------

def rebuts(frame: Frame) -> list[tuple]:
    """Rebuts, one block per complementary pair of conclusions.

    The arguments concluding a literal attack every rebuttable sub-argument (defeasible or defeater
    top rule) concluding its complement, and every argument containing it.  The first rule of the
    attacked conclusion's team stronger than ``lic`` neutralizes an attack, the sub-argument's own
    top rule first: one default row per block, overridden where a sub-argument's top rule beats an
    attacker (pairs numbered by licensing rule, then top rule by top rule).

    Returns
    -------
    list of tuple
        ``(attackers, lics, targets, on, kind, shape, defeat)`` blocks; ``defeat`` has shape
        ``(targets, attackers)``.
    """
    index, top, containers, stronger = frame.index, frame.index.top, frame.index.containers, \
        frame.target_rules.stronger_than
    blocks = []
    for literal, attackers in index.by_conclusion.items():
        attacked = complement(literal)
        subs = [b for b in index.by_conclusion.get(attacked, ()) if _rebuttable(frame, b)]
        if not subs:
            continue
        lic_names = [top[a] for a in attackers]
        rules = frame.target_rules.of_conclusion(attacked)
        lics = {lic: i for i, lic in enumerate(dict.fromkeys(lic_names))}  # distinct licensing rules
        of_attacker = np.fromiter(map(lics.__getitem__, lic_names), dtype=np.intp, count=len(lic_names))
        default = np.array([neutralizer(frame, rules, lic) for lic in lics], dtype=np.int32)
        tops = {rule: i for i, rule in enumerate(dict.fromkeys(top[b] for b in subs))}
        own = {}  # the rows of the top rules that beat a licensing rule themselves
        for _, j, rule, lic in sorted((tops[rule], j, rule, lic) for lic, j in lics.items()
                                      if lic is not None for rule in stronger.get(lic, set()) & tops.keys()):
            own.setdefault(rule, default.copy())[j] = frame.pairs.setdefault((rule, lic), len(frame.pairs))
        rows = {rule: own_row[of_attacker] for rule, own_row in own.items()}
        default = default[of_attacker]
        targets = [t for sub in subs for t in containers[sub]]
        defeat = np.concatenate([np.broadcast_to(rows.get(top[sub], default), (len(containers[sub]), len(attackers)))
                                 for sub in subs])
        on = np.repeat(np.asarray(subs, dtype=np.int32), [len(containers[sub]) for sub in subs])
        blocks.append((attackers, _lics(frame, attackers), targets, on, REBUT, SHAPE_ARGUMENT, defeat))
    return blocks


def undercuts(frame: Frame) -> list[tuple]:
    """Undercuts: an argument for ``¬applicable(rK)`` attacks every argument using ``rK``, on ``rK``;
    neutralized when ``rK >+ lic`` (``targetRules`` is ``{rK}``).  Blocks as :func:`rebuts`."""
    index, blocks = frame.index, []
    for literal, attackers in index.by_conclusion.items():
        excepted = excepted_rule(literal)
        if excepted in frame.rule_code:
            users = index.users.get(excepted, ())
            row = np.array([neutralizer(frame, (excepted,), index.top[a]) for a in attackers], dtype=np.int32)
            blocks.append((attackers, _lics(frame, attackers), users, frame.rule_code[excepted], UNDERCUT,
                           SHAPE_RULE, np.broadcast_to(row, (len(users), len(attackers)))))
    return blocks


def undermines(frame: Frame) -> list[tuple]:
    """Undermines: an argument for ``comp(f)`` attacks every argument with premise ``f``, on ``f``;
    ``targetRules`` are the rules of the attacked argument whose derivation uses ``f``.  Blocks as
    :func:`rebuts`."""
    index, blocks = frame.index, []
    for fact in frame.theory.facts:
        attackers = index.by_conclusion.get(complement(fact.literal))
        targets = index.premise_users.get(fact.id) if attackers else None
        if not targets:
            continue
        defeat = np.full((len(targets), len(attackers)), -1, dtype=np.int32)
        for j, lic in enumerate(index.top[a] for a in attackers):
            if lic is not None and frame.target_rules.stronger_than.get(lic):
                for i, target in enumerate(targets):
                    rules = frame.target_rules.of_undermine(index.ids[target], fact.id)
                    defeat[i, j] = neutralizer(frame, rules, lic)
        blocks.append((attackers, _lics(frame, attackers), targets, frame.fact_code[fact.id], UNDERMINE,
                       SHAPE_FACT, defeat))
    return blocks


def reach(frame: Frame, target: str, kind: AttackKind) -> list[tuple[int, int, int, list[str] | None]]:
    """What an explicit edge of ``kind`` on ``target`` attacks, normalized to the form of a derived
    attack: ``(attacked argument, on, shape, targetRules or None)`` for each.

    A rebut of rule ``rK`` attacks the conclusions ``rK`` draws (the team reading of ``targetRules``,
    as a derived rebut); any other edge on a rule attacks every argument using it; an edge on a
    fact, every argument with that premise (its ``targetRules`` depend on the attacked argument:
    ``None``); an edge on a literal, every argument concluding it and its super-arguments (a rebut
    only those with a defeasible or defeater top rule).
    """
    index = frame.index
    if target in frame.rule_code and kind is AttackKind.REBUT:
        return [(t, sub, SHAPE_ARGUMENT, _rebut_rules(frame, sub))
                for sub in index.by_top.get(target, ()) if _rebuttable(frame, sub) for t in index.containers[sub]]
    if target in frame.rule_code:
        return [(t, frame.rule_code[target], SHAPE_RULE, [target]) for t in index.users.get(target, ())]
    if target in frame.fact_code:
        return [(t, frame.fact_code[target], SHAPE_FACT, None) for t in index.premise_users.get(target, ())]
    return [(t, sub, SHAPE_ARGUMENT, _rebut_rules(frame, sub))
            for sub in index.by_conclusion.get(normalize_literal(target), ())
            if kind is not AttackKind.REBUT or _rebuttable(frame, sub) for t in index.containers[sub]]


def _columns(blocks: list[tuple]) -> dict[str, np.ndarray]:
    """The attack columns of ``blocks`` (target-major within a block), each allocated once."""
    sizes = [len(b[0]) * len(b[2]) for b in blocks]
    dtypes = {"kind": np.int8, "shape": np.int8, "explicit": bool}
    out = {name: np.empty(sum(sizes), dtype=dtypes.get(name, np.int32)) for name in COLUMNS}
    out["explicit"][:] = False
    start = 0
    for (attackers, lics, targets, on, kind, shape, defeat), size in zip(blocks, sizes):
        end, grid = start + size, (len(targets), len(attackers))
        out["attacker"][start:end].reshape(grid)[...] = np.asarray(attackers, dtype=np.int32)
        out["target"][start:end].reshape(grid)[...] = np.asarray(targets, dtype=np.int32)[:, None]
        out["on"][start:end].reshape(grid)[...] = on if np.isscalar(on) else np.asarray(on, dtype=np.int32)[:, None]
        out["lic"][start:end].reshape(grid)[...] = lics
        out["defeat"][start:end].reshape(grid)[...] = defeat
        out["kind"][start:end], out["shape"][start:end] = kind, shape
        start = end
    return out


def derive_attacks(theory: Theory, arguments: Sequence[Argument], order: PriorityOrder, *,
                   target_rules: TargetRules | None = None) -> AttackTable:
    """Derive, merge and neutralize the attacks of a theory (Definitions 2 and 4).

    Parameters
    ----------
    theory : Theory
        The grounded theory; ``theory.attacks`` and ``theory.attack_table`` hold the explicit edges.
    arguments : sequence of Argument
        The arguments of ``theory`` (:func:`symbolic.engine.arguments.build_arguments`).
    order : PriorityOrder
        ``P+`` (:func:`symbolic.engine.priorities.priority_order`).
    target_rules : TargetRules, optional
        ``targetRules`` over ``theory``, ``arguments`` and ``order``, when already built.

    Returns
    -------
    AttackTable
        One attack per distinct ``(attacker, target, kind, on, lic)``: rebuts, undercuts, undermines,
        then the explicit edges' other attacks; ``defeated_by`` is the pair that neutralized it.

    Raises
    ------
    KeyError
        If an explicit edge's licensing rule is not a rule of ``theory``.

    Examples
    --------
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
    frame = Frame(theory, ArgumentIndex(arguments), target_rules or TargetRules(theory, arguments, order.closure))
    blocks = [b for b in (*rebuts(frame), *undercuts(frame), *undermines(frame)) if len(b[0]) and len(b[2])]
    columns = merge_explicit(frame, _columns(blocks), lambda target, kind: reach(frame, target, kind),
                             lambda rules, lic: neutralizer(frame, rules, lic))
    return AttackTable(frame.index.ids, frame.rule_ids, frame.fact_ids, tuple(frame.pairs), columns)
