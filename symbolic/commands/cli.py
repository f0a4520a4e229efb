"""The symbolic commands of ``paratrace`` and the command group they share.

Commands: ``status`` (evaluate scenarios and explain the result), ``validate``
(check suites, optionally against the engine), ``schema`` (print JSON
Schemas) and ``import-peer`` (convert the peer corpus).  :func:`new_app`
makes a command group with paratrace's error handling and ``--version``;
:func:`register` adds the symbolic commands to one.  The ``paratrace``
command itself is composed in :mod:`optimize.root`, above every package
(docs/architecture.md); :data:`app` holds the symbolic commands alone.

Every bad input exits with code 2 and one line on stderr; an unexpected
internal error exits with code 1 and a short message (set
``PARATRACE_DEBUG=1`` for the traceback).
"""

from __future__ import annotations

import errno
import json
import os
import stat
import sys
import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Optional

import typer
from typer.core import TyperGroup

from symbolic.support.collector import collected_between, gc_paused
from symbolic.errors import ParatraceError, PriorityCycleWarning, ScenarioError

__all__ = ["CliContext", "GuardedGroup", "app", "debug_enabled", "finish_output", "new_app", "register"]


def _one_line(text: str) -> str:
    """One line with control sequences escaped (a file name cannot drive the terminal)."""
    from symbolic.support.textsafe import one_line

    return one_line(text)


def _clean(text) -> str:
    """One line, secrets masked (:func:`symbolic.support.redact.redact_text`)."""
    from symbolic.support.redact import redact_text

    return redact_text(_one_line(text))


def debug_enabled() -> bool:
    """Whether ``PARATRACE_DEBUG`` asks for tracebacks."""
    return os.environ.get("PARATRACE_DEBUG", "") not in ("", "0")


class GuardedGroup(TyperGroup):
    """Turns paratrace and OS errors into exit 2, anything else into exit 1, without tracebacks."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except typer.TyperException as exc:
            if exc.exit_code != 2 or type(exc).__name__ == "NoArgsIsHelpError":
                raise
            # A usage error of a subcommand (bad option value, missing argument): one line.
            where = getattr(getattr(exc, "ctx", None), "command_path", "paratrace")
            typer.echo(f"paratrace: error: {_clean(exc.format_message())} (see '{where} --help')", err=True)
            raise typer.Exit(2) from None
        except (typer.Exit, typer.Abort, BrokenPipeError):
            raise
        except (ParatraceError, OSError) as exc:
            if debug_enabled():
                raise
            reason = _clean(exc) if isinstance(exc, ParatraceError) else _clean(_os_reason(exc))
            typer.echo(f"paratrace: error: {reason}", err=True)
            raise typer.Exit(2) from None
        except Exception as exc:  # noqa: BLE001 - the last line of defence of the CLI
            if debug_enabled():
                raise
            typer.echo(f"paratrace: internal error: {type(exc).__name__}: {_clean(exc)[:300]}"
                       " (set PARATRACE_DEBUG=1 for a traceback)", err=True)
            raise typer.Exit(1) from None


def _os_reason(exc: OSError) -> str:
    if not exc.filename and (_stdout_unwritable() or (exc.errno in _NO_ROOM and _stdout_full())):
        # A write without a file name (every file paratrace writes is named by its errors) that standard output
        # refuses too, or whose file system is full: the output (a full disk under `> file`).
        return _stdout_reason(exc)
    where = f"{exc.filename}: " if exc.filename else ""
    return where + _one_line(exc.strerror or exc)


_NO_ROOM = (errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC), errno.EFBIG)


def _stdout_full() -> bool:
    """Whether standard output is a file on a file system without room (its buffer then is dropped)."""
    try:
        fd = sys.stdout.fileno()
        if not stat.S_ISREG(os.fstat(fd).st_mode) or os.fstatvfs(fd).f_bavail > 0:
            return False
    except (OSError, ValueError, AttributeError):
        return False
    _drop_stdout()
    return True


def _stdout_reason(exc: OSError) -> str:
    return f"standard output: cannot write: {_one_line(exc.strerror or exc)}; the output is incomplete"


def _stdout_unwritable() -> bool:
    """Whether standard output refuses what it holds; if so, what it holds is dropped (see :func:`_drop_stdout`)."""
    try:
        sys.stdout.flush()
        return False
    except (OSError, ValueError):
        _drop_stdout()
        return True


def _drop_stdout() -> None:
    """Point standard output at ``/dev/null`` and flush it there, so the interpreter's own flush at exit
    cannot fail a second time (Python prints "Exception ignored ..." and exits 120 when it does)."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(null, sys.stdout.fileno())
        finally:
            os.close(null)
        sys.stdout.flush()
    except (OSError, ValueError, AttributeError):
        pass


