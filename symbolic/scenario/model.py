"""The scenario schema ``S = (q, E, F, R, C, P, y, T_gold)`` (paper Section 4.2).

Frozen pydantic v2 models shared by the engine, the scorer, the assistant and
the suites.  Identifiers, literals, status labels and priority bases are
normalized on construction (:mod:`symbolic.scenario.literals`, :mod:`symbolic.scenario.labels`),
so two spellings of the same object compare equal.
"""

from __future__ import annotations

from enum import Enum
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_serializer, model_validator

from symbolic.scenario.case_metadata import DEFECT_CLASSES, DefectClass, Domain, Metadata
from symbolic.scenario.fields import BasisField, EvidenceId, LiteralStr, ObjectId, StatusField, object_id
from symbolic.scenario.labels import AttackKind, RuleKind
from symbolic.scenario.literals import excepted_rule

__all__ = [
    "Analysis",
    "AttackColumns",
    "AttackEdge",
    "AttackEdges",
    "DEFECT_CLASSES",
    "DefectClass",
    "Domain",
    "EvidenceFragment",
    "EvidenceId",
    "Fact",
    "Gold",
    "LiteralStr",
    "Metadata",
    "Priority",
    "Rule",
    "Scenario",
    "Span",
    "Trace",
    "TraceEdge",
    "TraceNode",
]


_FROZEN = ConfigDict(frozen=True, extra="forbid", str_strip_whitespace=False)


class Span(BaseModel):
    """Character offsets ``[start, end)`` into a fragment's text."""

    model_config = _FROZEN
    start: int = Field(ge=0)
    end: int = Field(ge=0)

    @model_validator(mode="after")
    def _ordered(self):
        if self.end < self.start:
            raise ValueError(f"span end {self.end} is before start {self.start}")
        return self


class EvidenceFragment(BaseModel):
    """One evidence fragment ``E-01``: a clause, notice, log entry or policy section."""

    model_config = _FROZEN
    id: EvidenceId
    text: str = Field(min_length=1)
    source: str = Field(min_length=1, description="Source document, e.g. 'Supply Agreement 2024'.")
    clause: str | None = Field(default=None, description="Clause or section reference.")
    span: Span | None = Field(default=None, description="Offsets in the source document.")
    tags: tuple[str, ...] = Field(default=(), description="Free tags; 'distractor' marks an unused fragment.")


class Fact(BaseModel):
    """A literal grounded in evidence fragments."""

    model_config = _FROZEN
    id: ObjectId
    literal: LiteralStr
    evidence: tuple[EvidenceId, ...] = ()
    span: Span | None = Field(default=None, description="Offsets of the supporting text in the first cited fragment.")


class Rule(BaseModel):
    """``antecedents => consequent`` of kind strict, defeasible or defeater.

    An exception (undercutter) to rule ``rK`` is a rule whose consequent is
    ``¬applicable(rK)``.
    """

    model_config = _FROZEN
    id: ObjectId
    antecedents: tuple[LiteralStr, ...] = ()
    consequent: LiteralStr
    kind: RuleKind = RuleKind.DEFEASIBLE
    evidence: tuple[EvidenceId, ...] = ()
    span: Span | None = None

    @property
    def excepts(self) -> str | None:
        """The rule this rule is an exception to, if any."""
        return excepted_rule(self.consequent)


class Priority(BaseModel):
    """``stronger > weaker`` between two rules, with its basis (Definition 3)."""

    model_config = _FROZEN
    stronger: ObjectId
    weaker: ObjectId
    basis: BasisField
    evidence: tuple[EvidenceId, ...] = ()
    note: str | None = Field(default=None, description="Free-text justification as written in the source.")

    @property
    def id(self) -> str:
        """The priority's id, ``stronger>weaker``."""
        return f"{self.stronger}>{self.weaker}"


class AttackEdge(BaseModel):
    """An explicit, typed attack (Definition 2), merged with the derived ones.

    ``source`` is a rule or fact id; ``target`` is a rule id, a fact id (a
    premise) or a literal (a conclusion).  ``lic`` defaults to ``source`` when
    the source is a rule.
    """

    model_config = _FROZEN
    source: ObjectId
    target: str = Field(min_length=1)
    kind: AttackKind
    lic: ObjectId | None = None
    evidence: tuple[EvidenceId, ...] = ()


#: ``attacks``: a tuple of :class:`AttackEdge`.
AttackEdges = tuple[AttackEdge, ...]


