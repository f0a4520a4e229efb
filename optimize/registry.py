"""MLflow: a saved program logged as a deployable model and registered per configuration and family.

:func:`log_program` opens a run in the experiment ``paratrace-optimize``,
logs the manifest as params and the held-out scores as metrics, logs the
program as one model with two flavors (:mod:`optimize.serve.model_flavor`):
``python_function`` answers the service's request with the output record
(``mlflow.pyfunc.load_model``, ``mlflow models serve``; backbone chosen at
load or serve time), ``dspy`` gives the module (``mlflow.dspy.load_model``;
DSPy's own save format, no pickled LM).  The saved program sits under
``paratrace/`` (so :func:`optimize.programs.load_program` reads
``models:/NAME/VERSION`` without unpickling).  A new version of
``paratrace-<config>-<family>`` is registered, its tags carrying the held-out
metrics.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from .errors import OptimizeError
from .programs import load_program, model_family

__all__ = ["EXPERIMENT", "RegisteredProgram", "log_program", "registered_name"]

EXPERIMENT = "paratrace-optimize"


def registered_name(config: str, model: str, api_base: str = "") -> str:
    """The registry name of programs of ``config`` for the family of ``model`` (at ``api_base``).

    Two backbones with the same model string at different endpoints are two
    families: a program optimized at an endpoint is named after its host and port.

    Examples
    --------
    >>> registered_name("B4", "openai/gpt-4o-mini")
    'paratrace-b4-openai-gpt-4o-mini'
    >>> registered_name("b4", "openai/oracle", "http://127.0.0.1:8001/v1")
    'paratrace-b4-openai-oracle-at-127.0.0.1-8001'
    """
    name = f"paratrace-{config.strip().lower()}-{model_family(model)}"
    if api_base:
        from urllib.parse import urlsplit

        parts = urlsplit(api_base)
        where = "-".join(x for x in (parts.hostname or "", str(parts.port or "")) if x)
        if where:
            name += f"-at-{model_family('x/' + where).removeprefix('x-')}"
    return name


@dataclass(frozen=True)
class RegisteredProgram:
    """A logged and registered program.

    Attributes
    ----------
    name : str
        Registered model name.
    version : str
        Registered version.
    model_uri : str
        ``models:/NAME/VERSION`` (what :func:`~optimize.programs.load_program` accepts).
    logged_model_uri : str
        ``models:/m-<id>`` of the logged model.
    run_id : str
    serving_model_uri : str
        ``models:/m-<id>`` of the logged model (the same model as ``model_uri``:
        its pyfunc flavor serves the output contract).
    """

    name: str
    version: str
    model_uri: str
    logged_model_uri: str
    run_id: str
    serving_model_uri: str = ""


def _metrics(manifest) -> dict[str, float]:
    out = {}
    for when, scores in (("before", manifest.scores_before), ("after", manifest.scores_after)):
        for name, value in scores.items():
            out[f"heldout_{when}_{name}"] = float(value)
    out["lm_calls"] = float(manifest.lm_calls)
    return out


def log_program(directory: str | Path, *, tracking_uri: str | None = None, experiment: str = EXPERIMENT,
                name: str | None = None) -> RegisteredProgram:
    """Log the saved program in ``directory`` to MLflow and register it.

    Parameters
    ----------
    directory : str or Path
        Written by :func:`optimize.run.run_optimization` or :func:`optimize.programs.save_program`.
    tracking_uri : str, optional
        MLflow tracking URI (the registry uses the same store); the current one when ``None``.
    experiment : str, optional
        Experiment of the run (ignored inside an active run, which gets a nested child run).
    name : str, optional
        Registered model name (default :func:`registered_name` of the manifest).

    Returns
    -------
    RegisteredProgram

    Raises
    ------
    ProgramLoadError
        If ``directory`` is not a saved program.
    OptimizeError
        If MLflow fails to log or register.
    """
    os.environ.setdefault("MLFLOW_DISABLE_TELEMETRY", "true")
    import mlflow
    from mlflow import MlflowClient

    from experiments.runner.manifest import redact

    directory = Path(directory)
    loaded = load_program(directory)
    manifest = loaded.manifest
    name = name or registered_name(manifest.config, manifest.model, manifest.api_base)
    if tracking_uri:
        mlflow.set_tracking_uri(tracking_uri)
        mlflow.set_registry_uri(tracking_uri)
    metrics = _metrics(manifest)
    params = {k: str(v) for k, v in redact({"config": manifest.config, "model": manifest.model,
                                            "family": manifest.family, "optimizer": manifest.optimizer,
                                            "budget": manifest.budget, "seed": manifest.seed,
                                            "objective": manifest.objective, "program_sha256": manifest.program_sha256,
                                            "suite": manifest.suite, "reflection_model": manifest.reflection_model,
                                            "reflection_api_base": manifest.reflection_api_base,
                                            "api_base": manifest.api_base or "provider default",
                                            **{f"split_{k}": v for k, v in manifest.splits.items()}}).items()}
    # A model loaded earlier in this process (mlflow.dspy.load_model sets it active) must not
    # receive this run's metrics: they belong to the model logged here.
    mlflow.clear_active_model()
    try:
        nested = mlflow.active_run() is not None  # inside a caller's run: a child run of it
        if not nested:
            from experiments.runner.tracking import use_experiment

            use_experiment(mlflow, experiment)  # beside a local store: its artifacts too
        with mlflow.start_run(run_name=f"{name}-{manifest.optimizer}-s{manifest.seed}", nested=nested) as run:
            mlflow.log_params(params)
            mlflow.log_metrics(metrics)
            from .serve.model_flavor import log_model

            info = log_model("program", str(directory), metadata={"paratrace_manifest": manifest.to_dict()},
                             params=params)
            mlflow.log_metrics(metrics, model_id=info.model_id)
        version = mlflow.register_model(info.model_uri, name, tags={
            "serving_model_uri": info.model_uri,
            "config": manifest.config, "model": manifest.model, "optimizer": manifest.optimizer,
            "seed": str(manifest.seed), **{k: f"{v:.6f}" for k, v in metrics.items()}})
        MlflowClient().update_model_version(name, version.version, description=(
            f"{manifest.config} optimized for {manifest.model} by {manifest.optimizer} "
            f"(budget {manifest.budget}, seed {manifest.seed}); held-out objective "
            f"{manifest.scores_before.get('objective', float('nan')):.3f} -> "
            f"{manifest.scores_after.get('objective', float('nan')):.3f}"))
    except OptimizeError:
        raise
    except Exception as exc:  # noqa: BLE001 - MLflow raises many kinds; report one line
        message = " ".join(str(exc).split())[:300]
        raise OptimizeError(f"MLflow could not log {directory}: {type(exc).__name__}: {message}") from None
    return RegisteredProgram(name, str(version.version), f"models:/{name}/{version.version}", info.model_uri,
                             run.info.run_id, info.model_uri)
