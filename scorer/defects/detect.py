"""Gold-free detection of the defect class of a white-box output (paper Table 10;
docs/metrics.md B6).

:func:`localize` names the defect class of a white-box output *from the
output alone*: it reads the output, the evidence package ids, the target and
the query -- never the gold objects, status or trace.  It compares the
output's objects with the evidence package (grounding) and its claimed trace
with the recomputation of its own objects (:func:`symbolic.traces.tnf.normal_form`):

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
controlled suite's spelling (:mod:`scorer.defects.classes`).  The other
detector, :func:`scorer.defects.diff.diff_candidate`, judges a candidate
analysis against a reference extraction instead (B4's audit).
"""

from __future__ import annotations

from typing import Iterable

from symbolic.scenario.labels import Status
from symbolic.scenario.literals import atom, normalize_literal
from symbolic.scenario.model import DefectClass, EdgeType, NodeType, Scenario
from symbolic.traces.naming import Namer, edge_id
from symbolic.traces.trace import build_trace

from ..contract import Diagnostics, OutputRecord
from ..handles import canonical_key, handle_of
from .classes import attack_handle, attack_labels, handle_location
from .whitebox import quiet_normal_form

__all__ = ["localize", "localize_case"]

_PREFIXES = ("query:", "evidence:", "fact:", "rule:", "priority:", "arg:", "conclusion:", "status:")


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
        :mod:`scorer.defects.classes`.

    Examples
    --------
    >>> from scorer.defects.inject import inject
    >>> from scorer.defects.whitebox import gold_output
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
        where = handle_location(handle_of(uncited[0]))
        return _diag(DefectClass.INVALID_PROOF_NODE, where,
                     f"{where} cites no evidence fragment: an ungrounded proof node")
    claimed_status = output.status
    nf = quiet_normal_form(evidence, analysis, target, query=query)
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
