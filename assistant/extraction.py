"""The fixed extraction schema of B3 and B4 and its conversion to the
scenario schema's :class:`~symbolic.scenario.model.Analysis`.

The LM states facts, rules (an exception to ``rK`` is a rule concluding
``¬applicable(rK)``), explicit attacks and priorities with their basis, each
with the fragment ids it rests on and an optional verbatim quote.  Validators
check that every fragment id exists, every quote lies inside its fragment, ids
are unique and every rule reference (priorities, attacks, exceptions)
resolves.  An object that cites no fragment (``"evidence": []``) passes: the parser-validator drops
it as ungrounded and the output keeps it among the rejected objects.
"""

from __future__ import annotations



from pydantic import BaseModel, BeforeValidator, Field, PrivateAttr, ValidationInfo, model_validator
from typing import Annotated

from symbolic.scenario.labels import AttackKind, Basis, RuleKind, normalize_basis
from symbolic.scenario.literals import excepted_rule
from symbolic.scenario.model import Analysis, AttackEdge, Fact, Priority, Rule
from scorer.shortcut import shortcut_facts, shortcut_reason

from .by_fragment import from_fragments, is_by_fragment
from .schemas import CitedAnswer, Grounded, LiteralText, _LM, context_value

__all__ = [
    "AttackOut",
    "Extraction",
    "FactOut",
    "PriorityOut",
    "RuleOut",
    "StructuredAnswer",
    "TargetedExtraction",
    "to_analysis",
]


class FactOut(Grounded):
    """A fact: a literal stated by the evidence."""

    id: str = Field(description="f1, f2, ...")
    literal: LiteralText = Field(description="Predicate(arg) or ¬Predicate(arg).")


class RuleOut(Grounded):
    """A rule ``antecedents => consequent``; an exception to rK concludes ¬applicable(rK)."""

    id: str = Field(description="r1, r2, ...")
    antecedents: list[LiteralText] = Field(description="Conditions; empty for an unconditional rule.")
    consequent: LiteralText
    kind: RuleKind = Field(default=RuleKind.DEFEASIBLE, description="strict, defeasible or defeater.")


class AttackOut(Grounded):
    """An explicit attack of a rule or fact on a rule, fact or literal."""

    source: str
    target: str
    kind: AttackKind


class PriorityOut(Grounded):
    """``stronger > weaker`` between two rules, with the basis the evidence gives."""

    stronger: str
    weaker: str
    basis: Annotated[Basis, BeforeValidator(normalize_basis)] = Field(
        description="exception, hierarchy, specificity, temporal or authority.")


def _check_references(facts, rules, attacks, priorities) -> None:
    seen: set[str] = set()
    for obj in [*facts, *rules]:
        if obj.id in seen:
            raise ValueError(f"id {obj.id!r} is used twice; give every fact and rule its own id")
        seen.add(obj.id)
    rule_ids = {r.id for r in rules}
    listed = ", ".join(sorted(rule_ids)) or "none"
    for i, rule in enumerate(rules):
        excepted = excepted_rule(rule.consequent)
        if excepted is not None and excepted not in rule_ids:
            raise ValueError(f"rules[{i}] ({rule.id}) is an exception to {excepted!r}, which is not a rule id; "
                             f"rule ids: {listed}")
    for i, p in enumerate(priorities):
        for side in ("stronger", "weaker"):
            if getattr(p, side) not in rule_ids:
                raise ValueError(f"priorities[{i}].{side} {getattr(p, side)!r} is not a rule id; rule ids: {listed}")
        if p.stronger == p.weaker:
            raise ValueError(f"priorities[{i}] compares {p.stronger} with itself")
    for i, a in enumerate(attacks):
        if a.source not in seen:
            raise ValueError(f"attacks[{i}].source {a.source!r} is not a fact or rule id")


class Extraction(BaseModel):
    """Facts, rules, attacks and priorities over the evidence (B4)."""

    model_config = _LM
    facts: list[FactOut]
    rules: list[RuleOut]
    attacks: list[AttackOut]
    priorities: list[PriorityOut]
    _dropped: list[str] = PrivateAttr(default_factory=list)

    @model_validator(mode="wrap")
    @classmethod
    def _by_fragment(cls, data, handler, info: ValidationInfo):
        """Read a reply in the by-fragment form (:mod:`assistant.by_fragment`) as well."""
        if not is_by_fragment(data):
            return handler(data)
        converted = from_fragments(data, context_value(info, "target"))
        dropped = converted.pop("dropped")
        model = handler(converted)
        model._dropped = list(dropped)
        return model

    @property
    def dropped(self) -> tuple[str, ...]:
        """References of a by-fragment reply to fragments that state no rule (left out)."""
        return tuple(self._dropped)

    @model_validator(mode="after")
    def _references(self, info: ValidationInfo):
        _check_references(self.facts, self.rules, self.attacks, self.priorities)
        target = getattr(self, "target", None) or context_value(info, "target")
        shortcut = shortcut_facts(self.facts, target) if isinstance(target, str) else ()
        if shortcut:
            raise ValueError(f"{shortcut_reason(shortcut, target)}; state as facts the circumstances the evidence "
                             "reports, and as rules the clauses that decide the question")
        return self


class TargetedExtraction(Extraction):
    """An extraction that also names the literal the question asks about."""

    target: LiteralText = Field(description="The proposition the question asks about, as a literal.")


class StructuredAnswer(BaseModel):
    """Facts and rules with fragment ids, then the answer (B3)."""

    model_config = _LM
    facts: list[FactOut]
    rules: list[RuleOut]
    result: CitedAnswer

    @model_validator(mode="after")
    def _references(self, info: ValidationInfo):
        _check_references(self.facts, self.rules, (), ())
        return self


def to_analysis(extraction: Extraction | StructuredAnswer) -> Analysis:
    """Convert an LM extraction into the scenario schema's :class:`Analysis`.

    Examples
    --------
    >>> e = Extraction(facts=[{"id": "f1", "literal": "Delay(x)", "evidence": ["E1"]}],
    ...                rules=[{"id": "r1", "antecedents": ["Delay(x)"], "consequent": "Penalty(x)",
    ...                        "evidence": ["E2"]}],
    ...                attacks=[], priorities=[])
    >>> a = to_analysis(e)
    >>> [f.literal for f in a.facts], a.rules[0].evidence
    (['Delay(x)'], ('E-02',))
    """
    facts = tuple(Fact(id=f.id, literal=f.literal, evidence=tuple(f.evidence), span=f.span)
                  for f in extraction.facts)
    rules = tuple(Rule(id=r.id, antecedents=tuple(r.antecedents), consequent=r.consequent, kind=r.kind,
                       evidence=tuple(r.evidence), span=r.span) for r in extraction.rules)
    attacks = tuple(AttackEdge(source=a.source, target=a.target, kind=a.kind, evidence=tuple(a.evidence))
                    for a in getattr(extraction, "attacks", ()))
    priorities = tuple(Priority(stronger=p.stronger, weaker=p.weaker, basis=p.basis, evidence=tuple(p.evidence),
                                note=p.quote) for p in getattr(extraction, "priorities", ()))
    return Analysis(facts=facts, rules=rules, attacks=attacks, priorities=priorities)



