"""The controlled suite ``controlled-140``: seeded defect injection (paper Table 6).

From 20 base scenarios of ``normative-en`` (four per domain, drawn with a seed
from the eligible ones, balancing their gold statuses) the generator makes one clean case and one case per
defect class (:class:`symbolic.model.DefectClass`), 7 x 20 = 140 cases.  Each
case ships the query, the evidence package and ``candidate``: the analysis an
upstream extraction stage would hand over (the gold facts, rules and
priorities, plus one explicit edge per attack the engine derives from them).
The defect is injected into that candidate:

``missing_evidence``
    one fragment the candidate cites is removed from the package; the
    candidate still relies on it;
``incomplete_coverage``
    the derivation of the target element is dropped: every rule concluding
    the target's atom (or its complement) and every fact on that atom, with
    the priorities, attack edges and exceptions that name them;
``extraction_error``
    a fact's literal or a rule's consequent is replaced by its complement,
    against the fragment it cites;
``priority_inversion``
    one priority ``a > b`` becomes ``b > a``;
``attack_deletion``
    one attack edge is removed;
``invalid_proof_node``
    an ungrounded node is added: a fact or rule about the target that cites no
    fragment at all (a missing fragment, by contrast, is cited but absent).

Gold is the correct analysis over the *delivered* package: the base gold
analysis, minus the objects citing a removed fragment for ``missing_evidence``;
its status and trace are recomputed by the engine.  ``metadata.defect_class``
and ``metadata.defect_location`` (``evidence:E-03``, ``rule:r2``,
``fact:f1``, ``priority:r2>r1``, ``attack:r2-rebut->Penalty(x)``,
``target:Penalty(x)``) name the
defect.  The same corpus and seed always give the same cases.
"""

from __future__ import annotations

import random
from typing import Sequence

from symbolic.labels import RuleKind, Status
from symbolic.attack_edges import explicit_attack_edges
from symbolic.literals import complement
from symbolic.locations import attack_location, priority_location
from symbolic.model import (
    DEFECT_CLASSES,
    Analysis,
    AttackEdge,
    DefectClass,
    Fact,
    Gold,
    Metadata,
    Priority,
    Rule,
    Scenario,
)

from ..errors import SuiteError
from .checks import evaluate_gold, gold_trace, has_contradiction

__all__ = [
    "DEFECTS",
    "SEED",
    "candidate_analysis",
    "controlled_case",
    "eligible",
    "generate_controlled",
    "select_bases",
]

SEED = 140
DEFECTS = DEFECT_CLASSES
_DOMAIN_ORDER = ("contracts", "banking_guarantees", "compliance", "internal_policies", "regulatory")


def _edge_key(edge: AttackEdge) -> str:
    return attack_location(edge.source, edge.kind.value, edge.target).partition(":")[2]


def candidate_analysis(scenario: Scenario) -> Analysis:
    """The clean candidate: the gold objects plus one explicit edge per derived attack.

    A rebut becomes ``attacker's top rule (or fact) -> conclusion of the attacked
    sub-argument``, an undercut ``-> the excepted rule``, an undermine ``-> the
    attacked premise fact``; duplicates are merged and edges sorted.

    Examples
    --------
    >>> from symbolic.model import EvidenceFragment
    >>> e = ["E-01"]
    >>> s = Scenario(id="c1", query="q?", target="Penalty(x)",
    ...     evidence=[EvidenceFragment(id="E-01", text="t", source="doc")],
    ...     gold=Gold(status="rejected",
    ...         facts=[Fact(id="f1", literal="Delay(x)", evidence=e), Fact(id="f2", literal="Storm(x)", evidence=e)],
    ...         rules=[Rule(id="r1", antecedents=["Delay(x)"], consequent="Penalty(x)", evidence=e),
    ...                Rule(id="r2", antecedents=["Storm(x)"], consequent="¬Penalty(x)", evidence=e)],
    ...         priorities=[Priority(stronger="r2", weaker="r1", basis="exception", evidence=e)]))
    >>> [(a.source, a.kind.value, a.target) for a in candidate_analysis(s).attacks]
    [('r1', 'rebut', '¬Penalty(x)'), ('r2', 'rebut', 'Penalty(x)')]
    """
    gold = scenario.gold
    return Analysis(facts=gold.facts, rules=gold.rules, priorities=gold.priorities,
                    attacks=explicit_attack_edges(evaluate_gold(scenario)))


