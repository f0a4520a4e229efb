"""The column-wise merge of explicit attacks (``symbolic.engine.explicit``) against a per-edge reference.

The reference below expands each explicit edge one at a time, exactly as
Definition 2 reads (docs/semantics.md section 4), keeps the first of equal
attacks and merges them into the derived ones with Python dicts.  The numpy
implementation must give the same columns on random theories (seeded): short
lists, long lists, attack tables, both together, duplicate
edges, unicode ids, sources or targets that are not ids, and none at all.
"""

from __future__ import annotations

import random
import warnings

import numpy as np
import pytest

from symbolic.engine import attacks as attacks_module
from symbolic.engine import explicit
from symbolic.engine.arguments import ArgumentIndex, build_arguments
from symbolic.engine.target_rules import TargetRules
from symbolic.engine.grounding import ground
from symbolic.scenario.labels import AttackKind
from symbolic.scenario.model import Analysis
from symbolic.engine.priorities import priority_order

E = ["E-01"]
KINDS = (AttackKind.REBUT, AttackKind.UNDERCUT, AttackKind.UNDERMINE)


def reference_merge(frame, columns: dict) -> dict:
    """``merge_explicit`` one edge at a time, with dicts (the definition, not the fast path)."""
    theory = frame.theory
    edges = [(e.source, e.target, e.kind, e.lic) for e in theory.attacks]
    table = theory.attack_table
    if table is not None:
        edges += list(zip(table.source, table.target, table.kinds(), table.lics()))
    if not edges:
        return columns
    rows: dict[tuple, int] = {}
    for source, target, kind, lic in edges:
        lic_code = frame.rule_code[lic] if lic is not None else frame.rule_code.get(source, -1)
        for attacker in frame.index.by_top.get(source, ()):
            for attacked, on, shape, rules in attacks_module.reach(frame, target, kind):
                key = (attacker, attacked, KINDS.index(kind), shape, on, lic_code)
                if key in rows:
                    continue
                defeat = -1
                if lic_code >= 0 and frame.rule_ids[lic_code] in frame.target_rules.stronger_than:
                    if rules is None:
                        rules = frame.target_rules.of_undermine(frame.index.ids[attacked], frame.fact_ids[on])
                    defeat = attacks_module.neutralizer(frame, rules, frame.rule_ids[lic_code])
                rows[key] = defeat
    derived = list(zip(*(columns[name].tolist() for name in ("attacker", "target", "kind", "shape", "on", "lic"))))
    named = set(rows) & set(derived)
    out = {name: columns[name].tolist() for name in explicit.COLUMNS}
    out["explicit"] = [flag or key in named for flag, key in zip(out["explicit"], derived)]
    for key, defeat in rows.items():
        if key in named:
            continue
        for name, value in zip(("attacker", "target", "kind", "shape", "on", "lic"), key):
            out[name].append(value)
        out["defeat"].append(defeat)
        out["explicit"].append(True)
    return out


