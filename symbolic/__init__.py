"""paratrace's symbolic core: the scenario schema, the parser-validator, the
argumentation engine, the four-valued status and the trace normal form.

Importing this package touches no network and no LLM library.
"""

from .arguments import ArgumentLimitError, build_arguments
from .attacks import derive_attacks
from .errors import GroundingError, ParatraceError, PriorityCycleWarning, ScenarioError, SymbolicError
from .grounding import Dropped, Theory, ground
from .io import (
    SuiteCheck,
    check_suite,
    dump_suite,
    iter_suite,
    load_scenario_text,
    load_suite,
    scenario_json_schema,
)
from .labels import (
    AttackKind,
    Basis,
    RuleKind,
    Status,
    normalize_basis,
    normalize_evidence_id,
    normalize_status,
)
from .labelling import grounded_labelling
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
from .peer import PEER_PROJECTION, PeerLabelMismatch, import_peer_file, import_peer_record, project_status
from .priorities import priority_order
from .results import Argument, Attack, Evaluation, Label, Labelling, PriorityOrder
from .status import evaluate, evaluate_analysis, four_valued, support_against

__all__ = sorted([
    "Analysis",
    "Argument",
    "ArgumentLimitError",
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
    "build_arguments",
    "complement",
    "derive_attacks",
    "evaluate",
    "evaluate_analysis",
    "four_valued",
    "ground",
    "grounded_labelling",
    "normalize_basis",
    "normalize_evidence_id",
    "normalize_literal",
    "normalize_status",
    "priority_order",
    "support_against",
    "SuiteCheck",
    "check_suite",
    "dump_suite",
    "iter_suite",
    "load_scenario_text",
    "load_suite",
    "scenario_json_schema",
    "PEER_PROJECTION",
    "PeerLabelMismatch",
    "import_peer_file",
    "import_peer_record",
    "project_status",
])