def _attack_signature(scenario: Scenario, analysis: Analysis) -> tuple:
    ev = evaluate_gold(scenario, analysis)
    return ev.status, sorted((a.attacker, a.target, a.kind.value, a.on, a.lic or "", a.defeated_by or ())
                             for a in ev.attacks)


def _target_rules(analysis: Analysis, target: str) -> list[Rule]:
    sides = {target, complement(target)}
    return [r for r in analysis.rules if r.consequent in sides]


def _without_target(analysis: Analysis, target: str) -> Analysis:
    """``analysis`` without the rules and facts on the target's atom and what names them
    (priorities, attack edges, exceptions to a dropped rule)."""
    sides = {target, complement(target)}
    gone = {r.id for r in analysis.rules if r.consequent in sides} | {
        f.id for f in analysis.facts if f.literal in sides}
    while True:  # exceptions to dropped rules, then exceptions to those
        more = {r.id for r in analysis.rules if r.excepts in gone} - gone
        if not more:
            break
        gone |= more
    return Analysis(
        facts=tuple(f for f in analysis.facts if f.id not in gone),
        rules=tuple(r for r in analysis.rules if r.id not in gone),
        priorities=tuple(p for p in analysis.priorities if not gone & {p.stronger, p.weaker}),
        attacks=tuple(a for a in analysis.attacks if not gone & {a.source, a.target, a.lic}),
    )


def _invertible(analysis: Analysis) -> list[Priority]:
    pairs = {(p.stronger, p.weaker) for p in analysis.priorities}
    return [p for p in analysis.priorities if (p.weaker, p.stronger) not in pairs]


def eligible(scenario: Scenario) -> bool:
    """Whether every defect class can be injected into ``scenario`` observably and
    the clean candidate's explicit edges change nothing (same status, same attacks).

    An undecidable scenario is not eligible: a candidate that drops the target's
    derivation still gives ``undecidable`` there, so incomplete coverage would
    leave no trace in the status a candidate claims.
    """
    if scenario.gold.status is Status.UNDECIDABLE:
        return False
    candidate = candidate_analysis(scenario)
    if not (candidate.attacks and _invertible(candidate) and _target_rules(candidate, scenario.target)
            and candidate.facts and _removable(scenario)):
        return False
    return _attack_signature(scenario, candidate) == _attack_signature(scenario, scenario.gold)


def _removable(scenario: Scenario) -> list[str]:
    cited = {e for obj in (*scenario.gold.facts, *scenario.gold.rules) for e in obj.evidence}
    return [f.id for f in scenario.evidence if f.id in cited]


def select_bases(corpus: Sequence[Scenario], *, seed: int = SEED, per_domain: int = 4) -> list[Scenario]:
    """Draw ``per_domain`` eligible scenarios from each domain, balancing gold statuses.

    Each domain's eligible scenarios are shuffled with the seed, then picked one
    at a time: the next pick is the first whose gold status is, so far, the
    rarest among the picks.  A domain with too few eligible scenarios is
    topped up from the rest of the corpus the same way.

    Raises
    ------
    SuiteError
        If the corpus has fewer than ``5 * per_domain`` eligible scenarios.
    """
    pool = sorted((s for s in corpus if s.candidate is None and eligible(s)), key=lambda s: s.id)
    wanted = per_domain * len(_DOMAIN_ORDER)
    if len(pool) < wanted:
        raise SuiteError(f"only {len(pool)} eligible base scenarios; the controlled suite needs {wanted}")
    chosen: list[Scenario] = []
    counts: dict[str, int] = {}

    def pick(candidates: list[Scenario], n: int) -> None:
        for _ in range(min(n, len(candidates))):
            best = min(range(len(candidates)), key=lambda i: (counts.get(candidates[i].gold.status.value, 0), i))
            taken = candidates.pop(best)
            counts[taken.gold.status.value] = counts.get(taken.gold.status.value, 0) + 1
            chosen.append(taken)

    for domain in _DOMAIN_ORDER:
        mine = [s for s in pool if s.metadata.domain is not None and s.metadata.domain.value == domain]
        random.Random(f"{seed}/select/{domain}").shuffle(mine)
        pick(mine, per_domain)
    rest = [s for s in pool if s not in chosen]
    random.Random(f"{seed}/select/top-up").shuffle(rest)
    pick(rest, wanted - len(chosen))
    return sorted(chosen, key=lambda s: s.id)


