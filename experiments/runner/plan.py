"""Planning an experiment before anything runs: the run directory and its
start checks, the grid of tasks (:func:`plan`), the demo pools, the dry-run
estimate of calls and tokens (:func:`estimate`), the manifest, and the logged
results grouped by cell.  :mod:`experiments.runner.run` runs the plan.

Layout of a run directory (``<workdir>/runs/<spec name>/``): ``spec.json``
(the frozen spec), ``manifest.json``, ``results.jsonl`` (the append-only log),
``reports/<suite>/<cell>/`` (the scorer's files).  The response cache
(:mod:`assistant.cache`) lives in ``<workdir>/.paratrace-cache`` and is keyed
by model, endpoint, decoding parameters, the full prompt and the response
format.
"""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping, Sequence

from symbolic.scenario.model import Scenario

from ..errors import ExperimentError
from .engine import Budget, Task
from .manifest import digest_file, digest_json, git_revision, package_versions, redact, today
from .runlog import ResultLog
from .spec import CellKey, ExperimentSpec, RunKey
from .solve import CaseWork

__all__ = [
    "Estimate",
    "RunPaths",
    "calls_per_case",
    "check_spec",
    "check_start",
    "demo_pools",
    "estimate",
    "load_suites",
    "manifest",
    "plan",
    "prepare",
    "results_by_cell",
    "select_cases",
    "suite_label",
]

CALLS_PER_CASE = {"b1": 1, "b2": 2, "b3": 1, "b4": 1}
PROMPT_OVERHEAD_TOKENS = 900
COMPLETION_TOKENS = {"b4": 900, "b3": 700}


@dataclass(frozen=True)
class RunPaths:
    """Where one experiment keeps its state."""

    root: Path

    @property
    def spec(self) -> Path:
        return self.root / "spec.json"

    @property
    def manifest(self) -> Path:
        return self.root / "manifest.json"

    @property
    def results(self) -> Path:
        return self.root / "results.jsonl"

    @property
    def reports(self) -> Path:
        return self.root / "reports"


def prepare(spec: ExperimentSpec, workdir: str | Path, *, resume: bool) -> RunPaths:
    """Create (or, with ``resume``, reopen) the run directory of ``spec``.

    Raises
    ------
    ExperimentError
        If the run exists and ``resume`` is false (nothing is overwritten), or
        ``resume`` is asked with a spec that differs from the frozen one.
    """
    from symbolic.support.fsio import write_atomic

    paths = check_start(spec, workdir, resume=resume)
    frozen = spec.model_dump(mode="json")
    paths.root.mkdir(parents=True, exist_ok=True)
    if not paths.spec.exists():
        write_atomic(paths.spec, json.dumps(frozen, indent=2, sort_keys=True) + "\n", error=ExperimentError)
    return paths


def check_spec(spec: ExperimentSpec) -> None:
    """Every configuration, prompt variant and model string of ``spec`` exists
    (nothing is contacted).

    Raises
    ------
    assistant.errors.ConfigurationError
        For an unknown configuration or variant.
    assistant.errors.BackendError
        For a model string without provider or with an unknown one.
    """
    from assistant.configs import build
    from assistant.variants import Variant

    from .preflight import check_models

    for configuration, variant in spec.pairs():
        build(configuration)
        Variant.parse(variant)
    check_models(spec)


def check_start(spec: ExperimentSpec, workdir: str | Path, *, resume: bool) -> RunPaths:
    """The checks of :func:`prepare`, without creating anything: the spec is
    runnable (:func:`check_spec`) and the run directory is new (or, with
    ``resume``, holds the same spec).

    Raises
    ------
    ExperimentError
        As :func:`prepare`.
    assistant.errors.ConfigurationError
        For an unknown configuration or variant.
    """
    from .state import read_state_json

    check_spec(spec)
    paths = RunPaths(Path(workdir).resolve() / "runs" / spec.name)
    frozen = spec.model_dump(mode="json")
    if paths.root.exists() and not paths.root.is_dir():
        raise ExperimentError(f"run {paths.root} exists and is not a directory")
    if paths.spec.exists() or paths.spec.is_symlink():
        if not resume:
            raise ExperimentError(f"run {paths.root} exists; pass --resume to continue it "
                                  "or give the spec another name")
        stored = read_state_json(paths.spec, "the frozen spec of the run",
                                 f"restore it, or move {paths.root} away to start the run afresh")
        changed = spec.differs_from(stored)
        if changed:
            raise ExperimentError(f"run {paths.root} was started with another spec "
                                  f"(fields differ: {', '.join(changed)}); a run is frozen")
    elif resume:
        raise ExperimentError(f"nothing to resume: {paths.spec} does not exist")
    return paths


def suite_label(name: str) -> str:
    """The name a suite goes by in keys, reports and MLflow: a registry name as
    is, a file by its stem.

    >>> suite_label("normative-en"), suite_label("data/my-suite.jsonl")
    ('normative-en', 'my-suite')
    """
    return Path(name).stem if name.endswith(".jsonl") or "/" in name else name


