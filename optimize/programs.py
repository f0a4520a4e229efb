"""Writing saved programs, and loading them from a directory or the MLflow registry.

A saved program (``program.json`` with the DSPy state and ``manifest.json``, a
:class:`~assistant.programs.Manifest`) is defined in :mod:`assistant.programs`,
which reads the directory form; :func:`save_program` writes it, and
:func:`load_program` accepts such a directory or an MLflow model URI
(``models:/paratrace-b4-openai-gpt-4o-mini/3``, ``models:/m-<id>``,
``runs:/<run>/<path>``); :mod:`optimize.registry` logs the same two files as
artifacts of the logged model under ``paratrace/``.
"""

from __future__ import annotations

import hashlib
import json
import tempfile
from pathlib import Path

from assistant.programs import (
    ARTIFACT_DIR,
    MANIFEST_FILE,
    MANIFEST_VERSION,
    PROGRAM_FILE,
    LoadedProgram,
    Manifest,
    load_program_directory,
    model_family,
)

from .errors import ProgramLoadError

__all__ = [
    "LoadedProgram",
    "MANIFEST_FILE",
    "MANIFEST_VERSION",
    "Manifest",
    "PROGRAM_FILE",
    "load_program",
    "model_family",
    "program_assistant",
    "save_program",
]

_URI_SCHEMES = ("models:/", "runs:/", "mlflow-artifacts:/")


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def save_program(program, directory: str | Path, manifest: Manifest) -> Path:
    """Write ``program.json`` (DSPy state) and ``manifest.json`` into ``directory``.

    Parameters
    ----------
    program : dspy.Module
        A module of configuration ``manifest.config`` (compiled or not).
    directory : str or Path
        Created if needed; existing files of the same names are replaced.
    manifest : Manifest
        Its ``program_sha256`` is set from the written state.

    Returns
    -------
    Path
        The directory.

    Raises
    ------
    ProgramLoadError
        If ``program`` does not have the predictors of ``manifest.config``.

    Examples
    --------
    >>> import tempfile
    >>> from assistant.configs import build
    >>> d = save_program(build("b1"), tempfile.mkdtemp(), Manifest("b1", "scripted/null", "none", 0))
    >>> sorted(p.name for p in d.iterdir())
    ['manifest.json', 'program.json']
    """
    from dataclasses import replace

    from assistant.configs import build

    _check_predictors(program, build(manifest.config), manifest.config, "program")
    import os

    from symbolic.support.fsio import write_atomic, write_failure

    from .errors import OptimizeError

    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    state_path = directory / PROGRAM_FILE
    # DSPy writes the file itself: into a temporary file, renamed once whole (a full disk leaves the old one).
    tmp = None
    try:
        fd, tmp = tempfile.mkstemp(dir=directory, prefix=f".{PROGRAM_FILE}.", suffix=".json")
        os.close(fd)
        program.save(tmp)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, state_path)
    except OSError as exc:
        raise write_failure(state_path, exc, error=OptimizeError) from None
    except RuntimeError as exc:  # DSPy wraps the file system's refusal ("Failed to save state to ...")
        if isinstance(exc.__context__, OSError):
            raise write_failure(state_path, exc.__context__, error=OptimizeError) from None
        raise
    finally:
        if tmp is not None and os.path.exists(tmp):
            os.unlink(tmp)
    manifest = replace(manifest, program_sha256=_sha256(state_path))
    text = json.dumps(manifest.to_dict(), indent=2, ensure_ascii=False, sort_keys=False) + "\n"
    write_atomic(directory / MANIFEST_FILE, text, error=OptimizeError)
    return directory


def _check_predictors(program, reference, config: str, source: str) -> None:
    names = sorted(name for name, _ in program.named_predictors())
    expected = sorted(name for name, _ in reference.named_predictors())
    if names != expected:
        raise ProgramLoadError(f"{source}: predictors {names} do not match configuration {config!r} "
                               f"(expected {expected})")


