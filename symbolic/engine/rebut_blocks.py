"""Rebut blocks of the attack builder (Definitions 2 and 4, docs/semantics.md sections 4 and 5).

A rebut block holds every attack of the arguments concluding a literal on the
rebuttable sub-arguments concluding its complement, and their containers.  Its
defeats are one default entry per licensing rule (the first rule of the attacked
conclusion's team stronger than it) and the entries a sub-argument's own top rule
overrides (it is named first); both are found with numpy over rule codes, from
``P+`` as a CSR by weaker rule.  :class:`RebutBlocks` is a part of
:class:`symbolic.engine.attacks._Builder`, whose state (rule codes, ``targetRules``, the
numbering of defeating pairs, the blocks) it uses.
"""

from __future__ import annotations

import numpy as np

from symbolic.engine.attack_table import SHAPE_ARGUMENT
from symbolic.scenario.labels import RuleKind
from symbolic.scenario.literals import complement

__all__ = ["REBUTTABLE", "RebutBlocks", "ranges"]

REBUTTABLE = (RuleKind.DEFEASIBLE, RuleKind.DEFEATER)  # the top rules a rebut can hit
_MANY_LICS = 16  # licensing rules in a rebut block from which numpy finds their defaults


def ranges(starts: np.ndarray, sizes: np.ndarray) -> np.ndarray:
    """``starts[i], ..., starts[i] + sizes[i] - 1`` for every ``i``, laid end to end."""
    ends = np.cumsum(sizes)
    return np.repeat(starts - ends + sizes, sizes) + np.arange(int(ends[-1]) if len(ends) else 0)


class RebutBlocks:
    """The rebut blocks of :class:`symbolic.engine.attacks._Builder` (see the module docstring)."""

    def _by_weak(self) -> tuple[np.ndarray, np.ndarray]:
        """``P+`` over rule codes as a CSR by weaker rule: ``strong[ptr[w]:ptr[w + 1]] >+ w``."""
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
            cand = strong[ranges(ptr[weak], sizes)]
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
        entry = ranges(ptr[weak], sizes)
        cand = strong[entry]
        col = np.repeat(beatable, sizes)
        r = rank[cand]
        keep = r >= 0
        if not keep.any():
            return {}, None, None, None, None
        cand, col, r, entry = cand[keep], col[keep], r[keep], entry[keep]
        order = np.argsort(r * len(lics) + col)  # by top rule, then column (each pair (r, col) once)
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
        numbers[fresh] = self._number_new(uniq[need][fresh])
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
                    if top[b] is not None and kind[top[b]] in REBUTTABLE]
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
                entry = ranges(np.zeros(len(g), dtype=np.int64), n_rows * size)  # within each sub
                owner = np.repeat(np.arange(len(g)), n_rows * size)
                pick = starts[g][owner] + entry % size[owner]
                defeat[first_row[owner] + entry // size[owner], cols[pick]] = values[pick]
            on = np.repeat(np.asarray(subs, dtype=np.int32), widths)
            self.block(attackers, lics, targets, on, 0, SHAPE_ARGUMENT, defeat)
