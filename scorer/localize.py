"""The scorer's defect localizer and its self-validation table (paper Table 10).

:func:`localize` names the defect class of a white-box output *from the
output alone*: it reads the output, the evidence package ids, the target and
the query -- never the gold objects, status or trace.  It compares the
output's objects with the evidence package (grounding) and its claimed trace
with the recomputation of its own objects (:func:`symbolic.tnf.normal_form`):

1. an object citing a fragment absent from the package -> ``missing_evidence``
   (location: the fragment); an object citing no fragment at all ->
   ``invalid_proof_node`` (an ungrounded node; location: the object);
2. a claimed status other than ``undecidable`` although no grounded object
   is about the target's atom -> ``incomplete_coverage``;
3. (claimed edges in TNF only) a recomputed priority whose reverse is claimed
   -> ``priority_inversion``;
4. a fragment that grounds, in the recomputation, a fact or rule the claimed
   trace does not have -> ``extraction_error`` (the object misstates what
   its fragment was claimed to ground);
5. a recomputed attack edge missing from the claims -> ``attack_deletion``;
6. a claimed node or edge the recomputation does not produce ->
   ``invalid_proof_node``;
7. recomputed edges missing from the claims (other than attacks) ->
   ``incomplete_coverage``; a claimed status the objects do not give ->
   ``invalid_proof_node`` on the status node;
8. otherwise ``none``.

Without claimed edges in TNF but with explicit attack edges among the
objects (the controlled suite's candidate analyses), an attack the objects
give that no explicit edge states -> ``attack_deletion``.  Locations use the
controlled suite's spelling (:class:`scorer.inject.Injected`).

:func:`localization_table` injects every class into every scenario's gold
trace (:func:`scorer.inject.inject`) and reports, per class, how often the
localizer names the class and the location.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import Iterable, Sequence

from symbolic.labels import Status
from symbolic.literals import atom, normalize_literal
from symbolic.locations import same_location
from symbolic.model import DefectClass, EdgeType, NodeType, Scenario
from symbolic.naming import Namer, edge_id
from symbolic.errors import PriorityCycleWarning
from symbolic.tnf import normal_form as _symbolic_normal_form
from symbolic.trace import build_trace

from .contract import Diagnostics, OutputRecord
from .inject import INJECTABLE, attack_handle, attack_labels, inject
from .handles import canonical_key, handle_of

__all__ = ["LocalizationRow", "LocalizationTable", "localization_table", "localize", "localize_case"]

_PREFIXES = ("query:", "evidence:", "fact:", "rule:", "priority:", "arg:", "conclusion:", "status:")


def _location(handle: str) -> str:
    """A handle in the controlled suite's spelling (an exception is a rule)."""
    return "rule:" + handle[len("exception:"):] if handle.startswith("exception:") else handle


def _diag(cls: DefectClass, location: str | None, why: str) -> Diagnostics:
    return Diagnostics(defect_class=cls, location=location, explanation=why)


