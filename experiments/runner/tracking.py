"""MLflow tracking: one experiment per suite, a parent run per experiment spec,
a nested run per (configuration, backbone, variant, repeat).

The default store is a SQLite file in the working directory, and the
experiments paratrace creates in such a store keep their artifacts next to it
(``<workdir>/mlruns/<experiment>``, :func:`local_artifact_root`), so a
``--workdir`` holds everything a run writes; ``--tracking-uri`` or the
standard ``MLFLOW_TRACKING_URI`` variable points it at a shared server instead
(``mlflow server`` with a PostgreSQL store and ``--serve-artifacts``), whose
own artifact root applies.
Every param and tag passes through :func:`~experiments.runner.manifest.redact`,
so credentials never reach the store.

A nested run's metrics are the eight benchmark metrics (ASA, TGC, CLA, DLA,
NER, PHA, BRA, NCR; docs/metrics.md) and their 95 % intervals as
``<metric>_ci_low`` and ``<metric>_ci_high`` (so MLflow's compare view lists
each metric beside its interval); the applicable-case counts and the
operational figures go to tags (``n.<metric>``, ``ops.<figure>``), the interval
also to the tag ``ci.<metric>``, and all of it to the table artifact ``metrics.json``.

The runs table.  MLflow 3.17 opens an experiment's runs table with the
parent runs collapsed and no metric column (the column choice and the
expanded rows live in the browser, not in the store).  What the store can
hold is a *shared view* (the experiment tag ``mlflow.sharedViewState.<key>``,
opened with ``?viewStateShareKey=<key>``; MLflow leaves the expanded rows out
of a shared view): each paratrace experiment carries :data:`SHARED_VIEW`,
which groups the runs by the tag ``paratrace.run`` (one group per run
directory: its parent and its cells, newest first) and shows the columns
``configuration``, ``backbone`` and the eight metrics.  :func:`runs_table_url`,
the link ``paratrace run`` and ``paratrace ui`` print, opens it; a group's own
row shows MLflow's average over its cells (MLflow has no group row without an
aggregate).
"""

from __future__ import annotations

import json
import os
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator, Mapping, Sequence

from .manifest import redact

__all__ = ["ARTIFACTS_DIRNAME", "BENCHMARK_METRICS", "GroupLog", "RUN_TAG", "RUNS_TABLE_QUERY", "SHARED_VIEW",
           "SHARED_VIEW_KEY", "default_tracking_uri", "interval_metrics", "local_artifact_root", "log_group",
           "log_table", "metric_tags", "metrics_table", "parent_run", "prepare_store", "runs_table_url",
           "setup_mlflow", "use_experiment", "workdir_store_uri"]

# The UI opens an experiment on its runs table (not on the GenAI overview) with this query.
RUNS_TABLE_QUERY = "workflowType=machine_learning"
#: The benchmark metrics, in the order of docs/metrics.md's table.
BENCHMARK_METRICS = ("ASA", "TGC", "CLA", "DLA", "NER", "PHA", "BRA", "NCR")
#: The tag naming the run directory (the spec's name) on a parent run and its cells: the runs table's groups.
RUN_TAG = "paratrace.run"
#: The key of :data:`SHARED_VIEW` (``?viewStateShareKey=paratrace-runs``).
SHARED_VIEW_KEY = "paratrace-runs"
#: The runs table as paratrace links it: grouped by run directory, newest first, metric columns shown.
SHARED_VIEW = {
    "orderByKey": "attributes.start_time", "orderByAsc": False,
    "groupBy": {"aggregateFunction": "average", "groupByKeys": [{"mode": "tag", "groupByData": RUN_TAG}]},
    "selectedColumns": ["params.`configuration`", "params.`backbone`",
                        *(f"metrics.`{m}`" for m in BENCHMARK_METRICS)],
}
EXPERIMENT_TAGS = {"mlflow.experimentKind": "custom_model_development",
                   f"mlflow.sharedViewState.{SHARED_VIEW_KEY}": json.dumps(SHARED_VIEW, separators=(",", ":"))}
#: The directory next to a local ``mlflow.db`` that holds its experiments' artifacts.
ARTIFACTS_DIRNAME = "mlruns"


def default_tracking_uri(workdir: str | Path = ".", tracking_uri: str | None = None) -> str:
    """``tracking_uri`` if given, else ``$MLFLOW_TRACKING_URI`` if set, else ``sqlite:///<workdir>/mlflow.db``.

    Examples
    --------
    >>> default_tracking_uri(".", "http://127.0.0.1:5000")
    'http://127.0.0.1:5000'
    """
    uri = tracking_uri or os.environ.get("MLFLOW_TRACKING_URI")
    if uri:
        return uri
    return workdir_store_uri(workdir)


