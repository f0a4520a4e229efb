"""The optimization ledger: before/after on the held-out split per family, and transfer.

:func:`ledger_rows` reads saved runs (directories holding ``manifest.json``
and ``evaluation.json``) and pairs each run's held-out cases before and after
optimization: objective, status accuracy and the exact McNemar test on status
correctness (:func:`scorer.stats.paired_mcnemar`).  :func:`transfer_matrix`
evaluates every saved program on the held-out split of its own run with the
backbone of every family present, so a program optimized for one family is
scored on the others (the diagonal is the family it was made for).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable, Sequence

from assistant.programs import MANIFEST_FILE, LoadedProgram
from symbolic.scenario.model import Scenario

from .errors import OptimizeError
from .programs import load_program
from .run import EVALUATION_FILE, read_evaluation

__all__ = [
    "LedgerRow",
    "SavedRun",
    "TransferMatrix",
    "collect_runs",
    "endpoints",
    "ledger_json",
    "ledger_rows",
    "render_ledger",
    "render_transfer",
    "transfer_matrix",
    "verdict",
]


@dataclass(frozen=True)
class SavedRun:
    """One saved run: its directory, loaded program and held-out evaluation."""

    directory: Path
    loaded: LoadedProgram
    evaluation: dict

    @property
    def label(self) -> str:
        """``family/optimizer/s<seed>``."""
        m = self.loaded.manifest
        return f"{m.family}/{m.optimizer}/s{m.seed}"


def collect_runs(root: str | Path) -> list[SavedRun]:
    """Every saved run under ``root`` (``root`` itself or its subdirectories, any depth), sorted by label.

    Parameters
    ----------
    root : str or Path

    Returns
    -------
    list of SavedRun

    Raises
    ------
    OptimizeError
        If ``root`` does not exist or holds no saved run.
    """
    root = Path(root)
    if not root.is_dir():
        raise OptimizeError(f"{root}: no such directory of optimization runs")
    runs = []
    for manifest in sorted(root.rglob(MANIFEST_FILE)):
        directory = manifest.parent
        if directory.name == "paratrace" and (directory.parent / "MLmodel").exists():
            continue  # a downloaded MLflow model holds a copy
        if not (directory / EVALUATION_FILE).is_file():
            continue
        runs.append(SavedRun(directory, load_program(directory), read_evaluation(directory)))
    if not runs:
        raise OptimizeError(f"{root}: holds no saved run (a directory with {MANIFEST_FILE} and {EVALUATION_FILE})")
    return sorted(runs, key=lambda r: (r.label, str(r.directory)))


@dataclass(frozen=True)
class LedgerRow:
    """Before/after of one run on its held-out split."""

    family: str
    model: str
    config: str
    optimizer: str
    budget: str
    seed: int
    n: int
    objective_before: float
    objective_after: float
    accuracy_before: float
    accuracy_after: float
    b: int
    c: int
    pvalue: float
    lm_calls: int
    directory: str
    scored_before: float | None = None
    scored_after: float | None = None
    tokens_before: float | None = None
    tokens_after: float | None = None

    def to_dict(self) -> dict:
        """JSON-ready dict."""
        return dict(self.__dict__)


def ledger_rows(runs: Iterable[SavedRun]) -> list[LedgerRow]:
    """One :class:`LedgerRow` per run, sorted by family, configuration, optimizer, seed.

    ``b`` counts held-out cases only the unoptimized program gets right, ``c``
    those only the optimized one does; ``pvalue`` is the exact two-sided McNemar p.

    Parameters
    ----------
    runs : iterable of SavedRun

    Returns
    -------
    list of LedgerRow
    """
    from scorer.stats import paired_mcnemar

    rows = []
    for run in runs:
        m = run.loaded.manifest
        cases = run.evaluation["test"]
        ids = sorted(cases)
        before = [bool(cases[i]["before"]["correct"]) for i in ids]
        after = [bool(cases[i]["after"]["correct"]) for i in ids]
        test = paired_mcnemar(before, after)
        n = len(ids)

        def mean(key: str, when: str) -> float:
            return sum(float(cases[i][when][key]) for i in ids) / n if n else float("nan")

        def recorded(key: str, when: str) -> float | None:  # runs saved before scored/tokens were recorded
            return mean(key, when) if n and all(key in cases[i][when] for i in ids) else None

        rows.append(LedgerRow(m.family, m.model, m.config, m.optimizer, str(m.budget), m.seed, n,
                              mean("score", "before"), mean("score", "after"), mean("correct", "before"),
                              mean("correct", "after"), test.b, test.c, test.pvalue, m.lm_calls,
                              str(run.directory), recorded("scored", "before"), recorded("scored", "after"),
                              recorded("tokens", "before"), recorded("tokens", "after")))
    return sorted(rows, key=lambda r: (r.family, r.config, r.optimizer, r.seed, r.directory))


@dataclass(frozen=True)
class TransferMatrix:
    """Held-out objective of each program (rows) on each family's backbone (columns)."""

    rows: tuple[str, ...]
    models: tuple[str, ...]
    values: tuple[tuple[float, ...], ...]
    base: tuple[float | None, ...] = ()

    def to_dict(self) -> dict:
        """JSON-ready dict."""
        return {"rows": list(self.rows), "models": list(self.models), "values": [list(v) for v in self.values],
                "base": list(self.base)}


