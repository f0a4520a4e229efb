"""Detection of the defect class of a candidate analysis against a reference
extraction: B4's audit (controlled suite, paper Table 6; docs/metrics.md B4).

B4 compares the candidate with its own grounded extraction by *content*
(facts by literal, rules by antecedents and consequent, priorities by the rules
they order, with :class:`symbolic.traces.naming.Namer`'s content ids; attacks in the
explicit-edge form of :func:`symbolic.traces.trace_attacks.explicit_attack_edges`), and
recomputes the status on its own extraction with the engine.  The first defect
found, in the order below, is reported with a typed location
(:mod:`scorer.locations`) in the candidate's ids:

1. ``missing_evidence``: a candidate object cites a fragment not in the package
   (``evidence:E-03``);
2. ``invalid_proof_node``: a candidate fact or rule cites no fragment at all
   (``fact:f4`` / ``rule:r4``);
3. ``priority_inversion``: a candidate priority is the reverse of one of B4's
   (located as the evidence orders it, ``priority:r3>r2``);
4. ``extraction_error``: a candidate fact or rule states the complement of B4's;
5. ``incomplete_coverage``: a rule or fact of B4's on the target's atom is
   absent from the candidate (``target:Penalty(x)``);
6. ``attack_deletion``: an attack B4's objects give between objects the
   candidate has is missing from the candidate's attack edges (a candidate
   states its attacks as edges, as the controlled suite's candidates do)
   (``attack:r2-rebut->Penalty(x)``), or an exception of B4's is absent
   (``rule:r4``, B4's id);
7. ``incomplete_coverage``: another fact or rule of B4's is absent (B4's id);
8. ``invalid_proof_node``: a candidate fact or rule that no object of B4's matches;
9. ``none``.

The other detector, :func:`scorer.defects.detect.localize`, judges a white-box
output without any reference, by recomputing its claimed trace.
"""

from __future__ import annotations

from typing import Iterable

from symbolic.scenario.labels import AttackKind
from symbolic.scenario.literals import complement, excepted_rule
from scorer.locations import attack_location, priority_location
from symbolic.scenario.model import Analysis, AttackEdge, DefectClass
from symbolic.traces.naming import Namer

from ..contract import Diagnostics

__all__ = ["diff_candidate"]


def _rule_keys(analysis: Analysis) -> dict[str, str]:
    namer = Namer(analysis.rules)
    return {r.id: namer.rule_id(r.id) for r in analysis.rules}


def _negated_rule_key(analysis: Analysis, rule) -> str:
    flipped = rule.model_copy(update={"consequent": complement(rule.consequent)})
    others = [r for r in analysis.rules if r.id != rule.id] + [flipped]
    return Namer(others).rule_id(rule.id)


def _content_of(analysis: Analysis, rule_keys: dict[str, str]):
    """Object id -> its content id (a rule's Namer id, a fact's literal; else the id itself)."""
    facts = {f.id: f.literal for f in analysis.facts}

    def content(ident: str) -> str:
        return rule_keys.get(ident) or facts.get(ident) or ident

    return content


def _attack_key(attack, content) -> tuple[str, str, str]:
    return content(attack.source), attack.kind.value, content(attack.target)