def _prune(analysis: Analysis, fragment: str) -> Analysis:
    """The analysis without the objects citing ``fragment`` and those naming them
    (priorities, attack edges, exceptions to a dropped rule)."""
    facts = tuple(f for f in analysis.facts if fragment not in f.evidence)
    gone = {r.id for r in analysis.rules if fragment in r.evidence}
    while True:  # exceptions to dropped rules are vacuous: they go too, then exceptions to those
        more = {r.id for r in analysis.rules if r.excepts in gone} - gone
        if not more:
            break
        gone |= more
    rules = tuple(r for r in analysis.rules if r.id not in gone)
    kept = {o.id for o in (*facts, *rules)}
    priorities = tuple(p for p in analysis.priorities
                       if fragment not in p.evidence and {p.stronger, p.weaker} <= kept)
    attacks = tuple(a for a in analysis.attacks if fragment not in a.evidence and a.source in kept)
    return Analysis(facts=facts, rules=rules, priorities=priorities, attacks=attacks)


def _fresh_id(analysis: Analysis, prefix: str) -> str:
    used = {o.id for o in (*analysis.facts, *analysis.rules)}
    n = 1
    while f"{prefix}{n}" in used:
        n += 1
    return f"{prefix}{n}"


def _inject(scenario: Scenario, candidate: Analysis, defect: DefectClass, rng: random.Random):
    """``(evidence, gold analysis, candidate, location)`` for one defect."""
    evidence, gold = scenario.evidence, Analysis(**{k: getattr(scenario.gold, k)
                                                    for k in ("facts", "rules", "attacks", "priorities")})
    if defect is DefectClass.MISSING_EVIDENCE:
        fragment = rng.choice(_removable(scenario))
        return (tuple(f for f in evidence if f.id != fragment), _prune(gold, fragment), candidate,
                f"evidence:{fragment}")
    if defect is DefectClass.INCOMPLETE_COVERAGE:
        return evidence, gold, _without_target(candidate, scenario.target), f"target:{scenario.target}"
    if defect is DefectClass.EXTRACTION_ERROR:
        options = [("fact", f.id) for f in candidate.facts] + [
            ("rule", r.id) for r in candidate.rules if r.excepts is None]
        kind, ident = rng.choice(options)
        if kind == "fact":
            facts = tuple(f.model_copy(update={"literal": complement(f.literal)}) if f.id == ident else f
                          for f in candidate.facts)
            return evidence, gold, candidate.model_copy(update={"facts": facts}), f"fact:{ident}"
        rules = tuple(r.model_copy(update={"consequent": complement(r.consequent)}) if r.id == ident else r
                      for r in candidate.rules)
        return evidence, gold, candidate.model_copy(update={"rules": rules}), f"rule:{ident}"
    if defect is DefectClass.PRIORITY_INVERSION:
        chosen = rng.choice(_invertible(candidate))
        flipped = chosen.model_copy(update={"stronger": chosen.weaker, "weaker": chosen.stronger})
        priorities = tuple(flipped if p is chosen else p for p in candidate.priorities)
        return evidence, gold, candidate.model_copy(update={"priorities": priorities}), priority_location(chosen.stronger, chosen.weaker)
    if defect is DefectClass.ATTACK_DELETION:
        edge = rng.choice(candidate.attacks)
        attacks = tuple(a for a in candidate.attacks if a is not edge)
        return evidence, gold, candidate.model_copy(update={"attacks": attacks}), f"attack:{_edge_key(edge)}"
    if defect is DefectClass.INVALID_PROOF_NODE:
        literal = rng.choice([scenario.target, complement(scenario.target)])
        cite: tuple[str, ...] = ()
        if rng.random() < 0.5:
            node = Fact(id=_fresh_id(candidate, "f"), literal=literal, evidence=cite)
            changed = candidate.model_copy(update={"facts": candidate.facts + (node,)})
            return evidence, gold, changed, f"fact:{node.id}"
        premise = rng.choice(candidate.facts).literal
        node = Rule(id=_fresh_id(candidate, "r"), antecedents=(premise,), consequent=literal,
                    kind=RuleKind.DEFEASIBLE, evidence=cite)
        changed = candidate.model_copy(update={"rules": candidate.rules + (node,)})
        return evidence, gold, changed, f"rule:{node.id}"
    raise SuiteError(f"unknown defect class {defect!r}")