def localize(output: OutputRecord, *, evidence_ids: Iterable[str], target: str,
             query: str | None = None) -> Diagnostics:
    """Name the defect class and location of a white-box output, without gold access.

    Parameters
    ----------
    output : OutputRecord
        The output to audit.
    evidence_ids : iterable of str
        The evidence package.
    target : str
        The target literal.
    query : str, optional
        The question (the TNF's query label; use the same one the trace was built with).

    Returns
    -------
    Diagnostics
        ``defect_class`` ``none`` for a clean output; ``location`` as in
        :mod:`scorer.inject`.

    Examples
    --------
    >>> from scorer.inject import gold_output, inject
    >>> from scorer.metrics._examples import penalty_scenario
    >>> sc = penalty_scenario()
    >>> kw = dict(evidence_ids=sc.evidence_ids(), target=sc.target, query=sc.query)
    >>> localize(gold_output(sc), **kw).defect_class.value
    'none'
    >>> d = localize(inject(sc, "priority_inversion").output, **kw)
    >>> d.defect_class.value, d.location
    ('priority_inversion', 'priority:r3>r2')
    """
    evidence = frozenset(evidence_ids)
    target = normalize_literal(target)
    if output.trace is None:
        return _diag(DefectClass.NONE, None, "no trace: nothing to localize")
    analysis = output.trace.analysis()
    objects = (*analysis.facts, *analysis.rules, *analysis.priorities, *analysis.attacks)
    absent = sorted({e for obj in objects for e in obj.evidence} - evidence)
    if absent:
        users = sorted(handle_of(o) for o in objects if absent[0] in o.evidence)
        return _diag(DefectClass.MISSING_EVIDENCE, f"evidence:{absent[0]}",
                     f"{', '.join(users)} cite {absent[0]}, which is not in the evidence package")
    uncited = sorted((o for o in objects if not o.evidence), key=lambda o: canonical_key(handle_of(o)))
    if uncited:
        where = _location(handle_of(uncited[0]))
        return _diag(DefectClass.INVALID_PROOF_NODE, where,
                     f"{where} cites no evidence fragment: an ungrounded proof node")
    claimed_status = output.status
    nf = _quiet_normal_form(evidence, analysis, target, query=query)
    theory = nf.evaluation.theory
    goal = atom(target)
    covers = any(atom(f.literal) == goal for f in theory.facts) or any(
        atom(r.consequent) == goal for r in theory.rules)
    if claimed_status not in (None, Status.UNDECIDABLE) and not covers:
        return _diag(DefectClass.INCOMPLETE_COVERAGE, f"target:{target}",
                     f"status {claimed_status.value} claimed, but no grounded fact or rule is about {goal}")
    recomputed_status = nf.evaluation.status
    claimed = {edge_id(e): e for e in output.trace.edges}
    canonical = bool(claimed) and all(
        e.source.startswith(_PREFIXES) and e.target.startswith(_PREFIXES) for e in claimed.values())
    if not canonical and analysis.attacks:
        args = {a.id: a for a in nf.evaluation.arguments}
        stated = {f"attack:{a.source}-{a.kind.value}->{a.target}" for a in analysis.attacks}
        derived = sorted({attack_handle(a, args) for a in nf.evaluation.attacks} - stated)
        if derived:
            return _diag(DefectClass.ATTACK_DELETION, derived[0],
                         f"the objects give the attack {derived[0]}, missing from the stated attack edges")
    if not canonical:
        why = "no claimed edges" if not claimed else "claimed edges are not in TNF"
        if claimed_status is not None and claimed_status is not recomputed_status:
            return _diag(DefectClass.INVALID_PROOF_NODE, f"status:{claimed_status.value}",
                         f"{why}; the objects give {recomputed_status.value}, "
                         f"not the claimed {claimed_status.value}")
        return _diag(DefectClass.NONE, None, f"{why}; the objects give the claimed status")
    recomputed = {edge_id(e): e for e in nf.trace.edges}
    claimed_nodes = {n for e in claimed.values() for n in (e.source, e.target)}
    graph = build_trace(nf.evaluation, query=query)
    namer = Namer(theory.rules, nf.evaluation.arguments)
    for node, data in sorted(graph.nodes(data=True)):
        if data["type"] is NodeType.PRIORITY and "pair" in data and node not in claimed_nodes:
            s, w = data["pair"]
            if namer.priority_id(w, s) in claimed_nodes:
                return _diag(DefectClass.PRIORITY_INVERSION, f"priority:{w}>{s}",
                             f"the objects state {s} > {w}; the claimed trace has {w} > {s}")
    lacking = sorted(set(recomputed) - set(claimed))
    extra = sorted(set(claimed) - set(recomputed))
    for i in lacking:
        e = recomputed[i]
        if (e.type is EdgeType.GROUNDING and e.target not in claimed_nodes
                and graph.nodes[e.target]["type"] in (NodeType.FACT, NodeType.RULE)):
            kind = "fact" if graph.nodes[e.target]["type"] is NodeType.FACT else "rule"
            where = f"{kind}:{graph.nodes[e.target]['names'][0]}"
            return _diag(DefectClass.EXTRACTION_ERROR, where,
                         f"{e.source} grounds {e.target} ({where}), which the claimed trace does not have")
    attacks = [i for i in lacking if recomputed[i].type is EdgeType.ATTACK]
    if attacks:
        labels = attack_labels(nf.evaluation)
        where = min(labels.get(i, i) for i in attacks)
        return _diag(DefectClass.ATTACK_DELETION, where,
                     f"the objects give the attack {where} ({attacks[0]}), missing from the claimed trace")
    if extra:
        known = set(graph.nodes)
        bad_nodes = sorted({n for i in extra for n in (claimed[i].source, claimed[i].target) if n not in known})
        where = bad_nodes[0] if bad_nodes else extra[0]
        return _diag(DefectClass.INVALID_PROOF_NODE, where,
                     f"the claimed trace has {len(extra)} edge(s) the objects do not produce, e.g. {extra[0]}")
    if lacking:
        return _diag(DefectClass.INCOMPLETE_COVERAGE, lacking[0],
                     f"the claimed trace lacks {len(lacking)} edge(s) of the recomputation, e.g. {lacking[0]}")
    if claimed_status is not None and claimed_status is not recomputed_status:
        return _diag(DefectClass.INVALID_PROOF_NODE, f"status:{claimed_status.value}",
                     f"the objects give {recomputed_status.value}, not the claimed {claimed_status.value}")
    return _diag(DefectClass.NONE, None, "claims and recomputation agree; every object is grounded")


