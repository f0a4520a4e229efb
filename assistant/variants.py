"""Prompt variants for the paper's fairness controls (Section 4.6, Table 13).

A :class:`Variant` fixes the instruction style (``zero-shot``: the task in one
sentence; ``compact``: the task with short definitions; ``standard``: the
signature's full instruction), the number of demos (``five-shot``: five demos
drawn from a held-out split, never from the evaluated cases or their update
pairs) and the output contract (``common-v1`` alone or with ``trace-v2``).
Names: ``standard``, ``compact``, ``zero-shot``, ``five-shot``, optionally
followed by ``+common-v1`` or ``+trace-v2``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Iterable

import dspy

from symbolic.scenario.model import Scenario

from .errors import ConfigurationError
from .evidence import EvidencePackage
from .extraction import Extraction, FactOut, PriorityOut, RuleOut, StructuredAnswer, TargetedExtraction, AttackOut
from .schemas import CitedAnswer, SelfCheck

__all__ = ["INSTRUCTIONS", "Variant", "apply_variant", "demo_fields", "demos_for", "instruction"]

_STATUS_SHORT = "Status: accepted, rejected, both (conflict unresolved) or undecidable (nothing grounded)."

INSTRUCTIONS: dict[str, dict[str, str]] = {
    "zero-shot": {
        "AnswerWithCitations": "Answer the question from the evidence, cite fragment ids, give the status.",
        "SelfCheckAnswer": "Check the draft answer against the evidence, then give the final answer and status.",
        "ExtractThenAnswer": "Extract facts and rules with fragment ids, then answer and give the status.",
        "ExtractTheory": "Extract facts, rules, attacks and priorities with fragment ids.",
        "ExtractTheoryAndTarget": "Extract facts, rules, attacks and priorities with fragment ids, and the target.",
        "ExtractByFragment": "Say for each fragment whether it states a rule, reports a fact, or has no role.",
        "ExtractByFragmentAndTarget": ("Say for each fragment whether it states a rule, reports a fact, or has no "
                                       "role, and state the target."),
        "AuditCandidate": "Audit the candidate analysis: defect class, its location, corrected answer and status.",
    },
    "compact": {
        "AnswerWithCitations": f"Answer only from the evidence; cite fragment ids. {_STATUS_SHORT}",
        "SelfCheckAnswer": ("Check the draft for missed exceptions, contradictions, uncertainty and uncited "
                            f"fragments; then answer. {_STATUS_SHORT}"),
        "ExtractThenAnswer": ("Extract facts (literals) and rules (antecedents => consequent) with fragment ids, "
                              f"then answer from them. {_STATUS_SHORT}"),
        "ExtractTheory": ("Extract facts, rules (exception to rK: consequent ¬applicable(rK)), explicit attacks and "
                          "grounded priorities (stronger > weaker, with basis), each citing fragment ids. Use the "
                          "target's predicate names. Do not judge the question."),
        "ExtractTheoryAndTarget": ("Extract facts, rules (exception to rK: consequent ¬applicable(rK)), explicit "
                                   "attacks and grounded priorities (stronger > weaker, with basis), each citing "
                                   "fragment ids, and the asked proposition as a literal. Do not judge it."),
        "ExtractByFragment": ("For each fragment: a rule (the circumstance it requires, yes or no for the question, "
                              "the rule fragments it overrides), a fact (the rule fragments whose circumstance it "
                              "meets) or no role. Do not judge the question."),
        "ExtractByFragmentAndTarget": ("For each fragment: a rule (the circumstance it requires, yes or no for the "
                                       "question, the rule fragments it overrides), a fact (the rule fragments "
                                       "whose circumstance it meets) or no role; and the asked proposition as a "
                                       "literal. Do not judge it."),
        "AuditCandidate": ("Find the candidate's defect (missing_evidence, incomplete_coverage, extraction_error, "
                           "priority_inversion, attack_deletion, invalid_proof_node or none) and its object id; "
                           f"give the corrected answer. {_STATUS_SHORT}"),
    },
}
_PRESETS = {"standard": ("standard", 0), "compact": ("compact", 0), "zero-shot": ("zero-shot", 0),
            "five-shot": ("standard", 5)}
_CONTRACTS = ("common-v1", "trace-v2")


@dataclass(frozen=True, slots=True)
class Variant:
    """A prompt variant.

    Examples
    --------
    >>> v = Variant.parse("five-shot+common-v1")
    >>> v.style, v.shots, v.contract, v.name
    ('standard', 5, 'common-v1', 'five-shot+common-v1')
    >>> Variant.parse("standard").contract
    'trace-v2'
    """

    name: str = "standard"
    style: str = "standard"
    shots: int = 0
    contract: str = "trace-v2"

    @classmethod
    def parse(cls, text: str | None) -> "Variant":
        """Parse ``preset[+contract]``.

        Raises
        ------
        ConfigurationError
            For an unknown preset or contract.
        """
        text = (text or "standard").strip().lower()
        preset, _, contract = text.partition("+")
        if preset not in _PRESETS:
            raise ConfigurationError(f"unknown prompt variant {preset!r}; expected one of "
                                     + ", ".join(sorted(_PRESETS)))
        contract = contract or "trace-v2"
        if contract not in _CONTRACTS:
            raise ConfigurationError(f"unknown output contract {contract!r}; expected common-v1 or trace-v2")
        style, shots = _PRESETS[preset]
        return cls(name=text, style=style, shots=shots, contract=contract)


def instruction(style: str, signature: str) -> str | None:
    """The instruction of the signature named ``signature`` in prompt style ``style``.

    Looks in the configurations' table (:data:`INSTRUCTIONS`), then in the
    baselines' (:data:`assistant.baselines.variants.INSTRUCTIONS`); ``None``
    when neither has one (the signature keeps its standard instruction).

    Examples
    --------
    >>> instruction("compact", "EvaluatePath").startswith("Value the reading")
    True
    >>> instruction("compact", "NoSuchSignature") is None
    True
    """
    from .baselines.variants import INSTRUCTIONS as BASELINES

    return INSTRUCTIONS.get(style, {}).get(signature) or BASELINES.get(style, {}).get(signature)


def apply_variant(module: dspy.Module, variant: Variant, demos: dict[str, list] | None = None) -> dspy.Module:
    """Set the variant's instructions and demos on every predictor of ``module`` (in place).

    Raises
    ------
    ConfigurationError
        If a few-shot variant gets no demos.
    """
    if variant.shots and not demos:
        raise ConfigurationError(f"variant {variant.name!r} needs demos from a held-out split (see demos_for)")
    for name, predictor in module.named_predictors():
        if variant.style != "standard":
            text = instruction(variant.style, predictor.signature.__name__)
            if text:
                predictor.signature = predictor.signature.with_instructions(text)
        if demos is not None:
            predictor.demos = list(demos.get(name, ()))[: variant.shots or None]
    return module


def _answer(s: Scenario) -> CitedAnswer:
    g = s.gold
    cited = sorted({e for obj in [*g.facts, *g.rules, *g.priorities] for e in obj.evidence})
    return CitedAnswer(answer=f"{s.target} is {g.status.value}.", cited=cited, conflict=bool(s.metadata.contradiction),
                       priority_applied=bool(g.priorities), status=g.status)


def _extraction(s: Scenario, cls=Extraction, **extra):
    g = s.gold
    return cls(facts=[FactOut(id=f.id, literal=f.literal, evidence=list(f.evidence)) for f in g.facts],
               rules=[RuleOut(id=r.id, antecedents=list(r.antecedents), consequent=r.consequent, kind=r.kind,
                              evidence=list(r.evidence)) for r in g.rules],
               attacks=[AttackOut(source=a.source, target=a.target, kind=a.kind, evidence=list(a.evidence))
                        for a in g.attacks],
               priorities=[PriorityOut(stronger=p.stronger, weaker=p.weaker, basis=p.basis, evidence=list(p.evidence))
                           for p in g.priorities], **extra)


def demo_fields(s: Scenario) -> dict[str, dict]:
    """Inputs and gold-derived outputs of every predictor for one (held-out) scenario.

    Used for demos and for the oracle replies of dry runs and benchmarks; never
    for the case being evaluated.
    """
    q, ev = s.query, EvidencePackage.of(s.evidence)
    answer = _answer(s)
    b3 = StructuredAnswer(facts=_extraction(s).facts, rules=_extraction(s).rules, result=answer)
    return {
        "answer": {"query": q, "evidence": ev, "result": answer},
        "check": {"query": q, "evidence": ev, "draft": answer, "check": SelfCheck(final=answer)},
        "extract": {"query": q, "evidence": ev, "analysis": b3, "target": s.target, "theory": _extraction(s)},
        "extract_with_target": {"query": q, "evidence": ev,
                                "theory": _extraction(s, TargetedExtraction, target=s.target)},
        # The same gold theories; under a grammar the adapter shows them in the by-fragment form.
        "extract_by_fragment": {"query": q, "evidence": ev, "target": s.target, "theory": _extraction(s)},
        "extract_by_fragment_with_target": {"query": q, "evidence": ev,
                                            "theory": _extraction(s, TargetedExtraction, target=s.target)},
    }


def demos_for(module: dspy.Module, pool: Iterable[Scenario], evaluated: Iterable[Scenario], *, k: int = 5,
              seed: int = 42) -> dict[str, list[dspy.Example]]:
    """Demos for each predictor of ``module``, built from the gold of held-out scenarios.

    Parameters
    ----------
    module : dspy.Module
        A configuration module (its predictors' output fields pick the demo fields).
    pool : iterable of Scenario
        The held-out split.
    evaluated : iterable of Scenario
        The cases that will be evaluated; they and their update pairs are excluded.
    k : int, optional
        Demos per predictor.
    seed : int, optional
        Seed of the draw.

    Returns
    -------
    dict
        Predictor name -> list of ``dspy.Example``.

    Raises
    ------
    ConfigurationError
        If the pool holds an evaluated case or too few scenarios remain.
    """
    evaluated = list(evaluated)
    ids = {s.id for s in evaluated}
    pairs = {s.metadata.pair for s in evaluated if s.metadata.pair}
    pool = sorted(pool, key=lambda s: s.id)
    overlap = sorted(s.id for s in pool if s.id in ids)
    if overlap:
        raise ConfigurationError("the demo pool contains evaluated cases: " + ", ".join(overlap[:5]))
    pool = [s for s in pool if not (s.metadata.pair and s.metadata.pair in pairs)]
    if len(pool) < k:
        raise ConfigurationError(f"the held-out pool has {len(pool)} usable scenarios; {k} demos are needed")
    chosen = random.Random(seed).sample(pool, k)
    demos: dict[str, list[dspy.Example]] = {}
    for name, predictor in module.named_predictors():
        wanted = set(predictor.signature.fields)
        examples = []
        for s in chosen:
            fields = demo_fields(s).get(name)
            if fields is None:
                break
            fields = {key: value for key, value in fields.items() if key in wanted}
            if set(fields) == wanted:
                examples.append(dspy.Example(**fields).with_inputs(*predictor.signature.input_fields))
        if examples:
            demos[name] = examples
    return demos