def _test_split(run: SavedRun, scenarios: Sequence[Scenario]) -> list[Scenario]:
    from experiments.splits import digest

    by_id = {s.id: s for s in scenarios}
    ids = run.evaluation["split"]["test"]
    missing = [i for i in ids if i not in by_id]
    if missing:
        raise OptimizeError(f"{run.directory}: held-out case {missing[0]!r} is not in the suite given")
    chosen = [by_id[i] for i in ids]
    expected = run.loaded.manifest.splits.get("test")
    if expected and digest(chosen) != expected:
        raise OptimizeError(f"{run.directory}: the suite's held-out cases changed since the run "
                            f"(test digest {digest(chosen)[:12]}... != {expected[:12]}...)")
    return chosen


def endpoints(runs: Sequence[SavedRun], *, api_base: str | None = None,
              api_key_env: str | None = None) -> dict[str, tuple[str | None, str | None]]:
    """Per model of ``runs``: the endpoint and key variable its calls use.

    ``api_base`` and ``api_key_env`` given apply to every model; otherwise
    each model uses those recorded in the manifest of a run optimized for it.

    Raises
    ------
    OptimizeError
        If runs of one model recorded different endpoints and none is given.

    Examples
    --------
    >>> from types import SimpleNamespace as NS
    >>> run = NS(loaded=NS(manifest=NS(model="openai/m", api_base="http://127.0.0.1:8000/v1", api_key_env="")),
    ...          directory="d")
    >>> endpoints([run])
    {'openai/m': ('http://127.0.0.1:8000/v1', None)}
    >>> endpoints([run], api_base="http://127.0.0.1:9000/v1")
    {'openai/m': ('http://127.0.0.1:9000/v1', None)}
    """
    found: dict[str, tuple[str | None, str | None]] = {}
    where: dict[str, str] = {}
    for run in runs:
        m = run.loaded.manifest
        recorded = (getattr(m, "api_base", "") or None, getattr(m, "api_key_env", "") or None)
        chosen = (api_base or recorded[0], api_key_env or recorded[1])
        if m.model in found and found[m.model] != chosen:
            raise OptimizeError(f"{run.directory}: model {m.model} was called at {chosen[0] or 'its default'}, "
                                f"but at {found[m.model][0] or 'its default'} in {where[m.model]}; pass --api-base "
                                "(and --api-key-env) for --transfer")
        found.setdefault(m.model, chosen)
        where.setdefault(m.model, str(run.directory))
    return found


def transfer_matrix(runs: Sequence[SavedRun], scenarios: Sequence[Scenario], *,
                    backbone_for: Callable[[str], object] | None = None, api_base: str | None = None,
                    api_key_env: str | None = None) -> TransferMatrix:
    """Evaluate every run's program on its held-out split under every family's model.

    Every backbone answers a one-token completion first
    (:func:`assistant.backends.probe`), so a missing key or a dead endpoint
    stops the matrix with one line before any evaluation.

    Parameters
    ----------
    runs : sequence of SavedRun
    scenarios : sequence of Scenario
        The suite the runs were split from (checked against the test digests).
    backbone_for : callable, optional
        Model string -> backbone (default :func:`optimize.run.resolve_backbone` over ``scenarios``,
        at the endpoint of :func:`endpoints`).
    api_base, api_key_env : str, optional
        The endpoint and key variable of every model (default: each model's recorded ones).

    Returns
    -------
    TransferMatrix
        ``base`` holds, per model, the unoptimized configuration on the held-out
        split of the first run (a reference row).

    Raises
    ------
    assistant.errors.BackendError
        If a backbone cannot be resolved or does not answer, naming it, its endpoint and the cause.
    OptimizeError
        If a run's held-out split no longer matches the suite.
    """
    import dspy

    from assistant.adapter import InstructorAdapter
    from assistant.backends import probe
    from assistant.configs import build

    from .data import evaluate
    from .objectives import Objective
    from .run import resolve_backbone

    models = tuple(sorted({r.loaded.manifest.model for r in runs}))
    if backbone_for is None:
        where = endpoints(runs, api_base=api_base, api_key_env=api_key_env)

        def backbone_for(model):
            return resolve_backbone(model, scenarios, api_base=where[model][0], api_key_env=where[model][1])
    backbones = {m: backbone_for(m) for m in models}
    for backbone in backbones.values():
        probe(backbone)
    values = []
    for run in runs:
        test = _test_split(run, scenarios)
        objective = Objective(scenarios, run.loaded.manifest.objective or None)
        row = []
        for model in models:
            bb = backbones[model]
            with dspy.context(lm=bb.lm, adapter=InstructorAdapter(constrained=bb.json_schema)):
                row.append(evaluate(run.loaded.program, test, objective).metrics["objective"])
        values.append(tuple(row))
    base = []
    if runs:
        first = runs[0]
        test = _test_split(first, scenarios)
        objective = Objective(scenarios, first.loaded.manifest.objective or None)
        for model in models:
            bb = backbones[model]
            with dspy.context(lm=bb.lm, adapter=InstructorAdapter(constrained=bb.json_schema)):
                base.append(evaluate(build(first.loaded.config), test, objective).metrics["objective"])
    return TransferMatrix(tuple(r.label for r in runs), models, tuple(values), tuple(base))


