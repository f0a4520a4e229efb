"""``paratrace ask`` and ``paratrace local-llm``: the assistant's commands.

:func:`register` adds them to the root app of :mod:`optimize.root`.  Imports of
DSPy and the assistant happen inside the commands, so the root CLI stays fast.
"""

from __future__ import annotations

import json
from enum import Enum
from pathlib import Path
from typing import Optional

import typer

from .errors import ConfigurationError, InputLimitError

__all__ = ["load_package", "register"]


class OutputFormat(str, Enum):
    """Output formats of ``paratrace ask``."""

    TEXT = "text"
    JSON = "json"
    DOT = "dot"
    HTML = "html"


def load_package(path: Path) -> dict:
    """Read an evidence package file.

    Accepts a JSON list of fragments, or an object with ``fragments`` or
    ``evidence`` and optional ``query`` and ``target`` (a scenario record
    works: its gold and metadata are ignored).

    Returns
    -------
    dict
        ``evidence`` (validated :class:`~symbolic.scenario.model.EvidenceFragment`
        objects), ``query`` and ``target`` (strings or ``None``).

    Raises
    ------
    InputLimitError
        If the file is not such a package, naming the file, the field and the problem.
    """
    from symbolic.suites._jsonread import parse_json
    from symbolic.errors import ScenarioError
    from symbolic.support.fsio import read_bytes

    try:
        data = parse_json(read_bytes(path, max_bytes=64 * 1024 * 1024, error=ScenarioError), file=str(path))
    except ScenarioError as exc:
        raise InputLimitError(f"evidence package {exc}") from None
    key = "evidence"
    if isinstance(data, list):
        fragments, extra = data, {}
    elif isinstance(data, dict) and isinstance(data.get("fragments", data.get("evidence")), list):
        key = "fragments" if "fragments" in data else "evidence"
        fragments, extra = data[key], {k: data.get(k) for k in ("query", "target")}
    else:
        raise InputLimitError(f"{path}: expected a list of fragments or an object with 'fragments' or 'evidence'")
    for name, value in extra.items():
        if value is not None and not isinstance(value, str):
            raise InputLimitError(f"{path}: field {name}: expected a string, got {type(value).__name__} "
                                  f"({json.dumps(value)[:60]})")
    return {"evidence": _fragments(path, key, fragments), **{k: v for k, v in extra.items()}}


def _fragments(path: Path, key: str, items: list) -> tuple:
    from pydantic import ValidationError

    from symbolic.scenario.model import EvidenceFragment

    out = []
    for i, item in enumerate(items):
        if not isinstance(item, dict):
            raise InputLimitError(f"{path}: field {key}.{i}: expected an object (id, text, source), "
                                  f"got {type(item).__name__}")
        try:
            out.append(EvidenceFragment.model_validate(item))
        except ValidationError as exc:
            err = exc.errors()[0]
            where = ".".join(str(p) for p in (key, i, *err["loc"]))
            value = f" (value {json.dumps(err.get('input'))[:60]})" if err["type"] != "missing" else ""
            raise InputLimitError(f"{path}: field {where}: {err['msg']}{value}") from None
    return tuple(out)


def _program(choice: str | None, config: str, model: str | None, variant: str):
    """The saved program ``ask`` runs: ``choice`` (a directory or ``none``), else the shipped one, or ``None``.

    Raises
    ------
    ConfigurationError
        If a program is given with another configuration or a prompt variant.
    ProgramLoadError
        If the program cannot be loaded.
    """
    from .programs import load_program_directory, shipped_program

    if choice is not None and choice.strip().lower() == "none":
        return None
    if choice is None:
        return shipped_program(config, model) if variant.strip().lower() == "standard" else None
    loaded = load_program_directory(Path(choice))
    if loaded.config != config.strip().lower():
        raise ConfigurationError(f"--program {choice}: a {loaded.config} program, but --config is {config!r}")
    if variant.strip().lower() != "standard":
        raise ConfigurationError(f"--program {choice}: a saved program brings its own prompts; drop --variant "
                                 f"{variant!r}")
    return loaded


