"""Deterministic defect injection into gold traces (scorer self-validation,
paper Table 6 / Table 10).

:func:`gold_output` turns a scenario's gold objects into the output a perfect
white-box assistant would return: the grounded gold objects (proof aliases
collapsed), their TNF nodes and edges as the *claimed* trace, the engine's
status as ``final_status``.  :func:`inject` then applies one defect class:

=====================  ====================================================  ==========================
class                  what changes                                          location
=====================  ====================================================  ==========================
missing_evidence       the first object of the first admissible gold set      that object's id
                       cites a fragment absent from the package
incomplete_coverage    every fact and rule on the target's atom is removed    the target literal
                       (and what refers to them); status and claims kept
extraction_error       the first fact (else rule) of that set has its         that object's id
                       literal (consequent) negated; claims kept
priority_inversion     the first priority of that set (else of the cone)      the inverted id
                       has stronger and weaker swapped; claims kept           (``r2>r3``)
attack_deletion        the first attack edge of that set is removed from      the attack's edge id
                       the claimed edges (with its defeat edges)
invalid_proof_node     a derivation to a fabricated argument for the          the fabricated node id
                       target is added to the claimed edges
=====================  ====================================================  ==========================

"First" is canonical order (facts, rules, exceptions, priorities, attacks;
then id; edge ids sorted).  A class that cannot apply to a case (no priority
to invert, no attack to delete, nothing concluding the target of an
undecidable case) returns ``None``: it is reported as skipped, never faked.
"""

from __future__ import annotations

import hashlib
import re
import warnings
from dataclasses import dataclass

from symbolic.labels import Status
from symbolic.literals import atom, complement
from symbolic.model import Analysis, DefectClass, Scenario, TraceEdge, TraceNode
from symbolic.naming import edge_id
from symbolic.errors import PriorityCycleWarning
from symbolic.tnf import normal_form as _symbolic_normal_form

from .align import gold_classes
from .contract import CommonV1, OutputRecord, RunMeta, TraceV2
from .errors import ScoringError
from .subtheory import Universe, handle_of

__all__ = ["INJECTABLE", "Injected", "gold_output", "inject", "output_from_analysis"]

#: The six injectable defect classes, in the paper's order.
INJECTABLE = (
    DefectClass.MISSING_EVIDENCE,
    DefectClass.INCOMPLETE_COVERAGE,
    DefectClass.EXTRACTION_ERROR,
    DefectClass.PRIORITY_INVERSION,
    DefectClass.ATTACK_DELETION,
    DefectClass.INVALID_PROOF_NODE,
)

_E_NUMBER = re.compile(r"^E-(\d+)$")


def _emitted(status: Status, target: str) -> tuple[str, ...]:
    if status is Status.ACCEPTED:
        return (target,)
    if status is Status.REJECTED:
        return (complement(target),)
    if status is Status.BOTH:
        return tuple(sorted((target, complement(target))))
    return ()


def output_from_analysis(scenario: Scenario, analysis: Analysis, *, status: Status | None = None,
                         edges: tuple[TraceEdge, ...] | None = None,
                         nodes: tuple[TraceNode, ...] | None = None,
                         configuration: str = "gold", model: str = "gold") -> OutputRecord:
    """A white-box output holding ``analysis``, with its TNF as the claimed trace.

    Parameters
    ----------
    scenario : Scenario
        Only the evidence package, target and query are read.
    analysis : Analysis
        The output's objects.
    status : Status, optional
        The claimed status (default: the TNF's).
    edges, nodes : tuple, optional
        The claimed trace (default: the TNF's).
    configuration, model : str
        The run cell names.

    Returns
    -------
    OutputRecord
    """
    nf = _quiet_normal_form(scenario.evidence_ids(), analysis, scenario.target, query=scenario.query)
    claimed = status if status is not None else nf.evaluation.status
    theory = nf.evaluation.theory
    cited = sorted({e for obj in (*theory.facts, *theory.rules, *theory.priorities, *theory.attacks)
                    for e in obj.evidence})
    conflict = bool(nf.evaluation.attacks) or any(
        a.conclusion == complement(b.conclusion) for a in nf.evaluation.arguments for b in nf.evaluation.arguments)
    common = CommonV1(final_status=claimed, evidence_ids=cited, conflict_detected=conflict,
                      priority_applied=any(not a.active for a in nf.evaluation.attacks),
                      emitted_conclusions=_emitted(claimed, nf.evaluation.target))
    trace = TraceV2(facts=analysis.facts, rules=analysis.rules, attacks=analysis.attacks,
                    priorities=analysis.priorities,
                    nodes=nf.trace.nodes if nodes is None else nodes,
                    edges=nf.trace.edges if edges is None else edges,
                    emitted_conclusions=_emitted(claimed, nf.evaluation.target))
    return OutputRecord(case_id=scenario.id, configuration=configuration, model=model, common=common,
                        trace=trace, meta=RunMeta())


