"""The Python API: one call from a query and an evidence package to an
:class:`~scorer.contract.OutputRecord`, for services and the experiments runner.

>>> from assistant.scripted import Script
>>> rec = ask("Is a penalty due?", [{"id": "E-01", "text": "A penalty is due.", "source": "Contract"}],
...           config="b1", model="scripted/null")
>>> rec.common.final_status.value, rec.meta.calls
('undecidable', 1)
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Iterable

import dspy
from pydantic import ValidationError

from symbolic.errors import ParatraceError
from symbolic.scenario.model import Analysis, EvidenceFragment, Scenario
from scorer.contract import OutputRecord, RunMeta

from .adapter import CallRecord, InstructorAdapter, recording
from .backends import Backbone, Decoding, describe_failure, resolve
from .configs import build
from .errors import CallLimitError, InputLimitError, ValidationFailure
from .evidence import EvidencePackage, Limits, check_inputs
from .variants import Variant, apply_variant

__all__ = ["Assistant", "RunResult", "ask"]


@dataclass(frozen=True, slots=True)
class RunResult:
    """One run: the output record, the LM calls and the engine's time.

    Attributes
    ----------
    record : OutputRecord
    calls : tuple of CallRecord
        Every LM call, re-asks included, with tokens and latency.
    engine_ms : float
        Time spent in the symbolic engine (B4; 0 otherwise).
    total_ms : float
        Wall-clock time of the case.
    prediction : dspy.Prediction or None
        The module's prediction (``None`` on a hard failure).
    """

    record: OutputRecord
    calls: tuple[CallRecord, ...]
    engine_ms: float
    total_ms: float
    prediction: Any = None


def _fragments(evidence) -> tuple[EvidenceFragment, ...]:
    """The fragments of ``evidence``; a malformed one is an :class:`InputLimitError` naming its field."""
    if isinstance(evidence, EvidencePackage):
        return evidence.fragments
    fragments = []
    for i, f in enumerate(evidence):
        if isinstance(f, EvidenceFragment):
            fragments.append(f)
            continue
        try:
            fragments.append(EvidenceFragment.model_validate(f))
        except ValidationError as exc:
            err = exc.errors(include_url=False)[0]
            where = ".".join(str(p) for p in err["loc"])
            msg = "missing required field" if err["type"] == "missing" else (
                f"unknown field {str(err['loc'][-1])!r}" if err["type"] == "extra_forbidden" else err["msg"])
            raise InputLimitError(f"fragment {i}: {msg.removeprefix('Value error, ')}",
                                  field=f"evidence.{i}" + (f".{where}" if where else "")) from None
    return tuple(fragments)


class Assistant:
    """A configured assistant: configuration, backbone, prompt variant and limits.

    Parameters
    ----------
    config : str
        ``b1``, ``b2``, ``b3`` or ``b4``.
    model : str, optional
        Backbone model string (see :func:`assistant.backends.resolve`).
    variant : str, optional
        Prompt variant (:class:`~assistant.variants.Variant`).
    demos : dict, optional
        Demos per predictor for few-shot variants (:func:`~assistant.variants.demos_for`).
    decoding : Decoding, optional
        Decoding parameters (paper defaults).
    api_base : str, optional
        OpenAI-compatible endpoint of the model.
    api_key_env : str, optional
        The environment variable holding the endpoint's key
        (see :func:`assistant.backends.resolve`).
    max_retries : int, optional
        Instructor re-asks after an invalid reply (at most the backbone's
        ``max_reasks`` when it sets one).
    limits : Limits, optional
        Input size limits.
    backbone : Backbone, optional
        An already resolved backbone (overrides ``model``).
    program : dspy.Module, optional
        A compiled program of this configuration (from an optimizer).
    """

    def __init__(self, config: str = "b4", model: str | None = None, *, variant: str = "standard",
                 demos: dict | None = None, decoding: Decoding = Decoding(), api_base: str | None = None,
                 max_retries: int = 2, limits: Limits = Limits(), backbone: Backbone | None = None,
                 program: dspy.Module | None = None, cache: bool = True, api_key_env: str | None = None):
        self.config = config.strip().lower()
        self.variant = Variant.parse(variant)
        self.program = program if program is not None else apply_variant(build(self.config), self.variant, demos)
        self.backbone = backbone or resolve(model, decoding=decoding, api_base=api_base, cache=cache,
                                            api_key_env=api_key_env)
        if self.backbone.max_reasks is not None:
            max_retries = min(max_retries, self.backbone.max_reasks)
        self.adapter = InstructorAdapter(max_retries=max_retries, constrained=self.backbone.json_schema,
                                         endpoint=self.backbone.endpoint or None)
        self.limits = limits

    def run(self, query: str, evidence, *, target: str | None = None, candidate: Analysis | None = None,
            case_id: str = "ask", repeat: int = 0) -> RunResult:
        """Answer ``query`` over ``evidence`` (and audit ``candidate`` when given).

        Raises
        ------
        InputLimitError
            If the query or evidence exceed the limits.
        CallLimitError
            If a call hit its token or time bound (its ``calls`` attribute
            holds the :class:`CallRecord` of every call the case made).
        BackendError
            If the backbone could not be reached or refused the call (naming
            the backbone, its endpoint and the cause); the provider's error is
            its ``__cause__``.
        """
        fragments = _fragments(evidence)
        check_inputs(query, fragments, self.limits, target=target)
        package = EvidencePackage(fragments=fragments)
        started = time.perf_counter()
        cell = dict(case_id=case_id, configuration=self.config, model=self.backbone.model,
                    variant=self.variant.name, repeat=repeat)
        with recording() as log, dspy.context(lm=self.backbone.lm, adapter=self.adapter):
            try:
                pred = self.program(query=query, evidence=package, target=target, candidate=candidate)
            except ValidationFailure as exc:
                pred, failure = None, exc
            except CallLimitError as exc:
                exc.calls = tuple(log.calls)  # what the bounded case spent, for the runner's record
                exc.elapsed_ms = (time.perf_counter() - started) * 1000.0
                raise
            except ParatraceError:
                raise
            except Exception as exc:  # noqa: BLE001 - provider errors become one typed line
                raise describe_failure(self.backbone, exc) from exc
        total_ms = (time.perf_counter() - started) * 1000.0
        calls = tuple(log.calls)
        usage = dict(prompt_tokens=log.prompt_tokens, completion_tokens=log.completion_tokens,
                     latency_ms=total_ms, calls=len(calls))
        reasks = tuple(f"re-ask after call {i + 1}: {c.error}" for i, c in enumerate(calls) if c.error)
        if pred is None:
            record = OutputRecord.failure(raw_text=failure.raw_text, reason=str(failure), repair_log=reasks,
                                          **cell, **usage)
            return RunResult(record, calls, 0.0, total_ms)
        trace = pred.trace if self.variant.contract == "trace-v2" else None
        raw = "\n".join(c.raw_text for c in calls if not c.error)
        record = OutputRecord(**cell, common=pred.common, trace=trace,
                              meta=RunMeta(raw_text=raw, repair_log=reasks, **usage))
        return RunResult(record, calls, float(pred.get("engine_ms", 0.0) or 0.0), total_ms, pred)

    def ask(self, query: str, evidence, *, target: str | None = None,
            candidate: Analysis | None = None) -> OutputRecord:
        """:meth:`run`, returning only the output record."""
        return self.run(query, evidence, target=target, candidate=candidate).record

    def run_scenario(self, scenario: Scenario, *, audit: bool | None = None, repeat: int = 0) -> RunResult:
        """Run one benchmark case: its query, evidence, target and (in audit mode) candidate.

        The gold analysis and the metadata are never read.
        """
        audit = scenario.candidate is not None if audit is None else audit
        return self.run(scenario.query, scenario.evidence, target=scenario.target,
                        candidate=scenario.candidate if audit else None, case_id=scenario.id, repeat=repeat)


def ask(query: str, evidence: Iterable[EvidenceFragment | dict] | EvidencePackage, config: str = "b4",
        model: str | None = None, *, target: str | None = None, variant: str = "standard",
        api_base: str | None = None, **kwargs) -> OutputRecord:
    """Answer ``query`` over ``evidence`` with one configuration and backbone.

    Parameters
    ----------
    query : str
        The question.
    evidence : iterable of EvidenceFragment or dict, or EvidencePackage
        The evidence package.
    config : str, optional
        ``b1``..``b4`` (default ``b4``).
    model : str, optional
        Backbone; the embedded local model when ``None`` and ``$PARATRACE_MODEL`` is unset.
    target : str, optional
        The proposition asked about, as a literal; B4 asks the LM for it otherwise.
    variant : str, optional
        Prompt variant.
    api_base : str, optional
        OpenAI-compatible endpoint.
    **kwargs
        Further :class:`Assistant` options.

    Returns
    -------
    OutputRecord
        A hard-failure record (with the raw text) when validation failed after the re-asks.
    """
    return Assistant(config, model, variant=variant, api_base=api_base, **kwargs).ask(query, evidence, target=target)


