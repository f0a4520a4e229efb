"""The composition root of the ``paratrace`` command.

This module sits above every package it composes (symbolic < scorer <
assistant < experiments < optimize; docs/architecture.md): it makes the
command group (:func:`new_app`: paratrace's error handling and ``--version``),
imports each package's ``register`` explicitly and adds its commands to the
group.  A package whose commands fail to import fails the start-up with that
error; no command silently vanishes.  The command modules import their heavy
dependencies (statistics, MLflow, DSPy) inside the commands, so ``paratrace
status`` starts without them.

Every bad input exits with code 2 and one line on stderr; an unexpected
internal error exits with code 1 and a short message (set
``PARATRACE_DEBUG=1`` for the traceback).
"""

from __future__ import annotations

import errno
import logging
import os
import stat
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass

import typer
from typer.core import TyperGroup

from assistant import cli as assistant_cli
from assistant.backends import apply_env_defaults
from assistant.ingest import cli as ingest_cli
from experiments import cli as experiments_cli
from experiments import oracle_cli
from experiments.runner import cli as runner_cli
from scorer import cli as scorer_cli
from optimize import symbolic_cli
from symbolic.errors import ParatraceError

from . import cli as optimize_cli
from .serve import cli as serve_cli

__all__ = ["CliContext", "GuardedGroup", "QUIET_LOGGERS", "REGISTRARS", "app", "compose", "debug_enabled",
           "finish_output", "main", "new_app"]

def _one_line(text) -> str:
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


REGISTRARS = (
    symbolic_cli.register,
    scorer_cli.register,
    assistant_cli.register,
    ingest_cli.register,
    oracle_cli.register,
    experiments_cli.register,
    runner_cli.register,
    optimize_cli.register,
    serve_cli.register,
)
"""Each package's ``register(app)``, in the order the commands are listed in ``--help``."""

# Libraries that log every failed LM attempt with the full prompt-side validation
# error; paratrace records those failures itself (re-ask log, raw text, hard
# failure), so on the console they are noise.
#: Loggers silenced unless PARATRACE_DEBUG is set (the last says "Creating initial MLflow database tables...").
QUIET_LOGGERS = ("instructor", "LiteLLM", "litellm", "httpx", "mlflow.store.db.utils")


def _contract_schemas() -> dict:
    """The JSON Schemas of the scorer's contract (:func:`scorer.contract.json_schemas`).

    Imported when ``paratrace schema`` asks for them, not at start-up.
    """
    from scorer.contract import json_schemas

    return json_schemas()


def compose() -> typer.Typer:
    """The ``paratrace`` group with the commands of every package.

    Returns
    -------
    typer.Typer
    """
    root = new_app(CliContext(schemas=_contract_schemas))
    for register in REGISTRARS:
        register(root)
    return root


app = compose()


def _not_truncation(record: logging.LogRecord) -> bool:
    """Drops DSPy's warning about a reply cut at ``max_tokens`` (the runner counts those cases itself)."""
    return "truncated" not in record.getMessage()


def main() -> None:
    """Entry point of the ``paratrace`` console script.

    Keeps litellm, DSPy and MLflow off the network unless the user set the
    variables (:func:`assistant.backends.apply_env_defaults`), makes
    ``SIGTERM`` and ``SIGHUP`` end the command through its clean-up, so no
    process it started outlives it (:func:`experiments.runner.signals.end_on_signals`),
    masks secrets in every log line and quiets the LM libraries' loggers, then
    runs :data:`app`.
    """
    from experiments.runner.signals import end_on_signals
    from symbolic.support.redact import install_log_redaction

    end_on_signals()
    apply_env_defaults()
    install_log_redaction()  # every log line of every library, secrets masked
    if not debug_enabled():
        for name in QUIET_LOGGERS:
            logging.getLogger(name).setLevel(logging.CRITICAL + 1)
        # DSPy's "LM response was truncated ...; increase max_tokens": paratrace reports every
        # reply cut at its token bound itself, per case ("not scored (N token/time limits)").
        logging.getLogger("dspy.clients.lm").addFilter(_not_truncation)
    try:
        app(prog_name="paratrace")
    except SystemExit as done:
        raise SystemExit(finish_output(done.code)) from None
    code = finish_output(0)  # typer's app exits through SystemExit; a plain return only when embedded
    if code:
        raise SystemExit(code)
