"""LM-facing output types, validated against the evidence package.

The validators live inside the output field types,
so they survive optimizers that replace the signature.  They read the call's
inputs from the pydantic *validation context*, which
:class:`~assistant.adapter.InstructorAdapter` fills with the signature inputs
(``context["evidence"]`` is the :class:`~assistant.evidence.EvidencePackage`,
``context["candidate"]`` the audited analysis).  A failed check raises a
``ValueError`` whose text Instructor sends back to the LM when it re-asks.
Without a context (building demos by hand) only the shape is checked.
"""

from __future__ import annotations

import re
from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, PrivateAttr, ValidationInfo
from pydantic import model_validator

from symbolic.scenario.labels import Status, normalize_evidence_id, normalize_status
from symbolic.scenario.literals import complement, normalize_literal
from scorer.locations import LocationError, parse_location
from symbolic.scenario.model import DefectClass, Span

__all__ = [
    "AuditVerdict",
    "CitedAnswer",
    "FragmentId",
    "Grounded",
    "LiteralText",
    "SelfCheck",
    "StatusLabel",
    "context_value",
    "locate_quote",
]

_LM = ConfigDict(extra="ignore", populate_by_name=True)


def context_value(info: ValidationInfo, name: str) -> Any:
    """The input ``name`` from the validation context, or ``None``."""
    context = info.context if info is not None else None
    return context.get(name) if isinstance(context, dict) else None


def _fragment(value: str, info: ValidationInfo) -> str:
    ident = normalize_evidence_id(value)
    package = context_value(info, "evidence")
    if package is not None and ident not in package.ids:
        known = ", ".join(sorted(package.ids))
        raise ValueError(f"fragment id {value!r} is not in the evidence package; use one of: {known}")
    return ident


def _literal(value: str) -> str:
    return normalize_literal(value)


FragmentId = Annotated[str, AfterValidator(_fragment)]
LiteralText = Annotated[str, AfterValidator(_literal)]
StatusLabel = Annotated[Status, BeforeValidator(normalize_status)]


def locate_quote(quote: str, text: str) -> Span | None:
    """Offsets of ``quote`` in ``text``, ignoring case, spacing and outer quote marks.

    Examples
    --------
    >>> locate_quote('"the  Supplier"', "If the supplier is late, a penalty applies.")
    Span(start=3, end=15)
    >>> locate_quote("no such words", "If the supplier is late.") is None
    True
    """
    words = quote.strip().strip("\"'\u201c\u201d\u2018\u2019").strip(" .,;:").split()
    if not words:
        return None
    pattern = r"\s+".join(re.escape(w) for w in words)
    match = re.search(pattern, text, flags=re.IGNORECASE)
    return Span(start=match.start(), end=match.end()) if match else None


class Grounded(BaseModel):
    """An object tied to evidence fragments and, optionally, a verbatim quote."""

    model_config = _LM
    evidence: list[FragmentId] = Field(description="Ids of the fragments that state it.")
    quote: str | None = Field(default=None, description="Verbatim words from a cited fragment.")
    _span: Span | None = PrivateAttr(default=None)

    @model_validator(mode="after")
    def _quote_inside(self, info: ValidationInfo):
        package = context_value(info, "evidence")
        if self.quote is None or not self.quote.strip():
            self.quote = None
            return self
        if package is None or not self.evidence:
            return self
        span = locate_quote(self.quote, package.text_of(self.evidence[0]) or "")
        if span is None:
            raise ValueError(f"quote {self.quote!r} does not occur in fragment {self.evidence[0]}; "
                             "copy the words exactly or leave quote empty")
        self._span = span
        return self

    @property
    def span(self) -> Span | None:
        """Offsets of the quote in the first cited fragment, once validated with a package."""
        return self._span


