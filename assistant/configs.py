"""The four configurations as DSPy modules (paper Section 4.6, Table 3, Appendix A.6).

Every module takes the query, the evidence package and, optionally, the
target literal (the query's formalization, not a gold object) and a candidate
analysis to audit; it returns a ``dspy.Prediction`` with ``common``
(:class:`~scorer.contract.CommonV1`) and ``trace``
(:class:`~scorer.contract.TraceV2` or ``None``).

* **B1** citation-only: answer, cited fragments, status.
* **B2** self-check: B1, then a pass that looks for missing exceptions,
  contradictions, unresolved uncertainty and uncited fragments before the
  final status.
* **B3** structured extraction: facts and rules with fragment ids, then answer
  and status; no attacks, priorities or trace graph.
* **B4** trace-based: the LM extracts facts, rules, attacks and priorities;
  the parser-validator and the engine compute status, labelling and trace.
  The LM never decides the status.

In audit mode (``candidate`` given) B1-B3 answer the audit prompt; B4 compares
its own grounded extraction, recomputed by the engine, with the candidate
(:func:`scorer.defects.diff.diff_candidate`).
"""

from __future__ import annotations

import time
import warnings

import dspy

from symbolic.traces.trace_attacks import explicit_attack_edges
from symbolic.scenario.literals import normalize_literal
from symbolic.scenario.model import Analysis
from symbolic.support.registry import Entry, Registry
from symbolic.engine.status import evaluate_analysis
from scorer.contract import Diagnostics, TraceV2
from scorer.defects.diff import diff_candidate

from .adapter import decodes_under_grammar
from .errors import ConfigurationError
from .evidence import EvidencePackage
from .extraction import to_analysis
from .outcome import (
    common_from_answer,
    common_from_evaluation,
    emitted_literals,
    trace_from_analysis,
    trace_from_evaluation,
)
from .signatures import (
    AnswerWithCitations,
    AuditCandidate,
    CandidateAnalysis,
    ExtractByFragment,
    ExtractByFragmentAndTarget,
    ExtractTheory,
    ExtractTheoryAndTarget,
    ExtractThenAnswer,
    SelfCheckAnswer,
)

__all__ = ["B1", "B2", "B3", "B4", "CONFIGURATIONS", "build"]


def _diagnostics(verdict) -> Diagnostics:
    return Diagnostics(defect_class=verdict.defect_class, location=verdict.location,
                       explanation=verdict.explanation or None)


class B1(dspy.Module):
    """Citation-only: one call for answer, cited fragments and status."""

    name = "b1"

    def __init__(self):
        super().__init__()
        self.answer = dspy.Predict(AnswerWithCitations)
        self.audit = dspy.Predict(AuditCandidate)

    def _audit(self, query: str, evidence: EvidencePackage, candidate: Analysis):
        return self.audit(query=query, evidence=evidence, candidate=CandidateAnalysis(analysis=candidate)).audit

    def forward(self, query: str, evidence: EvidencePackage, target: str | None = None,
                candidate: Analysis | None = None) -> dspy.Prediction:
        """Answer the query, or audit ``candidate``."""
        if candidate is not None:
            verdict = self._audit(query, evidence, candidate)
            return dspy.Prediction(common=common_from_answer(verdict.corrected),
                                   trace=TraceV2(diagnostics=_diagnostics(verdict)))
        result = self.answer(query=query, evidence=evidence).result
        return dspy.Prediction(common=common_from_answer(result), trace=None)


class B2(B1):
    """Self-check: a B1 draft, then a checking pass that gives the final answer."""

    name = "b2"

    def __init__(self):
        super().__init__()
        self.check = dspy.Predict(SelfCheckAnswer)

    def forward(self, query: str, evidence: EvidencePackage, target: str | None = None,
                candidate: Analysis | None = None) -> dspy.Prediction:
        """Draft, check, answer (or audit, then check the corrected answer)."""
        verdict = None
        if candidate is not None:
            verdict = self._audit(query, evidence, candidate)
            draft = verdict.corrected
        else:
            draft = self.answer(query=query, evidence=evidence).result
        check = self.check(query=query, evidence=evidence, draft=draft).check
        trace = TraceV2(diagnostics=_diagnostics(verdict)) if verdict is not None else None
        return dspy.Prediction(common=common_from_answer(check.final), trace=trace, check=check)