def gold_output(scenario: Scenario, *, configuration: str = "gold", model: str = "gold") -> OutputRecord:
    """The scenario's gold objects as a clean white-box output.

    Parameters
    ----------
    scenario : Scenario
    configuration, model : str

    Returns
    -------
    OutputRecord

    Examples
    --------
    >>> from scorer.metrics._examples import penalty_scenario
    >>> out = gold_output(penalty_scenario())
    >>> out.status.value, len(out.trace.rules), out.common.emitted_conclusions
    ('accepted', 3, ('Penalty(x)',))
    """
    u = Universe(scenario.evidence_ids(), scenario.gold, scenario.target)
    return output_from_analysis(scenario, u.analysis_of(u.handles), configuration=configuration, model=model)


@dataclass(frozen=True, slots=True, repr=False)
class Injected:
    """An injected defect: the defective output, its class and location.

    Attributes
    ----------
    output : OutputRecord
    defect_class : DefectClass
    location : str
    """

    output: OutputRecord
    defect_class: DefectClass
    location: str

    def __repr__(self) -> str:
        return f"Injected({self.defect_class.value}, {self.location!r})"


def _free_fragment(scenario: Scenario) -> str:
    numbers = [int(m.group(1)) for e in scenario.evidence_ids() if (m := _E_NUMBER.match(e))]
    n = max(numbers, default=0) + 1
    return f"E-{n:02d}"


def _focus(u: Universe, scenario: Scenario) -> tuple[list[str], frozenset[str]]:
    """Handles in canonical order (the first admissible gold set, then the cone,
    then the rest) and the edge ids of that first set."""
    classes = gold_classes(scenario.evidence_ids(), scenario.gold, scenario.target, scenario.gold.status,
                           query=scenario.query, universe=u)
    first, first_edges = classes.classes[0]
    rest = [h for h in u.handles if h in u.relevant and h not in first]
    other = [h for h in u.handles if h not in first and h not in rest]
    return list(first) + rest + other, frozenset(first_edges)


def _replace(analysis: Analysis, handle: str, new) -> Analysis:
    def swap(items):
        return tuple(new if handle_of(x) == handle else x for x in items)

    return Analysis(facts=swap(analysis.facts), rules=swap(analysis.rules),
                    attacks=swap(analysis.attacks), priorities=swap(analysis.priorities))