def prepare_store(uri: str) -> None:
    """Create a SQLite store that does not exist yet whole, before anything is logged to it.

    MLflow creates and upgrades a SQLite store's tables on first use, and on
    SQLite that is not one transaction: a full disk during it leaves a store
    no later command can open ("table _alembic_tmp_params already exists").
    So a new store is created under a temporary name next to it and renamed
    into place once complete; on failure the temporary file is removed and
    there is still no store.  Other URIs (a server, an existing file) are
    left to MLflow.
    """
    if not uri.startswith("sqlite:///"):
        return
    path = Path(uri[len("sqlite:///"):])
    if path.exists() or path.is_symlink():
        return
    import mlflow

    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        client = mlflow.MlflowClient(tracking_uri=f"sqlite:///{tmp}")
        client.search_experiments(max_results=1)
        engine = getattr(getattr(client._tracking_client, "store", None), "engine", None)
        if engine is not None:
            engine.dispose()
        os.replace(tmp, path)
    finally:
        for leftover in (tmp, tmp.with_name(tmp.name + "-journal"), tmp.with_name(tmp.name + "-wal"),
                         tmp.with_name(tmp.name + "-shm")):
            try:
                leftover.unlink()
            except FileNotFoundError:
                pass


def workdir_store_uri(workdir: str | Path = ".") -> str:
    """The SQLite store of a working directory: ``sqlite:///<workdir>/mlflow.db`` (absolute).

    >>> workdir_store_uri("/tmp/w")
    'sqlite:////tmp/w/mlflow.db'
    """
    return "sqlite:///" + str((Path(workdir).resolve() / "mlflow.db"))


def local_artifact_root(tracking_uri: str) -> Path | None:
    """Where the artifacts of a local SQLite store go: ``mlruns`` next to the database file.

    ``None`` for any other store (a tracking server keeps its own artifact root).

    Examples
    --------
    >>> local_artifact_root("sqlite:////tmp/w/mlflow.db").as_posix()
    '/tmp/w/mlruns'
    >>> local_artifact_root("http://127.0.0.1:5000") is None
    True
    """
    if not tracking_uri.startswith("sqlite:///"):
        return None
    path = tracking_uri[len("sqlite:///"):].partition("?")[0]
    if not path or path == ":memory:":
        return None
    return Path(path).resolve().parent / ARTIFACTS_DIRNAME


def _slug(name: str) -> str:
    """An experiment name as one directory name (``paratrace/normative-en`` -> ``paratrace_normative-en``)."""
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in name).strip(".") or "experiment"


def use_experiment(mlflow, name: str, *, tags: Mapping[str, str] | None = None):
    """Make ``name`` the active experiment, creating it with its artifacts beside a local store.

    In a SQLite store (:func:`local_artifact_root`) a new experiment gets the
    artifact location ``<store dir>/mlruns/<name as a directory>``; MLflow's
    default would be ``./mlruns`` of whatever directory the process runs in.
    An experiment that exists keeps the location it was created with.

    Parameters
    ----------
    mlflow : module
        With the tracking URI set (:func:`setup_mlflow`).
    name : str
        The experiment name.
    tags : mapping, optional
        Tags a new experiment is created with (in the same statement, so
        concurrent creators never insert the same tag twice).

    Returns
    -------
    mlflow.entities.Experiment
        The active experiment (its ``artifact_location`` says where artifacts go).
    """
    root = local_artifact_root(mlflow.get_tracking_uri())
    experiment = mlflow.get_experiment_by_name(name)
    if experiment is None:
        location = (root / _slug(name)).as_uri() if root is not None else None
        try:
            mlflow.create_experiment(name, artifact_location=location, tags=dict(tags or {}))
        except Exception:  # noqa: BLE001 - a concurrent process created it first (unique name)
            if mlflow.get_experiment_by_name(name) is None:
                raise
    return mlflow.set_experiment(name)


def setup_mlflow(workdir: str | Path = ".", *, autolog_dspy: bool = True, tracking_uri: str | None = None):
    """Import mlflow with telemetry off, point tracking and registry at the store, enable DSPy traces.

    Returns the ``mlflow`` module.
    """
    os.environ.setdefault("MLFLOW_DISABLE_TELEMETRY", "true")
    os.environ.setdefault("DO_NOT_TRACK", "true")
    import mlflow

    uri = default_tracking_uri(workdir, tracking_uri)
    mlflow.set_tracking_uri(uri)
    mlflow.set_registry_uri(uri)
    from experiments.runner.span_redaction import install_mlflow_redaction

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


