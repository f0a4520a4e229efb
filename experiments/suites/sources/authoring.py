"""Small constructors for the hand-written scenario dicts of ``normative-en``
(:mod:`.normative_en_cbc` directly, :mod:`.normative_en_pr` through the
numbered shorthands of :mod:`._pr_authoring`).

They only assemble plain JSON-compatible dicts in the authoring format of
:mod:`experiments.suites.sources`; every judgement (facts, rules, priorities,
status) is written out by hand in the data modules.
"""

from __future__ import annotations

__all__ = ["case", "fact", "frag", "prio", "revise", "rule"]

_DOMAINS = {"cont": "contracts", "bank": "banking_guarantees", "comp": "compliance",
            "pol": "internal_policies", "reg": "regulatory"}


def frag(ident, source, clause, text, *, distractor=False):
    """An evidence fragment; ``text`` is re-flowed onto one line.

    >>> frag("E-01", "Memo", None, '''Two
    ...     lines.''')["text"]
    'Two lines.'
    """
    return {"id": ident, "text": " ".join(text.split()), "source": source, "clause": clause,
            "tags": ["distractor"] if distractor else []}


def fact(ident, literal, *evidence):
    """A gold fact grounded in ``evidence``."""
    return {"id": ident, "literal": literal, "evidence": list(evidence)}


def rule(ident, antecedents, consequent, *evidence, kind="defeasible"):
    """A gold rule ``antecedents => consequent``."""
    return {"id": ident, "antecedents": list(antecedents), "consequent": consequent,
            "kind": kind, "evidence": list(evidence)}


def prio(stronger, weaker, basis, *evidence, note=None):
    """A gold priority ``stronger > weaker``."""
    return {"stronger": stronger, "weaker": weaker, "basis": basis, "evidence": list(evidence),
            "note": note}


def case(ident, query, target, evidence, *, facts, rules, status, contradiction, tags,
         priorities=(), attacks=(), pair=None, role=None):
    """A scenario dict; the domain follows from the id prefix, the priority flag
    from the presence of gold priorities.

    >>> c = case("bank-001", "Q?", "P(x)", [frag("E-01", "Doc", None, "t")], facts=[],
    ...          rules=[], status="undecidable", contradiction=False, tags=["b", "a"])
    >>> c["metadata"]["domain"], c["metadata"]["priority"], c["metadata"]["tags"]
    ('banking_guarantees', False, ['a', 'b'])
    """
    return {
        "id": ident,
        "query": query,
        "target": target,
        "evidence": [dict(f) for f in evidence],
        "gold": {"facts": list(facts), "rules": list(rules), "attacks": list(attacks),
                 "priorities": list(priorities), "status": status},
        "metadata": {"domain": _DOMAINS[ident.split("-")[0]], "contradiction": contradiction,
                     "priority": bool(priorities), "pair": pair, "role": role,
                     "tags": sorted(set(tags))},
    }


def revise(evidence, *, add=(), drop=(), amend=()):
    """The evidence package of an update: ``evidence`` minus the ids in ``drop``,
    with fragments of ``amend`` replacing those of the same id, plus ``add``.

    >>> base = [frag("E-01", "A", None, "a"), frag("E-02", "B", None, "b")]
    >>> [f["id"] for f in revise(base, drop=["E-01"], add=[frag("E-03", "C", None, "c")])]
    ['E-02', 'E-03']
    """
    replaced = {f["id"]: f for f in amend}
    unknown = sorted((set(replaced) | set(drop)) - {f["id"] for f in evidence})
    if unknown:
        raise ValueError(f"revise: no fragment {', '.join(unknown)} in the base package")
    kept = [replaced.get(f["id"], f) for f in evidence if f["id"] not in set(drop)]
    return kept + list(add)
