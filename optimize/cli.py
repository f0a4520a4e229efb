"""``paratrace optimize`` (one run per model family) and ``paratrace optimize ledger``.

:func:`register` adds the ``optimize`` group to the root app of
:mod:`optimize.root`.  DSPy, MLflow and the suites are imported inside the
commands, so the root CLI stays fast.  Errors of paratrace exit 2 with one
line (the root group's guard).
"""

from __future__ import annotations

import contextlib
import io
import logging
import sys
from pathlib import Path
from typing import Optional

import typer

from .errors import OptimizeError

__all__ = ["DEFAULT_RUNS_DIR", "load_scenarios", "register"]

DEFAULT_RUNS_DIR = Path("optimize-runs")


def load_scenarios(suite: str, file: Optional[Path], select: Optional[str]):
    """The suite's scenarios (or ``file``'s), keeping ids that start with one of the comma-separated ``select``.

    Raises
    ------
    OptimizeError
        If the selection keeps no scenario.
    """
    from experiments.suites.registry import load_suite

    scenarios = load_suite(suite, file=file)
    if select:
        prefixes = tuple(p.strip() for p in select.split(",") if p.strip())
        scenarios = [s for s in scenarios if s.id.startswith(prefixes)]
        if not scenarios:
            raise OptimizeError(f"--select {select!r} keeps no scenario of suite {suite!r}")
    return scenarios


@contextlib.contextmanager
def _quiet(verbose: bool):
    if verbose:
        yield
        return
    names = ("dspy", "instructor", "mlflow", "LiteLLM", "optuna", "gepa")
    levels = {n: logging.getLogger(n).level for n in names}
    for n in names:
        logging.getLogger(n).setLevel(logging.ERROR)
    try:
        with contextlib.redirect_stderr(io.StringIO()), contextlib.redirect_stdout(io.StringIO()):
            yield  # DSPy's optimizers print progress bars and notes to both streams
    finally:
        for n, level in levels.items():
            logging.getLogger(n).setLevel(level)


