"""MLflow: a saved program logged as a model (DSPy flavor) and registered per configuration and family.

:func:`log_program` opens a run in the experiment ``paratrace-optimize``,
logs the manifest as params and the held-out scores as metrics, logs the
module with ``mlflow.dspy.log_model`` (DSPy's own save format, no pickled LM:
it is logged outside any ``dspy.context``), attaches ``program.json``,
``manifest.json`` and ``evaluation.json`` to the logged model under
``paratrace/`` (so :func:`optimize.programs.load_program` reads
``models:/NAME/VERSION`` without unpickling), and registers a new version of
``paratrace-<config>-<family>`` whose tags carry the held-out metrics.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from .errors import OptimizeError
from .programs import load_program, model_family

__all__ = ["EXPERIMENT", "RegisteredProgram", "log_program", "registered_name"]

EXPERIMENT = "paratrace-optimize"


def registered_name(config: str, model: str) -> str:
    """The registry name of programs of ``config`` for the family of ``model``.

    Examples
    --------
    >>> registered_name("B4", "openai/gpt-4o-mini")
    'paratrace-b4-openai-gpt-4o-mini'
    """
    return f"paratrace-{config.strip().lower()}-{model_family(model)}"


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
        ``models:/m-<id>`` of the serving model logged in the same run (a pyfunc
        wrapper of the assistant with this program): ``mlflow models serve -m``
        on it answers the service's request with the output contract.
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
    import dspy
    import mlflow
    import mlflow.dspy
    from mlflow import MlflowClient

    from experiments.runner.manifest import redact

    directory = Path(directory)
    loaded = load_program(directory)
    manifest = loaded.manifest
    name = name or registered_name(manifest.config, manifest.model)
    if tracking_uri:
        mlflow.set_tracking_uri(tracking_uri)
        mlflow.set_registry_uri(tracking_uri)
    metrics = _metrics(manifest)
    params = {k: str(v) for k, v in redact({"config": manifest.config, "model": manifest.model,
                                            "family": manifest.family, "optimizer": manifest.optimizer,
                                            "budget": manifest.budget, "seed": manifest.seed,
                                            "objective": manifest.objective, "program_sha256": manifest.program_sha256,
                                            "suite": manifest.suite, "reflection_model": manifest.reflection_model,
                                            **{f"split_{k}": v for k, v in manifest.splits.items()}}).items()}
    try:
        nested = mlflow.active_run() is not None  # inside a caller's run: a child run of it
        if not nested:
            mlflow.set_experiment(experiment)
        with mlflow.start_run(run_name=f"{name}-{manifest.optimizer}-s{manifest.seed}", nested=nested) as run:
            mlflow.log_params(params)
            mlflow.log_metrics(metrics)
            with dspy.context(lm=None, adapter=None, callbacks=[]):
                info = mlflow.dspy.log_model(
                    loaded.program, name="program", use_dspy_model_save=True,
                    metadata={"paratrace_manifest": manifest.to_dict()},
                    pip_requirements=[f"dspy=={dspy.__version__}", f"mlflow=={mlflow.__version__}"],
                    params=params)
            client = MlflowClient()
            client.log_model_artifacts(info.model_id, str(directory), "paratrace")
            mlflow.log_metrics(metrics, model_id=info.model_id)
            from .serve.pyfunc import log_assistant_model

            serving = log_assistant_model(str(directory), name="serving")
        version = mlflow.register_model(info.model_uri, name, tags={
            "serving_model_uri": serving.model_uri,
            "config": manifest.config, "model": manifest.model, "optimizer": manifest.optimizer,
            "seed": str(manifest.seed), **{k: f"{v:.6f}" for k, v in metrics.items()}})
        client.update_model_version(name, version.version, description=(
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
                             run.info.run_id, serving.model_uri)
