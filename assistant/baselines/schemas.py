"""LM-facing output types of the reasoning-style baselines (paper Table 4).

Like :mod:`assistant.schemas`, every check lives in the output type and reads
the call's inputs from the pydantic validation context that
:class:`~assistant.adapter.InstructorAdapter` fills, so a failed check becomes
a re-ask.  Fragment ids are checked against ``context["evidence"]`` (for
``graphrag``'s answer step that is the neighbourhood's fragments only, for
``legalbench-rag`` the retrieved ones), ToT's number of paths against
``context["breadth"]`` and the ids a check names against
``context["extraction"]``.  Model docstrings are developer text; the prompt
carries field descriptions only.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field, ValidationInfo, model_validator

from ..evidence import EvidencePackage
from ..schemas import CitedAnswer, FragmentId, _LM, context_value

__all__ = [
    "ConflictNote",
    "Entity",
    "ExtractionCheck",
    "Feedback",
    "FragmentIndex",
    "KnowledgeGraph",
    "NormativePath",
    "PathProposals",
    "PathValue",
    "Relation",
]


class FragmentIndex(EvidencePackage):
    """The evidence package shown as its fragment ids only (the ``react`` agent reads texts with tools).

    Validators still see the whole package, so cited ids and quotes are checked.

    Examples
    --------
    >>> from symbolic.scenario.model import EvidenceFragment
    >>> FragmentIndex.of([EvidenceFragment(id="E1", text="x", source="s"),
    ...                   EvidenceFragment(id="E2", text="y", source="s")]).format()
    '2 fragments: E-01, E-02'
    """

    def format(self) -> str:
        """The number of fragments and their ids; never a text."""
        return f"{len(self.fragments)} fragments: " + ", ".join(f.id for f in self.fragments)


# --- graphrag -------------------------------------------------------------------------------------------------


class Entity(BaseModel):
    """A graph node: a party, act, event, condition, obligation, clause or document."""

    model_config = _LM
    id: str = Field(description="n1, n2, ...")
    name: str = Field(min_length=1, description="Short name, e.g. 'late delivery penalty'.")
    kind: str = Field(default="", description="party, event, condition, obligation, exception, clause, ...")
    evidence: list[FragmentId] = Field(min_length=1, description="Ids of the fragments mentioning it.")


class Relation(BaseModel):
    """A directed, labelled graph edge stated by the evidence."""

    model_config = _LM
    source: str = Field(description="Entity id.")
    target: str = Field(description="Entity id.")
    relation: str = Field(min_length=1, description="e.g. triggers, excuses, overrides, applies to, proves.")
    evidence: list[FragmentId] = Field(min_length=1, description="Ids of the fragments stating the relation.")


class KnowledgeGraph(BaseModel):
    """Entities and relations over the fragments (the GraphRAG indexing step).

    Examples
    --------
    >>> from pydantic import ValidationError
    >>> try:
    ...     KnowledgeGraph(entities=[{"id": "n1", "name": "penalty", "evidence": ["E1"]}],
    ...                    relations=[{"source": "n1", "target": "n2", "relation": "x", "evidence": ["E1"]}])
    ... except ValidationError as exc:
    ...     print(exc.errors()[0]["msg"])
    Value error, relations[0].target 'n2' is not an entity id; entity ids: n1
    """

    model_config = _LM
    entities: list[Entity] = Field(default_factory=list)
    relations: list[Relation] = Field(default_factory=list)

    @model_validator(mode="after")
    def _references(self):
        ids: set[str] = set()
        for entity in self.entities:
            if entity.id in ids:
                raise ValueError(f"entity id {entity.id!r} is used twice; give every entity its own id")
            ids.add(entity.id)
        listed = ", ".join(sorted(ids)) or "none"
        for i, rel in enumerate(self.relations):
            for side in ("source", "target"):
                if getattr(rel, side) not in ids:
                    raise ValueError(f"relations[{i}].{side} {getattr(rel, side)!r} is not an entity id; "
                                     f"entity ids: {listed}")
        return self


# --- self-refine ----------------------------------------------------------------------------------------------


class Feedback(BaseModel):
    """Self-Refine's feedback on an answer, with its stop indicator."""

    model_config = _LM
    issues: list[str] = Field(default_factory=list, description="Concrete problems: overlooked exceptions, "
                              "unaddressed conflicts, wrong status, unsupported claims.")
    missing: list[FragmentId] = Field(default_factory=list, description="Relevant fragments the answer ignored.")
    done: bool = Field(description="true when the answer needs no revision.")


