"""B4's audit of a candidate analysis (controlled suite, paper Table 6).

B4 compares the candidate with its own grounded extraction by *content*
(facts by literal, rules by antecedents and consequent, priorities by the rules
they order, with :class:`symbolic.naming.Namer`'s content ids), and recomputes
the status on its own extraction with the engine.  The first defect found, in
the order below, is reported with the candidate object it sits on (or B4's
own object for a deletion):

1. ``missing_evidence``: a candidate object cites a fragment not in the package;
2. ``priority_inversion``: a candidate priority is the reverse of one of B4's;
3. ``extraction_error``: a candidate fact or rule states the complement of B4's;
4. ``attack_deletion``: an exception or attack of B4's is absent from the candidate;
5. ``incomplete_coverage``: another fact or rule of B4's is absent from the candidate;
6. ``invalid_proof_node``: a candidate fact or rule that no object of B4's matches;
7. ``none``.
"""

from __future__ import annotations

from symbolic.literals import complement, excepted_rule
from symbolic.model import Analysis, DefectClass
from symbolic.naming import Namer
from scorer.contract import Diagnostics

__all__ = ["diff_candidate"]


def _rule_keys(analysis: Analysis) -> dict[str, str]:
    namer = Namer(analysis.rules)
    return {r.id: namer.rule_id(r.id) for r in analysis.rules}


def _negated_rule_key(analysis: Analysis, rule) -> str:
    flipped = rule.model_copy(update={"consequent": complement(rule.consequent)})
    others = [r for r in analysis.rules if r.id != rule.id] + [flipped]
    return Namer(others).rule_id(rule.id)


def _attack_key(attack, analysis: Analysis, rule_keys: dict[str, str]) -> tuple[str, str, str]:
    facts = {f.id: f.literal for f in analysis.facts}

    def content(ident: str) -> str:
        return rule_keys.get(ident) or facts.get(ident) or ident

    return content(attack.source), attack.kind.value, content(attack.target)


def diff_candidate(candidate: Analysis, own: Analysis, evidence_ids) -> Diagnostics:
    """The first defect of ``candidate`` relative to B4's own extraction ``own``.

    Parameters
    ----------
    candidate : Analysis
        The analysis under audit.
    own : Analysis
        B4's extraction from the same evidence.
    evidence_ids : iterable of str
        The package's fragment ids.

    Returns
    -------
    Diagnostics

    Examples
    --------
    >>> from symbolic.model import Fact, Priority, Rule
    >>> rules = [Rule(id="r1", antecedents=["a"], consequent="p", evidence=["E-01"]),
    ...          Rule(id="r2", antecedents=["b"], consequent="¬p", evidence=["E-02"])]
    >>> own = Analysis(rules=rules, priorities=[Priority(stronger="r2", weaker="r1", basis="specificity",
    ...                                                  evidence=["E-02"])])
    >>> cand = Analysis(rules=rules, priorities=[Priority(stronger="r1", weaker="r2", basis="specificity",
    ...                                                   evidence=["E-02"])])
    >>> diff_candidate(cand, own, ["E-01", "E-02"]).location
    'r1>r2'
    >>> diff_candidate(own, own, ["E-01", "E-02"]).defect_class.value
    'none'
    """
    evidence = frozenset(evidence_ids)
    for obj in [*candidate.facts, *candidate.rules, *candidate.priorities]:
        missing = sorted(set(obj.evidence) - evidence)
        if missing or not obj.evidence:
            why = f"cites {', '.join(missing)}, not in the package" if missing else "cites no fragment"
            return Diagnostics(defect_class=DefectClass.MISSING_EVIDENCE, location=obj.id, explanation=why)

    c_rules, o_rules = _rule_keys(candidate), _rule_keys(own)
    c_pairs = {(c_rules[p.stronger], c_rules[p.weaker]): p.id for p in candidate.priorities
               if p.stronger in c_rules and p.weaker in c_rules}
    o_pairs = {(o_rules[p.stronger], o_rules[p.weaker]) for p in own.priorities
               if p.stronger in o_rules and p.weaker in o_rules}
    for (s, w), pid in sorted(c_pairs.items()):
        if (w, s) in o_pairs and (s, w) not in o_pairs:
            return Diagnostics(defect_class=DefectClass.PRIORITY_INVERSION, location=pid,
                               explanation="the evidence orders these rules the other way")

    o_facts = {f.literal for f in own.facts}
    o_rule_keys = set(o_rules.values())
    for fact in candidate.facts:
        if fact.literal not in o_facts and complement(fact.literal) in o_facts:
            return Diagnostics(defect_class=DefectClass.EXTRACTION_ERROR, location=fact.id,
                               explanation=f"the evidence states {complement(fact.literal)}")
    for rule in candidate.rules:
        if c_rules[rule.id] not in o_rule_keys and _negated_rule_key(candidate, rule) in o_rule_keys:
            return Diagnostics(defect_class=DefectClass.EXTRACTION_ERROR, location=rule.id,
                               explanation="the rule's consequent is the complement of the stated one")

    c_rule_keys = set(c_rules.values())
    c_facts = {f.literal for f in candidate.facts}
    for rule in own.rules:
        if excepted_rule(rule.consequent) is not None and o_rules[rule.id] not in c_rule_keys:
            return Diagnostics(defect_class=DefectClass.ATTACK_DELETION, location=rule.id,
                               explanation=f"the exception {o_rules[rule.id]} is missing")
    c_attacks = {_attack_key(a, candidate, c_rules) for a in candidate.attacks}
    for attack in own.attacks:
        if _attack_key(attack, own, o_rules) not in c_attacks:
            return Diagnostics(defect_class=DefectClass.ATTACK_DELETION,
                               location=f"{attack.source}-{attack.kind.value}->{attack.target}",
                               explanation="an attack the evidence states is missing")
    for fact in own.facts:
        if fact.literal not in c_facts:
            return Diagnostics(defect_class=DefectClass.INCOMPLETE_COVERAGE, location=fact.id,
                               explanation=f"the fact {fact.literal} is missing")
    for rule in own.rules:
        if o_rules[rule.id] not in c_rule_keys:
            return Diagnostics(defect_class=DefectClass.INCOMPLETE_COVERAGE, location=rule.id,
                               explanation=f"the rule {o_rules[rule.id]} is missing")
    for fact in candidate.facts:
        if fact.literal not in o_facts:
            return Diagnostics(defect_class=DefectClass.INVALID_PROOF_NODE, location=fact.id,
                               explanation="no fragment supports this fact")
    for rule in candidate.rules:
        if c_rules[rule.id] not in o_rule_keys:
            return Diagnostics(defect_class=DefectClass.INVALID_PROOF_NODE, location=rule.id,
                               explanation="no fragment supports this rule")
    return Diagnostics(defect_class=DefectClass.NONE)