class AttackColumns(BaseModel):
    """Explicit attacks as columns: row ``i`` is the :class:`AttackEdge`
    ``(source[i], target[i], kind[i], lic[i])``, every row grounded in ``evidence``.

    The same content as a list of ``attacks``, for abstract frameworks with
    millions of edges: it is validated and stored without a Python object per
    edge.  ``kind`` is one kind for every row or one per row; ``lic`` is
    omitted (each row's licensing rule defaults to its source rule) or given
    per row (``null`` for the default).
    """

    model_config = _FROZEN
    source: tuple[str, ...]
    target: tuple[str, ...]
    kind: AttackKind | tuple[AttackKind, ...]
    lic: tuple[str | None, ...] | None = None
    evidence: tuple[EvidenceId, ...] = ()

    @model_validator(mode="after")
    def _columns(self):
        n = len(self.source)
        for name, column in (("target", self.target), ("kind", self.kind), ("lic", self.lic)):
            if isinstance(column, tuple) and len(column) != n:
                raise ValueError(f"attack_table.{name} has {len(column)} rows but source has {n}")
        for name, column in (("source", self.source), ("lic", self.lic or ())):
            for value in set(column) - {None}:
                try:
                    if object_id(value) != value:
                        raise ValueError(f"an id must not start or end with spaces, got {value!r}")
                except ValueError as exc:
                    raise ValueError(f"attack_table.{name}.{column.index(value)}: {exc}") from None
        if "" in self.target:
            raise ValueError(f"attack_table.target.{self.target.index('')}: a target must be a non-empty string")
        return self

    def __len__(self) -> int:
        return len(self.source)

    def kinds(self) -> tuple[AttackKind, ...]:
        """The kind of each row."""
        return self.kind if isinstance(self.kind, tuple) else (self.kind,) * len(self.source)

    def lics(self) -> tuple[str | None, ...]:
        """The licensing rule given for each row (``None``: the default)."""
        return self.lic if self.lic is not None else (None,) * len(self.source)

    def rows(self) -> tuple[AttackEdge, ...]:
        """The rows as :class:`AttackEdge` objects (one Python object per edge)."""
        return tuple(AttackEdge.model_construct(source=s, target=t, kind=k, lic=lic, evidence=self.evidence)
                     for s, t, k, lic in zip(self.source, self.target, self.kinds(), self.lics()))

    def select(self, keep) -> "AttackColumns":
        """The rows where ``keep`` (a sequence of bool) is true."""
        chosen = [i for i, flag in enumerate(keep) if flag]
        kind = tuple(self.kind[i] for i in chosen) if isinstance(self.kind, tuple) else self.kind
        lic = tuple(self.lic[i] for i in chosen) if self.lic is not None else None
        return self.model_copy(update={"source": tuple(self.source[i] for i in chosen),
                                       "target": tuple(self.target[i] for i in chosen), "kind": kind, "lic": lic})


class NodeType(str, Enum):
    """Node types of the trace graph (docs/semantics.md section 12)."""

    QUERY = "query"
    EVIDENCE = "evidence"
    FACT = "fact"
    RULE = "rule"
    PRIORITY = "priority"
    ARGUMENT = "argument"
    CONCLUSION = "conclusion"
    STATUS = "status"


class EdgeType(str, Enum):
    """Edge types of the trace graph (docs/semantics.md section 12)."""

    GROUNDING = "grounding"
    DERIVATION = "derivation"
    ATTACK = "attack"
    DEFEAT = "defeat"
    STATUS = "status"


class TraceNode(BaseModel):
    """A typed trace node; ``label`` is its human-readable content."""

    model_config = _FROZEN
    id: str = Field(min_length=1)
    type: NodeType
    label: str = ""


class TraceEdge(BaseModel):
    """A typed trace edge.  Attacks carry kind, licensing rule and state."""

    model_config = _FROZEN
    source: str = Field(min_length=1)
    target: str = Field(min_length=1)
    type: EdgeType
    kind: AttackKind | None = None
    lic: str | None = None
    state: Literal["active", "defeated"] | None = None
    attack: str | None = Field(
        default=None,
        description="On a defeat edge: the canonical id (symbolic.traces.tnf.edge_id) of the attack edge it neutralizes.",
    )


class Trace(BaseModel):
    """A trace: typed nodes and edges (in TNF when produced by :mod:`symbolic`)."""

    model_config = _FROZEN
    nodes: tuple[TraceNode, ...] = ()
    edges: tuple[TraceEdge, ...] = ()


class Analysis(BaseModel):
    """A set of normative objects over one evidence package: ``F, R, C, P``."""

    model_config = _FROZEN
    facts: tuple[Fact, ...] = ()
    rules: tuple[Rule, ...] = ()
    attacks: AttackEdges = ()
    priorities: tuple[Priority, ...] = ()
    attack_table: AttackColumns | None = Field(
        default=None, description="More explicit attacks, as columns (for large abstract frameworks).")

    @model_serializer(mode="wrap")
    def _without_empty_table(self, handler):
        """Leave ``attack_table`` out of dumps when there is none (dumps stay as before the field existed)."""
        data = handler(self)
        if self.attack_table is None and isinstance(data, dict):
            data.pop("attack_table", None)
        return data

    @model_validator(mode="after")
    def _unique_ids(self):
        seen: dict[str, str] = {}
        for kind, objs in (("fact", self.facts), ("rule", self.rules)):
            for i, obj in enumerate(objs):
                if obj.id in seen:
                    raise ValueError(
                        f"duplicate id {obj.id!r}: {kind}s.{i} reuses the id of a {seen[obj.id]}"
                    )
                seen[obj.id] = kind
        return self


class Gold(Analysis):
    """The annotated analysis with its expected status ``y`` and trace ``T_gold``."""

    status: StatusField
    trace: Trace | None = None


class Scenario(BaseModel):
    """One benchmark case.

    ``candidate`` is an upstream analysis to audit (controlled suite only).
    """

    model_config = _FROZEN
    schema_version: Literal["scenario-v1"] = "scenario-v1"
    id: ObjectId
    query: str = Field(min_length=1)
    target: LiteralStr
    evidence: tuple[EvidenceFragment, ...] = Field(min_length=1)
    gold: Gold
    candidate: Analysis | None = None
    metadata: Metadata = Metadata()

    @model_validator(mode="after")
    def _unique_fragments(self):
        seen = set()
        for i, frag in enumerate(self.evidence):
            if frag.id in seen:
                raise ValueError(f"duplicate evidence id {frag.id!r} at evidence.{i}")
            seen.add(frag.id)
        return self

    def evidence_ids(self) -> frozenset[str]:
        """The normalized ids of the evidence package."""
        return frozenset(f.id for f in self.evidence)
