"""The by-fragment form of an extraction: one entry per evidence fragment, saying what it does.

Under constrained decoding, B4's extraction (:class:`~assistant.extraction.Extraction`)
is asked for fragment by fragment, each fragment in one of three roles::

    {"E-01": {"role": "fact", "meets": ["E-04"]},
     "E-04": {"role": "rule", "condition": "LateDelivery", "concludes": "yes", "over": [],
              "basis": "hierarchy"},
     "E-05": {"role": "rule", "condition": "ForceMajeure", "concludes": "no", "over": ["E-04"],
              "basis": "exception"},
     "E-07": {"role": "none"}}

A *rule* fragment states one defeasible rule: its condition (a predicate name,
applied to the target's arguments) leads to the target literal (``yes``) or to
its complement (``no``), and ``over`` lists the earlier rule fragments it
prevails over.  An exception, an amendment or a later notice comes after the
rule it overrides in nearly every package (43 of the 55 gold priorities of
normative-en, 152 of 204 in controlled-140), so the grammar lets ``over`` name
only fragments before the entry's own: two rules can then never override each
other, which small models did often (a priority cycle reads as ``both``).
A *fact* fragment reports that the condition of each rule fragment it ``meets``
holds.  Every link is a fragment id of the package, so a fact always names a
condition some rule uses, and the grammar can rule out dangling references,
self-priorities and a fact that asserts the target (a condition name is never
the target's predicate).  This is the contract a small model can meet: it reads
each fragment once and says what the fragment does, while the theory's literals
are built here.  :func:`from_fragments` turns the reply into the extraction's
usual form (facts ``f1..``, rules ``r1..`` in fragment order, priorities
naming rule ids), which the extraction then validates as any other reply.  A
link to a fragment that states no rule is left out and listed in ``dropped``.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from symbolic.scenario.labels import Basis, normalize_evidence_id
from symbolic.scenario.literals import atom, complement, normalize_literal

__all__ = ["ROLES", "fragment_entry_schema", "from_fragments", "is_by_fragment", "to_fragments"]

#: The roles a fragment can play.
ROLES = ("rule", "fact", "none")
_BASES = [b.value for b in Basis]


def is_by_fragment(data: Any) -> bool:
    """Whether ``data`` is a reply in the by-fragment form (a dict of fragment entries with roles).

    >>> is_by_fragment({"E-01": {"role": "none"}}), is_by_fragment({"facts": [], "rules": []})
    (True, False)
    """
    if not isinstance(data, Mapping) or "facts" in data or "rules" in data:
        return False
    entries = [v for k, v in data.items() if k != "target"]
    return bool(entries) and all(isinstance(v, Mapping) and v.get("role") in ROLES for v in entries)


def fragment_entry_schema(fragment: str, ids: Sequence[str], condition: Mapping[str, Any],
                          limits: Mapping[str, int]) -> dict[str, Any]:
    """The JSON schema of one fragment's entry: a rule, a fact or nothing relevant.

    Parameters
    ----------
    fragment : str
        The entry's fragment id (a rule prevails only over fragments before it).
    ids : sequence of str
        The package's fragment ids, in the package's order.
    condition : mapping
        The schema of a condition name (a pattern that refuses the target's predicate).
    limits : mapping
        ``over`` and ``meets`` bounds.
    """
    earlier = list(ids[:list(ids).index(fragment)]) if fragment in ids else []
    over = {"type": "array", "items": {"enum": earlier}, "maxItems": limits["over"]} if earlier \
        else {"type": "array", "maxItems": 0, "items": {"type": "string"}}
    rule = {"type": "object", "properties": {
        "role": {"const": "rule"}, "condition": condition, "concludes": {"enum": ["yes", "no"]},
        "over": over, "basis": {"enum": _BASES}}, "required": ["role", "condition", "concludes", "over", "basis"]}
    fact = {"type": "object", "properties": {
        "role": {"const": "fact"},
        "meets": {"type": "array", "items": {"enum": list(ids)}, "minItems": 1, "maxItems": limits["meets"]}},
        "required": ["role", "meets"]}
    none = {"type": "object", "properties": {"role": {"const": "none"}}, "required": ["role"]}
    return {"anyOf": [rule, fact, none]}


def _arguments(target: str) -> str:
    literal = normalize_literal(target)
    return literal[literal.index("("):] if "(" in literal else "()"


def from_fragments(data: Mapping[str, Any], target: str | None = None) -> dict[str, Any]:
    """The usual extraction form of a by-fragment reply.

    Parameters
    ----------
    data : mapping
        Fragment id -> entry (:func:`fragment_entry_schema`); a ``target`` key, where
        present, names the target literal.
    target : str, optional
        The target literal, when ``data`` does not name it.

    Returns
    -------
    dict
        ``facts``, ``rules``, ``attacks`` (empty), ``priorities``, ``dropped`` (the
        links left out, as sentences) and ``target`` where ``data`` has one.

    Raises
    ------
    ValueError
        Without a target literal (the conditions take the target's arguments).

    Examples
    --------
    >>> out = from_fragments({
    ...     "E-01": {"role": "rule", "condition": "Late", "concludes": "yes", "over": [], "basis": "hierarchy"},
    ...     "E-02": {"role": "rule", "condition": "Storm", "concludes": "no", "over": ["E-01"],
    ...              "basis": "exception"},
    ...     "E-03": {"role": "fact", "meets": ["E-01", "E-02"]}}, target="Penalty(x)")
    >>> [(r["id"], r["antecedents"], r["consequent"]) for r in out["rules"]]
    [('r1', ['Late(x)'], 'Penalty(x)'), ('r2', ['Storm(x)'], '¬Penalty(x)')]
    >>> [(f["literal"], f["evidence"]) for f in out["facts"]]
    [('Late(x)', ['E-03']), ('Storm(x)', ['E-03'])]
    >>> [(p["stronger"], p["weaker"], p["basis"]) for p in out["priorities"]], out["dropped"]
    ([('r2', 'r1', 'exception')], [])
    """
    target = data.get("target") or target
    if not isinstance(target, str) or not target.strip():
        raise ValueError("a by-fragment reply needs the target literal: its conditions take the target's arguments")
    arguments = _arguments(target)
    yes = normalize_literal(target)
    entries = [(normalize_evidence_id(k), v) for k, v in data.items() if k != "target" and isinstance(v, Mapping)]
    condition_of: dict[str, str] = {}
    rule_of: dict[str, str] = {}
    rules: list[dict[str, Any]] = []
    for fragment, entry in entries:
        if entry.get("role") != "rule":
            continue
        name = str(entry.get("condition", "")).strip() or "Condition"
        if f"{name}{arguments}" in condition_of.values():  # each rule fragment has a condition of its own
            name += fragment.replace("-", "")
        condition_of[fragment] = f"{name}{arguments}"
        rule_of[fragment] = f"r{len(rules) + 1}"
        rules.append({"id": rule_of[fragment], "antecedents": [condition_of[fragment]],
                      "consequent": yes if entry.get("concludes") == "yes" else complement(yes),
                      "kind": "defeasible", "evidence": [fragment]})
    facts: list[dict[str, Any]] = []
    priorities: list[dict[str, Any]] = []
    dropped: list[str] = []
    for fragment, entry in entries:
        if entry.get("role") == "fact":
            for ref in dict.fromkeys(normalize_evidence_id(r) for r in entry.get("meets") or ()):
                if ref not in condition_of:
                    dropped.append(f"{fragment}: meets the condition of {ref}, which states no rule")
                    continue
                facts.append({"id": f"f{len(facts) + 1}", "literal": condition_of[ref], "evidence": [fragment]})
        elif entry.get("role") == "rule":
            for ref in dict.fromkeys(normalize_evidence_id(r) for r in entry.get("over") or ()):
                if ref not in rule_of or ref == fragment:
                    dropped.append(f"{fragment}: prevails over {ref}, which states no rule")
                    continue
                priorities.append({"stronger": rule_of[fragment], "weaker": rule_of[ref],
                                   "basis": entry.get("basis") or "hierarchy", "evidence": [fragment]})
    out = {"facts": facts, "rules": rules, "attacks": [], "priorities": priorities, "dropped": dropped}
    if "target" in data:
        out["target"] = data["target"]
    return out


def to_fragments(facts: Sequence[Any], rules: Sequence[Any], priorities: Sequence[Any], target: str,
                 ids: Sequence[str]) -> dict[str, Any]:
    """A theory in the by-fragment form, as far as the form can state it (demos from gold theories).

    A rule that concludes the target or its complement becomes its first fragment's
    rule entry (its condition: the predicate of its first antecedent); a fact whose
    literal is such a rule's antecedent makes its first fragment meet that rule's
    fragment when every antecedent of the rule is a fact; a priority between two such
    rules becomes ``over`` when the weaker rule's fragment comes first.  Chains through
    intermediate conclusions, rules without antecedents and explicit attacks have
    no by-fragment form and are left out.

    Parameters
    ----------
    facts, rules, priorities : sequence
        Objects with the fields of :class:`~symbolic.scenario.model.Fact`, ``Rule``
        and ``Priority`` (``literal``, ``antecedents``, ``consequent``, ``stronger``,
        ``weaker``, ``basis``, ``evidence``).
    target : str
        The target literal.
    ids : sequence of str
        The package's fragment ids (every one gets an entry).

    Examples
    --------
    >>> from types import SimpleNamespace as O
    >>> out = to_fragments([O(literal="Late(x)", evidence=["E-02"])],
    ...                    [O(id="r1", antecedents=["Late(x)"], consequent="Penalty(x)", evidence=["E-01"])],
    ...                    [], "Penalty(x)", ["E-01", "E-02", "E-03"])
    >>> out["E-01"]["condition"], out["E-02"], out["E-03"]
    ('Late', {'role': 'fact', 'meets': ['E-01']}, {'role': 'none'})
    """
    yes = normalize_literal(target)
    entries: dict[str, dict[str, Any]] = {normalize_evidence_id(i): {"role": "none"} for i in ids}
    fragment_of: dict[str, str] = {}
    for rule in rules:
        fragment = normalize_evidence_id(rule.evidence[0]) if rule.evidence else None
        if (fragment not in entries or entries[fragment]["role"] != "none" or not rule.antecedents
                or rule.consequent not in (yes, complement(yes))):
            continue
        name = atom(normalize_literal(rule.antecedents[0])).split("(", 1)[0]
        entries[fragment] = {"role": "rule", "condition": name, "concludes": "yes" if rule.consequent == yes else "no",
                             "over": [], "basis": "hierarchy"}
        fragment_of[rule.id] = fragment
    order = {fragment: k for k, fragment in enumerate(entries)}
    for priority in priorities:
        stronger, weaker = fragment_of.get(priority.stronger), fragment_of.get(priority.weaker)
        if stronger and weaker and order[weaker] < order[stronger] and weaker not in entries[stronger]["over"]:
            entries[stronger]["over"].append(weaker)
            basis = getattr(priority.basis, "value", priority.basis)
            entries[stronger]["basis"] = str(basis)
    stated = {normalize_literal(f.literal) for f in facts}
    complete = {r.id for r in rules if r.id in fragment_of  # a condition is met when all its antecedents are
                and {normalize_literal(a) for a in r.antecedents} <= stated}
    for fact in facts:
        fragment = normalize_evidence_id(fact.evidence[0]) if fact.evidence else None
        met = [fragment_of[r.id] for r in rules if r.id in complete
               and normalize_literal(fact.literal) in {normalize_literal(a) for a in r.antecedents}]
        if fragment not in entries or not met or entries[fragment]["role"] == "rule":
            continue
        entry = entries[fragment] if entries[fragment]["role"] == "fact" else {"role": "fact", "meets": []}
        entry["meets"] = list(dict.fromkeys([*entry["meets"], *met]))
        entries[fragment] = entry
    return entries