def load_suites(names: Sequence[str]) -> tuple[dict[str, list[Scenario]], dict[str, Path | None]]:
    """Load suites by registry name, or from a JSONL path; keyed by :func:`suite_label`."""
    from symbolic.suites.io import load_suite as load_file

    from ..suites.registry import get_suite, load_suite

    scenarios, files = {}, {}
    for name in names:
        label = suite_label(name)
        if label != name:
            scenarios[label], files[label] = load_file(name), Path(name)
        else:
            scenarios[label], files[label] = load_suite(name), get_suite(name).metadata["path"]
    return scenarios, files


def select_cases(spec: ExperimentSpec, scenarios: Sequence[Scenario]) -> list[Scenario]:
    """The cases of one suite that the spec covers (held-out split, ``cases`` filter, then ``limit``)."""
    chosen = list(scenarios)
    if spec.split == "test":
        from ..splits import split_scenarios

        held_out = {s.id for s in split_scenarios(chosen, seed=spec.seed).test}
        chosen = [s for s in chosen if s.id in held_out]
    if spec.cases is not None:
        wanted = set(spec.cases)
        chosen = [s for s in chosen if s.id in wanted]
    return chosen[: spec.limit] if spec.limit else chosen


def plan(spec: ExperimentSpec, suites: Mapping[str, Sequence[Scenario]]) -> list[Task]:
    """Every task of the grid, in a fixed order (``suites`` keyed by :func:`suite_label`)."""
    cases = {name: select_cases(spec, suites[suite_label(name)]) for name in spec.suites}
    tasks = []
    for suite, configuration, backbone, variant, repeat in spec.grid():
        for scenario in cases[suite]:
            key = RunKey(suite_label(suite), scenario.id, configuration, backbone.name, variant, repeat)
            tasks.append(Task(key, CaseWork(scenario, backbone)))
    return tasks


def calls_per_case(configuration: str) -> int:
    """LM calls one case costs (re-asks not counted): B1-B4 by design, a
    baseline by its own ``max_calls``.

    >>> calls_per_case("b2"), calls_per_case("react") >= 2
    (2, True)
    """
    if configuration in CALLS_PER_CASE:
        return CALLS_PER_CASE[configuration]
    from assistant.baselines import BASELINES

    module = BASELINES.get(configuration)
    return int(getattr(module(), "max_calls", 2)) if module else 2


def demo_pools(spec: ExperimentSpec, suites: Mapping[str, Sequence[Scenario]]
               ) -> dict[str, tuple[tuple[Scenario, ...], tuple[Scenario, ...]]]:
    """Per suite label: (demo pool, evaluated cases) for few-shot variants.

    The pool is every scenario of the suite that is not evaluated; the
    assistant's demo builder also drops the update-pair partners of evaluated
    cases, so no demo shows an evaluated case or its pair.
    """
    pools = {}
    for name in spec.suites:
        label = suite_label(name)
        evaluated = tuple(select_cases(spec, suites[label]))
        ids = {s.id for s in evaluated}
        pools[label] = (tuple(s for s in suites[label] if s.id not in ids), evaluated)
    return pools


@dataclass(frozen=True)
class Estimate:
    """A dry-run estimate made before any call."""

    tasks: int
    calls: int
    prompt_tokens: int
    completion_tokens: int

    def within(self, budget: Budget) -> bool:
        """Whether the estimate fits the budget."""
        tokens = self.prompt_tokens + self.completion_tokens
        return ((budget.max_calls is None or self.calls <= budget.max_calls)
                and (budget.max_tokens is None or tokens <= budget.max_tokens))


def estimate(tasks: Sequence[Task], done: set[RunKey] = frozenset()) -> Estimate:
    """Calls and tokens the remaining tasks are expected to cost.

    Prompt tokens are the evidence and query text at four characters a token
    plus a fixed instruction overhead, per call; completions use a per
    configuration allowance.
    """
    calls = prompt = completion = n = 0
    for task in tasks:
        if task.key in done:
            continue
        n += 1
        work: CaseWork = task.payload
        per_call = PROMPT_OVERHEAD_TOKENS + (len(work.scenario.query)
                                             + sum(len(f.text) + 40 for f in work.scenario.evidence)) // 4
        k = calls_per_case(task.key.configuration)
        calls += k
        prompt += k * per_call
        completion += k * COMPLETION_TOKENS.get(task.key.configuration, 400)
    return Estimate(n, calls, prompt, completion)


def manifest(spec: ExperimentSpec, suites: Mapping[str, Path | None]) -> dict:
    """The frozen manifest of a run (without credentials)."""
    from scorer.contract import json_schemas

    return redact({
        "spec": spec.name,
        "date": today(),
        "git_revision": git_revision(Path(__file__).resolve().parent),
        "packages": package_versions(),
        "seed": spec.seed,
        "suites": {name: digest_file(path) if path and path.exists() else "unknown"
                   for name, path in suites.items()},
        "schema_hash": digest_json(json_schemas()),
        "backbones": {b.name: {"model": b.model, "provider": b.model.partition("/")[0],
                               "alias": b.alias or "", "api_base": b.api_base or "",
                               "api_key_env": b.api_key_env or "",
                               "decoding": dict(b.decoding)} for b in spec.backbones},
    })


def results_by_cell(log: ResultLog) -> dict[CellKey, list[dict]]:
    """Records grouped by their :class:`~experiments.runner.spec.CellKey`."""
    groups: dict[CellKey, list[dict]] = defaultdict(list)
    for record in log.records():
        groups[CellKey.of(record["key"])].append(record)
    return dict(groups)