def runs_table_url(base_url: str, experiment_id: str, *, shared_view: bool = True) -> str:
    """The UI address of an experiment's runs table, in paratrace's shared view (:data:`SHARED_VIEW`).

    Parameters
    ----------
    base_url : str
    experiment_id : str
    shared_view : bool, optional
        ``False`` for an experiment without the view's tag (one paratrace did
        not create as a run experiment): MLflow's own default table.

    Examples
    --------
    >>> runs_table_url("http://127.0.0.1:5000/", "3")
    'http://127.0.0.1:5000/#/experiments/3/runs?workflowType=machine_learning&viewStateShareKey=paratrace-runs'
    >>> runs_table_url("http://127.0.0.1:5000", "3", shared_view=False)
    'http://127.0.0.1:5000/#/experiments/3/runs?workflowType=machine_learning'
    """
    query = RUNS_TABLE_QUERY + (f"&viewStateShareKey={SHARED_VIEW_KEY}" if shared_view else "")
    return f"{base_url.rstrip('/')}/#/experiments/{experiment_id}/runs?{query}"


def _experiment(mlflow, suite: str) -> str:
    # MLflow versions that read the kind from the experiment open it on the runs table.
    experiment = use_experiment(mlflow, f"paratrace/{suite}", tags=EXPERIMENT_TAGS)
    missing = {k: v for k, v in EXPERIMENT_TAGS.items() if experiment.tags.get(k) != v}
    for key, value in missing.items():  # an experiment created before the tag existed
        try:
            mlflow.set_experiment_tag(key, value)
        except Exception:  # noqa: BLE001 - a concurrent process set it first (unique key)
            if mlflow.get_experiment(experiment.experiment_id).tags.get(key) != value:
                raise
    return experiment.experiment_id


@contextmanager
def parent_run(mlflow, suite: str, spec_name: str, manifest: Mapping[str, Any], *,
               run_uid: str | None = None) -> Iterator[Any]:
    """The parent run of one experiment spec on one suite.

    Parameters
    ----------
    run_uid : str, optional
        Identifies the run directory: a parent run tagged with it is continued
        (a resume logs into the same parent), otherwise a new one is tagged.
    """
    experiment_id = _experiment(mlflow, suite)
    existing = None
    if run_uid:
        found = mlflow.search_runs([experiment_id], filter_string=f"tags.`paratrace.run_uid` = '{run_uid}' "
                                   "and tags.`paratrace.kind` = 'experiment'", output_format="list")
        existing = min(found, key=lambda r: r.info.start_time) if found else None
    if existing is not None:
        with mlflow.start_run(run_id=existing.info.run_id) as run:
            mlflow.set_tag(RUN_TAG, spec_name)  # a parent logged before the runs table grouped by it
            yield run
        return
    tags = {"paratrace.kind": "experiment", "paratrace.suite": suite, RUN_TAG: spec_name,
            **({"paratrace.run_uid": run_uid} if run_uid else {})}
    with mlflow.start_run(run_name=spec_name, tags=tags) as run:  # tagged at creation: a resume finds it
        mlflow.log_params(_params(redact(manifest)))
        yield run


@dataclass
class GroupLog:
    """What one nested run receives.

    ``metrics`` maps a metric name to ``(value, ci_low, ci_high, n)``; ``None``
    values (metric not applicable) are skipped, never logged as 0.
    ``operations`` (latency, tokens, validity rates) are logged as tags.
    """

    name: str
    params: Mapping[str, Any]
    metrics: Mapping[str, tuple[float | None, float | None, float | None, int]]
    table: Sequence[Mapping[str, Any]] = ()
    texts: Mapping[str, str] = field(default_factory=dict)
    files: Sequence[Path] = ()
    figures: Mapping[str, Any] = field(default_factory=dict)
    operations: Mapping[str, float] = field(default_factory=dict)
    tags: Mapping[str, str] = field(default_factory=dict)


def _log_file(mlflow, path: Path) -> None:
    """Log a file; text passes through :func:`redact` first, binary goes as is."""
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        mlflow.log_artifact(str(path))
        return
    mlflow.log_text(redact({"t": text})["t"], path.name)


