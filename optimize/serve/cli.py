"""``paratrace serve``: the assistant as an HTTP service; ``paratrace
serve-mlflow``: the same assistant as an MLflow model for ``mlflow models serve``.

:func:`register` adds the commands to the root app of :mod:`optimize.root`;
FastAPI, uvicorn, MLflow, DSPy and the program are imported inside the commands.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, List, Optional

import typer

__all__ = ["TOKEN_ENV", "build_factory", "is_loopback", "preflight", "register"]

_NO_CLIENT_TIMEOUT = ("scripted", "local")
TOKEN_ENV = "PARATRACE_SERVE_TOKEN"


def is_loopback(host: str) -> bool:
    """Whether ``host`` is a loopback interface (``localhost``, ``127.0.0.0/8``, ``::1``).

    >>> is_loopback("127.0.0.1"), is_loopback("localhost"), is_loopback("0.0.0.0"), is_loopback("::")
    (True, True, False, False)
    """
    import ipaddress

    if host.strip().lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def build_factory(*, program: str | None, configs: list[str], model: str | None, api_base: str | None = None,
                  lm_timeout: float | None = None, tracking_uri: str | None = None, api_key_env: str | None = None,
                  ) -> tuple[Callable[[str], Any], list[str], dict[str, Any] | None]:
    """The assistant factory, the configurations served and the program facts for ``/version``.

    Parameters
    ----------
    program : str, optional
        A saved-program directory or an MLflow model URI (:func:`optimize.programs.load_program`);
        ``None``: each configuration with a program shipped for ``model`` runs it
        (:func:`assistant.programs.shipped_program`, the embedded default model only);
        ``"none"``: every configuration as defined.
    configs : list of str
        Configurations to serve without a program (the first is the default);
        with a program, empty or exactly the program's configuration.
    model : str, optional
        Backbone; with a program, the manifest's model when ``None``.
    api_base : str, optional
        OpenAI-compatible endpoint.
    api_key_env : str, optional
        Environment variable holding the endpoint's key.
    lm_timeout : float, optional
        Client timeout in seconds for remote backbones (ignored by scripted and local ones).
    tracking_uri : str, optional
        MLflow tracking URI for a ``models:/`` reference.

    Returns
    -------
    tuple
        ``(factory, configs, program_info)``.

    Raises
    ------
    ServeError
        If ``configs`` disagrees with the program's configuration.
    ProgramLoadError
        If the program cannot be loaded.

    Examples
    --------
    >>> factory, configs, info = build_factory(program=None, configs=["b4", "b1"], model="scripted/null")
    >>> configs, info, factory("b1").config
    (['b4', 'b1'], None, 'b1')
    """
    from assistant.api import Assistant
    from assistant.backends import Decoding

    from .errors import ServeError

    def decoding_for(chosen: str | None) -> Decoding:
        provider = (chosen or "").partition("/")[0]
        if lm_timeout is None or provider in _NO_CLIENT_TIMEOUT:
            return Decoding()
        return Decoding().with_overrides(timeout=lm_timeout)

    if program is None or program.strip().lower() == "none":
        from assistant.programs import shipped_program

        configs = configs or ["b4"]
        shipped = {c.strip().lower(): shipped_program(c, model) for c in configs} if program is None else {}
        shipped = {c: loaded for c, loaded in shipped.items() if loaded is not None}
        info = {"shipped": {c: _program_info(loaded) for c, loaded in shipped.items()}} if shipped else None
        return (lambda c: Assistant(c, model, api_base=api_base, decoding=decoding_for(model), api_key_env=api_key_env,
                                    program=_shipped_module(shipped, c))), configs, info
    from optimize.programs import load_program, program_assistant

    loaded = load_program(program, tracking_uri=tracking_uri)
    if configs and [c.strip().lower() for c in configs] != [loaded.config]:
        raise ServeError(f"--config {', '.join(configs)} does not match the program's configuration "
                         f"{loaded.config!r} ({program})")
    chosen = model or loaded.manifest.model
    info = _program_info(loaded, program)
    return (lambda c: program_assistant(loaded, chosen, api_base=api_base, decoding=decoding_for(chosen),
                                        api_key_env=api_key_env)), [loaded.config], info


def _shipped_module(shipped: dict, config: str):
    loaded = shipped.get(config.strip().lower())
    return loaded.program if loaded is not None else None


def _program_info(loaded, ref: str | None = None) -> dict[str, Any]:
    """What ``/version`` reports about a loaded program."""
    manifest = loaded.manifest
    return {"source": loaded.source or str(ref), "config": loaded.config, "model": manifest.model,
            "optimizer": manifest.optimizer, "seed": manifest.seed, "family": manifest.family,
            "program_sha256": manifest.program_sha256}


def preflight(assistants) -> None:
    """Send each distinct backbone of ``assistants`` what a request sends, before listening (as ``run`` does).

    A one-token completion with the token bound and, for constrained
    decoding, the JSON-schema response format
    (:func:`assistant.probe.probe`); scripted backbones are skipped.

    Raises
    ------
    assistant.errors.BackendError
        Naming the backbone, its endpoint and the cause (a refused or
        unreachable server, a missing key, a server that ignores the bound).
    """
    from assistant.probe import probe

    seen = set()
    for assistant in assistants:
        backbone = assistant.backbone
        key = (backbone.model, backbone.endpoint, backbone.json_schema)
        if key not in seen:
            seen.add(key)
            probe(backbone)


def register(app: typer.Typer) -> None:
    """Add ``serve`` to ``app``."""

    @app.command("serve")
    def serve(
        program: Optional[str] = typer.Option(None, "--program", "-p",
                                              help="Saved-program directory or MLflow URI (models:/NAME/VERSION), "
                                                   "or 'none'; default: the programs shipped for the default "
                                                   "model, on that model."),
        config: List[str] = typer.Option([], "--config", "-c",
                                         help="Configuration to serve without a program (repeatable; first is "
                                              "the default; b4 when none)."),
        model: Optional[str] = typer.Option(None, "--model", "-m",
                                            help="Backbone; default the program's model, else $PARATRACE_MODEL "
                                                 "or local/qwen2.5-coder-0.5b."),
        api_base: Optional[str] = typer.Option(None, "--api-base", help="OpenAI-compatible endpoint."),
        api_key_env: Optional[str] = typer.Option(None, "--api-key-env", help="Environment variable holding the "
                                                                             "key (default PARATRACE_API_KEY, "
                                                                             "then the provider's own)."),
        host: str = typer.Option("127.0.0.1", "--host", help="Interface to bind."),
        port: int = typer.Option(8000, "--port", min=0, max=65535, help="TCP port."),
        workers: int = typer.Option(4, "--workers", min=1, help="Threads running assistant calls."),
        queue: Optional[int] = typer.Option(None, "--queue", min=0,
                                            help="Calls waiting beyond the workers (default 2 x workers); 503 "
                                                 "beyond."),
        timeout: float = typer.Option(120.0, "--timeout", min=0.001, help="Seconds per request (504 beyond)."),
        lm_timeout: Optional[float] = typer.Option(None, "--lm-timeout", min=0.001,
                                                   help="Client timeout of a remote backbone, in seconds."),
        max_body_bytes: int = typer.Option(1_048_576, "--max-body-bytes", min=1, help="Largest body (413 beyond)."),
        tracking_uri: Optional[str] = typer.Option(None, "--tracking-uri",
                                                   help="MLflow tracking URI for a models:/ program."),
        log_level: str = typer.Option("info", "--log-level", help="debug, info, warning or error."),
        token_env: str = typer.Option(TOKEN_ENV, "--token-env",
                                      help="Environment variable holding the bearer token; when it is set, every "
                                           "path but /health needs 'Authorization: Bearer <token>'."),
        allow_unauthenticated: bool = typer.Option(False, "--allow-unauthenticated",
                                                   help="Listen beyond loopback without a token (behind an "
                                                        "authenticating proxy only)."),
        header_timeout: float = typer.Option(10.0, "--header-timeout", min=0.001,
                                             help="Seconds a client has to send a request head (408 beyond)."),
        body_timeout: float = typer.Option(30.0, "--body-timeout", min=0.001,
                                           help="Seconds a request has to deliver its body (408 beyond)."),
        keep_alive: float = typer.Option(5.0, "--keep-alive", min=0.001,
                                         help="Seconds an idle kept-alive connection stays open."),
    ) -> None:
        """Serve the assistant over HTTP: POST /v1/ask, /invocations, GET /health, /version, /openapi.json."""
        import os

        from symbolic.support.redact import register_secret

        from .app import create_app
        from .errors import ServeError
        from .server import run

        if log_level.lower() not in ("debug", "info", "warning", "error"):
            raise ServeError(f"--log-level {log_level!r}: use debug, info, warning or error")
        token = os.environ.get(token_env, "")
        if token_env in os.environ and len(token) < 16:
            raise ServeError(f"${token_env} is set but holds {len(token)} characters; a bearer token needs 16 or more")
        if not token and not is_loopback(host) and not allow_unauthenticated:
            raise ServeError(f"refusing to listen on {host} without authentication: set ${token_env} to a bearer "
                             "token, or pass --allow-unauthenticated behind an authenticating proxy")
        register_secret(token)  # never in a log line
        factory, configs, info = build_factory(program=program, configs=list(config), model=model,
                                               api_base=api_base, lm_timeout=lm_timeout, tracking_uri=tracking_uri,
                                               api_key_env=api_key_env)
        app_ = create_app(factory, config=configs[0], configs=tuple(configs), max_body_bytes=max_body_bytes,
                          timeout_s=timeout, workers=workers, queue=queue, program=info, token=token or None,
                          body_timeout_s=body_timeout)
        preflight(app_.state.service.assistants.values())
        for config_name, shipped in ((info or {}).get("shipped") or {}).items():
            typer.echo(f"paratrace: {config_name} runs the program shipped for {shipped['model']} "
                       f"({shipped['optimizer']}, seed {shipped['seed']}; --program none for the configuration "
                       "as defined)", err=True)
        if not token and not is_loopback(host):
            typer.echo(f"paratrace: warning: listening on {host} without authentication and every request "
                       "spends LM calls; put it behind an authenticating proxy", err=True)
        auth = f"bearer token from ${token_env}" if token else "no authentication"
        shown = f"[{host}]" if ":" in host else host

        def announce(bound: int) -> None:  # after binding: --port 0 shows the port it got
            typer.echo(f"paratrace: serving {', '.join(configs)} on http://{shown}:{bound} "
                       f"(model {app_.state.service.model}; {auth}; Ctrl-C to stop)", err=True)

        run(app_, host=host, port=port, grace_s=min(timeout, 30.0) + 1.0, log_level=log_level.lower(),
            header_timeout_s=header_timeout, keep_alive_s=keep_alive, announce=announce)

    @app.command("serve-mlflow")
    def serve_mlflow(
        program: Optional[str] = typer.Option(None, "--program", "-p",
                                              help="Saved-program directory or MLflow URI (models:/NAME/VERSION)."),
        config: str = typer.Option("b4", "--config", "-c", help="Configuration when no program is given."),
        model: Optional[str] = typer.Option(None, "--model", "-m", help="Backbone (default: the program's model)."),
        output: Optional[Path] = typer.Option(None, "--output", "-o", file_okay=False,
                                              help="Write a local MLflow model directory instead of logging."),
        name: Optional[str] = typer.Option(None, "--name",
                                           help="Register the logged model under this name (models:/NAME/N)."),
        tracking_uri: Optional[str] = typer.Option(None, "--tracking-uri", help="MLflow tracking and registry URI."),
    ) -> None:
        """Package the assistant as an MLflow pyfunc model answering the service's request and record."""
        import os

        from .errors import ServeError

        os.environ.setdefault("MLFLOW_DISABLE_TELEMETRY", "true")
        if output is not None and output.exists() and any(output.iterdir()):
            raise ServeError(f"--output {output}: the directory exists and is not empty")
        if output is not None and name:
            raise ServeError("--name registers a logged model; it cannot be used with --output")
        from .pyfunc import log_assistant_model, save_assistant_model

        if output is not None:
            save_assistant_model(str(output), program, config=config, model=model)
            uri = str(output)
        else:
            import mlflow

            if tracking_uri:
                mlflow.set_tracking_uri(tracking_uri)
                mlflow.set_registry_uri(tracking_uri)
            with mlflow.start_run(run_name="paratrace-serving"):
                info = log_assistant_model(program, config=config, model=model, registered_model_name=name)
            uri = info.model_uri
        typer.echo(uri)
        typer.echo(f"serve with: mlflow models serve -m {uri} --env-manager local --host 127.0.0.1 --port 5001",
                   err=True)
