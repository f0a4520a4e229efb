"""The by-fragment form of an extraction: one entry per evidence fragment, in the package's order.

Under constrained decoding, B4's extraction (:class:`~assistant.extraction.Extraction`)
is asked for fragment by fragment::

    {"E-01": {"facts": [], "rules": [{"if": ["LateDelivery(x)"], "then": "Penalty(x)", "over": [],
                                      "basis": "hierarchy"}]},
     "E-02": {"facts": ["LateDelivery(x)"], "rules": []}, ...}

The grammar makes the model visit every fragment (it cannot skip one, copy an
example or cite a fragment that does not exist), and every reference is a
fragment id of the package: ``over`` lists the fragments whose rules this rule
prevails over, and a ``then`` of ``¬applicable(E-03)`` is an exception to the
rules of fragment E-03.  :func:`from_fragments` turns the reply into the
extraction's usual form (facts ``f1..``, rules ``r1..`` in fragment order,
priorities and exceptions naming rule ids), which the extraction then validates
as any other reply.  A reference to a fragment that states no rule is dropped
and listed in ``dropped``.
"""

from __future__ import annotations

import re
from typing import Any, Mapping, Sequence

from symbolic.scenario.labels import Basis, normalize_evidence_id
from symbolic.scenario.literals import NEG

__all__ = ["fragment_entry_schema", "from_fragments", "is_by_fragment"]

_BASES = [b.value for b in Basis]
_EXCEPTION = re.compile(rf"^{NEG}applicable\(([^()]+)\)$")


def is_by_fragment(data: Any) -> bool:
    """Whether ``data`` is a reply in the by-fragment form (a dict of fragment entries).

    >>> is_by_fragment({"E-01": {"facts": [], "rules": []}}), is_by_fragment({"facts": [], "rules": []})
    (True, False)
    """
    if not isinstance(data, Mapping) or "facts" in data or "rules" in data:
        return False
    entries = [v for k, v in data.items() if k != "target"]
    return bool(entries) and all(isinstance(v, Mapping) and ("facts" in v or "rules" in v) for v in entries)


def fragment_entry_schema(fragment: str, ids: Sequence[str], limits: Mapping[str, int]) -> dict[str, Any]:
    """The JSON schema of one fragment's entry (literals by ``$ref``: ``#/$defs/literal``, ``fact_literal``).

    Parameters
    ----------
    fragment : str
        The entry's fragment id (a rule never prevails over, nor excepts, its own fragment).
    ids : sequence of str
        The package's fragment ids.
    limits : mapping
        ``fragment_facts``, ``fragment_rules``, ``antecedents`` and ``over`` bounds.
    """
    others = [i for i in ids if i != fragment]
    then: dict[str, Any] = {"$ref": "#/$defs/literal"}
    if others:
        then = {"anyOf": [then, {"enum": [f"{NEG}applicable({i})" for i in others]}]}
    over = {"type": "array", "items": {"enum": others}, "maxItems": limits["over"]} if others \
        else {"type": "array", "maxItems": 0, "items": {"type": "string"}}
    rule = {"type": "object", "properties": {
        "if": {"type": "array", "items": {"$ref": "#/$defs/literal"}, "maxItems": limits["antecedents"]},
        "then": then, "over": over, "basis": {"enum": _BASES}}, "required": ["if", "then", "over", "basis"]}
    return {"type": "object", "properties": {
        "facts": {"type": "array", "items": {"$ref": "#/$defs/fact_literal"}, "maxItems": limits["fragment_facts"]},
        "rules": {"type": "array", "items": rule, "maxItems": limits["fragment_rules"]}},
        "required": ["facts", "rules"]}


def from_fragments(data: Mapping[str, Any]) -> dict[str, Any]:
    """The usual extraction form of a by-fragment reply.

    Facts and rules are numbered in fragment order; ``over`` becomes one
    priority per pair of rules, and ``¬applicable(E-k)`` one exception per rule
    of fragment E-k.  References to fragments without rules are left out and
    named in ``dropped``.

    Examples
    --------
    >>> out = from_fragments({
    ...     "E-01": {"facts": [], "rules": [{"if": ["Late(x)"], "then": "Penalty(x)", "over": [],
    ...                                      "basis": "hierarchy"}]},
    ...     "E-02": {"facts": [], "rules": [{"if": ["Storm(x)"], "then": "¬Penalty(x)", "over": ["E-01"],
    ...                                      "basis": "exception"}]},
    ...     "E-03": {"facts": ["Late(x)", "Storm(x)"], "rules": []}})
    >>> [(f["id"], f["literal"]) for f in out["facts"]]
    [('f1', 'Late(x)'), ('f2', 'Storm(x)')]
    >>> [(p["stronger"], p["weaker"], p["basis"]) for p in out["priorities"]], out["dropped"]
    ([('r2', 'r1', 'exception')], [])
    """
    entries = [(k, v) for k, v in data.items() if k != "target" and isinstance(v, Mapping)]
    rules_of: dict[str, list[str]] = {}
    count = 0
    for fragment, entry in entries:
        for _ in entry.get("rules") or ():
            count += 1
            rules_of.setdefault(normalize_evidence_id(fragment), []).append(f"r{count}")
    facts, rules, priorities, dropped = [], [], [], []
    count = 0
    for fragment, entry in entries:
        for literal in entry.get("facts") or ():
            facts.append({"id": f"f{len(facts) + 1}", "literal": literal, "evidence": [fragment]})
        for rule in entry.get("rules") or ():
            count += 1
            ident = f"r{count}"
            then = str(rule.get("then", ""))
            excepted = _EXCEPTION.match(then)
            targets = [then]
            if excepted and excepted.group(1).strip() not in {f"r{i}" for i in range(1, 100)}:
                ref = normalize_evidence_id(excepted.group(1))
                targets = [f"{NEG}applicable({r})" for r in rules_of.get(ref, ())]
                if not targets:
                    dropped.append(f"{fragment}: an exception to {ref}, which states no rule")
                    continue
            for k, consequent in enumerate(targets):
                rid = ident if k == 0 else f"{ident}_{k + 1}"
                rules.append({"id": rid, "antecedents": list(rule.get("if") or ()), "consequent": consequent,
                              "kind": "defeasible", "evidence": [fragment]})
            for weaker_fragment in rule.get("over") or ():
                ref = normalize_evidence_id(weaker_fragment)
                weaker = [r for r in rules_of.get(ref, ()) if r != ident]
                if not weaker:
                    dropped.append(f"{fragment}: prevails over {ref}, which states no rule")
                for w in weaker:
                    priorities.append({"stronger": ident, "weaker": w, "basis": rule.get("basis") or "hierarchy",
                                       "evidence": [fragment]})
    out = {"facts": facts, "rules": rules, "attacks": [], "priorities": priorities, "dropped": dropped}
    if "target" in data:
        out["target"] = data["target"]
    return out
