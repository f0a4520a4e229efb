"""One optimization run: split, score before, compile, check demos, score after, save.

Results are always those of the held-out *test* split; the validation split
only selects among candidates, and no demo may come from either (checked
after compiling, :func:`optimize.data.check_demos`).  The saved directory
holds the program and manifest (:mod:`optimize.programs`) plus
``evaluation.json``, the per-case held-out scores before and after, which the
ledger pairs for McNemar's test.
"""

from __future__ import annotations

import itertools
import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from assistant.programs import Manifest, model_family
from experiments.splits import DEFAULT_FRACTIONS, Split, split_scenarios
from symbolic.scenario.model import Scenario
from symbolic.support.fsio import PathError, read_text

from .data import Evaluation, LMCallCounter, check_demos, evaluate, to_examples
from .errors import OptimizeError
from .objectives import Objective
from .optimizers import make_optimizer
from .programs import save_program
from .tutor import TUTOR_MODELS, tutor_for

__all__ = [
    "EVALUATION_FILE",
    "RunOutcome",
    "RunSpec",
    "read_evaluation",
    "resolve_backbone",
    "run_optimization",
]

EVALUATION_FILE = "evaluation.json"


def resolve_backbone(model: str, scenarios: Sequence[Scenario] = (), *, seed: int = 0, api_base: str | None = None,
                     api_key_env: str | None = None):
    """A backbone for ``model``: a tutor for ``scripted/tutor*``, else :func:`assistant.backends.resolve`
    (with the paper's decoding defaults and the optional OpenAI-compatible ``api_base``).

    Examples
    --------
    >>> resolve_backbone("scripted/tutor-hint").model
    'scripted/tutor-hint'
    """
    if model in TUTOR_MODELS:
        return tutor_for(model, scenarios, seed=seed)
    from assistant.backends import resolve

    return resolve(model, api_base=api_base, api_key_env=api_key_env)


@dataclass(frozen=True)
class RunSpec:
    """What to optimize and how.

    Attributes
    ----------
    config : str
        Base configuration (``b4`` by default).
    model : str
        Backbone model string (one family).
    optimizer : str
        Name in :data:`optimize.optimizers.OPTIMIZERS`.
    budget : str or None
        Optimizer budget (see :mod:`optimize.optimizers`).
    seed : int
        Seed of the split and the optimizer.
    weights : mapping or None
        Objective weights (:data:`optimize.objectives.DEFAULT_WEIGHTS` when ``None``).
    fractions : tuple of float
        Train, validation, test shares.
    num_threads : int
        Threads for DSPy's evaluations.
    suite : str
        Name or path of the suite (recorded in the manifest for the ledger's transfer matrix).
    api_base : str or None
        OpenAI-compatible endpoint of the model (recorded in the manifest, credentials in it masked).
    api_key_env : str or None
        Environment variable holding the endpoint's key (its name is recorded, never its value).
    reflection_model : str or None
        Model for GEPA's reflection and MIPROv2's proposals (default: ``model`` itself).
    reflection_api_base : str or None
        OpenAI-compatible endpoint of ``reflection_model`` (default: its provider's).
    reflection_api_key_env : str or None
        Environment variable holding that endpoint's key (default ``PARATRACE_API_KEY``
        with an endpoint, else the provider's own).
    """

    config: str = "b4"
    model: str = "scripted/tutor"
    optimizer: str = "gepa"
    budget: str | None = None
    seed: int = 0
    weights: Mapping[str, float] | None = None
    fractions: tuple[float, float, float] = DEFAULT_FRACTIONS
    num_threads: int = 1
    suite: str = ""
    api_base: str | None = None
    api_key_env: str | None = None
    reflection_model: str | None = None
    reflection_api_base: str | None = None
    reflection_api_key_env: str | None = None

    def __post_init__(self):
        if (self.reflection_api_base or self.reflection_api_key_env) and not self.reflection_model:
            raise OptimizeError("--reflection-api-base and --reflection-api-key-env name the reflection model's "
                                "endpoint; give the model with --reflection-model")


@dataclass(frozen=True)
class RunOutcome:
    """A finished run: where it was saved, its manifest, the held-out evaluations and the program."""

    directory: Path
    manifest: Manifest
    before: Evaluation
    after: Evaluation
    split: Split
    program: Any = field(repr=False, default=None)
    seconds: float = 0.0


def _evaluation_json(before: Evaluation, after: Evaluation, split: Split) -> str:
    def case(evaluation: Evaluation, cid: str) -> dict:
        out = {"score": round(evaluation.scores[cid], 6), "correct": evaluation.correct[cid]}
        if cid in evaluation.answered:
            out.update(scored=evaluation.answered[cid], tokens=evaluation.tokens[cid])
        return out

    cases = {cid: {"before": case(before, cid), "after": case(after, cid)} for cid in sorted(before.scores)}
    payload = {"split": {name: list(split.ids(name)) for name in ("train", "val", "test")}, "test": cases}
    return json.dumps(payload, indent=2, ensure_ascii=False) + "\n"


def read_evaluation(directory: str | Path) -> dict:
    """The ``evaluation.json`` of a saved run.

    Raises
    ------
    OptimizeError
        If it is missing or malformed.
    """
    path = Path(directory) / EVALUATION_FILE
    try:
        data = json.loads(read_text(path))
        data["test"], data["split"]["test"]
    except PathError as exc:
        raise OptimizeError(f"{path}: cannot read ({exc.reason})") from None
    except (ValueError, KeyError, TypeError):
        raise OptimizeError(f"{path}: not a held-out evaluation (expected 'split' and 'test')") from None
    return data