def diff_candidate(candidate: Analysis, own: Analysis, evidence_ids, target: str | None = None,
                   own_edges: Iterable[AttackEdge] = ()) -> Diagnostics:
    """The first defect of ``candidate`` relative to B4's own extraction ``own``.

    Parameters
    ----------
    candidate : Analysis
        The analysis under audit.
    own : Analysis
        B4's grounded extraction from the same evidence.
    evidence_ids : iterable of str
        The package's fragment ids.
    target : str, optional
        The proposition asked about (locates incomplete coverage).
    own_edges : iterable of AttackEdge, optional
        The attacks the engine derives from ``own``, as explicit edges
        (:func:`symbolic.traces.trace_attacks.explicit_attack_edges`).

    Returns
    -------
    Diagnostics

    Examples
    --------
    >>> from symbolic.scenario.model import Fact, Priority, Rule
    >>> rules = [Rule(id="r1", antecedents=["a"], consequent="p", evidence=["E-01"]),
    ...          Rule(id="r2", antecedents=["b"], consequent="¬p", evidence=["E-02"])]
    >>> own = Analysis(rules=rules, priorities=[Priority(stronger="r2", weaker="r1", basis="specificity",
    ...                                                  evidence=["E-02"])])
    >>> cand = Analysis(rules=rules, priorities=[Priority(stronger="r1", weaker="r2", basis="specificity",
    ...                                                   evidence=["E-02"])])
    >>> diff_candidate(cand, own, ["E-01", "E-02"]).location
    'priority:r2>r1'
    >>> diff_candidate(own, own, ["E-01", "E-02"]).defect_class.value
    'none'
    """
    evidence = frozenset(evidence_ids)
    for obj in [*candidate.facts, *candidate.rules, *candidate.priorities, *candidate.attacks]:
        missing = sorted(set(obj.evidence) - evidence)
        if missing:
            return Diagnostics(defect_class=DefectClass.MISSING_EVIDENCE, location=f"evidence:{missing[0]}",
                               explanation=f"the candidate cites {missing[0]}, which is not in the package")
    for kind, objs in (("fact", candidate.facts), ("rule", candidate.rules)):
        for obj in objs:
            if not obj.evidence:
                return Diagnostics(defect_class=DefectClass.INVALID_PROOF_NODE, location=f"{kind}:{obj.id}",
                                   explanation="the object cites no fragment: nothing supports it")

    c_rules, o_rules = _rule_keys(candidate), _rule_keys(own)
    c_pairs = {(c_rules[p.stronger], c_rules[p.weaker]): p for p in candidate.priorities
               if p.stronger in c_rules and p.weaker in c_rules}
    o_pairs = {(o_rules[p.stronger], o_rules[p.weaker]) for p in own.priorities
               if p.stronger in o_rules and p.weaker in o_rules}
    for (s, w), p in sorted(c_pairs.items()):
        if (w, s) in o_pairs and (s, w) not in o_pairs:
            return Diagnostics(defect_class=DefectClass.PRIORITY_INVERSION,
                               location=priority_location(p.weaker, p.stronger),
                               explanation="the evidence orders these rules the other way")

    o_facts = {f.literal for f in own.facts}
    o_rule_keys = set(o_rules.values())
    for fact in candidate.facts:
        if fact.literal not in o_facts and complement(fact.literal) in o_facts:
            return Diagnostics(defect_class=DefectClass.EXTRACTION_ERROR, location=f"fact:{fact.id}",
                               explanation=f"the evidence states {complement(fact.literal)}")
    for rule in candidate.rules:
        if c_rules[rule.id] not in o_rule_keys and _negated_rule_key(candidate, rule) in o_rule_keys:
            return Diagnostics(defect_class=DefectClass.EXTRACTION_ERROR, location=f"rule:{rule.id}",
                               explanation="the rule's consequent is the complement of the stated one")

    c_rule_keys = set(c_rules.values())
    c_facts = {f.literal for f in candidate.facts}
    if target is not None:
        sides = {target, complement(target)}
        lost = [o_rules[r.id] for r in own.rules if r.consequent in sides and o_rules[r.id] not in c_rule_keys]
        lost += [f.literal for f in own.facts if f.literal in sides and f.literal not in c_facts]
        if lost:
            return Diagnostics(defect_class=DefectClass.INCOMPLETE_COVERAGE, location=f"target:{target}",
                               explanation=f"the derivation of {target} is missing ({lost[0]})")

    c_content, o_content = _content_of(candidate, c_rules), _content_of(own, o_rules)
    c_ids = {c_content(o.id): o.id for o in (*candidate.facts, *candidate.rules)}
    c_attacks = {_attack_key(a, c_content) for a in candidate.attacks}
    for edge in own_edges:
        key = _attack_key(edge, o_content)
        source = c_ids.get(key[0])
        target_id = edge.target if edge.kind is AttackKind.REBUT else c_ids.get(key[2])
        if source is None or target_id is None or key in c_attacks:
            continue
        return Diagnostics(defect_class=DefectClass.ATTACK_DELETION,
                           location=attack_location(source, edge.kind.value, target_id),
                           explanation="an attack the evidence gives is missing from the candidate")
    for rule in own.rules:
        if excepted_rule(rule.consequent) is not None and o_rules[rule.id] not in c_rule_keys:
            return Diagnostics(defect_class=DefectClass.ATTACK_DELETION, location=f"rule:{rule.id}",
                               explanation=f"the exception {o_rules[rule.id]} is missing")
    for attack in own.attacks:
        if _attack_key(attack, o_content) not in c_attacks:
            return Diagnostics(defect_class=DefectClass.ATTACK_DELETION,
                               location=attack_location(attack.source, attack.kind.value, attack.target),
                               explanation="an attack the evidence states is missing")
    for fact in own.facts:
        if fact.literal not in c_facts:
            return Diagnostics(defect_class=DefectClass.INCOMPLETE_COVERAGE, location=f"fact:{fact.id}",
                               explanation=f"the fact {fact.literal} is missing")
    for rule in own.rules:
        if o_rules[rule.id] not in c_rule_keys:
            return Diagnostics(defect_class=DefectClass.INCOMPLETE_COVERAGE, location=f"rule:{rule.id}",
                               explanation=f"the rule {o_rules[rule.id]} is missing")
    for fact in candidate.facts:
        if fact.literal not in o_facts:
            return Diagnostics(defect_class=DefectClass.INVALID_PROOF_NODE, location=f"fact:{fact.id}",
                               explanation="no fragment supports this fact")
    for rule in candidate.rules:
        if c_rules[rule.id] not in o_rule_keys:
            return Diagnostics(defect_class=DefectClass.INVALID_PROOF_NODE, location=f"rule:{rule.id}",
                               explanation="no fragment supports this rule")
    return Diagnostics(defect_class=DefectClass.NONE)
