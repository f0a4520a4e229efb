"""Attacks and their neutralization (Definitions 2 and 4, docs/semantics.md sections 4 and 5).

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

Derivation is indexed (by conclusion, complement, rule used and premise) and
emits whole blocks ``attackers x targets`` as numpy columns, so its cost is
proportional to the number of attacks, never to all pairs of arguments.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from .arguments import ArgumentIndex
from .attack_table import SHAPE_ARGUMENT, SHAPE_FACT, SHAPE_RULE, AttackTable
from .collector import gc_paused
from .explicit import merge_explicit
from .grounding import Theory
from .labels import RuleKind
from .literals import complement, excepted_rule
from .results import Argument, PriorityOrder
from .target_rules import TargetRules

__all__ = ["derive_attacks"]

_REBUTTABLE = (RuleKind.DEFEASIBLE, RuleKind.DEFEATER)
_MANY_LICS = 16  # licensing rules in a rebut block from which numpy finds their defaults
_COLUMNS = ("attacker", "target", "on", "lic", "defeat", "kind", "shape", "explicit")


def _beaten_by(beatable: list[tuple[int, set[str]]], subs: int) -> dict[str, list[int]] | None:
    """Per rule, the attackers (ascending) whose licensing rule it beats; ``None`` when testing
    each of the ``subs`` sub-arguments against every beatable attacker is cheaper."""
    if sum(len(strong) for _, strong in beatable) >= subs * len(beatable):
        return None
    beaten: dict[str, list[int]] = {}
    for j, strong in beatable:
        for rule in strong:
            beaten.setdefault(rule, []).append(j)
    return beaten


def _ranges(starts: np.ndarray, sizes: np.ndarray) -> np.ndarray:
    """``starts[i], ..., starts[i] + sizes[i] - 1`` for every ``i``, laid end to end."""
    ends = np.cumsum(sizes)
    return np.repeat(starts - ends + sizes, sizes) + np.arange(int(ends[-1]) if len(ends) else 0)


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
        self.concluders = self.target_rules.concluders
        # Defeating pairs, each as the key strong * rules + weak, numbered as first met: every
        # key in order in _keys (arrays); `numbers` maps the first `_synced` of them to their index.
        self.numbers: dict[int, int] = {}
        self._keys: list[np.ndarray] = []
        self._count = self._synced = 0
        self._rule_names = np.array(self.rule_ids, dtype=object)
        self._weak_csr: tuple[np.ndarray, np.ndarray] | None = None
        self._weak_pos: np.ndarray | None = None  # with P+'s own tuples (layered P+)
        self._pair_tuples: list | None = None
        self._tuples: list = []  # per chunk of _keys: the pairs' tuples, or None to build
        self.blocks: list[tuple] = []

    # -- Definition 4 ------------------------------------------------------
    @property
    def stronger_than(self) -> dict[str, set[str]]:
        """For each rule, the rules stronger than it in ``P+`` (:class:`TargetRules`)."""
        return self.target_rules.stronger_than

    def pair(self, strong: str, weak: str) -> int:
        """Index of ``(strong, weak)`` in the table's defeating pairs (numbered as first met)."""
        if self._synced < self._count:  # pairs numbered in bulk: look-ups need them
            keys = np.concatenate(self._keys)[self._synced:].tolist()
            self.numbers.update(zip(keys, range(self._synced, self._count)))
            self._synced = self._count
        key = self.rule_code[strong] * len(self.rule_ids) + self.rule_code[weak]
        number = self.numbers.get(key)
        if number is None:
            number = self.numbers[key] = self._count
            self._keys.append(np.array([key], dtype=np.int64))
            self._tuples.append(None)
            self._count = self._synced = self._count + 1
        return number

    def _number_new(self, keys: np.ndarray, tuples: list | None = None) -> np.ndarray:
        """Number ``keys``, pairs met for the first time, in order (they are in no look-up yet);
        ``tuples`` are their ``(strong, weak)`` tuples when at hand."""
        start = self._count
        self._keys.append(keys.astype(np.int64))
        self._tuples.append(tuples)
        self._count += len(keys)
        return np.arange(start, self._count, dtype=np.int64)

    def defeats(self) -> tuple[tuple[str, str], ...]:
        """The defeating pairs ``(stronger, weaker)``, by index (``P+``'s own tuples where known)."""
        names, n = self._rule_names, max(len(self.rule_ids), 1)
        out: list = []
        for keys, tuples in zip(self._keys, self._tuples):
            out.extend(tuples if tuples is not None else
                       zip(names[keys // n].tolist(), names[keys % n].tolist()))
        return tuple(out)

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

    def _by_weak(self) -> tuple[np.ndarray, np.ndarray]:
        """``P+`` over rule codes as a CSR by weaker rule: ``strong[ptr[w]:ptr[w + 1]] >+ w``."""
        if self._weak_csr is None and self.target_rules.pair_codes is not None:
            names, strong, weak, self._pair_tuples = self.target_rules.pair_codes
            code = self.rule_code
            rule_of = np.array([code.get(name, -1) for name in names], dtype=np.int64)
            strong, weak = rule_of[strong], rule_of[weak]
            known = np.flatnonzero((strong >= 0) & (weak >= 0))
            order = known[np.argsort(weak[known], kind="stable")]
            self._weak_pos = order  # each entry's position in the P+ pairs (their tuples)
            strong, weak = strong[order], weak[order]
            self._weak_csr = np.searchsorted(weak, np.arange(len(self.rule_ids) + 1)), strong
        if self._weak_csr is None:
            code = self.rule_code
            weak: list[int] = []
            strong: list[int] = []
            for rule, stronger in self.stronger_than.items():
                w = code.get(rule)
                if w is not None:
                    codes = [code[x] for x in stronger if x in code]
                    weak.extend([w] * len(codes))
                    strong.extend(codes)
            weak, strong = np.array(weak, dtype=np.int64), np.array(strong, dtype=np.int64)
            order = np.argsort(weak, kind="stable")
            ptr = np.searchsorted(weak[order], np.arange(len(self.rule_ids) + 1))
            self._weak_csr = ptr, strong[order]
        return self._weak_csr

    def _first_rules(self, lics: list, rules: list[str]) -> tuple[list, list]:
        """``lics`` and, for each, :meth:`first_rule` of ``rules`` (the applicable rules of one
        conclusion, in theory order), with numpy over rule codes when there are many."""
        if len(lics) < _MANY_LICS:
            return lics, [self.first_rule(rules, lic) for lic in lics]
        ptr, strong = self._by_weak()
        n_rules = len(self.rule_ids)
        weak = np.array([self.rule_code[lic] if lic is not None else n_rules for lic in lics], dtype=np.int64)
        ptr = np.append(ptr, ptr[-1])  # a fact's code n_rules: no stronger rule
        sizes = ptr[weak + 1] - ptr[weak]
        found = np.full(len(lics), n_rules, dtype=np.int64)
        if sizes.any():
            member = np.zeros(n_rules + 1, dtype=bool)
            member[[self.rule_code[r] for r in rules]] = True
            cand = strong[_ranges(ptr[weak], sizes)]
            cand = np.where(member[cand], cand, n_rules)  # the first in theory order: the least code
            some = np.flatnonzero(sizes)
            found[some] = np.minimum.reduceat(cand, (np.cumsum(sizes) - sizes)[some])
        names = self.rule_ids
        return lics, [names[c] if c < n_rules else None for c in found.tolist()]

    def _overrides(self, lics: np.ndarray, defaults: dict, tops: list[str]):
        """The entries of a rebut block that a sub-argument's own top rule overrides.

        ``lics`` are the attackers' licensing rule codes (-1 for a fact), ``defaults``
        maps each licensing rule code to ``(strong code, pair)`` of its default entry, and
        ``tops`` are the distinct top rules of the attacked sub-arguments, first seen
        first.  Returns ``(group, cols, values, starts, sizes)``: the override group of
        each top rule that beats some attacker, and per group the attacker columns and
        pair indices, ``cols[starts[g]:starts[g] + sizes[g]]``, columns ascending.  New
        pairs are numbered in the order :meth:`pair` would have met them: top rule by top
        rule, attacker by attacker.
        """
        ptr, strong = self._by_weak()
        beatable = np.flatnonzero(lics >= 0)
        weak = lics[beatable].astype(np.int64)
        sizes = ptr[weak + 1] - ptr[weak]
        if not len(strong) or not sizes.any():
            return {}, None, None, None, None
        rank = np.full(len(self.rule_ids), -1, dtype=np.int64)
        rank[np.array([self.rule_code[t] for t in tops], dtype=np.int64)] = np.arange(len(tops))
        entry = _ranges(ptr[weak], sizes)
        cand = strong[entry]
        col = np.repeat(beatable, sizes)
        r = rank[cand]
        keep = r >= 0
        if not keep.any():
            return {}, None, None, None, None
        cand, col, r, entry = cand[keep], col[keep], r[keep], entry[keep]
        order = np.lexsort((col, r))
        cand, col, r, entry = cand[order], col[order], r[order], entry[order]
        n_rules = len(self.rule_ids)
        keys = cand * n_rules + lics[col]
        uniq, first_at, inverse = np.unique(keys, return_index=True, return_inverse=True)
        need = np.argsort(first_at, kind="stable")
        u_strong, u_weak = uniq[need] // n_rules, uniq[need] % n_rules
        default_strong = np.full(n_rules, -1, dtype=np.int64)
        default_pair = np.full(n_rules, -1, dtype=np.int64)
        if defaults:
            w, (t, pair) = list(defaults), zip(*defaults.values())
            default_strong[w], default_pair[w] = t, pair
        known = default_strong[u_weak] == u_strong  # the block's default entry for that rule
        numbers = np.where(known, default_pair[u_weak], 0)
        fresh = np.flatnonzero(~known)
        tuples = None
        if self._weak_pos is not None:  # P+'s own tuples for the new pairs
            at = self._weak_pos[entry[first_at[need][fresh]]].tolist()
            tuples = [self._pair_tuples[i] for i in at]
        numbers[fresh] = self._number_new(uniq[need][fresh], tuples)
        by_key = np.empty(len(uniq), dtype=np.int64)
        by_key[need] = numbers
        values = by_key[inverse.reshape(-1)]
        starts = np.flatnonzero(np.concatenate([[True], r[1:] != r[:-1]]))
        counts = np.diff(np.append(starts, len(r)))
        group = {tops[g]: i for i, g in enumerate(r[starts].tolist())}
        return group, col, values, starts, counts

    def rebuts(self) -> None:
        """Rebuts, one block per complementary pair of conclusions.

        ``targetRules`` depend only on the attacked conclusion, so one default
        row of defeats serves the whole block; a sub-argument whose own top
        rule beats an attacker overrides that entry (it is named first).  The
        default of a licensing rule is worked out once per block, the overrides
        with numpy over rule codes (:meth:`_overrides`), and written for every
        row of a top rule at once; pairs are numbered in the order they are first
        needed, as :meth:`pair` does.
        """
        index, top, kind, containers = self.index, self.index.top, self.kind, self.index.containers
        code, n_rules = self.rule_code, len(self.rule_ids)
        for literal, attackers in index.by_conclusion.items():
            attacked = complement(literal)
            subs = [b for b in index.by_conclusion.get(attacked, ())
                    if top[b] is not None and kind[top[b]] in _REBUTTABLE]
            if not subs:
                continue
            lic_names = [top[a] for a in attackers]
            rules = self.target_rules.of_conclusion(attacked)
            # A pair's weaker rule is the licensing rule of an attacker, which concludes `literal`:
            # no other block meets it, so the pairs of this block are new but for repeats within it.
            first: dict = {}
            defaults: dict[int, tuple[int, int]] = {}
            for lic, rule in zip(*self._first_rules(list(dict.fromkeys(lic_names)), rules)):
                first[lic] = -1 if rule is None else len(defaults)
                if rule is not None:
                    defaults[code[lic]] = (code[rule], len(defaults))
            if defaults:
                keys = np.array([t * n_rules + w for w, (t, _) in defaults.items()], dtype=np.int64)
                offset = int(self._number_new(keys)[0])
                defaults = {w: (t, offset + i) for w, (t, i) in defaults.items()}
                first = {lic: -1 if i < 0 else offset + i for lic, i in first.items()}
            default = [first[lic] for lic in lic_names]
            lics = self.lic_codes(attackers)
            tops = list(dict.fromkeys(top[b] for b in subs))
            group, cols, values, starts, sizes = self._overrides(lics, defaults, tops)
            fixed: list[tuple[int, int, int]] = []  # (first row, rows, group) of each overridden sub
            targets: list[int] = []
            widths: list[int] = []
            for sub in subs:
                rows = containers[sub]
                g = group.get(top[sub])
                if g is not None:
                    fixed.append((len(targets), len(rows), g))
                targets.extend(rows)
                widths.append(len(rows))
            defeat = np.empty((len(targets), len(attackers)), dtype=np.int32)
            defeat[:] = np.asarray(default, dtype=np.int32)
            if fixed:
                first_row, n_rows, g = np.array(fixed, dtype=np.int64).T
                size = sizes[g]
                entry = _ranges(np.zeros(len(g), dtype=np.int64), n_rows * size)  # within each sub
                owner = np.repeat(np.arange(len(g)), n_rows * size)
                pick = starts[g][owner] + entry % size[owner]
                defeat[first_row[owner] + entry // size[owner], cols[pick]] = values[pick]
            on = np.repeat(np.asarray(subs, dtype=np.int32), widths)
            self.block(attackers, lics, targets, on, 0, SHAPE_ARGUMENT, defeat)

    def rebuttable(self, sub: int) -> bool:
        """Whether argument ``sub`` can be rebutted (a defeasible or defeater top rule)."""
        top = self.index.top[sub]
        return top is not None and self.kind[top] in _REBUTTABLE

    def undercuts(self) -> None:
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
        return AttackTable(self.index.ids, self.rule_ids, self.fact_ids, self.defeats(), columns)


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
        The arguments of ``theory`` (:func:`symbolic.arguments.build_arguments`).
    order : PriorityOrder
        ``P+`` (:func:`symbolic.priorities.priority_order`).
    target_rules : TargetRules, optional
        ``targetRules`` over ``theory``, ``arguments`` and ``order``, when already built.

    Returns
    -------
    AttackTable
        A lazy sequence with one :class:`~symbolic.results.Attack` per distinct
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
    with gc_paused():
        return _Builder(theory, arguments, order, target_rules).table()