def localize_case(scenario: Scenario, output: OutputRecord) -> Diagnostics:
    """:func:`localize` with the case input of a scenario (its gold is not passed on).

    Parameters
    ----------
    scenario : Scenario
    output : OutputRecord

    Returns
    -------
    Diagnostics
    """
    return localize(output, evidence_ids=scenario.evidence_ids(), target=scenario.target, query=scenario.query)


@dataclass(frozen=True, slots=True)
class LocalizationRow:
    """One defect class of the self-validation table.

    Attributes
    ----------
    defect_class : str
    injected : int
        Cases the class was injected into.
    skipped : int
        Cases it cannot apply to.
    class_correct : int
        Localizer named the class.
    location_correct : int
        ... and the location.
    confusions : tuple of (str, int)
        Classes named instead, with counts.
    """

    defect_class: str
    injected: int
    skipped: int
    class_correct: int
    location_correct: int
    confusions: tuple[tuple[str, int], ...]

    @property
    def accuracy(self) -> float | None:
        """``class_correct / injected`` (``None`` when nothing was injected)."""
        return self.class_correct / self.injected if self.injected else None

    def to_dict(self) -> dict:
        """JSON-ready dict."""
        return {"defect_class": self.defect_class, "injected": self.injected, "skipped": self.skipped,
                "class_correct": self.class_correct, "location_correct": self.location_correct,
                "accuracy": self.accuracy, "confusions": dict(self.confusions)}


@dataclass(frozen=True, slots=True)
class LocalizationTable:
    """Per-class localization of injected defects (paper Table 10).

    Attributes
    ----------
    rows : tuple of LocalizationRow
        The six defect classes, then ``none`` (clean gold traces).
    """

    rows: tuple[LocalizationRow, ...]

    @property
    def overall(self) -> float | None:
        """Class accuracy pooled over the six defect classes (``none`` excluded)."""
        rows = [r for r in self.rows if r.defect_class != DefectClass.NONE.value]
        n = sum(r.injected for r in rows)
        return sum(r.class_correct for r in rows) / n if n else None

    @property
    def clean(self) -> float | None:
        """Share of clean gold traces localized as ``none``."""
        row = next(r for r in self.rows if r.defect_class == DefectClass.NONE.value)
        return row.accuracy

    def to_dict(self) -> dict:
        """JSON-ready dict."""
        return {"rows": [r.to_dict() for r in self.rows], "overall": self.overall, "clean": self.clean}


def localization_table(scenarios: Sequence[Scenario],
                       classes: Sequence[DefectClass] = (*INJECTABLE, DefectClass.NONE)) -> LocalizationTable:
    """Inject each class into each scenario and localize it (scorer self-validation).

    Parameters
    ----------
    scenarios : sequence of Scenario
    classes : sequence of DefectClass
        Classes to inject (default: the six, then ``none``).

    Returns
    -------
    LocalizationTable

    Examples
    --------
    >>> from scorer.metrics._examples import penalty_scenario
    >>> t = localization_table([penalty_scenario()])
    >>> t.overall, t.clean
    (1.0, 1.0)
    """
    rows = []
    for cls in classes:
        injected = skipped = class_ok = loc_ok = 0
        confusions: dict[str, int] = {}
        for sc in scenarios:
            inj = inject(sc, cls)
            if inj is None:
                skipped += 1
                continue
            injected += 1
            diag = localize(inj.output, evidence_ids=inj.evidence_ids, target=sc.target, query=sc.query)
            if diag.defect_class is cls:
                class_ok += 1
                if cls is DefectClass.NONE or same_location(diag.location, inj.location):
                    loc_ok += 1
            else:
                confusions[diag.defect_class.value] = confusions.get(diag.defect_class.value, 0) + 1
        rows.append(LocalizationRow(cls.value, injected, skipped, class_ok, loc_ok,
                                    tuple(sorted(confusions.items()))))
    return LocalizationTable(tuple(rows))


def _quiet_normal_form(*args, **kwargs):
    """:func:`symbolic.tnf.normal_form` with the priority-cycle warning silenced
    (a cycle belongs to the case and shows in the trace)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PriorityCycleWarning)
        return _symbolic_normal_form(*args, **kwargs)
