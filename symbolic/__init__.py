"""paratrace's symbolic core: the scenario schema, the parser-validator, the
argumentation engine, the four-valued status and the trace normal form.

Importing this package touches no network and no LLM library.
"""

from symbolic.engine.arguments import ArgumentLimitError, build_arguments
from symbolic.engine.attacks import derive_attacks
from symbolic.traces.dot import to_dot
from symbolic.errors import GroundingError, ParatraceError, PriorityCycleWarning, ScenarioError, SymbolicError
from symbolic.engine.grounding import Dropped, Theory, ground
from symbolic.suites.io import (
    SuiteCheck,
    check_suite,
    dump_suite,
    iter_suite,
    load_scenario_text,
    load_suite,
    scenario_json_schema,
)
from symbolic.scenario.labels import (
    AttackKind,
    Basis,
    RuleKind,
    Status,
    normalize_basis,
    normalize_evidence_id,
    normalize_status,
)
from symbolic.engine.labelling import grounded_labelling
from symbolic.scenario.literals import complement, normalize_literal
from symbolic.scenario.model import (
    Analysis,
    AttackColumns,
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
from symbolic.suites.peer import PEER_PROJECTION, PeerLabelMismatch, import_peer_file, import_peer_record, project_status
from symbolic.engine.priorities import priority_order
from symbolic.traces.records import RecordError, Records, parse_records
from symbolic.engine.results import Argument, Attack, Evaluation, Label, Labelling, PriorityOrder
from symbolic.engine.status import evaluate, evaluate_analysis, four_valued, support_against
from symbolic.traces.tnf import NormalForm, TraceFormatError, edge_id, normal_form, tnf, tnf_equivalent, tnf_json, trace_from_json
from symbolic.traces.trace import build_trace
from symbolic.traces.trace_graph import graph_to_trace, trace_to_graph

__all__ = [
    "Analysis",
    "Argument",
    "ArgumentLimitError",
    "Attack",
    "AttackColumns",
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
    "NormalForm",
    "PEER_PROJECTION",
    "ParatraceError",
    "PeerLabelMismatch",
    "Priority",
    "PriorityCycleWarning",
    "PriorityOrder",
    "RecordError",
    "Records",
    "Rule",
    "RuleKind",
    "Scenario",
    "ScenarioError",
    "Span",
    "Status",
    "SuiteCheck",
    "SymbolicError",
    "Theory",
    "Trace",
    "TraceEdge",
    "TraceFormatError",
    "TraceNode",
    "build_arguments",
    "build_trace",
    "check_suite",
    "complement",
    "derive_attacks",
    "dump_suite",
    "edge_id",
    "evaluate",
    "evaluate_analysis",
    "four_valued",
    "graph_to_trace",
    "ground",
    "grounded_labelling",
    "import_peer_file",
    "import_peer_record",
    "iter_suite",
    "load_scenario_text",
    "load_suite",
    "normal_form",
    "normalize_basis",
    "normalize_evidence_id",
    "normalize_literal",
    "normalize_status",
    "parse_records",
    "priority_order",
    "project_status",
    "scenario_json_schema",
    "support_against",
    "tnf",
    "tnf_equivalent",
    "tnf_json",
    "to_dot",
    "trace_from_json",
    "trace_to_graph",
]
