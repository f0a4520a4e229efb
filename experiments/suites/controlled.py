"""The controlled suite ``controlled-140``: seeded defect injection (paper Table 6).

From 20 base scenarios of ``normative-en`` (four per domain, drawn with a seed
from the eligible ones, balancing their gold statuses) the generator makes one clean case and one case per
defect class (:class:`symbolic.scenario.model.DefectClass`), 7 x 20 = 140 cases.  Each
case ships the query, the evidence package and ``candidate``: the analysis an
upstream extraction stage would hand over (the gold facts, rules and
priorities, plus one explicit edge per attack the engine derives from them).
The defect is injected into that candidate by
:func:`scorer.defects.inject.inject_candidate` (the classes, their operations
and their locations: :mod:`scorer.defects`), the place drawn with a
:class:`random.Random` seeded by the suite seed, the base and the class.

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

from scorer.defects.inject import inject_candidate
from scorer.defects.mutate import candidate_analysis, invertible, removable_fragments, target_rules
from symbolic.scenario.labels import Status
from symbolic.scenario.model import DEFECT_CLASSES, Analysis, DefectClass, Gold, Metadata, Scenario

from ..errors import SuiteError
from .checks import evaluate_gold, gold_trace, has_contradiction

__all__ = [
    "SEED",
    "controlled_case",
    "eligible",
    "generate_controlled",
    "select_bases",
]

SEED = 140
_DOMAIN_ORDER = ("contracts", "banking_guarantees", "compliance", "internal_policies", "regulatory")


def _attack_signature(scenario: Scenario, analysis: Analysis) -> tuple:
    ev = evaluate_gold(scenario, analysis)
    return ev.status, sorted((a.attacker, a.target, a.kind.value, a.on, a.lic or "", a.defeated_by or ())
                             for a in ev.attacks)


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
    if not (candidate.attacks and invertible(candidate) and target_rules(candidate, scenario.target)
            and candidate.facts and removable_fragments(scenario)):
        return False
    return _attack_signature(scenario, candidate) == _attack_signature(scenario, scenario.gold)


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


def controlled_case(base: Scenario, defect: DefectClass, *, seed: int = SEED) -> Scenario:
    """One controlled case: ``base`` with ``defect`` injected (``DefectClass.NONE``: clean).

    Examples
    --------
    >>> from symbolic.scenario.model import EvidenceFragment, Fact, Priority, Rule
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
    injected = inject_candidate(base, candidate_analysis(base), defect,
                                random.Random(f"{seed}/{base.id}/{defect.value}"))
    evidence, gold, candidate, location = injected.evidence, injected.gold, injected.candidate, injected.location
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
        Sorted by base id, clean case first, then the classes in
        :data:`symbolic.scenario.model.DEFECT_CLASSES` order.

    Raises
    ------
    SuiteError
        If the corpus has too few eligible scenarios.
    """
    cases = []
    for base in select_bases(corpus, seed=seed, per_domain=per_domain):
        for defect in (DefectClass.NONE, *DEFECT_CLASSES):
            cases.append(controlled_case(base, defect, seed=seed))
    return cases