def finish_output(code):
    """Flush standard output at the end of a command; a refused flush is one error line and exit code 2.

    A command's output sits in Python's buffer until the process ends; when
    it goes to a file on a full disk, the last flush fails.  That is said
    as any other refusal (``paratrace: error: standard output: cannot write:
    No space left on device; ...``) instead of Python's traceback-like
    "Exception ignored" and exit code 120.

    Parameters
    ----------
    code : int or None
        The command's exit code (``SystemExit.code``).

    Returns
    -------
    int or None
        ``code``, or 2 when the output could not be written and the command had succeeded.
    """
    try:
        sys.stdout.flush()
    except (OSError, ValueError) as exc:
        _drop_stdout()
        if isinstance(exc, BrokenPipeError):  # the reader went away (`paratrace ... | head`): nothing to say
            return code
        if isinstance(exc, OSError):
            typer.echo(f"paratrace: error: {_clean(_stdout_reason(exc))}", err=True)
        return 2 if code in (0, None) else code
    return code


@dataclass(frozen=True, slots=True)
class CliContext:
    """What the composing root hands to the commands of every package (``ctx.obj``).

    Attributes
    ----------
    schemas : callable or None
        Returns more JSON Schemas by name (the output contract's) for ``paratrace schema``.
    """

    schemas: Callable[[], Mapping[str, dict]] | None = None


def new_app(context: CliContext | None = None) -> typer.Typer:
    """A ``paratrace`` command group: bad input exits 2, ``--version``, no tracebacks.

    Parameters
    ----------
    context : CliContext, optional
        Handed to every command as ``ctx.obj``.

    Returns
    -------
    typer.Typer
    """
    group = typer.Typer(
        name="paratrace", cls=GuardedGroup, pretty_exceptions_enable=False, no_args_is_help=True,
        add_completion=False, context_settings={"obj": context or CliContext()},
        help="Normative reasoning under inconsistent evidence: the four-valued status and its trace.",
    )
    group.callback()(_root)
    return group


def _version(value: bool) -> None:
    if value:
        from importlib.metadata import PackageNotFoundError, version

        try:
            typer.echo(f"paratrace {version('paratrace')}")
        except PackageNotFoundError:
            typer.echo("paratrace (not installed)")
        raise typer.Exit()


def _root(version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                       help="Print the version and exit.")) -> None:
    """Normative reasoning under inconsistent evidence: the four-valued status and its trace."""


app = new_app()


class Format(str, Enum):
    """Output formats of ``paratrace status``."""

    TEXT = "text"
    JSON = "json"
    DOT = "dot"


class Which(str, Enum):
    """Which analysis of a scenario to evaluate."""

    GOLD = "gold"
    CANDIDATE = "candidate"


def _evaluate(scenario, analysis):
    from symbolic.engine.status import evaluate_analysis

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PriorityCycleWarning)
        return evaluate_analysis(scenario.evidence_ids(), analysis, scenario.target)


def _select(scenarios, case: str | None, file: Path):
    if case is None:
        return scenarios
    chosen = [s for s in scenarios if s.id == case.strip()]
    if not chosen:
        known = ", ".join(s.id for s in scenarios[:10]) + (", ..." if len(scenarios) > 10 else "")
        raise ScenarioError(f"no case {case!r} (cases: {known})", file=str(file), value=case)
    return chosen


class Defeats(str, Enum):
    """How ``paratrace status --format json|dot`` writes defeat edges."""

    AUTO = "auto"
    EDGES = "edges"
    SUMMARY = "summary"


class Attacks(str, Enum):
    """How ``paratrace status --format json`` writes attack edges."""

    AUTO = "auto"
    EDGES = "edges"
    COLUMNS = "columns"


