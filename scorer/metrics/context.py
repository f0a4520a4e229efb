"""What the metrics read: the gold side of a scenario (computed once per case
and shared by every output scored against it) and one output's side.

Everything here is a deterministic function of the scenario and the output;
the metric functions are pure functions of a :class:`CaseContext`.

*Objects of an output.*  A trace-v2 payload is grounded against the scenario's
evidence package and put in TNF exactly like the gold objects
(:class:`scorer.subtheory.Universe`, :func:`scorer.align.evaluation_edge_attrs`).  An
output with only a common-v1 payload has no normative objects; the metrics
then use only its explicit fields (``final_status``, ``evidence_ids``,
``conflict_detected``, ``priority_applied``, ``emitted_conclusions``), as
documented per metric in ``docs/metrics.md``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

from symbolic.engine.arguments import ArgumentLimitError
from symbolic.errors import SymbolicError
from symbolic.scenario.labels import Status
from symbolic.scenario.literals import atom, complement
from symbolic.scenario.model import DefectClass, Scenario
from symbolic.engine.results import Evaluation

from ..shortcut import shortcut_facts
from ..align import GoldClasses, align_edges, evaluation_edge_attrs, gold_classes
from ..contract import OutputRecord
from ..errors import ScoringError
from ..budget import DEFAULT_CASE_BUDGET, BudgetExceeded, CaseBudget
from ..ncr import DEFAULT_MAX_CANDIDATES, DEFAULT_MAX_SIZE, NCRWitness, ncr_witness
from ..records import AlignmentRecord
from ..subtheory import Universe

__all__ = ["CaseContext", "GoldView", "build_context", "conflict_pairs", "gold_view", "white_box"]


def conflict_pairs(u: Universe, ev: Evaluation,
                   within: frozenset[str] | None = None) -> dict[frozenset[str], tuple[str, str]]:
    """The conflicts of an evaluation, as unordered pairs of object content keys.

    A conflict pairs the top object (rule, or fact for a fact argument) of an
    attacker with the element it attacks: the top object of the rebutted
    sub-argument, the undercut rule, or the undermined fact.  Two arguments
    with complementary conclusions also conflict when neither can attack the
    other (strict against strict).  Active and neutralized attacks count
    alike: a neutralized attack is a conflict resolved by a priority.

    Parameters
    ----------
    u : Universe
        The objects the evaluation was run on.
    ev : Evaluation
        An evaluation over (a subset of) ``u``.
    within : frozenset of str, optional
        Keep only pairs whose two objects are among these handles.

    Returns
    -------
    dict
        Pair of content keys -> pair of handles (sorted).
    """
    args = {a.id: a for a in ev.arguments}

    def top(arg_id: str) -> str:
        a = args[arg_id]
        return u.rule_handles[a.top_rule] if a.top_rule is not None else u.fact_handles[a.fact]

    raw: set[tuple[str, str]] = set()
    for att in ev.attacks:
        if att.kind.value == "rebut":
            on = top(att.on)
        elif att.kind.value == "undercut":
            on = u.rule_handles.get(att.on)
        else:
            on = u.fact_handles.get(att.on)
        if on is not None:
            raw.add(tuple(sorted((top(att.attacker), on))))
    by_conclusion: dict[str, list[str]] = {}
    for a in ev.arguments:
        by_conclusion.setdefault(a.conclusion, []).append(a.id)
    for lit, ids in by_conclusion.items():
        for other in by_conclusion.get(complement(lit), ()):
            for a in ids:
                raw.add(tuple(sorted((top(a), top(other)))))
    out: dict[frozenset[str], tuple[str, str]] = {}
    for x, y in sorted(raw):
        if x == y or (within is not None and not (x in within and y in within)):
            continue
        out.setdefault(frozenset((u.keys[x], u.keys[y])), (x, y))
    return out


@dataclass(frozen=True, slots=True)
class GoldView:
    """The gold side of one scenario, shared by every output scored on it.

    Attributes
    ----------
    scenario : Scenario
    status : Status
        The gold status ``y``.
    universe : Universe
        The grounded gold objects with their STATUS memo.
    evaluation : Evaluation
        The engine on the relevant gold objects.
    classes : GoldClasses
        The admissible gold edge sets (Algorithm 4).
    conclusions : frozenset of str
        Every literal some gold argument concludes (all objects, not only the cone).
    related_atoms : frozenset of str
        Atoms of the target's dependency cone (plus the target's own atom).
    ncr : NCRWitness or None
        The NCR witness, when computed.
    """

    scenario: Scenario
    status: Status
    universe: Universe
    evaluation: Evaluation
    classes: GoldClasses
    conclusions: frozenset[str]
    related_atoms: frozenset[str]
    ncr: NCRWitness | None
    budget: int | None = DEFAULT_CASE_BUDGET

    @property
    def defect(self) -> DefectClass | None:
        """The gold defect class of a controlled case (``None`` when not annotated)."""
        return self.scenario.metadata.defect_class


def gold_view(scenario: Scenario, *, ncr: bool = True, ncr_max_size: int = DEFAULT_MAX_SIZE,
              ncr_max_candidates: int = DEFAULT_MAX_CANDIDATES,
              budget: int | None = DEFAULT_CASE_BUDGET) -> GoldView:
    """Compute the gold side of a scenario.

    Parameters
    ----------
    scenario : Scenario
    ncr : bool
        Whether to run the NCR search (Algorithm 5).
    ncr_max_size, ncr_max_candidates : int
        Caps of the NCR search.
    budget : int, optional
        Engine work units the gold side may spend (:mod:`scorer.budget`);
        ``None``: unbounded.  The NCR search stops (a lower bound) when the
        budget runs out during it.

    Returns
    -------
    GoldView

    Raises
    ------
    BudgetExceeded
        If the gold side needs more than ``budget`` work units, or the engine's
        argument limit, before the NCR search.
    ScoringError
        If the gold objects cannot be evaluated (a target that is not a literal).
    """
    evidence = scenario.evidence_ids()
    status = scenario.gold.status
    spend = CaseBudget(budget)
    try:
        u = Universe(evidence, scenario.gold, scenario.target, spend)
        ev = u.evaluate(u.handles)
        classes = gold_classes(evidence, scenario.gold, scenario.target, status, query=scenario.query,
                               universe=u)
        everything = u.everything()
    except ArgumentLimitError as exc:
        raise BudgetExceeded(f"case {scenario.id}: the gold objects exceed the engine's argument limit "
                             f"({exc})") from None
    except BudgetExceeded as exc:
        raise BudgetExceeded(f"case {scenario.id}: gold side: {exc}") from None
    except (ValueError, SymbolicError) as exc:
        raise ScoringError(f"case {scenario.id}: cannot evaluate the gold objects: {exc}") from None
    atoms = {atom(u.target)}
    for h in u.relevant:
        obj = u.objects[h]
        if h.startswith("fact:"):
            atoms.add(atom(obj.literal))
        elif h.startswith(("rule:", "exception:")):
            atoms.add(atom(obj.consequent))
            atoms.update(atom(x) for x in obj.antecedents)
    witness = None
    if ncr:
        witness = ncr_witness(evidence, scenario.gold, scenario.target, max_size=ncr_max_size,
                              max_candidates=ncr_max_candidates, universe=u)
    return GoldView(scenario, status, u, ev, classes,
                    frozenset(a.conclusion for a in everything.arguments), frozenset(atoms), witness, budget)


@dataclass(frozen=True, slots=True)
class CaseContext:
    """One output against one scenario: everything the metric functions read.

    Attributes
    ----------
    gold : GoldView
    output : OutputRecord
    pred : Status or None
        The predicted status (``None`` on a hard failure).
    hard_failure : bool
    expects_trace : bool
        The configuration emits a trace (decides TGC's applicability on a hard failure).
    universe : Universe or None
        The output's grounded objects, when it has a trace.
    evaluation : Evaluation or None
        The engine on the output's relevant objects.
    edges : Mapping or None
        The output's TNF edge ids, each with its alignment attributes
        (:func:`scorer.align.evaluation_edge_attrs`).
    alignment : AlignmentRecord or None
        Alignment with the closest admissible gold class (``None`` without a trace,
        unless a hard failure of a trace configuration: then every gold edge is missing).
    chosen : tuple of str
        Handles of the gold objects of the chosen class (the first class without alignment).
    emitted : tuple of str
        Conclusions the output states (common-v1 and trace-v2 together), sorted.
    cited : frozenset of str or None
        Evidence ids the output cites (``None`` if not emitted).
    shortcut : tuple of str
        The output's grounded facts that assert the target or its complement
        (:func:`scorer.shortcut.shortcut_facts`): a shortcut, never a correct answer.
    """

    gold: GoldView
    output: OutputRecord
    pred: Status | None
    hard_failure: bool
    expects_trace: bool
    universe: Universe | None
    evaluation: Evaluation | None
    edges: Mapping | None
    alignment: AlignmentRecord | None
    chosen: tuple[str, ...]
    emitted: tuple[str, ...]
    cited: frozenset[str] | None
    shortcut: tuple[str, ...] = ()

    @property
    def correct(self) -> bool:
        """The predicted status equals the gold status (never on a hard failure or a shortcut)."""
        return not self.hard_failure and not self.shortcut and self.pred is self.gold.status

    @property
    def has_trace(self) -> bool:
        """The output carries a trace-v2 payload."""
        return self.universe is not None


def white_box(trace) -> bool:
    """Whether a trace-v2 payload carries a trace: any object, node, edge,
    rejection or conclusion.  A payload holding only ``diagnostics`` (the audit
    verdict of a black-box configuration, B1-B2 in audit mode) is scored as no
    trace, unless its run emits traces (then it is an empty extraction): its
    defect report feeds DLA and nothing else.

    >>> from scorer.contract import Diagnostics, TraceV2
    >>> white_box(TraceV2(diagnostics=Diagnostics(defect_class="none"))), white_box(None)
    (False, False)
    """
    if trace is None:
        return False
    return bool(trace.facts or trace.rules or trace.attacks or trace.priorities or trace.nodes or trace.edges
                or trace.rejected or trace.emitted_conclusions)


def build_context(gold: GoldView, output: OutputRecord, *, expects_trace: bool | None = None) -> CaseContext:
    """Compute the output side of one case.

    Parameters
    ----------
    gold : GoldView
        From :func:`gold_view` on the output's scenario.
    output : OutputRecord
    expects_trace : bool, optional
        Whether the configuration emits traces; default: whether this output has one.

    Returns
    -------
    CaseContext

    Raises
    ------
    BudgetExceeded
        If the output's objects need more engine work than the case budget
        (or exceed the engine's argument limit).
    ScoringError
        If the output's case id is not the scenario's, or its objects cannot be evaluated.
    """
    sc = gold.scenario
    if output.case_id != sc.id:
        raise ScoringError(f"output for case {output.case_id!r} scored against scenario {sc.id!r}")
    hard = output.meta.hard_failure
    expects = white_box(output.trace) if expects_trace is None else bool(expects_trace)
    # A diagnostics-only payload is a trace only in a run that emits traces (an empty extraction).
    trace = output.trace if output.trace is not None and (expects or white_box(output.trace)) else None
    universe = evaluation = edges = alignment = None
    if trace is not None:
        evidence = sc.evidence_ids()
        try:
            universe = Universe(evidence, trace.analysis(), sc.target, CaseBudget(gold.budget))
            evaluation = universe.evaluate(universe.handles)
            edges = evaluation_edge_attrs(universe.everything(), sc.query)
        except ArgumentLimitError as exc:
            raise BudgetExceeded(f"case {sc.id}, run {output.run_key}: the output's objects exceed the "
                                 f"engine's argument limit ({exc})") from None
        except BudgetExceeded as exc:
            raise BudgetExceeded(f"case {sc.id}, run {output.run_key}: output side: {exc}") from None
        except (ValueError, SymbolicError) as exc:
            raise ScoringError(f"case {sc.id}, run {output.run_key}: cannot evaluate the output's "
                               f"objects: {exc}") from None
        alignment = align_edges(gold.classes, edges)
    elif hard and expects:
        alignment = align_edges(gold.classes, {})
    if alignment is not None:
        chosen = tuple(alignment.metadata["gold_objects"])
    else:
        chosen = gold.classes.classes[0][0]
    emitted: set[str] = set()
    if output.common is not None and output.common.emitted_conclusions:
        emitted.update(output.common.emitted_conclusions)
    if trace is not None and trace.emitted_conclusions:
        emitted.update(trace.emitted_conclusions)
    cited = None
    if output.common is not None and output.common.evidence_ids is not None:
        cited = frozenset(output.common.evidence_ids)
    shortcut = shortcut_facts(universe.theory.facts, sc.target) if universe is not None else ()
    return CaseContext(gold, output, output.status, hard, expects, universe, evaluation, edges,
                       alignment, chosen, tuple(sorted(emitted)), cited, shortcut)