def _store_named() -> bool:
    """Whether this process or its environment names an MLflow store (else MLflow falls back to ./mlflow.db)."""
    import os

    if os.environ.get("MLFLOW_TRACKING_URI") or os.environ.get("MLFLOW_REGISTRY_URI"):
        return True
    try:
        from mlflow.tracking._tracking_service.utils import is_tracking_uri_set
    except ImportError:  # another MLflow layout: let MLflow decide
        return True
    return is_tracking_uri_set()


def _load_uri(uri: str, tracking_uri: str | None) -> LoadedProgram:
    import os

    os.environ.setdefault("MLFLOW_DISABLE_TELEMETRY", "true")
    os.environ.setdefault("MLFLOW_ENABLE_ARTIFACTS_PROGRESS_BAR", "false")
    import mlflow

    if tracking_uri:
        mlflow.set_tracking_uri(tracking_uri)
        mlflow.set_registry_uri(tracking_uri)
    elif not _store_named():
        # MLflow would create an empty ./mlflow.db and look for the model in it
        store = Path("mlflow.db").resolve()
        if not store.is_file():
            raise ProgramLoadError(f"{uri}: no MLflow tracking URI to find it in (and no {store}); pass "
                                   "--tracking-uri http://HOST:PORT or set MLFLOW_TRACKING_URI")
        mlflow.set_tracking_uri(f"sqlite:///{store}")
        mlflow.set_registry_uri(f"sqlite:///{store}")
    with tempfile.TemporaryDirectory(prefix="paratrace-program-") as target:
        try:
            local = mlflow.artifacts.download_artifacts(artifact_uri=f"{uri.rstrip('/')}/{ARTIFACT_DIR}",
                                                        dst_path=target)
        except Exception as exc:  # noqa: BLE001 - MLflow raises many kinds (MlflowException, OSError...)
            message = " ".join(str(exc).split())[:300]
            raise ProgramLoadError(f"{uri}: cannot download the program ({type(exc).__name__}: {message})") from None
        return load_program_directory(Path(local), uri)


def load_program(ref: str | Path, *, tracking_uri: str | None = None) -> LoadedProgram:
    """Load a saved program from a directory or an MLflow model URI.

    Parameters
    ----------
    ref : str or Path
        A directory written by :func:`save_program` (or an MLflow model
        directory holding ``paratrace/``), or a URI ``models:/NAME/VERSION``,
        ``models:/NAME@ALIAS``, ``models:/m-<id>`` or ``runs:/RUN/PATH``.
    tracking_uri : str, optional
        MLflow tracking URI to use for a URI reference (the current one otherwise).

    Returns
    -------
    LoadedProgram

    Raises
    ------
    ProgramLoadError
        If the directory or model does not exist, lacks the manifest or state,
        the state's digest differs from the manifest's, or DSPy rejects the state.

    Examples
    --------
    >>> import tempfile
    >>> from assistant.configs import build
    >>> d = save_program(build("b4"), tempfile.mkdtemp(), Manifest("b4", "scripted/null", "none", 7))
    >>> loaded = load_program(d)
    >>> loaded.config, loaded.manifest.seed, type(loaded.program).__name__
    ('b4', 7, 'B4')
    """
    text = str(ref)
    if isinstance(ref, str) and text.startswith(_URI_SCHEMES):
        return _load_uri(text, tracking_uri)
    directory = Path(ref)
    if not directory.is_dir():
        raise ProgramLoadError(f"{text}: no such directory (expected a saved program or a models:/ URI)")
    return load_program_directory(directory, text)


def program_assistant(loaded: LoadedProgram, model: str | None = None, **kwargs):
    """:meth:`LoadedProgram.assistant <assistant.programs.LoadedProgram.assistant>`, where the
    offline tutor families (``scripted/tutor*``, :mod:`optimize.tutor`) resolve to their backbone.

    Parameters
    ----------
    loaded : LoadedProgram
    model : str, optional
        Backbone; the manifest's model when ``None``.
    **kwargs
        Further :class:`~assistant.api.Assistant` options (not ``program``).
    """
    from .tutor import TUTOR_MODELS, tutor_for

    model = model or loaded.manifest.model
    if "backbone" not in kwargs and model in TUTOR_MODELS:
        kwargs["backbone"] = tutor_for(model)
    return loaded.assistant(model, **kwargs)