def metric_tags(metrics: Mapping[str, tuple[float | None, float | None, float | None, int]]) -> dict[str, str]:
    """``ci.<metric>`` (``[low, high]``) and ``n.<metric>`` tags of the metrics that have a value.

    >>> metric_tags({"ASA": (0.5, 0.25, 0.75, 4), "CLA": (None, None, None, 0)})
    {'ci.ASA': '[0.2500, 0.7500]', 'n.ASA': '4'}
    """
    tags = {}
    for name, (value, low, high, n) in sorted(metrics.items()):
        if value is None:
            continue
        if low is not None and high is not None:
            tags[f"ci.{name}"] = f"[{low:.4f}, {high:.4f}]"
        tags[f"n.{name}"] = str(int(n))
    return tags


def interval_metrics(metrics: Mapping[str, tuple[float | None, float | None, float | None, int]]) -> dict[str, float]:
    """``<metric>_ci_low`` and ``<metric>_ci_high`` of the metrics that have a value and an interval.

    >>> interval_metrics({"ASA": (0.5, 0.25, 0.75, 4), "CLA": (None, None, None, 0)})
    {'ASA_ci_low': 0.25, 'ASA_ci_high': 0.75}
    """
    out = {}
    for name, (value, low, high, _) in sorted(metrics.items()):
        if value is not None and low is not None and high is not None:
            out[f"{name}_ci_low"], out[f"{name}_ci_high"] = float(low), float(high)
    return out


def metrics_table(metrics: Mapping[str, tuple[float | None, float | None, float | None, int]]) -> dict[str, list]:
    """Columns of the ``metrics.json`` table: metric, value, ci_low, ci_high, n (applicable metrics)."""
    rows = [(k, *v) for k, v in sorted(metrics.items()) if v[0] is not None]
    return {"metric": [r[0] for r in rows], "value": [float(r[1]) for r in rows],
            "ci_low": [r[2] for r in rows], "ci_high": [r[3] for r in rows], "n": [int(r[4]) for r in rows]}


def log_table(mlflow, data: Mapping[str, Sequence], artifact_file: str, *, replace: bool = False) -> None:
    """``mlflow.log_table``, or with ``replace`` the same JSON written over an existing table.

    ``mlflow.log_table`` appends to a table that exists; a continued run
    (a resume) replaces it instead, so no row is logged twice.
    """
    if not replace:
        mlflow.log_table(dict(data), artifact_file=artifact_file)
        return
    import pandas as pd

    mlflow.log_text(pd.DataFrame(dict(data)).to_json(orient="split", index=False), artifact_file)


def log_group(mlflow, group: GroupLog, *, run_id: str | None = None, on_run=None) -> str:
    """Log one nested run (or continue the nested run ``run_id``); return its run id.

    ``group.metrics`` become the run's metrics, with their intervals
    (:func:`interval_metrics`); intervals and counts also go to tags and
    ``metrics.json``.  ``group.operations`` go to
    ``ops.*`` tags.  ``on_run(run_id)``, when given, runs inside the nested
    run after the metrics (the case traces are logged there).
    """
    with mlflow.start_run(run_id=run_id, run_name=None if run_id else group.name, nested=True) as run:
        continued = run_id is not None
        logged = mlflow.get_run(run_id).data.metrics if continued else {}
        if not continued:
            mlflow.log_params(_params(redact(group.params)))
        values = {k: float(v[0]) for k, v in group.metrics.items() if v[0] is not None}
        values = {k: v for k, v in {**values, **interval_metrics(group.metrics)}.items() if logged.get(k) != v}
        if values:
            mlflow.log_metrics(values)
        mlflow.set_tags({**group.tags, **metric_tags(group.metrics),
                         **{f"ops.{k}": f"{v:.6g}" for k, v in sorted(group.operations.items())}})
        log_table(mlflow, metrics_table(group.metrics), "metrics.json", replace=continued)
        if group.table:
            rows = list(group.table)
            columns = list(dict.fromkeys(k for row in rows for k in row))  # case_id first, as in the rows
            log_table(mlflow, {c: [redact({"v": row.get(c)})["v"] for row in rows] for c in columns},
                      "cases.json", replace=continued)
        for name, text in sorted(group.texts.items()):
            mlflow.log_text(redact({"t": text})["t"], name)
        for path in group.files:
            _log_file(mlflow, Path(path))
        for name, figure in sorted(group.figures.items()):
            mlflow.log_figure(figure, name)
        if on_run is not None:
            on_run(run.info.run_id)
        return run.info.run_id
