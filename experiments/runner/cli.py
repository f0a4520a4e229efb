"""``paratrace run``, ``demo``, ``ui``, ``compare`` and ``cache clear``."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import List, Optional

import typer

from ..errors import ExperimentError

__all__ = ["register", "tracking_lines"]

DEMO_SPEC = Path(__file__).resolve().parent.parent / "configs" / "demo.toml"


def _backbone(model: str, api_base: Optional[str], api_key_env: Optional[str]) -> dict:
    return {"model": model, **({"api_base": api_base} if api_base else {}),
            **({"api_key_env": api_key_env} if api_key_env else {})}


def _spec(config: Optional[Path], suite: Optional[str], configuration: Optional[str],
          model: Optional[str], name: Optional[str], limit: Optional[int],
          api_base: Optional[str] = None, api_key_env: Optional[str] = None):
    """The spec of ``paratrace run``: validated whole (name, duplicates) before anything is created."""
    from pydantic import ValidationError

    from .spec import ExperimentSpec, load_spec, safe_name, spec_error

    if config is not None:
        if suite or configuration:
            raise ExperimentError("give either a spec file or --suite/--config, not both")
        spec = load_spec(config)
        updates = {k: v for k, v in (("name", name), ("limit", limit)) if v is not None}
        if model:
            updates["backbones"] = (_backbone(model, api_base, api_key_env),)
        elif api_base or api_key_env:
            raise ExperimentError("--api-base/--api-key-env with a spec file need --model "
                                  "(or set api_base/api_key_env in the spec's [[backbones]])")
        try:
            return spec.model_validate({**spec.model_dump(), **updates}) if updates else spec
        except ValidationError as exc:
            raise spec_error(exc, f"{config} with the command-line options") from None
    if not (suite and configuration):
        raise ExperimentError("give a spec file, or --suite and --config (and optionally --model)")
    from assistant.backends import default_model

    model = model or default_model()
    auto = safe_name(f"{Path(suite).stem}-{configuration}-{model.replace('/', '_')}")
    try:
        # The embedded server decodes one request at a time: more in flight only queue and run into the time bound.
        concurrency = 1 if model.startswith("local/") else 4
        return ExperimentSpec(name=auto if name is None else name, suites=(suite,), configurations=(configuration,),
                              backbones=(_backbone(model, api_base, api_key_env),), limit=limit,
                              concurrency=concurrency)
    except ValidationError as exc:
        raise spec_error(exc, "paratrace run") from None


def _progress(console):
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    return Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                    TextColumn("failures {task.fields[failures]}  tokens {task.fields[tokens]:,}"),
                    TimeRemainingColumn(), console=console, transient=False)


def _print_summary(console, result) -> None:
    from .summary_table import LEGEND, summary_tables

    for suite in result.scores:
        for table in summary_tables(suite):
            console.print(table)
        for cell in suite.cells:
            if cell.not_scored and cell.metrics():
                console.print(f"[yellow]{cell.name}: {cell.not_scored_text()}, in no metric above[/yellow]")
        console.print(f"report: {suite.report_dir}", soft_wrap=True)
    if result.scores:
        console.print(LEGEND, soft_wrap=True, markup=False, highlight=False)


def tracking_lines(workdir: Path, tracking_uri: Optional[str], run_ids) -> list[str]:
    """What a tracked run tells its user: the store, where the artifacts went, and how to open the runs.

    Parameters
    ----------
    workdir : Path
        The run's ``--workdir``.
    tracking_uri : str, optional
        The ``--tracking-uri`` given (else ``$MLFLOW_TRACKING_URI`` or ``<workdir>/mlflow.db``).
    run_ids : sequence of str
        The parent runs logged.

    Returns
    -------
    list of str
    """
    import mlflow

    from .tracking import default_tracking_uri, runs_table_url, workdir_store_uri

    uri = default_tracking_uri(workdir, tracking_uri)
    client = mlflow.MlflowClient(tracking_uri=uri)
    experiments: dict[str, object] = {}
    for run_id in run_ids:
        experiment_id = client.get_run(run_id).info.experiment_id
        experiments.setdefault(experiment_id, client.get_experiment(experiment_id))
    names = ", ".join(e.name for e in experiments.values())
    artifacts = ", ".join(dict.fromkeys(e.artifact_location for e in experiments.values()))
    lines = [f"MLflow: experiment {names}, parent run(s) {', '.join(run_ids)}",
             f"MLflow store: {uri}", f"MLflow artifacts: {artifacts}"]
    if uri.startswith(("http://", "https://")):
        lines += [f"open {runs_table_url(uri, e)}" for e in experiments]
    elif uri == workdir_store_uri(workdir):
        lines.append(f"open the UI with: paratrace ui --workdir {workdir}")
    else:
        lines.append(f"open the UI with: paratrace ui --tracking-uri {uri}")
    return lines


def _execute(spec, *, workdir: Path, resume: bool, dry_run: bool, track: bool, repair: bool = False,
             tracking_uri: Optional[str] = None, cache: bool = True, stop_after: int | None = None) -> None:
    if stop_after is None:
        from .run import DEFAULT_STOP_AFTER

        stop_after = DEFAULT_STOP_AFTER
    from rich.console import Console

    from .engine import Budget
    from .run import run_experiment

    from .plan import check_spec, check_start

    from .summary_table import SUMMARY_WIDTH

    console = Console(width=min(Console().width, SUMMARY_WIDTH) if sys.stdout.isatty() else SUMMARY_WIDTH)
    if dry_run:
        check_spec(spec)
    else:
        paths = check_start(spec, workdir, resume=resume)
        if resume and not repair:  # damaged records stop the run here, before the progress display
            from .state import check_results

            check_results(paths.results, read_only=True)
    if dry_run:
        result = run_experiment(spec, workdir=workdir, resume=resume, dry_run=True)
        est = result.estimate
        fits = est.within(Budget(spec.max_calls, spec.max_tokens))
        existing = (workdir.resolve() / "runs" / spec.name / "spec.json").exists()
        console.print(json.dumps({"tasks": est.tasks, "calls": est.calls, "prompt_tokens": est.prompt_tokens,
                                  "completion_tokens": est.completion_tokens, "within_budget": fits,
                                  "remaining_of_existing_run": existing}), soft_wrap=True)
        return
    from .preflight import resolve_backbones

    # Before the progress bar: a dead backbone stops the run with one line.
    resolved = resolve_backbones(spec, cache=cache)
    with _progress(console) as bar:
        task = bar.add_task(spec.name, total=None, failures=0, tokens=0)

        import threading

        shown, lock = [-1], threading.Lock()

        def update(summary, todo):
            bar.update(task, total=todo, completed=summary.done, failures=summary.failures,
                       tokens=summary.tokens)
            if console.is_terminal:
                return
            with lock:  # no live bar: a line per case (per 5 % of a long run), in order
                done = summary.done
                if done > shown[0] and (done in (1, todo) or done % max(1, todo // 20) == 0):
                    shown[0] = done
                    cached = f" ({summary.cached} calls from the response cache)" if summary.cached else ""
                    console.print(f"{spec.name}: {done}/{todo} cases, {summary.failures} failures, "
                                  f"{summary.tokens:,} tokens{cached}", soft_wrap=True, markup=False,
                                  highlight=False)

        started = time.monotonic()
        result = run_experiment(spec, workdir=workdir, resume=resume, track=track, repair=repair,
                                tracking_uri=tracking_uri, on_progress=update,
                                cache=cache, resolved=resolved, preflight=False,
                                stop_after=stop_after)
    s = result.summary
    console.print(f"{spec.name}: {s.done} run, {s.skipped} already done, {s.scored} scored, "
                  f"{s.parse_failures} parse failures, not scored ({s.infra_errors} infrastructure errors, "
                  f"{s.limits} token/time limits), {s.retries} retries, {s.calls} calls"
                  + (f" ({s.cached} answered from the response cache, which spends no tokens)" if s.cached else "")
                  + f", {s.tokens:,} tokens in {time.monotonic() - started:.1f} s")
    if s.pending - s.held:
        console.print(f"[yellow]budget reached: {s.pending - s.held} cases pending; "
                      f"continue with `paratrace run ... --resume`[/yellow]")
    _print_summary(console, result)
    console.print(f"results: {result.paths.results}")
    if result.mlflow_runs:
        for line in tracking_lines(workdir, tracking_uri, result.mlflow_runs):
            console.print(line, soft_wrap=True, markup=False, highlight=False)
    if s.stopped_backbones:
        from symbolic.support.redact import redact_text
        from symbolic.support.textsafe import one_line

        stopped = "; ".join(f"{name} (last error: {reason})" for name, reason in s.stopped_backbones.items())
        typer.echo(redact_text(one_line(
            f"paratrace: error: stopped after {stop_after} consecutive infrastructure errors of one backbone: "
            f"{stopped}; {s.held} case(s) not run; continue with `paratrace run ... --resume` once it answers "
            "again")), err=True)
        raise typer.Exit(3)
    answered = sum(len(c.results) for suite in result.scores for c in suite.cells)
    if not answered and (s.done or s.skipped):
        typer.echo(f"paratrace: error: nothing was scored in {result.paths.root} "
                   f"({s.infra_errors} infrastructure errors, {s.limits} token/time limits this time); "
                   "fix the backbone and continue with --resume", err=True)
        raise typer.Exit(1)


def register(app: typer.Typer) -> None:
    """Add ``run``, ``demo``, ``ui``, ``compare`` and ``cache`` to the root app."""

    @app.command("run")
    def run_command(
        config: Optional[Path] = typer.Argument(None, help="Experiment spec (TOML)."),
        suite: Optional[str] = typer.Option(None, "--suite", help="Quick form: suite name or JSONL path."),
        configuration: Optional[str] = typer.Option(None, "--config", help="Quick form: b1..b4 or a baseline."),
        model: Optional[str] = typer.Option(None, "--model", help="litellm model string (default: embedded)."),
        api_base: Optional[str] = typer.Option(None, "--api-base", help="The model's endpoint (OpenAI-compatible "
                                                                       "server, vLLM, Ollama, a gateway)."),
        api_key_env: Optional[str] = typer.Option(None, "--api-key-env", help="Environment variable holding the "
                                                                             "key (default PARATRACE_API_KEY, "
                                                                             "then the provider's own)."),
        name: Optional[str] = typer.Option(None, "--name", help="Run name (default: from the spec)."),
        limit: Optional[int] = typer.Option(None, "--limit", min=1, help="At most N cases per suite."),
        workdir: Path = typer.Option(Path("."), "--workdir", help="Holds runs/, the cache and mlflow.db."),
        resume: bool = typer.Option(False, "--resume", help="Continue an interrupted run."),
        dry_run: bool = typer.Option(False, "--dry-run", help="Estimate calls and tokens only."),
        track: bool = typer.Option(True, "--track/--no-track", help="Log to MLflow."),
        repair: bool = typer.Option(False, "--repair", help="With --resume: move damaged, duplicate or "
                                    "conflicting result lines to results.quarantine.jsonl and run their cases again."),
        tracking_uri: Optional[str] = typer.Option(
            None, "--tracking-uri", help="MLflow tracking server, e.g. http://HOST:PORT "
                                         "(default $MLFLOW_TRACKING_URI or <workdir>/mlflow.db)."),
        cache: bool = typer.Option(True, "--cache/--no-cache", help="Reuse validated replies from "
                                                                   "<workdir>/.paratrace-cache."),
        stop_after: int = typer.Option(5, "--stop-after-errors", min=0,
                                       help="Stop a backbone's cases after N consecutive infrastructure errors "
                                            "(exit 3; --resume continues); 0 never stops."),
    ):
        """Run an experiment: every case exactly once, scored, reported and tracked."""
        spec = _spec(config, suite, configuration, model, name, limit, api_base, api_key_env)
        if repair and not resume:
            raise ExperimentError("--repair repairs the result log of an existing run; give it with --resume")
        _execute(spec, workdir=workdir, resume=resume, dry_run=dry_run, track=track, repair=repair,
                 tracking_uri=tracking_uri, cache=cache, stop_after=stop_after)

    @app.command("demo")
    def demo_command(
        model: Optional[str] = typer.Option(None, "--model", help="Backbone (default: the embedded model)."),
        api_base: Optional[str] = typer.Option(None, "--api-base", help="The model's endpoint."),
        api_key_env: Optional[str] = typer.Option(None, "--api-key-env", help="Environment variable holding "
                                                                             "the key."),
        limit: int = typer.Option(4, "--cases", min=1, help="Cases of the authored corpus."),
        workdir: Path = typer.Option(Path("."), "--workdir"),
        cache: bool = typer.Option(True, "--cache/--no-cache", help="Reuse validated replies."),
    ):
        """B1 and B4 on a slice of the authored corpus with the embedded model; scored and logged."""
        from .spec import load_spec, safe_name
        from .state import read_state_json

        spec = load_spec(DEMO_SPEC)
        updates = {"limit": limit}
        if model or api_base or api_key_env:
            from assistant.backends import default_model

            model = model or default_model()
            updates["backbones"] = (_backbone(model, api_base, api_key_env),)
            updates["name"] = safe_name(f"demo-{model.replace('/', '_')}")
        spec = spec.model_validate({**spec.model_dump(), **updates})
        stored_spec = workdir.resolve() / "runs" / spec.name / "spec.json"
        resume = stored_spec.exists()
        if resume:
            stored = read_state_json(stored_spec, "the frozen spec of the demo run",
                                     f"move {stored_spec.parent} away, or use another --workdir")
            if spec.differs_from(stored):
                raise ExperimentError(f"a demo run with other settings exists in {workdir}/runs/{spec.name}; "
                                      "use another --workdir")
        if spec.shipped_programs:
            from assistant.programs import shipped_program

            for backbone in spec.backbones:
                for configuration in spec.configurations:
                    loaded = shipped_program(configuration, backbone.model)
                    typer.echo(f"demo: {configuration} on {backbone.model}: "
                               + (f"the shipped {loaded.describe()}" if loaded else "as defined (no program ships)"),
                               err=True)
        _execute(spec, workdir=workdir, resume=resume, dry_run=False, track=True, cache=cache)

    cache_app = typer.Typer(help="The response cache (<workdir>/.paratrace-cache).", no_args_is_help=True)

    @cache_app.command("clear")
    def cache_clear(workdir: Path = typer.Option(Path("."), "--workdir", help="Where .paratrace-cache lives.")):
        """Remove every cached reply."""
        from assistant.cache import clear_cache

        path, n = clear_cache(workdir)
        typer.echo(f"removed {n} cached replies from {path}")

    app.add_typer(cache_app, name="cache")

    @app.command("ui")
    def ui_command(
        workdir: Path = typer.Option(Path("."), "--workdir", help="Where mlflow.db lives."),
        port: int = typer.Option(5000, "--port", min=0, max=65535, help="Port on 127.0.0.1 (0: a free one)."),
        tracking_uri: Optional[str] = typer.Option(
            None, "--tracking-uri", help="A local store other than <workdir>/mlflow.db (sqlite:///PATH; default "
                                         "$MLFLOW_TRACKING_URI)."),
    ):
        """Serve the MLflow UI on 127.0.0.1 for a local tracking store until Ctrl-C, SIGTERM or SIGHUP."""
        from .ui import serve_ui

        serve_ui(workdir, port=port, tracking_uri=tracking_uri, echo=typer.echo)

    @app.command("compare")
    def compare_command(
        run_ids: List[str] = typer.Argument(..., help="Runs as `paratrace run` prints them: run name, run directory "
                                                      "(runs/NAME) or parent run id (all its cells); or nested "
                                                      "run ids. The first cell is the baseline."),
        workdir: Path = typer.Option(Path("."), "--workdir"),
        out: Path = typer.Option(Path("compare"), "-o", "--out", help="Directory for compare.md/.html."),
        tracking_uri: Optional[str] = typer.Option(None, "--tracking-uri", help="MLflow tracking server."),
    ):
        """Paired comparison of runs: exact McNemar per metric, Benjamini-Hochberg q-values."""
        import tempfile

        from rich.console import Console
        from rich.table import Table

        from .compare import compare_runs, resolve_runs, to_html, to_markdown

        with tempfile.TemporaryDirectory() as tmp:
            runs = resolve_runs(run_ids, workdir=workdir, tracking_uri=tracking_uri, download_dir=tmp)
        rows = compare_runs(runs)
        table = Table(title="Paired comparison (exact McNemar, Benjamini-Hochberg q-values)")
        for col in ("metric", "run A", "run B", "n", "rate A", "rate B", "only A", "only B", "p", "q"):
            table.add_column(col)
        for r in rows:
            table.add_row(r.metric, r.a[0], r.b[0], str(r.n), f"{r.a_rate:.3f}", f"{r.b_rate:.3f}",
                          str(r.only_a), str(r.only_b), f"{r.pvalue:.4g}", f"{r.qvalue:.4g}")
        Console(width=None if sys.stdout.isatty() else 160).print(table)
        from symbolic.support.fsio import write_atomic

        if out.exists() and not out.is_dir():
            raise ExperimentError(f"{out}: exists and is not a directory (-o names the directory for "
                                  "compare.md and compare.html)")
        out.mkdir(parents=True, exist_ok=True)
        write_atomic(out / "compare.md", to_markdown(rows), error=ExperimentError)
        write_atomic(out / "compare.html", to_html(rows), error=ExperimentError)
        typer.echo(f"wrote {out / 'compare.md'} and {out / 'compare.html'}")
