"""Defect injection: the controlled suite's, into a candidate analysis, and the
scorer's self-validation, into a gold trace (paper Tables 6 and 10; docs/metrics.md B6).

Both apply the operations of :mod:`scorer.defects.mutate`; they differ in
what carries the defect and in how the place is chosen.

:func:`inject_candidate` (``paratrace suite build controlled-140``) changes the
candidate analysis an upstream extraction stage would hand over
(:func:`~scorer.defects.mutate.candidate_analysis`), choosing the place with
a seeded :class:`random.Random`; for ``missing_evidence`` the package loses
the fragment and the gold is pruned to what the delivered package supports.

:func:`inject` changes the scenario's gold trace used as a white-box output
(:func:`~scorer.defects.whitebox.gold_output`); "first" is canonical order
(the first admissible gold set, then the target's cone, then the rest;
facts, rules, exceptions, priorities, attacks; then id), and the claims
(status, nodes, edges) stay those of the clean output unless said otherwise:

=====================  ====================================================  ==========================
class                  what changes                                          location
=====================  ====================================================  ==========================
missing_evidence       the first fragment the first set's objects cite is    ``evidence:E-01``
                       removed from the delivered package
incomplete_coverage    :func:`~scorer.defects.mutate.without_target`; the    ``target:<literal>``
                       claimed trace is that of what is left
extraction_error       the first fact (else rule) negated whose negation     ``fact:f1`` / ``rule:r2``
                       restates no other object
priority_inversion     the first invertible priority inverted                ``priority:r3>r2``
attack_deletion        the first attack edge of the first set removed from   ``attack:r2-rebut->Penalty(x)``
                       the claimed edges (with its defeat edges)
invalid_proof_node     an uncited rule ``first fact => target`` (an uncited  ``rule:r4`` / ``fact:f1``
                       fact about the target when there is no fact)
=====================  ====================================================  ==========================

A class that cannot apply to a case (no priority to invert, no attack to
delete, nothing concluding the target of an undecidable case) gives
``None``: it is reported as skipped, never faked.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from symbolic.scenario.labels import Status
from symbolic.scenario.literals import complement
from scorer.locations import attack_location, priority_location
from symbolic.scenario.model import Analysis, DefectClass, EvidenceFragment, Scenario
from symbolic.traces.naming import edge_id

from ..align import gold_classes
from ..contract import OutputRecord
from ..handles import handle_of
from ..subtheory import Universe
from .classes import attack_labels, defect_class
from .mutate import (add_ungrounded, drop_attack, invert, invertible, negatable, negate, prune_fragment,
                     removable_fragments, without_target)
from .whitebox import output_from_analysis, quiet_normal_form

__all__ = ["CandidateInjection", "Injected", "inject", "inject_candidate"]


@dataclass(frozen=True, slots=True)
class CandidateInjection:
    """A defect injected into a controlled case's candidate.

    Attributes
    ----------
    evidence : tuple of EvidenceFragment
        The delivered package.
    gold : Analysis
        The correct analysis over that package.
    candidate : Analysis
        The defective candidate.
    location : str or None
        The defect's location (``None`` for the clean case).
    """

    evidence: tuple[EvidenceFragment, ...]
    gold: Analysis
    candidate: Analysis
    location: str | None


def inject_candidate(scenario: Scenario, candidate: Analysis, defect: DefectClass,
                     rng: random.Random) -> CandidateInjection:
    """Inject ``defect`` into ``candidate``, the place drawn with ``rng`` (the controlled suite).

    Parameters
    ----------
    scenario : Scenario
        The base scenario (package, target, gold).
    candidate : Analysis
        Its clean candidate (:func:`~scorer.defects.mutate.candidate_analysis`).
    defect : DefectClass
        One of the six classes, or ``none`` (nothing changes).
    rng : random.Random
        Draws the place; the same state gives the same case.

    Returns
    -------
    CandidateInjection
    """
    evidence, gold = tuple(scenario.evidence), Analysis(**{k: getattr(scenario.gold, k)
                                                           for k in ("facts", "rules", "attacks", "priorities")})
    if defect is DefectClass.NONE:
        return CandidateInjection(evidence, gold, candidate, None)
    if defect is DefectClass.MISSING_EVIDENCE:
        fragment = rng.choice(removable_fragments(scenario))
        return CandidateInjection(tuple(f for f in evidence if f.id != fragment), prune_fragment(gold, fragment),
                                  candidate, f"evidence:{fragment}")
    if defect is DefectClass.INCOMPLETE_COVERAGE:
        return CandidateInjection(evidence, gold, without_target(candidate, scenario.target),
                                  f"target:{scenario.target}")
    if defect is DefectClass.EXTRACTION_ERROR:
        location = rng.choice(negatable(candidate))
        return CandidateInjection(evidence, gold, negate(candidate, location), location)
    if defect is DefectClass.PRIORITY_INVERSION:
        chosen = rng.choice(invertible(candidate))
        return CandidateInjection(evidence, gold, invert(candidate, chosen),
                                  priority_location(chosen.stronger, chosen.weaker))
    if defect is DefectClass.ATTACK_DELETION:
        edge = rng.choice(candidate.attacks)
        return CandidateInjection(evidence, gold, drop_attack(candidate, edge),
                                  attack_location(edge.source, edge.kind.value, edge.target))
    literal = rng.choice([scenario.target, complement(scenario.target)])
    premise = None if rng.random() < 0.5 else rng.choice(candidate.facts).literal
    changed, location = add_ungrounded(candidate, literal, premise)
    return CandidateInjection(evidence, gold, changed, location)


@dataclass(frozen=True, slots=True, repr=False)
class Injected:
    """A defect injected into a gold trace: the defective output, its class and location.

    Attributes
    ----------
    output : OutputRecord
    defect_class : DefectClass
    location : str
        A typed location (:mod:`scorer.defects.classes`).
    evidence_ids : frozenset of str
        The evidence package delivered with the output (one fragment fewer for
        ``missing_evidence``).
    """

    output: OutputRecord
    defect_class: DefectClass
    location: str
    evidence_ids: frozenset[str]

    def __repr__(self) -> str:
        return f"Injected({self.defect_class.value}, {self.location!r})"


def _focus(u: Universe, scenario: Scenario) -> tuple[list[str], frozenset[str]]:
    """Handles in canonical order (the first admissible gold set, then the cone,
    then the rest) and the edge ids of that first set."""
    classes = gold_classes(scenario.evidence_ids(), scenario.gold, scenario.target, scenario.gold.status,
                           query=scenario.query, universe=u)
    first, first_edges = classes.classes[0]
    rest = [h for h in u.handles if h in u.relevant and h not in first]
    other = [h for h in u.handles if h not in first and h not in rest]
    return list(first) + rest + other, frozenset(first_edges)


def _clash(analysis: Analysis) -> bool:
    """A mutated object that restates another one would be merged into it (a TNF alias)."""
    literals = [f.literal for f in analysis.facts]
    rules = [(frozenset(r.antecedents), r.consequent, r.kind) for r in analysis.rules]
    return len(literals) != len(set(literals)) or len(rules) != len(set(rules))


def inject(scenario: Scenario, defect: DefectClass | str, *, configuration: str = "gold",
           model: str = "gold") -> Injected | None:
    """Apply one defect class to the scenario's gold trace (see the module table).

    Parameters
    ----------
    scenario : Scenario
    defect : DefectClass or str
        One of the six classes, or ``none`` for the clean gold output.
    configuration, model : str

    Returns
    -------
    Injected or None
        ``None`` when the class cannot apply to this case.

    Raises
    ------
    ScoringError
        If ``defect`` is not a defect class.

    Examples
    --------
    >>> from scorer.metrics._examples import penalty_scenario
    >>> inject(penalty_scenario(), "priority_inversion")
    Injected(priority_inversion, 'priority:r3>r2')
    >>> inject(penalty_scenario(), "missing_evidence").location
    'evidence:E-01'
    """
    cls = defect_class(defect)
    package = scenario.evidence_ids()
    u = Universe(package, scenario.gold, scenario.target)
    clean_objects = u.analysis_of(u.handles)
    clean = output_from_analysis(scenario, clean_objects, configuration=configuration, model=model)
    claimed = clean.status
    edges, nodes = clean.trace.edges, clean.trace.nodes

    def out(analysis: Analysis, **kw) -> OutputRecord:
        kw.setdefault("edges", edges)
        kw.setdefault("nodes", nodes)
        return output_from_analysis(scenario, analysis, status=claimed, configuration=configuration,
                                    model=model, **kw)

    if cls is DefectClass.NONE:
        return Injected(clean, cls, "", package)
    focus, first_edges = _focus(u, scenario)
    if cls is DefectClass.MISSING_EVIDENCE:
        cited = [e for h in focus if not h.startswith("attack:") for e in sorted(u.objects[h].evidence)]
        if not cited:
            return None
        return Injected(clean, cls, f"evidence:{cited[0]}", package - {cited[0]})
    if cls is DefectClass.INCOMPLETE_COVERAGE:
        partial = without_target(clean_objects, u.target)
        if partial == clean_objects or claimed is Status.UNDECIDABLE:
            return None
        nf = quiet_normal_form(package, partial, scenario.target, query=scenario.query)
        return Injected(out(partial, edges=nf.trace.edges, nodes=nf.trace.nodes), cls,
                        f"target:{u.target}", package)
    if cls is DefectClass.EXTRACTION_ERROR:
        for h in [h for h in focus if h.startswith("fact:")] + [h for h in focus if h.startswith("rule:")]:
            analysis = negate(clean_objects, h)
            if not _clash(analysis):
                return Injected(out(analysis), cls, h, package)
        return None
    if cls is DefectClass.PRIORITY_INVERSION:
        by_handle = {handle_of(p): p for p in invertible(clean_objects)}
        pick = [h for h in focus if h in by_handle]
        if not pick:
            return None
        return Injected(out(invert(clean_objects, by_handle[pick[0]])), cls, pick[0], package)
    if cls is DefectClass.ATTACK_DELETION:
        attacks = sorted(edge_id(e) for e in edges if e.type.value == "attack")
        chosen = [a for a in attacks if a in first_edges] or attacks
        if not chosen:
            return None
        victim = chosen[0]
        kept = tuple(e for e in edges if edge_id(e) != victim and e.attack != victim)
        nf = quiet_normal_form(package, clean_objects, scenario.target, query=scenario.query)
        return Injected(out(clean_objects, edges=kept), cls, attack_labels(nf.evaluation)[victim], package)
    premise = clean_objects.facts[0].literal if clean_objects.facts else None
    changed, location = add_ungrounded(clean_objects, u.target, premise)
    return Injected(out(changed), cls, location, package)