class CitedAnswer(BaseModel):
    """Answer, cited fragments and status (configurations B1-B3)."""

    model_config = _LM
    answer: str = Field(description="Short answer to the question, naming the decisive clauses.")
    cited: list[FragmentId] = Field(default_factory=list, description="Ids of the fragments the answer relies on.")
    conflict: bool = Field(default=False, description="Whether the evidence conflicts on the question.")
    priority_applied: bool = Field(default=False, description="Whether a priority between rules settled a conflict.")
    status: StatusLabel = Field(description="accepted, rejected, both or undecidable.")


class SelfCheck(BaseModel):
    """The self-check pass of B2, then the final answer."""

    model_config = _LM
    missing_exceptions: list[str] = Field(default_factory=list, description="Exceptions the draft overlooked.")
    contradictions: list[str] = Field(default_factory=list, description="Conflicts the draft left unaddressed.")
    unresolved: list[str] = Field(default_factory=list, description="Uncertainty the evidence does not settle.")
    uncovered: list[FragmentId] = Field(default_factory=list, description="Relevant fragments the draft ignored.")
    final: CitedAnswer


def _resolve_location(text: str, candidate, evidence, target) -> str:
    """The typed location (:mod:`scorer.locations`) of ``text``, checked against the audit's inputs."""
    analysis = getattr(candidate, "analysis", candidate)
    loc = parse_location(text, analysis)
    facts, rules = {f.id for f in analysis.facts}, {r.id for r in analysis.rules}
    if loc.kind == "fact" and loc.ident not in facts:
        raise LocationError(f"{loc} is not a fact of the candidate; its facts are: " + ", ".join(sorted(facts)))
    if loc.kind == "rule" and loc.ident not in rules:
        raise LocationError(f"{loc} is not a rule of the candidate; its rules are: " + ", ".join(sorted(rules)))
    if loc.kind == "priority":
        pairs = {frozenset((p.stronger, p.weaker)) for p in analysis.priorities}
        sides = frozenset(loc.ident.split(">", 1))
        if sides not in pairs and not sides <= rules:
            raise LocationError(f"{loc} orders no pair of candidate rules")
    if loc.kind == "evidence":
        cited = {e for obj in (*analysis.facts, *analysis.rules, *analysis.priorities, *analysis.attacks)
                 for e in obj.evidence}
        known = cited | (set(evidence.ids) if evidence is not None else set())
        if loc.ident not in known:
            raise LocationError(f"{loc} is neither cited by the candidate nor in the evidence package")
    if loc.kind == "target" and target and loc.ident not in (target, complement(target)):
        raise LocationError(f"{loc} is not the proposition asked about ({target})")
    return str(loc)


_LOCATION_HELP = ("Write the location as kind:id, kind one of evidence, fact, rule, priority, attack, target "
                  "(e.g. rule:r3, priority:r3>r2, evidence:E-03)")


class AuditVerdict(BaseModel):
    """An audit of a candidate analysis: the defect, where it is, and the corrected answer."""

    model_config = _LM
    defect_class: DefectClass = Field(description="The defect found in the candidate, or none.")
    location: str | None = Field(default=None, description=(
        "Where the defect is, as kind:id: evidence:E-03 (a cited fragment), fact:f2, rule:r3, "
        "priority:r3>r2, attack:r2-rebut->Penalty(x) (a missing attack), target:Penalty(x) (the query's "
        "derivation is missing)."))
    explanation: str = Field(default="", description="One sentence on the defect.")
    corrected: CitedAnswer

    @model_validator(mode="after")
    def _location_resolves(self, info: ValidationInfo):
        candidate = context_value(info, "candidate")
        if self.defect_class is DefectClass.NONE:
            self.location = None
            return self
        if self.location is not None and not self.location.strip():
            self.location = None
        if candidate is not None and self.location is not None:
            try:
                self.location = _resolve_location(self.location, candidate, context_value(info, "evidence"),
                                                  context_value(info, "target"))
            except LocationError as exc:
                raise ValueError(f"location {self.location!r}: {exc}. {_LOCATION_HELP}") from None
        return self