def register(app: typer.Typer) -> None:
    """Add the ``optimize`` group (default command and ``ledger``) to ``app``."""
    group = typer.Typer(help="Optimize the assistant's prompts per model family against the benchmark metrics.",
                        invoke_without_command=True)

    @group.callback()
    def optimize_command(
        ctx: typer.Context,
        config: str = typer.Option("b4", "--config", "-c", help="Base configuration (b1..b4)."),
        model: Optional[str] = typer.Option(None, "--model", "-m",
                                            help="Model of the family (litellm string, local/..., or the offline "
                                                 "scripted/tutor, scripted/tutor-demos, scripted/tutor-hint)."),
        api_base: Optional[str] = typer.Option(None, "--api-base", help="OpenAI-compatible endpoint of the model."),
        api_key_env: Optional[str] = typer.Option(None, "--api-key-env", help="Environment variable holding the "
                                                                             "key (default PARATRACE_API_KEY, "
                                                                             "then the provider's own)."),
        reflection_model: Optional[str] = typer.Option(None, "--reflection-model",
                                                       help="Model for GEPA's reflection and MIPROv2's proposals "
                                                            "(default: --model)."),
        reflection_api_base: Optional[str] = typer.Option(None, "--reflection-api-base",
                                                          help="OpenAI-compatible endpoint of --reflection-model "
                                                               "(default: its provider's)."),
        reflection_api_key_env: Optional[str] = typer.Option(None, "--reflection-api-key-env",
                                                             help="Environment variable holding the reflection "
                                                                  "endpoint's key (default PARATRACE_API_KEY, then "
                                                                  "the provider's own)."),
        optimizer: str = typer.Option("gepa", "--optimizer", "-o",
                                      help="labeled, bootstrap, random-search, mipro, gepa or simba."),
        budget: Optional[str] = typer.Option(None, "--budget", "-b",
                                             help="Optimizer budget: an integer, or light/medium/heavy (mipro, gepa)."),
        seed: int = typer.Option(0, "--seed", help="Seed of the split and the optimizer."),
        suite: str = typer.Option("normative-en", "--suite", help="Registered suite to split."),
        file: Optional[Path] = typer.Option(None, "--file", exists=True, dir_okay=False,
                                            help="Suite file (JSONL) instead of the shipped one."),
        select: Optional[str] = typer.Option(None, "--select", help="Keep case ids with these prefixes (comma-separated)."),
        weights: Optional[str] = typer.Option(None, "--weights",
                                              help="Objective weights, e.g. ASA=0.4,CLA=0.2,PHA=0.2,TGC=0.2."),
        out: Optional[Path] = typer.Option(None, "--out", help="Directory of the saved program "
                                           "(default optimize-runs/<config>-<family>-<optimizer>-s<seed>)."),
        force: bool = typer.Option(False, "--force", help="Replace an existing saved program in --out."),
        register_model: bool = typer.Option(True, "--register/--no-register",
                                            help="Log to MLflow and register the program."),
        tracking_uri: Optional[str] = typer.Option(None, "--tracking-uri",
                                                   help="MLflow store (default $MLFLOW_TRACKING_URI or ./mlflow.db)."),
        threads: int = typer.Option(1, "--threads", min=1, help="Threads for DSPy's evaluations."),
        verbose: bool = typer.Option(False, "--verbose", "-v", help="Show DSPy's progress and logs."),
    ) -> None:
        """Optimize CONFIG for MODEL with OPTIMIZER; save, report the held-out split, register."""
        if ctx.invoked_subcommand is not None:
            return
        if not model:
            raise OptimizeError("--model is required (one model family per run)")
        from assistant.backends import apply_env_defaults

        apply_env_defaults()
        from .objectives import Objective
        from .optimizers import OPTIMIZERS
        from .programs import model_family
        from .run import RunSpec, run_optimization

        if optimizer.strip().lower() not in OPTIMIZERS:
            raise OptimizeError(f"unknown optimizer {optimizer!r}; expected one of " + ", ".join(sorted(OPTIMIZERS)))
        parsed = Objective.parse_weights(weights) if weights else None
        target = out or DEFAULT_RUNS_DIR / f"{config.lower()}-{model_family(model)}-{optimizer.lower()}-s{seed}"
        if target.exists() and any(target.iterdir()) and not force:
            raise OptimizeError(f"{target}: already holds a saved program; pass --force to replace it or --out")
        scenarios = load_scenarios(suite, file, select)
        spec = RunSpec(config=config.lower(), model=model, optimizer=optimizer.lower(), budget=budget, seed=seed,
                       weights=parsed, num_threads=threads, suite=str(file) if file else suite, api_base=api_base,
                       reflection_model=reflection_model, api_key_env=api_key_env,
                       reflection_api_base=reflection_api_base, reflection_api_key_env=reflection_api_key_env)
        stream = sys.stderr  # the terminal's, before _quiet hides DSPy's own output

        def progress(line: str) -> None:
            print(f"optimize: {line}", file=stream, flush=True)

        with _quiet(verbose):
            outcome = run_optimization(spec, scenarios, target, progress=progress)
        m = outcome.manifest
        typer.echo(f"saved {outcome.directory} ({m.optimizer}, budget {m.budget}, seed {m.seed}, "
                   f"{m.lm_calls} LM calls, {outcome.seconds:.1f} s)")
        typer.echo(f"held-out split: {len(outcome.split.test)} cases (train {len(outcome.split.train)}, "
                   f"val {len(outcome.split.val)})")
        for key in ("objective", "ASA", "CLA", "PHA", "TGC"):
            if key in m.scores_before or key in m.scores_after:
                before, after = m.scores_before.get(key), m.scores_after.get(key)
                show = lambda v: "n/a" if v is None else f"{v:.3f}"  # noqa: E731
                typer.echo(f"  {key:<9} {show(before)} -> {show(after)}")
        if register_model:
            from experiments.runner.tracking import default_tracking_uri

            from .registry import log_program

            with _quiet(verbose):
                reg = log_program(outcome.directory, tracking_uri=tracking_uri or default_tracking_uri("."))
            typer.echo(f"registered {reg.model_uri} (run {reg.run_id})")

    @group.command("ledger")
    def ledger_command(
        runs: Path = typer.Argument(DEFAULT_RUNS_DIR, help="Directory of saved runs."),
        transfer: bool = typer.Option(False, "--transfer",
                                      help="Evaluate every program on every family's model (LM calls!)."),
        suite: Optional[str] = typer.Option(None, "--suite", help="Suite for --transfer (default: the runs')."),
        file: Optional[Path] = typer.Option(None, "--file", exists=True, dir_okay=False, help="Suite file."),
        api_base: Optional[str] = typer.Option(None, "--api-base",
                                               help="For --transfer: the endpoint of every model (default: the "
                                                    "one each run recorded)."),
        api_key_env: Optional[str] = typer.Option(None, "--api-key-env",
                                                  help="For --transfer: the variable holding the key (default: "
                                                       "the one each run recorded, else PARATRACE_API_KEY, then "
                                                       "the provider's own)."),
        as_json: bool = typer.Option(False, "--json", help="JSON instead of Markdown tables."),
        verbose: bool = typer.Option(False, "--verbose", "-v", help="Show DSPy's logs."),
    ) -> None:
        """Per family: held-out before/after with McNemar; with --transfer, the transfer matrix."""
        from .ledger import collect_runs, ledger_json, ledger_rows, render_ledger, render_transfer, transfer_matrix

        saved = collect_runs(runs)
        rows = ledger_rows(saved)
        matrix = None
        if (api_base or api_key_env) and not transfer:
            raise OptimizeError("--api-base/--api-key-env apply to --transfer (the only part that calls a model)")
        if transfer:
            from assistant.backends import apply_env_defaults

            apply_env_defaults()
            names = sorted({r.loaded.manifest.suite for r in saved})
            name = suite or (names[0] if len(names) == 1 and names[0] else None)
            if name is None and file is None:
                raise OptimizeError("the runs name no single suite; pass --suite or --file for --transfer")
            from experiments.suites.registry import SUITES, load_suite

            if file is None and name not in SUITES:
                scenarios = load_suite("normative-en", file=name)  # a suite file recorded by path
            else:
                scenarios = load_suite(name or "normative-en", file=file)
            with _quiet(verbose):
                matrix = transfer_matrix(saved, scenarios, api_base=api_base, api_key_env=api_key_env)
        if as_json:
            typer.echo(ledger_json(rows, matrix))
            return
        typer.echo("## Held-out split: before -> after (exact McNemar on status correctness)\n")
        typer.echo(render_ledger(rows))
        if matrix is not None:
            typer.echo("\n## Transfer: held-out objective of each program under each family's model\n")
            typer.echo(render_transfer(matrix))

    app.add_typer(group, name="optimize")
