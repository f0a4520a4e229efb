"""MLflow tracking: one experiment per suite, a parent run per experiment spec,
a nested run per (configuration, backbone, variant, repeat).

The default store is a SQLite file in the working directory; the standard
``MLFLOW_TRACKING_URI`` variable points it at a shared server instead.  Every
param and tag passes through :func:`~experiments.runner.manifest.redact`, so
credentials never reach the store.
"""

from __future__ import annotations

import os
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator, Mapping, Sequence

from .manifest import redact

__all__ = ["GroupLog", "default_tracking_uri", "log_group", "parent_run", "setup_mlflow"]


def default_tracking_uri(workdir: str | Path = ".") -> str:
    """``$MLFLOW_TRACKING_URI`` if set, else ``sqlite:///<workdir>/mlflow.db``."""
    uri = os.environ.get("MLFLOW_TRACKING_URI")
    if uri:
        return uri
    return "sqlite:///" + str((Path(workdir).resolve() / "mlflow.db"))


def setup_mlflow(workdir: str | Path = ".", *, autolog_dspy: bool = True):
    """Import mlflow with telemetry off, point it at the store, enable DSPy traces.

    Returns the ``mlflow`` module.
    """
    os.environ.setdefault("MLFLOW_DISABLE_TELEMETRY", "true")
    os.environ.setdefault("DO_NOT_TRACK", "true")
    import mlflow

    mlflow.set_tracking_uri(default_tracking_uri(workdir))
    from symbolic.redact import install_mlflow_redaction

    install_mlflow_redaction(mlflow)  # spans (exception.message, tracebacks) are masked before they are stored
    if autolog_dspy:
        import mlflow.dspy

        mlflow.dspy.autolog(log_traces=True, silent=True)
    return mlflow


def _params(mapping: Mapping[str, Any], prefix: str = "") -> dict[str, str]:
    flat: dict[str, str] = {}
    for key, value in mapping.items():
        name = f"{prefix}{key}"
        if isinstance(value, Mapping):
            flat.update(_params(value, name + "."))
        else:
            flat[name] = str(value)[:5000]
    return flat


@contextmanager
def parent_run(mlflow, suite: str, spec_name: str, manifest: Mapping[str, Any]) -> Iterator[Any]:
    """The parent run of one experiment spec on one suite."""
    mlflow.set_experiment(f"paratrace/{suite}")
    # Open on the runs table, not on the GenAI trace overview.
    mlflow.set_experiment_tag("mlflow.experimentKind", "custom_model_development")
    with mlflow.start_run(run_name=spec_name) as run:
        mlflow.log_params(_params(redact(manifest)))
        mlflow.set_tags({"paratrace.kind": "experiment", "paratrace.suite": suite})
        yield run


@dataclass
class GroupLog:
    """What one nested run receives.

    ``metrics`` maps a metric name to ``(value, ci_low, ci_high, n)``; ``None``
    values (metric not applicable) are skipped, never logged as 0.
    """

    name: str
    params: Mapping[str, Any]
    metrics: Mapping[str, tuple[float | None, float | None, float | None, int]]
    table: Sequence[Mapping[str, Any]] = ()
    texts: Mapping[str, str] = field(default_factory=dict)
    files: Sequence[Path] = ()
    figures: Mapping[str, Any] = field(default_factory=dict)


def _log_file(mlflow, path: Path) -> None:
    """Log a file; text passes through :func:`redact` first, binary goes as is."""
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        mlflow.log_artifact(str(path))
        return
    mlflow.log_text(redact({"t": text})["t"], path.name)


def log_group(mlflow, group: GroupLog) -> str:
    """Log one nested run; return its run id."""
    with mlflow.start_run(run_name=group.name, nested=True) as run:
        mlflow.log_params(_params(redact(group.params)))
        for name, (value, low, high, n) in sorted(group.metrics.items()):
            if value is None:
                continue
            mlflow.log_metric(name, float(value))
            if low is not None and high is not None:
                mlflow.log_metric(f"{name}_ci_low", float(low))
                mlflow.log_metric(f"{name}_ci_high", float(high))
            mlflow.log_metric(f"{name}_n", int(n))
        if group.table:
            columns = sorted({k for row in group.table for k in row})
            mlflow.log_table({c: [redact({"v": row.get(c)})["v"] for row in group.table] for c in columns},
                             artifact_file="cases.json")
        for name, text in sorted(group.texts.items()):
            mlflow.log_text(redact({"t": text})["t"], name)
        for path in group.files:
            _log_file(mlflow, Path(path))
        for name, figure in sorted(group.figures.items()):
            mlflow.log_figure(figure, name)
        return run.info.run_id