def controlled_case(base: Scenario, defect: DefectClass, *, seed: int = SEED) -> Scenario:
    """One controlled case: ``base`` with ``defect`` injected (``DefectClass.NONE``: clean).

    Examples
    --------
    >>> from symbolic.model import EvidenceFragment
    >>> e = ["E-01"]
    >>> base = Scenario(id="cont-900", query="Penalty?", target="Penalty(x)",
    ...     evidence=[EvidenceFragment(id="E-01", text="Delay; storm.", source="doc")],
    ...     gold=Gold(status="rejected",
    ...         facts=[Fact(id="f1", literal="Delay(x)", evidence=e), Fact(id="f2", literal="Storm(x)", evidence=e)],
    ...         rules=[Rule(id="r1", antecedents=["Delay(x)"], consequent="Penalty(x)", evidence=e),
    ...                Rule(id="r2", antecedents=["Storm(x)"], consequent="¬Penalty(x)", evidence=e)],
    ...         priorities=[Priority(stronger="r2", weaker="r1", basis="exception", evidence=e)]))
    >>> case = controlled_case(base, DefectClass.PRIORITY_INVERSION)
    >>> case.id, case.metadata.defect_location, case.candidate.priorities[0].id, case.gold.status.value
    ('ctl-cont-900-priority_inversion', 'priority:r2>r1', 'r1>r2', 'rejected')
    """
    candidate = candidate_analysis(base)
    if defect is DefectClass.NONE:
        evidence, gold, location = base.evidence, candidate.model_copy(update={"attacks": base.gold.attacks}), None
    else:
        rng = random.Random(f"{seed}/{base.id}/{defect.value}")
        evidence, gold, candidate, location = _inject(base, candidate, defect, rng)
    draft = Scenario(id=f"ctl-{base.id}-{'clean' if defect is DefectClass.NONE else defect.value}",
                     query=base.query, target=base.target, evidence=evidence,
                     gold=Gold(status=base.gold.status, facts=gold.facts, rules=gold.rules,
                               attacks=gold.attacks, priorities=gold.priorities),
                     candidate=candidate)
    ev = evaluate_gold(draft)
    meta = Metadata(domain=base.metadata.domain, contradiction=has_contradiction(ev),
                    priority=bool(gold.priorities), split="controlled-140", defect_class=defect,
                    defect_location=location, tags=("controlled", f"base:{base.id}"))
    final_gold = draft.gold.model_copy(update={"status": ev.status})
    final = draft.model_copy(update={"gold": final_gold, "metadata": meta})
    return final.model_copy(update={"gold": final_gold.model_copy(update={"trace": gold_trace(final)})})


def generate_controlled(corpus: Sequence[Scenario], *, seed: int = SEED, per_domain: int = 4) -> list[Scenario]:
    """The controlled suite: for each selected base, the clean case and one case per defect class.

    Parameters
    ----------
    corpus : sequence of Scenario
        The authored corpus (``normative-en``).
    seed : int, default 140
        Drives the base selection and every injection choice.
    per_domain : int, default 4
        Bases drawn per domain (five domains: 20 bases, 140 cases).

    Returns
    -------
    list of Scenario
        Sorted by base id, clean case first, then the classes in :data:`DEFECTS` order.

    Raises
    ------
    SuiteError
        If the corpus has too few eligible scenarios.
    """
    cases = []
    for base in select_bases(corpus, seed=seed, per_domain=per_domain):
        for defect in (DefectClass.NONE, *DEFECTS):
            cases.append(controlled_case(base, defect, seed=seed))
    return cases
