"""Handles of normative objects, ``kind:id`` (``fact:f1``, ``rule:r3``,
``exception:r4``, ``priority:r3>r2``, ``attack:r4-undercut->r1``): the
vocabulary of edit sets (Algorithm 5) and of trace alignment (Algorithm 4),
their canonical order, and id-free content keys that match objects across two
analyses with their own id schemes.
"""

from __future__ import annotations

import re

from symbolic.scenario.model import Analysis, AttackEdge, Fact, Priority, Rule

__all__ = ["CATEGORIES", "canonical_key", "content_keys", "handle_of"]

#: Edit categories in canonical order (Algorithm 5's edit set).
CATEGORIES = ("fact", "rule", "exception", "priority", "attack")
_RANK = {c: i for i, c in enumerate(CATEGORIES)}
_APPLICABLE = re.compile(r"applicable\(([^()]+)\)")


def _attack_id(edge: AttackEdge) -> str:
    return f"{edge.source}-{edge.kind.value}->{edge.target}"


def handle_of(obj) -> str:
    """The handle ``kind:id`` of a normative object.

    Parameters
    ----------
    obj : Fact, Rule, Priority or AttackEdge

    Returns
    -------
    str

    Raises
    ------
    TypeError
        If ``obj`` is not one of the four object types.

    Examples
    --------
    >>> from symbolic.scenario.model import Priority, Rule
    >>> handle_of(Priority(stronger="r3", weaker="r2", basis="exception", evidence=["E-01"]))
    'priority:r3>r2'
    >>> handle_of(Rule(id="r4", consequent="¬applicable(r1)", evidence=["E-01"]))
    'exception:r4'
    """
    if isinstance(obj, Fact):
        return f"fact:{obj.id}"
    if isinstance(obj, Rule):
        return f"{'exception' if obj.excepts else 'rule'}:{obj.id}"
    if isinstance(obj, Priority):
        return f"priority:{obj.id}"
    if isinstance(obj, AttackEdge):
        return f"attack:{_attack_id(obj)}"
    raise TypeError(f"not a normative object: {type(obj).__name__} {obj!r}")


def canonical_key(handle: str) -> tuple[int, str]:
    """Sort key of a handle in canonical order (category, then id).

    >>> sorted(["priority:r3>r2", "fact:f2", "exception:r4", "rule:r1"], key=canonical_key)
    ['fact:f2', 'rule:r1', 'exception:r4', 'priority:r3>r2']
    """
    kind, _, ident = handle.partition(":")
    return (_RANK[kind], ident)


def content_keys(analysis: Analysis) -> dict[str, str]:
    """Id-free content keys of the objects of an analysis, by handle.

    Two objects from different analyses (gold and an assistant's output, with
    their own id schemes) denote the same norm iff their keys are equal:
    a fact is its literal, a rule its sorted antecedents and consequent (a
    rule id inside ``applicable(rK)`` is replaced by ``rK``'s own key), a
    priority the keys of its two rules, an attack its source, kind and target.
    Rule kinds and evidence ids are left out on purpose (they are scored
    elsewhere: kinds through the trace, evidence through grounding).

    Parameters
    ----------
    analysis : Analysis

    Returns
    -------
    dict of str to str

    Examples
    --------
    >>> from symbolic.scenario.model import Analysis, Rule
    >>> a = Analysis(rules=[Rule(id="r1", antecedents=["b", "a"], consequent="p"),
    ...                     Rule(id="x9", consequent="¬applicable(r1)")])
    >>> keys = content_keys(a)
    >>> keys["rule:r1"], keys["exception:x9"]
    ('rule:a,b=>p', 'rule:=>¬applicable(rule:a,b=>p)')
    """
    rules = {r.id: r for r in analysis.rules}
    facts = {f.id: f for f in analysis.facts}
    memo: dict[str, str] = {}

    def literal_key(lit: str, stack: frozenset[str]) -> str:
        def sub(match: re.Match) -> str:
            rid = match.group(1)
            if rid in rules and rid not in stack:
                return f"applicable({rule_key(rid, stack)})"
            return match.group(0)

        return _APPLICABLE.sub(sub, lit)

    def rule_key(rid: str, stack: frozenset[str] = frozenset()) -> str:
        if rid in memo:
            return memo[rid]
        rule = rules[rid]
        inner = stack | {rid}
        ants = ",".join(sorted(literal_key(x, inner) for x in rule.antecedents))
        key = f"rule:{ants}=>{literal_key(rule.consequent, inner)}"
        if not stack:
            memo[rid] = key
        return key

    def object_key(name: str) -> str:
        if name in rules:
            return rule_key(name)
        if name in facts:
            return f"fact:{facts[name].literal}"
        return name

    keys: dict[str, str] = {}
    for f in analysis.facts:
        keys[handle_of(f)] = f"fact:{f.literal}"
    for r in analysis.rules:
        keys[handle_of(r)] = rule_key(r.id)
    for p in analysis.priorities:
        keys[handle_of(p)] = f"priority:{object_key(p.stronger)}>{object_key(p.weaker)}"
    for e in analysis.attacks:
        target = object_key(e.target) if e.target in rules or e.target in facts else e.target
        keys[handle_of(e)] = f"attack:{object_key(e.source)}-{e.kind.value}->{target}"
    return keys