def _write(chunks) -> None:
    """Stream UTF-8 pieces to stdout (its binary buffer when it has one)."""
    out = sys.stdout
    out.flush()
    raw = getattr(out, "buffer", None)
    for chunk in chunks:
        if raw is not None:
            raw.write(chunk)
        else:
            out.write(chunk.decode("utf-8"))
    (raw or out).flush()


@app.command()
def status(
    file: Path = typer.Argument(..., help="A JSONL suite, or a .json file holding one scenario."),
    case: Optional[str] = typer.Option(None, "--case", "-c", help="Only this case id."),
    fmt: Format = typer.Option(Format.TEXT, "--format", "-f", help="text, json (TNF trace) or dot."),
    analysis: Which = typer.Option(Which.GOLD, "--analysis", help="Evaluate the gold or the candidate analysis."),
    defeats: Defeats = typer.Option(Defeats.AUTO, "--defeats",
                                    help="json and dot: defeat edges one by one (edges), as defeat sets "
                                         "(summary), or summary only for traces with very many defeat "
                                         "edges (auto)."),
    attacks: Attacks = typer.Option(Attacks.AUTO, "--attacks",
                                    help="json: attack edges one by one (edges), as columns with defeat sets "
                                         "(columns), or columns only for traces with very many attack edges "
                                         "(auto)."),
) -> None:
    """Compute and explain the status of each scenario (or one case)."""
    if attacks is Attacks.COLUMNS and (fmt is not Format.JSON or defeats is Defeats.EDGES):
        raise typer.BadParameter("columns is a form of --format json with defeat sets (not with --defeats edges)",
                                 param_hint="--attacks")
    import gc

    from symbolic.suites.io import load_suite

    with gc_paused():  # what is loaded lives until the end: frozen, the collector never walks it
        scenarios = _select(load_suite(file), case, file)
        gc.freeze()
    chosen = []
    for scenario in scenarios:
        picked = scenario.gold if analysis is Which.GOLD else scenario.candidate
        if picked is None:
            raise ScenarioError(f"case {scenario.id!r} has no candidate analysis", file=str(file),
                                field="candidate")
        chosen.append((scenario, picked))
    chosen = collected_between(chosen)  # the collector runs between two scenarios, not within one
    try:
        if fmt is Format.TEXT:
            from rich.console import Console

            from symbolic.commands.cli_render import render_text

            console = Console(highlight=False)
            for scenario, picked in chosen:
                render_text(console, scenario, _evaluate(scenario, picked), analysis=analysis.value)
        elif fmt is Format.JSON:
            from symbolic.commands.cli_formats import iter_traces_json_bytes

            _write(iter_traces_json_bytes(chosen, defeats=defeats.value, attacks=attacks.value))
        else:
            from symbolic.commands.cli_formats import iter_traces_dot_bytes

            _write(iter_traces_dot_bytes(chosen, defeats=defeats.value))
    finally:
        chosen.close()  # the collector's state restored, also after an error


def _gold_problems(scenario, line: int, file: str) -> list[str]:
    from symbolic.commands.cli_formats import trace_disagreement

    evaluation = _evaluate(scenario, scenario.gold)
    where = f"{file}:{line}: case {scenario.id!r}"
    problems = []
    if evaluation.status is not scenario.gold.status:
        problems.append(f"{where}: gold status is {scenario.gold.status.value} but the engine computes "
                        f"{evaluation.status.value}")
    if scenario.gold.trace is not None:
        reason = trace_disagreement(scenario, evaluation)  # the engine runs again only if the collapse changes the theory
        if reason:
            problems.append(f"{where}: gold trace is not TNF-equivalent to the recomputed trace ({reason})")
    return problems


UNGROUNDED_TAG = "ungrounded-gold"


