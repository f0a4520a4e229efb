"""Deterministic defect injection into gold traces (scorer self-validation,
paper Table 6 / Table 10).

:func:`gold_output` turns a scenario's gold objects into the output a perfect
white-box assistant would return: the grounded gold objects (proof aliases
collapsed), their TNF nodes and edges as the *claimed* trace, the engine's
status as ``final_status``.  :func:`inject` then applies one defect class:

=====================  ====================================================  ==========================
class                  what changes                                          location
=====================  ====================================================  ==========================
missing_evidence       the first fragment cited by the first admissible      ``evidence:E-03``
                       gold set is removed from the delivered package
incomplete_coverage    every fact and rule on the target's atom is removed    ``target:<literal>``
                       (and what refers to them); claimed status kept
extraction_error       the first fact (else rule) of that set has its         ``fact:f1`` / ``rule:r2``
                       literal (consequent) negated; claims kept
priority_inversion     the first priority of that set (else of the cone)      ``priority:r3>r2``
                       has stronger and weaker swapped; claims kept           (as it was)
attack_deletion        the first attack edge of that set is removed from      ``attack:r2-rebut->Penalty(x)``
                       the claimed edges (with its defeat edges)
invalid_proof_node     a rule about the target that cites no fragment         ``rule:r4`` (``fact:f1``
                       (a fact if there is none to build on) is added         without facts)
=====================  ====================================================  ==========================

The definitions and the location spelling are those of the controlled suite
(:mod:`experiments.suites.controlled`), so the localizer's reports and the
suite's annotations compare directly (DLA).
"First" is canonical order (facts, rules, exceptions, priorities, attacks;
then id; edge ids sorted).  A class that cannot apply to a case (no priority
to invert, no attack to delete, nothing concluding the target of an
undecidable case) returns ``None``: it is reported as skipped, never faked.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

from symbolic.labels import Status
from symbolic.literals import atom, complement
from symbolic.model import DEFECT_CLASSES, Analysis, DefectClass, Fact, Rule, Scenario, TraceEdge, TraceNode
from symbolic.naming import EDGE_ARROW, Namer, edge_id
from symbolic.results import Attack, Evaluation
from symbolic.errors import PriorityCycleWarning
from symbolic.tnf import normal_form as _symbolic_normal_form

from .align import gold_classes
from .contract import CommonV1, OutputRecord, RunMeta, TraceV2
from .errors import ScoringError
from .handles import handle_of
from .subtheory import Universe

__all__ = [
    "INJECTABLE",
    "Injected",
    "attack_handle",
    "attack_labels",
    "gold_output",
    "inject",
    "output_from_analysis",
]

#: The six injectable defect classes, in the paper's order.
INJECTABLE = DEFECT_CLASSES


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
        In the controlled suite's spelling (``evidence:E-03``, ``target:Penalty(x)``,
        ``fact:f1``, ``rule:r2``, ``priority:r3>r2``, ``attack:r2-rebut->Penalty(x)``).
    evidence_ids : frozenset of str
        The evidence package delivered with the output (one fragment fewer for
        ``missing_evidence``).
    """

    output: OutputRecord
    defect_class: DefectClass
    location: str
    evidence_ids: frozenset[str]

    def __repr__(self) -> str:
        return f"Injected({self.defect_class.value}, {self.location!r})"


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
    Injected(priority_inversion, 'priority:r3>r2')
    >>> inject(penalty_scenario(), "missing_evidence").location
    'evidence:E-01'
    """
    try:
        cls = DefectClass(defect)
    except ValueError:
        raise ScoringError(f"unknown defect class {defect!r}; expected one of "
                           + ", ".join(c.value for c in DefectClass)) from None
    package = scenario.evidence_ids()
    u = Universe(package, scenario.gold, scenario.target)
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
        return Injected(clean, cls, "", package)
    focus, first_edges = _focus(u, scenario)
    if cls is DefectClass.MISSING_EVIDENCE:
        cited = [e for h in focus if not h.startswith("attack:") for e in sorted(u.objects[h].evidence)]
        if not cited:
            return None
        fragment = cited[0]
        return Injected(clean, cls, f"evidence:{fragment}", package - {fragment})
    if cls is DefectClass.INCOMPLETE_COVERAGE:
        goal = atom(u.target)
        drop = {h for h in u.handles
                if (h.startswith("fact:") and atom(u.objects[h].literal) == goal)
                or (h.startswith(("rule:", "exception:")) and atom(u.objects[h].consequent) == goal)}
        if not drop or claimed is Status.UNDECIDABLE:
            return None
        keep = [h for h in u.handles if h not in drop]
        partial = u.analysis_of(keep)
        nf = _quiet_normal_form(package, partial, scenario.target, query=scenario.query)
        return Injected(out(partial, edges=nf.trace.edges, nodes=nf.trace.nodes), cls,
                        f"target:{u.target}", package)
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
                return Injected(out(analysis), cls, h, package)
        return None
    if cls is DefectClass.PRIORITY_INVERSION:
        pick = [h for h in focus if h.startswith("priority:")]
        for h in pick:
            p = u.objects[h]
            flipped = p.model_copy(update={"stronger": p.weaker, "weaker": p.stronger})
            if any(q.stronger == p.weaker and q.weaker == p.stronger for q in clean_objects.priorities):
                continue
            return Injected(out(_replace(clean_objects, h, flipped)), cls, h, package)
        return None
    if cls is DefectClass.ATTACK_DELETION:
        attacks = sorted(edge_id(e) for e in edges if e.type.value == "attack")
        chosen = [a for a in attacks if a in first_edges] or attacks
        if not chosen:
            return None
        victim = chosen[0]
        kept = tuple(e for e in edges if edge_id(e) != victim and e.attack != victim)
        nf = _quiet_normal_form(package, clean_objects, scenario.target, query=scenario.query)
        label = attack_labels(nf.evaluation)[victim]
        return Injected(out(clean_objects, edges=kept), cls, label, package)
    # INVALID_PROOF_NODE: an object about the target that cites no fragment at all.
    taken = {f.id for f in clean_objects.facts} | {r.id for r in clean_objects.rules}
    if clean_objects.facts:
        rid = _fresh(taken, "r")
        node = Rule(id=rid, antecedents=(clean_objects.facts[0].literal,), consequent=u.target)
        changed = clean_objects.model_copy(update={"rules": clean_objects.rules + (node,)})
        return Injected(out(changed), cls, f"rule:{rid}", package)
    fid = _fresh(taken, "f")
    changed = clean_objects.model_copy(update={"facts": (Fact(id=fid, literal=u.target),)})
    return Injected(out(changed), cls, f"fact:{fid}", package)


def _fresh(taken: set[str], prefix: str) -> str:
    n = 1
    while f"{prefix}{n}" in taken:
        n += 1
    return f"{prefix}{n}"


def attack_labels(evaluation: Evaluation) -> dict[str, str]:
    """TNF attack edge id -> the attack as an explicit edge handle ``attack:<source>-<kind>-><target>``.

    The handle is the controlled suite's spelling: the attacker's top rule (or
    fact), the kind, and the attacked element -- the conclusion of the rebutted
    sub-argument, the undercut rule, or the undermined fact.  When one TNF edge
    stands for several engine attacks, the smallest handle is kept.

    Parameters
    ----------
    evaluation : Evaluation

    Returns
    -------
    dict of str to str
    """
    namer = Namer(evaluation.theory.rules, evaluation.arguments)
    args = {a.id: a for a in evaluation.arguments}
    out: dict[str, str] = {}
    for att in evaluation.attacks:
        key = f"attack:{att.kind.value}:{namer.argument_id(att.attacker)}{EDGE_ARROW}{namer.argument_id(att.target)}"
        out[key] = min(out.get(key, "\uffff"), attack_handle(att, args))
    return out


def attack_handle(att: Attack, args: dict) -> str:
    """One engine attack as ``attack:<source>-<kind>-><target>`` (see :func:`attack_labels`)."""
    attacker = args[att.attacker]
    source = attacker.top_rule or attacker.fact
    target = args[att.on].conclusion if att.kind.value == "rebut" else att.on
    return f"attack:{source}-{att.kind.value}->{target}"


def _clash(analysis: Analysis) -> bool:
    """A mutated object that restates another one would be merged into it (a TNF alias)."""
    literals = [f.literal for f in analysis.facts]
    rules = [(frozenset(r.antecedents), r.consequent, r.kind) for r in analysis.rules]
    return len(literals) != len(set(literals)) or len(rules) != len(set(rules))




def _quiet_normal_form(*args, **kwargs):
    """:func:`symbolic.tnf.normal_form` with the priority-cycle warning silenced
    (a cycle belongs to the case and shows in the trace)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PriorityCycleWarning)
        return _symbolic_normal_form(*args, **kwargs)