def inject(scenario: Scenario, defect: DefectClass | str, *, configuration: str = "gold",
           model: str = "gold") -> Injected | None:
    """Apply one defect class to the scenario's gold trace (see the module table).

    Parameters
    ----------
    scenario : Scenario
    defect : DefectClass or str
        One of :data:`INJECTABLE`, or ``none`` for the clean gold output.
    configuration, model : str

    Returns
    -------
    Injected or None
        ``None`` when the class cannot apply to this case.

    Raises
    ------
    ScoringError
        If ``defect`` is not a defect class.

    Examples
    --------
    >>> from scorer.metrics._examples import penalty_scenario
    >>> inject(penalty_scenario(), "priority_inversion")
    Injected(priority_inversion, 'r2>r3')
    >>> inject(penalty_scenario(), "missing_evidence").location
    'f1'
    """
    try:
        cls = DefectClass(defect)
    except ValueError:
        raise ScoringError(f"unknown defect class {defect!r}; expected one of "
                           + ", ".join(c.value for c in DefectClass)) from None
    u = Universe(scenario.evidence_ids(), scenario.gold, scenario.target)
    clean_objects = u.analysis_of(u.handles)
    clean = output_from_analysis(scenario, clean_objects, configuration=configuration, model=model)
    claimed = clean.status
    edges, nodes = clean.trace.edges, clean.trace.nodes

    def out(analysis: Analysis, **kw) -> OutputRecord:
        kw.setdefault("edges", edges)
        kw.setdefault("nodes", nodes)
        return output_from_analysis(scenario, analysis, status=claimed, configuration=configuration,
                                    model=model, **kw)

    if cls is DefectClass.NONE:
        return Injected(clean, cls, "")
    focus, first_edges = _focus(u, scenario)
    if cls is DefectClass.MISSING_EVIDENCE:
        if not focus:
            return None
        h = focus[0]
        obj = u.objects[h]
        bad = obj.model_copy(update={"evidence": (_free_fragment(scenario),)})
        return Injected(out(_replace(clean_objects, h, bad)), cls, _ident(h))
    if cls is DefectClass.INCOMPLETE_COVERAGE:
        goal = atom(u.target)
        drop = {h for h in u.handles
                if (h.startswith("fact:") and atom(u.objects[h].literal) == goal)
                or (h.startswith(("rule:", "exception:")) and atom(u.objects[h].consequent) == goal)}
        if not drop or claimed is Status.UNDECIDABLE:
            return None
        keep = [h for h in u.handles if h not in drop]
        partial = u.analysis_of(keep)
        nf = _quiet_normal_form(scenario.evidence_ids(), partial, scenario.target, query=scenario.query)
        return Injected(out(partial, edges=nf.trace.edges, nodes=nf.trace.nodes), cls, u.target)
    if cls is DefectClass.EXTRACTION_ERROR:
        pick = [h for h in focus if h.startswith("fact:")] + [h for h in focus if h.startswith("rule:")]
        for h in pick:
            obj = u.objects[h]
            if h.startswith("fact:"):
                bad = obj.model_copy(update={"literal": complement(obj.literal)})
            else:
                bad = obj.model_copy(update={"consequent": complement(obj.consequent)})
            analysis = _replace(clean_objects, h, bad)
            if not _clash(analysis):
                return Injected(out(analysis), cls, _ident(h))
        return None
    if cls is DefectClass.PRIORITY_INVERSION:
        pick = [h for h in focus if h.startswith("priority:")]
        for h in pick:
            p = u.objects[h]
            flipped = p.model_copy(update={"stronger": p.weaker, "weaker": p.stronger})
            if any(q.stronger == p.weaker and q.weaker == p.stronger for q in clean_objects.priorities):
                continue
            return Injected(out(_replace(clean_objects, h, flipped)), cls, flipped.id)
        return None
    if cls is DefectClass.ATTACK_DELETION:
        attacks = sorted(edge_id(e) for e in edges if e.type.value == "attack")
        chosen = [a for a in attacks if a in first_edges] or attacks
        if not chosen:
            return None
        victim = chosen[0]
        kept = tuple(e for e in edges if edge_id(e) != victim and e.attack != victim)
        return Injected(out(clean_objects, edges=kept), cls, victim)
    # INVALID_PROOF_NODE
    facts = sorted(n.id for n in nodes if n.type.value == "fact")
    source = facts[0] if facts else f"query:{u.target}"
    digest = hashlib.sha256(f"invalid:{scenario.id}".encode()).hexdigest()[:12]
    fake = f"arg:{u.target}@{digest}"
    extra = (TraceEdge(source=source, target=fake, type="derivation"),
             TraceEdge(source=fake, target=f"conclusion:{u.target}", type="derivation"))
    fake_node = TraceNode(id=fake, type="argument", label=f"IN: {u.target} via fabricated step")
    return Injected(out(clean_objects, edges=tuple(edges) + extra, nodes=tuple(nodes) + (fake_node,)), cls, fake)


def _clash(analysis: Analysis) -> bool:
    """A mutated object that restates another one would be merged into it (a TNF alias)."""
    literals = [f.literal for f in analysis.facts]
    rules = [(frozenset(r.antecedents), r.consequent, r.kind) for r in analysis.rules]
    return len(literals) != len(set(literals)) or len(rules) != len(set(rules))


def _ident(handle: str) -> str:
    return handle.partition(":")[2]


def _quiet_normal_form(*args, **kwargs):
    """:func:`symbolic.tnf.normal_form` with the priority-cycle warning silenced
    (a cycle belongs to the case and shows in the trace)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PriorityCycleWarning)
        return _symbolic_normal_form(*args, **kwargs)