def _reflection_lm(spec: RunSpec, scenarios: Sequence[Scenario]):
    """The reflection model's LM at its endpoint, checked first with a one-token completion.

    The optimizers call it only now and then, and a failed reflection is
    skipped, not reported: without the check, a dead or refusing endpoint
    would pass unnoticed.  The check sends no response format (reflection
    asks for free text).

    Raises
    ------
    assistant.errors.BackendError
        Naming the reflection model, its endpoint and the cause.
    """
    from dataclasses import replace

    from assistant.probe import probe

    backbone = resolve_backbone(spec.reflection_model, scenarios, seed=spec.seed, api_base=spec.reflection_api_base,
                                api_key_env=spec.reflection_api_key_env)
    if spec.reflection_model not in TUTOR_MODELS:
        probe(replace(backbone, json_schema=False), name=f"reflection model {spec.reflection_model}")
    return backbone.lm


def run_optimization(spec: RunSpec, scenarios: Sequence[Scenario], out_dir: str | Path, *,
                     backbone=None, reflection_lm=None,
                     progress: Callable[[str], None] | None = None) -> RunOutcome:
    """Optimize ``spec.config`` for ``spec.model`` on ``scenarios`` and save the program to ``out_dir``.

    Parameters
    ----------
    spec : RunSpec
    scenarios : sequence of Scenario
        The suite; split by :func:`experiments.splits.split_scenarios` with ``spec.seed``.
    out_dir : str or Path
        Directory for ``program.json``, ``manifest.json`` and ``evaluation.json``.
    backbone : Backbone, optional
        Overrides :func:`resolve_backbone` of ``spec.model``.
    reflection_lm : dspy.LM, optional
        GEPA's reflection LM / MIPROv2's prompt model (default: ``spec.reflection_model``
        resolved, else the backbone's LM).
    progress : callable, optional
        Receives one line per phase and per evaluated case (``before 3/22 held-out
        cases (bank-004)``), for a progress display.

    Returns
    -------
    RunOutcome

    Raises
    ------
    OptimizeError
        On a bad optimizer, budget, weights or split, or a demo from a held-out case.
    """
    import dspy

    from assistant.adapter import InstructorAdapter
    from assistant.configs import build
    from assistant.errors import ConfigurationError

    try:
        student = build(spec.config)
    except ConfigurationError as exc:
        raise OptimizeError(str(exc)) from None
    split = split_scenarios(scenarios, seed=spec.seed, fractions=spec.fractions)
    objective = Objective(scenarios, spec.weights)
    if reflection_lm is None and spec.reflection_model:
        reflection_lm = _reflection_lm(spec, scenarios)
    optimizer = make_optimizer(spec.optimizer, objective, budget=spec.budget, seed=spec.seed,
                               num_threads=spec.num_threads, reflection_lm=reflection_lm)
    backbone = backbone or resolve_backbone(spec.model, scenarios, seed=spec.seed, api_base=spec.api_base,
                                              api_key_env=spec.api_key_env)
    adapter = InstructorAdapter(constrained=backbone.json_schema)
    started = time.perf_counter()
    calls: dict[str, int] = {}
    say = progress or (lambda line: None)

    def cases(phase: str):
        return lambda done, total, case_id: say(f"{phase} {done}/{total} held-out cases ({case_id})")

    with dspy.context(lm=backbone.lm, adapter=adapter):
        with LMCallCounter() as counter:
            before = evaluate(student, split.test, objective, progress=cases("before"))
        calls["before"] = counter.calls
        say(f"compiling with {optimizer.name} (budget {optimizer.budget}): train {len(split.train)}, "
            f"val {len(split.val)} cases")
        scored = itertools.count(1)
        objective.on_score = lambda case_id, value: say(f"compile: {next(scored)} cases scored ({case_id}: "
                                                        f"{value:.2f})")
        try:
            with LMCallCounter() as counter:
                program = optimizer.compile(student, trainset=to_examples(split.train, spec.config),
                                            valset=to_examples(split.val, spec.config))
        finally:
            objective.on_score = None
        calls["compile"] = counter.calls
        check_demos(program, [*split.val, *split.test])
        with LMCallCounter() as counter:
            after = evaluate(program, split.test, objective, progress=cases("after"))
        calls["after"] = counter.calls
    seconds = time.perf_counter() - started
    from experiments.runner.manifest import redact

    endpoint = redact({"api_base": spec.api_base or ""}).get("api_base", "")
    reflection_endpoint = redact({"api_base": spec.reflection_api_base or ""}).get("api_base", "")
    manifest = Manifest(config=spec.config, model=spec.model, optimizer=optimizer.name, seed=spec.seed,
                        budget=str(optimizer.budget), family=model_family(spec.model), splits=split.digests,
                        objective=dict(objective.weights), scores_before=before.metrics,
                        scores_after=after.metrics, lm_calls=sum(calls.values()), lm_calls_by_phase=calls,
                        api_base=endpoint, api_key_env=spec.api_key_env or "", suite=spec.suite,
                        reflection_model=spec.reflection_model or "", reflection_api_base=reflection_endpoint,
                        reflection_api_key_env=spec.reflection_api_key_env or "")
    directory = save_program(program, out_dir, manifest)
    from symbolic.support.fsio import write_atomic

    write_atomic(directory / EVALUATION_FILE, _evaluation_json(before, after, split), error=OptimizeError)
    from .programs import load_program

    return RunOutcome(directory, load_program(directory).manifest, before, after, split, program, seconds)