def random_theory(seed: int) -> dict:
    """Facts, rules, priorities and explicit edges; ids are sometimes unicode."""
    rng = random.Random(seed)
    mark = rng.choice(["", "é", "λ", "猫"])
    atoms = [f"{a}{mark}" for a in "abcpq"]
    lit = lambda: rng.choice(["", "¬"]) + rng.choice(atoms)  # noqa: E731
    facts = [{"id": f"f{mark}{i}", "literal": lit(), "evidence": E} for i in range(rng.randint(1, 5))]
    rules = [{"id": f"r{mark}{i}", "antecedents": [lit() for _ in range(rng.randint(0, 2))],
              "consequent": lit() if rng.random() < 0.8 else f"¬applicable(r{mark}{rng.randrange(6)})",
              "kind": rng.choice(["strict", "defeasible", "defeasible", "defeater"]), "evidence": E}
             for i in range(rng.randint(2, 6))]
    rule_ids = [r["id"] for r in rules]
    ids = [f["id"] for f in facts] + rule_ids
    priorities = [{"stronger": s, "weaker": w, "basis": "hierarchy", "evidence": E}
                  for s, w in {tuple(rng.sample(rule_ids, 2)) for _ in range(rng.randint(0, 4))}]
    size = rng.choice([0, 1, 5, 40])
    one_kind = rng.choice(["rebut", "undercut", "undermine"]) if rng.random() < 0.4 else None
    attacks = [{"source": rng.choice(ids), "target": rng.choice(ids) if rng.random() < 0.7 else lit(),
                "kind": one_kind or rng.choice(["rebut", "undercut", "undermine"]), "evidence": E,
                **({"lic": rng.choice(rule_ids)} if rng.random() < 0.3 else {})}
               for _ in range(size)]
    attacks += [rng.choice(attacks) for _ in range(rng.randint(0, 6))] if attacks else []  # duplicate edges
    case = {"facts": facts, "rules": rules, "priorities": priorities}
    form = rng.choice(["list", "table", "both"])
    if form in ("list", "both"):
        case["attacks"] = attacks
    if form in ("table", "both"):
        table = attacks if form == "table" else attacks[: len(attacks) // 2]
        if table:
            case["attack_table"] = {"source": [a["source"] for a in table], "target": [a["target"] for a in table],
                                    "kind": one_kind or [a["kind"] for a in table],
                                    "lic": [a.get("lic") for a in table], "evidence": E}
    return case


def both_merges(theory):
    """The engine's columns from ``merge_explicit`` and from the reference, on the same frame."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        arguments = build_arguments(theory)
        frame = attacks_module.Frame(theory, ArgumentIndex(arguments),
                                     TargetRules(theory, arguments, priority_order(theory).closure))
    blocks = [b for b in (*attacks_module.rebuts(frame), *attacks_module.undercuts(frame),
                          *attacks_module.undermines(frame)) if len(b[0]) and len(b[2])]
    derived = attacks_module._columns(blocks)
    fast = explicit.merge_explicit(frame, derived, lambda t, k: attacks_module.reach(frame, t, k),
                                   lambda rules, lic: attacks_module.neutralizer(frame, rules, lic))
    slow = reference_merge(frame, derived)
    return {name: np.asarray(fast[name]).tolist() for name in explicit.COLUMNS}, \
        {name: np.asarray(slow[name]).tolist() for name in explicit.COLUMNS}


@pytest.mark.parametrize("seed", range(120))
def test_merge_matches_the_per_edge_reference(seed):
    theory = ground(E, Analysis.model_validate(random_theory(seed)))
    fast, slow = both_merges(theory)
    assert fast == slow


@pytest.mark.parametrize("duplicates", [0, 50])
def test_an_abstract_framework_keeps_the_first_of_equal_edges(duplicates):
    rng = random.Random(7)
    n = 300
    facts = [{"id": f"a{i}", "literal": f"a{i}", "evidence": E} for i in range(n)]
    # Only some arguments attack and only some are attacked.
    pairs = [(rng.randrange(n // 2), rng.randrange(n // 3, n)) for _ in range(2000)]
    pairs += pairs[:duplicates]
    table = {"source": [f"a{s}" for s, _ in pairs], "target": [f"a{t}" for _, t in pairs], "kind": "undermine",
             "evidence": E}
    theory = ground(E, Analysis.model_validate({"facts": facts, "attack_table": table}))
    fast, slow = both_merges(theory)
    assert fast == slow
    assert len(fast["attacker"]) == len(set(pairs))


def test_a_licensing_rule_that_is_not_a_rule_is_a_key_error():
    analysis = Analysis.model_validate({
        "facts": [{"id": "f1", "literal": "a", "evidence": E}],
        "rules": [{"id": "r1", "antecedents": ["a"], "consequent": "p", "evidence": E}],
        "attacks": [{"source": "f1", "target": "r1", "kind": "undercut", "lic": "r1", "evidence": E}]})
    theory = ground(E, analysis)
    unknown = theory.__class__(theory.evidence, theory.facts, theory.rules,
                               (theory.attacks[0].model_copy(update={"lic": "ghost"}),), theory.priorities)
    with pytest.raises(KeyError, match="ghost"):
        both_merges(unknown)
