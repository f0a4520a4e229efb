"""Seeded generator of benchmark scenarios (plain scenario-v1 JSON); no engine calls.

Usage::

    python benchmarks/theories.py dense --k 271 --groups 8 --seed 0 -o /tmp/dense.json
    python benchmarks/theories.py explicit --args 8600 --attacks 1176000 -o /tmp/af.json
    python benchmarks/theories.py explicit --columnar ... # the same framework as an attack table

Families (every object grounded in one fragment ``E-01``):

- ``dense`` (dense priorities): ``groups`` complete rebut bicliques of ``k``
  defeasible rules ``F_i_j => P_i`` against ``k`` rules ``G_i_j => ¬P_i``
  (``2 k^2`` attacks per group); each pair ``con > pro`` is a priority with
  probability ``density``, so about ``density * k`` priorities neutralize
  each pro attack (team reading): the defeat edges grow as ``k^3``.
- ``mixed``: bicliques of random sizes (``k/4 .. 2k``), a third of them with
  dense priorities, undercut teams (``¬applicable``) and undermined facts.
- ``altderiv`` (alternative derivations): ``m`` rules for each of ``M_i`` and
  ``N_i``, a rule ``M_i & N_i => P_i`` (``m^2`` arguments), ``q`` rules for
  ``¬P_i`` and ``q`` rules for ``¬M_i`` (rebuttals on sub-arguments,
  propagated to every container).
- ``explicit``: an abstract framework: ``args`` facts ``a<i>`` and ``attacks``
  explicit ``undermine`` edges between them (random, seeded; ``acyclic`` makes
  ``i < j`` edges plus 1 % back edges).  ``--columnar`` writes the same edges
  as an ``attack_table`` block (columns ``source``, ``target``, ``kind``).

The gold status written is a placeholder that the benchmarks do not read
(``paratrace status`` prints the computed status next to it).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

__all__ = ["altderiv", "dense", "explicit", "mixed", "scenario", "FAMILIES"]

EVIDENCE = [{"id": "E-01", "text": "Synthetic benchmark clause.", "source": "benchmarks/theories.py"}]
_E = ["E-01"]


def scenario(case: str, target: str, facts, rules, priorities=(), attacks=(), attack_table=None) -> dict:
    """A scenario-v1 record over the one fragment ``E-01``."""
    gold = {"status": "undecidable", "facts": list(facts), "rules": list(rules),
            "priorities": list(priorities), "attacks": list(attacks)}
    if attack_table is not None:
        gold["attack_table"] = attack_table
    return {"id": case, "query": f"Is {target} the case?", "target": target, "evidence": EVIDENCE, "gold": gold}


def _fact(i: str, literal: str) -> dict:
    return {"id": i, "literal": literal, "evidence": _E}


def _rule(i: str, body, head: str, kind: str = "defeasible") -> dict:
    return {"id": i, "antecedents": list(body), "consequent": head, "kind": kind, "evidence": _E}


def _prio(strong: str, weak: str) -> dict:
    return {"stronger": strong, "weaker": weak, "basis": "hierarchy", "evidence": _E}


def _biclique(tag: str, k: int, rng: random.Random, density: float, facts, rules, priorities) -> None:
    for j in range(k):
        facts += [_fact(f"f{tag}_{j}", f"F{tag}_{j}"), _fact(f"g{tag}_{j}", f"G{tag}_{j}")]
        rules += [_rule(f"pro{tag}_{j}", [f"F{tag}_{j}"], f"P{tag}"),
                  _rule(f"con{tag}_{j}", [f"G{tag}_{j}"], f"¬P{tag}")]
    if density > 0:
        for c in range(k):
            for p in range(k):
                if rng.random() < density:
                    priorities.append(_prio(f"con{tag}_{c}", f"pro{tag}_{p}"))


def dense(k: int = 271, groups: int = 8, density: float = 0.1, seed: int = 0) -> dict:
    """Rebut bicliques with dense ``con > pro`` priorities (see the module docstring)."""
    rng = random.Random(seed)
    facts, rules, priorities = [], [], []
    for i in range(groups):
        _biclique(str(i), k, rng, density, facts, rules, priorities)
    return scenario(f"dense-k{k}-g{groups}", "P0", facts, rules, priorities)


def mixed(k: int = 100, groups: int = 12, seed: int = 0) -> dict:
    """Bicliques of random sizes, some with dense priorities, plus undercut teams and undermines."""
    rng = random.Random(seed)
    facts, rules, priorities = [], [], []
    for i in range(groups):
        size = rng.randint(max(1, k // 4), 2 * k)
        _biclique(str(i), size, rng, 0.1 if i % 3 == 0 else 0.0, facts, rules, priorities)
        team = max(1, size // 8)
        for j in range(team):  # an undercut team against the first pro rule of the group
            facts.append(_fact(f"u{i}_{j}", f"U{i}_{j}"))
            rules.append(_rule(f"ex{i}_{j}", [f"U{i}_{j}"], f"¬applicable(pro{i}_0)"))
        facts.append(_fact(f"h{i}", f"H{i}"))  # a fact undermined by a rule, used by a pro rule
        rules += [_rule(f"uses{i}", [f"H{i}", f"F{i}_0"], f"P{i}"), _rule(f"neg{i}", [f"G{i}_0"], f"¬H{i}")]
    return scenario(f"mixed-k{k}-g{groups}", "P0", facts, rules, priorities)


def altderiv(m: int = 20, q: int = 20, groups: int = 8, seed: int = 0) -> dict:
    """Alternative derivations: ``m^2`` arguments per group for ``P_i`` (see the module docstring)."""
    rng = random.Random(seed)
    facts, rules, priorities = [], [], []
    for i in range(groups):
        for j in range(m):
            facts += [_fact(f"a{i}_{j}", f"A{i}_{j}"), _fact(f"b{i}_{j}", f"B{i}_{j}")]
            rules += [_rule(f"m{i}_{j}", [f"A{i}_{j}"], f"M{i}"), _rule(f"n{i}_{j}", [f"B{i}_{j}"], f"N{i}")]
        rules.append(_rule(f"c{i}", [f"M{i}", f"N{i}"], f"P{i}"))
        for j in range(q):
            facts += [_fact(f"d{i}_{j}", f"D{i}_{j}"), _fact(f"e{i}_{j}", f"E{i}_{j}")]
            rules += [_rule(f"dp{i}_{j}", [f"D{i}_{j}"], f"¬P{i}"), _rule(f"em{i}_{j}", [f"E{i}_{j}"], f"¬M{i}")]
            if rng.random() < 0.5:
                priorities.append(_prio(f"c{i}", f"dp{i}_{j}"))
    return scenario(f"altderiv-m{m}-q{q}-g{groups}", "P0", facts, rules, priorities)


def _edges(n: int, attacks: int, acyclic: bool, rng: random.Random):
    seen = set()
    while len(seen) < attacks:
        a, b = rng.randrange(n), rng.randrange(n)
        if acyclic and a > b and rng.random() >= 0.01:
            a, b = b, a
        if a != b:
            seen.add((a, b))
    return sorted(seen)


def explicit(args: int = 8600, attacks: int = 1_176_000, acyclic: bool = False, columnar: bool = False,
             seed: int = 0) -> dict:
    """An abstract framework as facts and explicit ``undermine`` edges (see the module docstring)."""
    rng = random.Random(seed)
    facts = [_fact(f"a{i}", f"a{i}") for i in range(args)]
    edges = _edges(args, attacks, acyclic, rng)
    case = f"af-{'acyclic' if acyclic else 'uniform'}-{args}-{attacks}"
    if columnar:
        table = {"source": [f"a{a}" for a, _ in edges], "target": [f"a{b}" for _, b in edges],
                 "kind": "undermine", "evidence": _E}
        return scenario(case, "a0", facts, [], attack_table=table)
    records = [{"source": f"a{a}", "target": f"a{b}", "kind": "undermine", "evidence": _E} for a, b in edges]
    return scenario(case, "a0", facts, [], attacks=records)


FAMILIES = {"dense": dense, "mixed": mixed, "altderiv": altderiv, "explicit": explicit}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("family", choices=sorted(FAMILIES))
    parser.add_argument("--k", type=int, default=None)
    parser.add_argument("--groups", type=int, default=None)
    parser.add_argument("--m", type=int, default=None)
    parser.add_argument("--q", type=int, default=None)
    parser.add_argument("--args", type=int, default=None)
    parser.add_argument("--attacks", type=int, default=None)
    parser.add_argument("--acyclic", action="store_true")
    parser.add_argument("--columnar", action="store_true")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("-o", "--output", type=Path, required=True)
    ns = parser.parse_args(argv)
    options = {name: getattr(ns, name) for name in ("k", "groups", "m", "q", "args", "attacks")
               if getattr(ns, name) is not None}
    if ns.family == "explicit":
        options.update(acyclic=ns.acyclic, columnar=ns.columnar)
    record = FAMILIES[ns.family](seed=ns.seed, **options)
    ns.output.write_text(json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n", encoding="utf-8")
    print(f"wrote {ns.output}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
