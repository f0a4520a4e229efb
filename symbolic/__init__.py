"""paratrace's symbolic core: the scenario schema, the parser-validator, the
argumentation engine, the four-valued status and the trace normal form.

Importing this package touches no network and no LLM library.
"""

from .errors import GroundingError, ParatraceError, PriorityCycleWarning, ScenarioError, SymbolicError
from .grounding import Dropped, Theory, ground
from .labels import (
    AttackKind,
    Basis,
    RuleKind,
    Status,
    normalize_basis,
    normalize_evidence_id,
    normalize_status,
)
from .literals import complement, normalize_literal
from .model import (
    Analysis,
    AttackEdge,
    DefectClass,
    Domain,
    EvidenceFragment,
    Fact,
    Gold,
    Metadata,
    Priority,
    Rule,
    Scenario,
    Span,
    Trace,
    TraceEdge,
    TraceNode,
)
from .results import Argument, Attack, Evaluation, Label, Labelling, PriorityOrder

__all__ = sorted([
    "Analysis",
    "Argument",
    "Attack",
    "AttackEdge",
    "AttackKind",
    "Basis",
    "DefectClass",
    "Domain",
    "Dropped",
    "Evaluation",
    "EvidenceFragment",
    "Fact",
    "Gold",
    "GroundingError",
    "Label",
    "Labelling",
    "Metadata",
    "ParatraceError",
    "Priority",
    "PriorityCycleWarning",
    "PriorityOrder",
    "Rule",
    "RuleKind",
    "Scenario",
    "ScenarioError",
    "Span",
    "Status",
    "SymbolicError",
    "Theory",
    "Trace",
    "TraceEdge",
    "TraceNode",
    "complement",
    "ground",
    "normalize_basis",
    "normalize_evidence_id",
    "normalize_literal",
    "normalize_status",
])
