"""The composition root of the ``paratrace`` command.

This module sits above every package it composes (symbolic < scorer <
assistant < experiments < optimize; docs/architecture.md): it imports each
package's ``register`` explicitly and adds its commands to one group made by
:func:`symbolic.commands.cli.new_app`.  A package whose commands fail to import fails
the start-up with that error; no command silently vanishes.  The command
modules import their heavy dependencies (statistics, MLflow, DSPy) inside the
commands, so ``paratrace status`` starts without them.
"""

from __future__ import annotations

import logging

import typer

from assistant import cli as assistant_cli
from assistant.backends import apply_env_defaults
from assistant.ingest import cli as ingest_cli
from experiments import cli as experiments_cli
from experiments import oracle_cli
from experiments.runner import cli as runner_cli
from scorer import cli as scorer_cli
from symbolic.commands import cli as symbolic_cli

from . import cli as optimize_cli
from .serve import cli as serve_cli

__all__ = ["QUIET_LOGGERS", "REGISTRARS", "app", "compose", "main"]

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
    root = symbolic_cli.new_app(symbolic_cli.CliContext(schemas=_contract_schemas))
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
    from symbolic.commands.cli import debug_enabled, finish_output
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
