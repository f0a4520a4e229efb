"""Solving one runner task with the assistant, and the hard-failure record of a
task whose error survived its retries."""

from __future__ import annotations

import dataclasses
import threading
import warnings

from symbolic.scenario.model import Scenario

from .engine import CaseOutcome, Task
from .manifest import digest_json, redact
from .spec import Backbone, CellKey

__all__ = ["AssistantSolver", "CaseWork", "hard_failure", "limit_outcome", "prompt_digest"]


@dataclasses.dataclass(frozen=True)
class CaseWork:
    """The payload of a task: the scenario and the backbone to run it on."""

    scenario: Scenario
    backbone: Backbone


class AssistantSolver:
    """Runs tasks through :class:`assistant.api.Assistant`, one assistant per
    grid cell (:class:`~experiments.runner.spec.CellKey`), built on first use.

    Repeats get distinct DSPy cache entries (``rollout_id``) so a repeated run
    asks the model again instead of replaying the first answer; a resumed run
    still replays what it already asked.

    Parameters
    ----------
    max_retries : int
        Instructor re-asks after an invalid reply.
    resolved : mapping, optional
        Already resolved backbones (:class:`assistant.backends.Backbone`) by
        backbone name, used instead of resolving the model string (tests,
        embedding, custom LMs).
    demo_pools : mapping, optional
        Per suite: ``(pool, evaluated)`` scenarios for few-shot variants
        (:func:`~experiments.runner.plan.demo_pools`); demos are drawn
        from the pool with ``seed``, never from evaluated cases or their pairs.
    seed : int
        Seed of the demo draw.
    shipped_programs : bool
        Run the programs shipped for the embedded default model
        (:func:`assistant.programs.shipped_program`) in its standard-variant cells.
    """

    def __init__(self, *, max_retries: int = 2, resolved=None, demo_pools=None, seed: int = 42,
                 timeout_s: float | None = None, shipped_programs: bool = False):
        self.max_retries = max_retries
        self.shipped_programs = shipped_programs
        self.timeout_s = timeout_s
        self.resolved = dict(resolved or {})
        self.demo_pools = dict(demo_pools or {})
        self.seed = seed
        self._cells: dict[CellKey, object] = {}
        self.prompt_hashes: dict[CellKey, str] = {}
        self._lock = threading.Lock()

    def _demos(self, configuration: str, variant: str, suite: str):
        from assistant.configs import build
        from assistant.variants import Variant, demos_for

        shots = Variant.parse(variant).shots
        if not shots:
            return None
        pool, evaluated = self.demo_pools.get(suite, ((), ()))
        return demos_for(build(configuration), pool, evaluated, k=shots, seed=self.seed)

    def assistant(self, cell: CellKey, backbone: Backbone):
        """The (cached) assistant of ``cell``, run on ``backbone`` (named ``cell.backbone``)."""
        configuration, variant, repeat = cell.configuration, cell.variant, cell.repeat
        with self._lock:
            if cell not in self._cells:
                from assistant.api import Assistant
                from assistant.backends import resolve

                from .preflight import backbone_decoding

                resolved = self.resolved.get(backbone.name)
                if resolved is None:
                    resolved = resolve(backbone.model, decoding=backbone_decoding(backbone, self.timeout_s),
                                       api_base=backbone.api_base,
                                       api_key_env=backbone.api_key_env)
                if repeat:
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore")
                        resolved = dataclasses.replace(resolved, lm=resolved.lm.copy(rollout_id=repeat))
                loaded = None
                if self.shipped_programs and variant == "standard":
                    from assistant.programs import shipped_program

                    loaded = shipped_program(configuration, backbone.model)
                assistant = Assistant(configuration, backbone=resolved, variant=variant,
                                      max_retries=self.max_retries,
                                      demos=self._demos(configuration, variant, cell.suite),
                                      program=loaded.program if loaded else None)
                self._cells[cell] = assistant
                self.prompt_hashes[cell] = prompt_digest(assistant.program)
            return self._cells[cell]

    def __call__(self, task: Task) -> CaseOutcome:
        work: CaseWork = task.payload
        key = task.key
        from assistant.errors import CallLimitError

        assistant = self.assistant(key.cell, work.backbone)
        prompt_hash = self.prompt_hashes[key.cell]
        try:
            result = assistant.run_scenario(work.scenario, repeat=key.repeat)
        except CallLimitError as exc:
            return limit_outcome(task, exc, prompt_hash)
        record = result.record.model_copy(update={"model": key.backbone})
        meta = record.meta
        tokens = (meta.prompt_tokens or 0) + (meta.completion_tokens or 0)
        outcome = "parse_failure" if meta.hard_failure else "scored"
        return CaseOutcome(outcome, record.model_dump(mode="json", exclude_none=True),
                           calls=meta.calls or 0, tokens=tokens, extra={"prompt_hash": prompt_hash},
                           cached=sum(1 for call in result.calls if call.cache_hit))