def _fmt(x: float | None) -> str:
    return "—" if x is None else f"{x:.3f}"


def verdict(row: LedgerRow, alpha: float = 0.05) -> str:
    """Whether the optimization helped on held-out status correctness (exact McNemar at ``alpha``).

    >>> verdict(LedgerRow("f", "m", "b4", "labeled", "2", 0, 22, .1, .2, .2, .6, 1, 10, .012, 44, "d"))
    'helped'
    """
    if row.pvalue >= alpha:
        return "did not help (no significant change)"
    return "helped" if row.c > row.b else "hurt"


def render_ledger(rows: Sequence[LedgerRow]) -> str:
    """A Markdown table of the ledger rows.

    Examples
    --------
    >>> row = LedgerRow("fam", "p/fam", "b4", "gepa", "40", 0, 4, .5, 1., .5, 1., 0, 2, .5, 42, "d",
    ...                 1., 1., 900, 2100)
    >>> print(render_ledger([row]).splitlines()[2])
    | fam | b4 | gepa | 40 | 0 | 4 | 0.500 → 1.000 | 0.500 → 1.000 | 1.000 → 1.000 | 900 → 2100 | 0/2 | 0.500 | did not help (no significant change) | 42 |
    """
    lines = ["| family | config | optimizer | budget | seed | n | objective | status accuracy | scored "
             "| tokens/case | b/c | McNemar p | verdict | LM calls |", "|" + "---|" * 14]

    def tokens(value: float | None) -> str:
        return "—" if value is None else f"{value:.0f}"

    for r in rows:
        lines.append(f"| {r.family} | {r.config} | {r.optimizer} | {r.budget} | {r.seed} | {r.n} | "
                     f"{_fmt(r.objective_before)} → {_fmt(r.objective_after)} | "
                     f"{_fmt(r.accuracy_before)} → {_fmt(r.accuracy_after)} | "
                     f"{_fmt(r.scored_before)} → {_fmt(r.scored_after)} | "
                     f"{tokens(r.tokens_before)} → {tokens(r.tokens_after)} | {r.b}/{r.c} | {r.pvalue:.3f} | "
                     f"{verdict(r)} | {r.lm_calls} |")
    return "\n".join(lines)


def render_transfer(matrix: TransferMatrix) -> str:
    """A Markdown table: programs down, evaluation models across.

    Examples
    --------
    >>> print(render_transfer(TransferMatrix(("a/gepa/s0",), ("p/a",), ((1.0,),), (0.5,))))
    | program \\ evaluated on | p/a |
    |---|---|
    | (unoptimized) | 0.500 |
    | a/gepa/s0 | 1.000 |
    """
    lines = ["| program \\ evaluated on | " + " | ".join(matrix.models) + " |",
             "|---|" + "---|" * len(matrix.models)]
    if matrix.base:
        lines.append("| (unoptimized) | " + " | ".join(_fmt(v) for v in matrix.base) + " |")
    for label, row in zip(matrix.rows, matrix.values):
        lines.append(f"| {label} | " + " | ".join(_fmt(v) for v in row) + " |")
    return "\n".join(lines)


def ledger_json(rows: Sequence[LedgerRow], matrix: TransferMatrix | None) -> str:
    """The ledger (and transfer matrix) as JSON, sorted keys."""
    payload = {"rows": [r.to_dict() for r in rows], "transfer": None if matrix is None else matrix.to_dict()}
    return json.dumps(payload, indent=2, sort_keys=True, ensure_ascii=False)