class B3(B1):
    """Structured extraction: facts and rules with fragment ids, then answer and status."""

    name = "b3"

    def __init__(self):
        super().__init__()
        self.extract = dspy.Predict(ExtractThenAnswer)

    def forward(self, query: str, evidence: EvidencePackage, target: str | None = None,
                candidate: Analysis | None = None) -> dspy.Prediction:
        """Extract, answer (and, in audit mode, audit the candidate)."""
        out = self.extract(query=query, evidence=evidence).analysis
        analysis = to_analysis(out)
        answer, diagnostics = out.result, None
        if candidate is not None:
            verdict = self._audit(query, evidence, candidate)
            answer, diagnostics = verdict.corrected, _diagnostics(verdict)
        return dspy.Prediction(common=common_from_answer(answer, emitted_literals(analysis)),
                               trace=trace_from_analysis(evidence.ids, analysis, diagnostics))


class B4(dspy.Module):
    """Trace-based: LM extraction through a fixed schema, engine-computed status and trace."""

    name = "b4"

    def __init__(self):
        super().__init__()
        self.extract = dspy.Predict(ExtractTheory)
        self.extract_with_target = dspy.Predict(ExtractTheoryAndTarget)
        self.extract_by_fragment = dspy.Predict(ExtractByFragment)
        self.extract_by_fragment_with_target = dspy.Predict(ExtractByFragmentAndTarget)

    def forward(self, query: str, evidence: EvidencePackage, target: str | None = None,
                candidate: Analysis | None = None) -> dspy.Prediction:
        """Extract, ground, evaluate; in audit mode also diff the candidate with the extraction.

        A backbone that decodes under the per-case grammar (:mod:`assistant.constrained`)
        is asked for the by-fragment form (:mod:`assistant.by_fragment`), any other for
        the theory's objects.
        """
        by_fragment = decodes_under_grammar()
        if target:
            target = normalize_literal(target)
            extract = self.extract_by_fragment if by_fragment else self.extract
            theory = extract(query=query, evidence=evidence, target=target).theory
        else:
            extract = self.extract_by_fragment_with_target if by_fragment else self.extract_with_target
            theory = extract(query=query, evidence=evidence).theory
            target = theory.target
        analysis = to_analysis(theory)
        started = time.perf_counter()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # an unresolved priority cycle is shown in the trace
            evaluation = evaluate_analysis(evidence.ids, analysis, target)
        diagnostics = None
        if candidate is not None:
            grounded = Analysis(facts=evaluation.theory.facts, rules=evaluation.theory.rules,
                                attacks=evaluation.theory.attacks, priorities=evaluation.theory.priorities)
            diagnostics = diff_candidate(candidate, grounded, evidence.ids, target,
                                         explicit_attack_edges(evaluation))
        common = common_from_evaluation(evaluation, analysis)
        trace = trace_from_evaluation(evaluation, analysis, query, diagnostics, unresolved=theory.dropped)
        engine_ms = (time.perf_counter() - started) * 1000.0
        return dspy.Prediction(common=common, trace=trace, evaluation=evaluation, analysis=analysis,
                               target=target, engine_ms=engine_ms)


#: The configurations B1-B4 (paper Section 4.6, Table 3), by name.
CONFIGURATIONS: Registry[dspy.Module] = Registry("configuration", (
    Entry.of_class(name, module, paper="Section 4.6, Table 3")
    for name, module in (("b1", B1), ("b2", B2), ("b3", B3), ("b4", B4))))


def build(config: str) -> dspy.Module:
    """A fresh module for configuration ``b1``..``b4`` or a baseline of :mod:`assistant.baselines`
    (case-insensitive).

    Raises
    ------
    ConfigurationError
        For an unknown name.

    Examples
    --------
    >>> type(build("B4")).__name__, type(build("graphrag")).__name__
    ('B4', 'GraphRAG')
    """
    from .baselines import BASELINES  # lazy: the baselines import this package's modules

    name = config.strip().lower()
    factory = CONFIGURATIONS.get(name) or BASELINES.get(name)
    if factory is None:
        raise ConfigurationError(f"unknown configuration {config!r}; expected one of b1, b2, b3, b4, "
                                 + ", ".join(sorted(BASELINES)))
    return factory()