def _citation_problems(scenario, line: int, file: str) -> list[str]:
    """Gold objects citing a fragment that is not in the package: an authoring error unless the case
    declares, with the metadata tag ``ungrounded-gold``, that it exercises the grounding rule
    (docs/semantics.md section 2: such objects are dropped)."""
    if UNGROUNDED_TAG in scenario.metadata.tags:
        return []
    known = scenario.evidence_ids()
    problems = []
    for kind in ("facts", "rules", "priorities", "attacks"):
        objs = getattr(scenario.gold, kind, ()) or ()
        for i, evidence in enumerate(obj.evidence for obj in objs):
            for j, cited in enumerate(evidence):
                if cited not in known:
                    problems.append(f"{file}:{line}: case {scenario.id!r}, field gold.{kind}.{i}.evidence.{j}: "
                                    f"cites fragment {cited!r}, which is not in the evidence package (the "
                                    f"engine drops the object as ungrounded; tag the case {UNGROUNDED_TAG!r} "
                                    "if that is intended)")
    return problems


@app.command()
def validate(
    files: list[Path] = typer.Argument(..., help="JSONL suites or .json scenario files."),
    check_gold: bool = typer.Option(False, "--check-gold", help="Recompute every status (and trace) and compare with gold."),
) -> None:
    """Check suites: exit 0 when all are valid, 2 otherwise, one line per problem on stderr.

    Besides the schema, every gold object must cite fragments of its own
    evidence package (unless the case is tagged ``ungrounded-gold``).
    """
    from symbolic.suites.io import check_suite

    failed = False
    for file in files:
        check = check_suite(file)
        problems = [_one_line(err) for err in check.errors]
        for line, scenario in check.scenarios:
            problems += _citation_problems(scenario, line, str(file))
        if check_gold:
            for line, scenario in check.scenarios:
                try:
                    problems += _gold_problems(scenario, line, str(file))
                except ParatraceError as exc:
                    problems.append(f"{file}:{line}: case {scenario.id!r}: {_one_line(exc)}")
        for problem in problems:
            typer.echo(f"paratrace: error: {problem}", err=True)
        if problems:
            failed = True
        else:
            agree = ", gold agrees with the engine" if check_gold else ""
            typer.echo(f"{file}: {len(check.scenarios)} scenarios valid{agree}")
    if failed:
        raise typer.Exit(2)


def _schemas(context: CliContext | None) -> dict:
    from symbolic.suites.io import scenario_json_schema

    schemas = {"scenario": scenario_json_schema}
    if context is not None and context.schemas is not None:
        more = context.schemas
        for name in more():
            schemas.setdefault(name, lambda name=name: more()[name])
    return schemas


@app.command()
def schema(
    ctx: typer.Context,
    name: str = typer.Argument("scenario", help="scenario, or a contract schema such as common-v1 or trace-v2."),
    output: Optional[Path] = typer.Option(None, "--output", "-o", help="Write to this file instead of stdout."),
) -> None:
    """Print a JSON Schema (draft 2020-12 where our own)."""
    from symbolic.suites.io import write_atomic

    schemas = _schemas(ctx.obj if isinstance(ctx.obj, CliContext) else None)
    if name not in schemas:
        raise ScenarioError(f"unknown schema {name!r}; available: {', '.join(sorted(schemas))}", value=name)
    text = json.dumps(schemas[name](), indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    if output is None:
        typer.echo(text, nl=False)
    else:
        write_atomic(output, text.encode("utf-8"))
        typer.echo(f"wrote the {name} schema to {output}", err=True)


@app.command("import-peer")
def import_peer(
    file: Path = typer.Argument(..., help="A peer corpus JSONL file (thecontrey/neuro_symbolic format)."),
    output: Path = typer.Option(..., "--output", "-o", help="The scenario suite (JSONL) to write."),
) -> None:
    """Convert peer corpus records into a scenario suite (docs/semantics.md section 9)."""
    from collections import Counter

    from symbolic.suites.io import dump_suite
    from symbolic.suites.peer import import_peer_file

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PriorityCycleWarning)
        scenarios = import_peer_file(file)
    digest = dump_suite(scenarios, output)
    counts = Counter(s.gold.status.value for s in scenarios)
    summary = ", ".join(f"{k} {counts[k]}" for k in ("accepted", "rejected", "both", "undecidable"))
    typer.echo(f"wrote {len(scenarios)} scenarios to {output} ({summary}; sha256 {digest[:16]})")


def register(root: typer.Typer) -> None:
    """Add the symbolic commands (status, validate, schema, import-peer) to ``root``.

    Parameters
    ----------
    root : typer.Typer
        A group made by :func:`new_app`.
    """
    root.registered_commands.extend(app.registered_commands)