def register(app: typer.Typer) -> None:
    """Add ``ask`` and the ``local-llm`` group to ``app``."""

    @app.command("ask")
    def ask_command(
        evidence: Optional[Path] = typer.Option(None, "--evidence", "-e",
                                                help="Evidence package JSON (fragments: id, text, source, clause)."),
        docs: Optional[list[Path]] = typer.Option(None, "--doc", help="A document to ingest (PDF, DOCX, HTML, "
                                                  "Markdown, text or .eml email); repeat for several."),
        budget: Optional[int] = typer.Option(None, "--budget", min=1,
                                             help="Evidence token budget for ingested documents (default 2000)."),
        query: Optional[str] = typer.Option(None, "--query", "-q", help="The question (or 'query' in the file)."),
        target: Optional[str] = typer.Option(None, "--target", help="The proposition asked about, as a literal."),
        config: str = typer.Option("b4", "--config", "-c", help="b1, b2, b3 or b4."),
        model: Optional[str] = typer.Option(None, "--model", "-m",
                                            help="litellm model string; default $PARATRACE_MODEL or "
                                                 "local/qwen2.5-coder-0.5b (paratrace local-llm models)."),
        variant: str = typer.Option("standard", "--variant", help="standard, compact, zero-shot[+common-v1]."),
        api_base: Optional[str] = typer.Option(None, "--api-base", help="The model's endpoint (OpenAI-compatible "
                                                                       "server, vLLM, Ollama, a gateway)."),
        api_key_env: Optional[str] = typer.Option(None, "--api-key-env", help="Environment variable holding the "
                                                                             "key (default PARATRACE_API_KEY, "
                                                                             "then the provider's own)."),
        cache: bool = typer.Option(True, "--cache/--no-cache", help="Reuse validated replies from "
                                                                   "./.paratrace-cache."),
        fmt: OutputFormat = typer.Option(OutputFormat.TEXT, "--format", "-f", help="text, json, dot or html."),
        temperature: Optional[float] = typer.Option(None, "--temperature"),
        max_tokens: Optional[int] = typer.Option(None, "--max-tokens"),
        seed: Optional[int] = typer.Option(None, "--seed"),
        max_retries: int = typer.Option(2, "--max-retries", min=0, help="Re-asks after an invalid reply."),
        program: Optional[str] = typer.Option(None, "--program", help="A saved program directory (paratrace "
                                              "optimize), or 'none'; default: the program shipped for the "
                                              "configuration when the default model answers."),
    ) -> None:
        """Answer a question over an evidence package and show status, citations and trace."""
        import logging

        logging.getLogger("instructor").setLevel(logging.CRITICAL)  # failures are reported below, once
        from .api import Assistant
        from .backends import Decoding
        from .render import render_dot, render_text

        from .ingest.cli_ask import documents_evidence, emit_documents_answer

        if (evidence is None) == (not docs):
            raise ConfigurationError("pass either --evidence PACKAGE.json or one or more --doc DOCUMENT")
        package = load_package(evidence) if evidence is not None else {}
        query = query or package.get("query")
        if not query:
            raise ConfigurationError("no query: pass --query or put 'query' in the package file")
        prepared = documents_evidence(query, evidence, docs, budget, target or package.get("target"))
        if prepared is not None:
            package = {"evidence": prepared.fragments, "target": package.get("target")}
        overrides = {k: v for k, v in (("temperature", temperature), ("max_tokens", max_tokens), ("seed", seed))
                     if v is not None}
        from .cache import CACHE_DIRNAME, use_cache

        loaded = _program(program, config, model, variant)
        assistant = Assistant(config, model, variant=variant, api_base=api_base, max_retries=max_retries,
                              decoding=Decoding().with_overrides(**overrides), api_key_env=api_key_env,
                              program=loaded.program if loaded else None)
        if loaded is not None:
            typer.echo(f"paratrace: running the {loaded.describe()} ({loaded.source}; --program none for the "
                       "configuration as defined)", err=True)
        from .probe import probe

        probe(assistant.backbone)  # as `run` does: a server that cannot take what the case sends is named first
        from symbolic.support.redact import redact_text

        with use_cache(Path(CACHE_DIRNAME) if cache else None):
            result = assistant.run(query, package["evidence"], target=target or package.get("target"))
        if fmt is OutputFormat.HTML or prepared is not None:
            emit_documents_answer(result, prepared, fmt.value, package["evidence"], query)
        elif fmt is OutputFormat.JSON:
            typer.echo(redact_text(result.record.to_json()))
        elif fmt is OutputFormat.DOT:
            typer.echo(redact_text(render_dot(result)), nl=False)
        else:
            from symbolic.support.textsafe import escape_controls

            typer.echo(escape_controls(redact_text(render_text(result)), keep="\n\t"), nl=False)
        if result.record.meta.hard_failure:
            from symbolic.support.textsafe import one_line

            reason = redact_text(one_line(result.record.meta.failure_reason))
            typer.echo(f"paratrace: the model's output failed validation: {reason}", err=True)
            raise typer.Exit(1)

    local = typer.Typer(help="Manage the embedded llama.cpp servers (local/... models; see 'local-llm models').",
                        no_args_is_help=True)
    model_option = typer.Option("local/qwen2.5-coder-0.5b", "--model", "-m",
                                help="The embedded model (local/qwen2.5-coder-0.5b, local/qwen2.5-coder-1.5b, "
                                     "local/gemma-3-270m).")

    @local.command("models")
    def models() -> None:
        """List the embedded models, which one is the default and why."""
        from .local_models import LOCAL_MODELS, MODEL_CHOICE, local_model

        for name in LOCAL_MODELS:
            spec = local_model(name)
            typer.echo(f"{name:28} {spec.size / 1e6:6.0f} MB  extra [{spec.extra}]  {spec.summary}")
        typer.echo(f"\n{MODEL_CHOICE}")

    @local.command("start")
    def start(port: Optional[int] = typer.Option(None, "--port", help="Port on 127.0.0.1 (default: a free one)."),
              model: str = model_option) -> None:
        """Start the model's server (it keeps running until 'stop')."""
        from .local_llm import start_server

        info = start_server(port, model=model)
        typer.echo(f"running: {model}, pid {info.pid}, {info.base_url} (log {info.log})")

    @local.command("stop")
    def stop(model: str = model_option) -> None:
        """Stop the model's server."""
        from .local_llm import stop_server

        typer.echo("stopped" if stop_server(model) else "not running")

    @local.command("status")
    def show(model: str = model_option) -> None:
        """Show whether the model's server is running, and where."""
        from .local_llm import stale_reason, status

        reason = stale_reason(model)
        info = status(model)
        typer.echo(f"running: {model}, pid {info.pid}, {info.base_url}" if info
                   else "not running" + (f" ({reason})" if reason else ""))
        if info is None:
            raise typer.Exit(3)

    app.add_typer(local, name="local-llm")
