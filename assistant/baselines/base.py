"""What every reasoning-style baseline shares: the audit step and the output shape.

A baseline's ``forward(query, evidence, target=None, candidate=None)`` runs its
own reasoning to a :class:`~assistant.schemas.CitedAnswer` and hands it to
:meth:`Baseline.finish`, which returns the prediction shape of B1-B4:
``common`` (:class:`~scorer.contract.CommonV1`, always) and ``trace``
(:class:`~scorer.contract.TraceV2` or ``None``).

Audit mode (``candidate`` given): the baseline still answers the query with its
own reasoning style, so ``common`` is its own answer; then it answers B1's audit
prompt (:class:`~assistant.signatures.AuditCandidate`, one more LM call), whose
defect class, location and explanation become ``trace.diagnostics``.  The audit
prompt's corrected answer is not used.

A trace carries only what the baseline's LM explicitly emitted: the
diagnostics of the audit prompt and, for ``dspy-modular``, its extracted facts,
rules, attacks and priorities (with the parser-validator's rejections).  No
trace graph is ever made up for a baseline.
"""

from __future__ import annotations

import dspy

from symbolic.engine.grounding import ground
from symbolic.scenario.model import Analysis
from scorer.contract import Diagnostics, TraceV2

from ..evidence import EvidencePackage
from ..outcome import common_from_answer, emitted_literals, rejected_of
from ..schemas import CitedAnswer
from ..signatures import AuditCandidate, CandidateAnalysis

__all__ = ["Baseline"]


class Baseline(dspy.Module):
    """Base of the baselines: holds B1's audit predictor and builds the prediction.

    Subclasses set ``name`` and ``max_calls`` and write ``forward``, ending with :meth:`finish`.

    Attributes
    ----------
    name : str
        The configuration name (:data:`assistant.baselines.BASELINES` key).
    max_calls : int
        Most LM calls one case takes in query mode, re-asks not counted (audit
        mode adds one), for budgeting a run.
    """

    name = "baseline"
    max_calls = 0

    def __init__(self):
        super().__init__()
        self.audit = dspy.Predict(AuditCandidate)

    def finish(self, query: str, evidence: EvidencePackage, answer: CitedAnswer, candidate: Analysis | None,
               analysis: Analysis | None = None, **extras) -> dspy.Prediction:
        """The prediction: ``common`` from ``answer``, ``trace`` from what was emitted.

        Parameters
        ----------
        query : str
            The question.
        evidence : EvidencePackage
            The whole evidence package (the audit prompt sees all of it).
        answer : CitedAnswer
            The baseline's final answer.
        candidate : Analysis or None
            The analysis to audit, in audit mode.
        analysis : Analysis, optional
            Normative objects the baseline's LM extracted, if any.
        **extras
            Further fields of the prediction (intermediate outputs).

        Returns
        -------
        dspy.Prediction
            ``common``, ``trace`` (``None`` when nothing trace-shaped was
            emitted), ``answer`` and ``extras``; ``audit`` in audit mode.

        Examples
        --------
        >>> from symbolic.scenario.model import EvidenceFragment, Fact
        >>> pkg = EvidencePackage.of([EvidenceFragment(id="E1", text="The delivery was late.", source="Log")])
        >>> said = CitedAnswer(answer="Late.", cited=["E1"], status="accepted")
        >>> pred = Baseline().finish("Was it late?", pkg, said, None)
        >>> pred.common.evidence_ids, pred.trace
        (('E-01',), None)
        >>> pred = Baseline().finish("Was it late?", pkg, said, None, analysis=Analysis(
        ...     facts=[Fact(id="f1", literal="Late(d)", evidence=["E1"]), Fact(id="f2", literal="Storm(d)")]))
        >>> [f.id for f in pred.trace.facts], [(r.id, r.reason) for r in pred.trace.rejected]
        (['f1', 'f2'], [('f2', 'cites no evidence fragment')])
        >>> pred.common.emitted_conclusions
        ('Late(d)', 'Storm(d)')
        """
        diagnostics = verdict = None
        if candidate is not None:
            verdict = self.audit(query=query, evidence=evidence, candidate=CandidateAnalysis(analysis=candidate)).audit
            diagnostics = Diagnostics(defect_class=verdict.defect_class, location=verdict.location,
                                      explanation=verdict.explanation or None)
        conclusions = emitted_literals(analysis) if analysis is not None else None
        common = common_from_answer(answer, conclusions)
        trace = None
        if analysis is not None:
            theory = ground(evidence.ids, analysis)
            trace = TraceV2(facts=analysis.facts, rules=analysis.rules, attacks=analysis.attacks,
                            priorities=analysis.priorities, rejected=rejected_of(theory.dropped),
                            emitted_conclusions=conclusions, diagnostics=diagnostics)
        elif diagnostics is not None:
            trace = TraceV2(diagnostics=diagnostics)
        if verdict is not None:
            extras["audit"] = verdict
        return dspy.Prediction(common=common, trace=trace, answer=answer, **extras)