# --- tree of thought ------------------------------------------------------------------------------------------


class NormativePath(BaseModel):
    """One reading of which norm governs, and the answer it leads to."""

    model_config = _LM
    reading: str = Field(min_length=1, description="Which rule, exception or priority governs, in one sentence.")
    governing: list[FragmentId] = Field(default_factory=list, description="Fragments of the governing norm.")
    set_aside: list[FragmentId] = Field(default_factory=list, description="Fragments this reading overrides.")
    answer: CitedAnswer


class PathProposals(BaseModel):
    """Several distinct candidate paths (ToT's proposal step)."""

    model_config = _LM
    paths: list[NormativePath] = Field(min_length=2, description="Distinct readings, most plausible first.")

    @model_validator(mode="after")
    def _distinct(self, info: ValidationInfo):
        breadth = context_value(info, "breadth")
        if isinstance(breadth, int) and len(self.paths) > breadth:
            raise ValueError(f"give at most {breadth} paths, got {len(self.paths)}")
        seen: set[str] = set()
        for i, path in enumerate(self.paths):
            key = " ".join(path.reading.casefold().split())
            if key in seen:
                raise ValueError(f"paths[{i}] repeats an earlier reading; every path must read the norms differently")
            seen.add(key)
        return self


class PathValue(BaseModel):
    """ToT's value of one path: sure, likely or impossible."""

    model_config = _LM
    verdict: Literal["sure", "likely", "impossible"] = Field(
        description="sure: the evidence settles this reading; likely: plausible but not settled; "
                    "impossible: the evidence contradicts it.")
    reason: str = Field(default="", description="One sentence.")


# --- dspy-modular ---------------------------------------------------------------------------------------------


def _extraction_ids(extraction) -> set[str]:
    return {f.id for f in getattr(extraction, "facts", ())} | {r.id for r in getattr(extraction, "rules", ())}


class ConflictNote(BaseModel):
    """A conflict between extracted objects and how (whether) it is resolved."""

    model_config = _LM
    between: list[str] = Field(min_length=2, description="Ids of the conflicting rules or facts.")
    resolved_by: str | None = Field(default=None, description="The priority or exception that settles it "
                                    "(e.g. r3>r2), or null when unresolved.")
    note: str = Field(default="", description="One sentence.")


class ExtractionCheck(BaseModel):
    """The check step of the modular pipeline: conflicts, unsupported objects, gaps.

    Examples
    --------
    >>> ExtractionCheck.model_validate({"unsupported": ["r9"]}, context={"extraction": {}}).unsupported
    ['r9']
    """

    model_config = _LM
    conflicts: list[ConflictNote] = Field(default_factory=list)
    unsupported: list[str] = Field(default_factory=list, description="Ids of objects the cited fragments do not "
                                   "state.")
    missing: list[str] = Field(default_factory=list, description="Norms or facts the evidence states but the "
                               "extraction lacks.")

    @model_validator(mode="after")
    def _known_ids(self, info: ValidationInfo):
        extraction = context_value(info, "extraction")
        if extraction is None or isinstance(extraction, dict):
            return self
        known = _extraction_ids(extraction)
        listed = ", ".join(sorted(known)) or "none"
        named = [(f"conflicts[{i}].between", x) for i, c in enumerate(self.conflicts) for x in c.between]
        named += [("unsupported", x) for x in self.unsupported]
        for where, ident in named:
            if ident not in known:
                raise ValueError(f"{where} names {ident!r}, which is not an extracted fact or rule; ids: {listed}")
        return self