def limit_outcome(task: Task, exc, prompt_hash: str = "") -> CaseOutcome:
    """The record of a case whose call hit its token or time bound: not scored,
    with the calls, tokens and time it spent (``exc.calls``, ``exc.elapsed_ms``)."""
    from scorer.contract import OutputRecord

    key = task.key
    calls = tuple(getattr(exc, "calls", ()) or ())
    prompt = sum(c.prompt_tokens for c in calls)
    completion = sum(c.completion_tokens for c in calls)
    reason = redact({"r": f"{type(exc).__name__}: {exc}"})["r"][:2000]
    record = OutputRecord.failure(case_id=key.case, configuration=key.configuration, model=key.backbone,
                                  variant=key.variant, repeat=key.repeat,
                                  raw_text=calls[-1].raw_text if calls else "", reason=reason,
                                  prompt_tokens=prompt, completion_tokens=completion, calls=len(calls),
                                  latency_ms=getattr(exc, "elapsed_ms", None))
    return CaseOutcome("limit", record.model_dump(mode="json", exclude_none=True), calls=len(calls),
                       tokens=prompt + completion, extra={"prompt_hash": prompt_hash} if prompt_hash else {})


def prompt_digest(program) -> str:
    """``sha256:`` of everything a program puts in its prompts: per predictor,
    the signature's instructions, field names and descriptions, and the demos."""
    parts = []
    for name, predictor in program.named_predictors():
        sig = predictor.signature
        fields = [(n, str((f.json_schema_extra or {}).get("desc", ""))) for n, f in sig.fields.items()]
        demos = [{k: str(v) for k, v in dict(d).items()} for d in getattr(predictor, "demos", [])]
        parts.append({"predictor": name, "instructions": sig.instructions, "fields": fields, "demos": demos})
    return digest_json(parts)


def hard_failure(task: Task, exc: BaseException) -> CaseOutcome:
    """The record of a task that failed for good, never dropped: an
    infrastructure error (outcome ``infra_error``) or a call that hit its token
    or time bound (outcome ``limit``); neither is scored.

    A setup problem (an unknown configuration or variant, the local model's
    extra not installed, a model string without provider) is not a case
    failure: it is raised again so that the run stops with a clear message and
    ``--resume`` can continue once it is fixed.
    """
    from assistant.errors import ConfigurationError, LocalModelError, call_limit_in
    from scorer.contract import OutputRecord

    if isinstance(exc, (ConfigurationError, LocalModelError)):
        raise exc

    key = task.key
    reason = redact({"r": f"{type(exc).__name__}: {exc}"})["r"][:2000] or type(exc).__name__
    record = OutputRecord.failure(case_id=key.case, configuration=key.configuration, model=key.backbone,
                                  variant=key.variant, repeat=key.repeat, raw_text="", reason=reason)
    outcome = "limit" if call_limit_in(exc) is not None else "infra_error"
    return CaseOutcome(outcome, record.model_dump(mode="json", exclude_none=True))
