"""Saved programs: DSPy JSON state plus a manifest, loadable in a fresh process.

A saved program is a directory holding

* ``program.json``: the DSPy state of the compiled module (``Module.save``:
  instructions, field prefixes and demos of every predictor), loadable with
  ``build(config).load("program.json")`` outside this package too;
* ``manifest.json``: a :class:`Manifest` (base configuration, model, family,
  optimizer, budget, seed, split digests, objective weights, held-out scores
  before and after, and the SHA-256 of ``program.json``).

:func:`load_program` accepts such a directory or an MLflow model URI
(``models:/paratrace-b4-openai-gpt-4o-mini/3``, ``models:/m-<id>``,
``runs:/<run>/<path>``); :mod:`optimize.registry` logs the same two files as
artifacts of the logged model under ``paratrace/``.
"""

from __future__ import annotations

import hashlib
import json
import re
import tempfile
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

from symbolic.support.fsio import PathError, read_bytes, read_text

from .errors import ProgramLoadError

__all__ = [
    "LoadedProgram",
    "MANIFEST_FILE",
    "MANIFEST_VERSION",
    "Manifest",
    "PROGRAM_FILE",
    "load_program",
    "model_family",
    "save_program",
]

PROGRAM_FILE = "program.json"
MANIFEST_FILE = "manifest.json"
MANIFEST_VERSION = 1
_ARTIFACT_DIR = "paratrace"
_URI_SCHEMES = ("models:/", "runs:/", "mlflow-artifacts:/")


def model_family(model: str) -> str:
    """The family name of a model string, safe for MLflow registry names.

    Provider and model name joined by ``-``, lower case, every run of other
    characters than letters, digits, ``.`` and ``_`` replaced by ``-``.

    Parameters
    ----------
    model : str
        A model string such as ``openai/gpt-4o-mini``.

    Returns
    -------
    str

    Raises
    ------
    ProgramLoadError
        If nothing is left after cleaning.

    Examples
    --------
    >>> model_family("openai/gpt-4o-mini"), model_family("ollama_chat/llama3:8b")
    ('openai-gpt-4o-mini', 'ollama_chat-llama3-8b')
    """
    family = re.sub(r"[^a-z0-9._]+", "-", model.strip().lower()).strip("-")
    if not family:
        raise ProgramLoadError(f"model {model!r} gives an empty family name")
    return family


@dataclass(frozen=True)
class Manifest:
    """What a saved program is and how it was made.

    Attributes
    ----------
    config : str
        Base configuration (``b1``..``b4`` or a baseline name).
    model : str
        The model the program was optimized for.
    optimizer : str
        Optimizer name (:data:`optimize.optimizers.OPTIMIZERS`), or ``none``.
    seed : int
        Seed of the split and the optimizer.
    budget : str or None
        The optimizer budget as given (``light``, ``60``...).
    family : str
        :func:`model_family` of ``model`` (filled in when empty).
    splits : dict
        Split name (``train``, ``val``, ``test``) -> SHA-256 digest of its sorted case ids.
    objective : dict
        Metric name -> weight of the composite objective.
    scores_before, scores_after : dict
        Metric name -> held-out value (test split) before and after optimization.
    lm_calls : int
        Every LM call of the run: the held-out evaluation before, the
        optimizer's compile and the held-out evaluation after (each re-ask
        counts; ``lm_calls_by_phase`` splits them).
    lm_calls_by_phase : dict
        ``before``, ``compile`` and ``after`` -> LM calls.
    api_base : str
        The endpoint the model was called at (empty: the provider's default);
        never a key.
    api_key_env : str
        The name of the variable the key was read from (empty: the default), never its value.
    suite : str
        The suite the splits were drawn from (a registered name or a file path; empty if unknown).
    reflection_model : str
        GEPA's reflection / MIPROv2's proposer model when it is not ``model`` (empty otherwise).
    reflection_api_base : str
        The endpoint of ``reflection_model`` (empty: its provider's default); never a key.
    reflection_api_key_env : str
        The name of the variable its key was read from (empty: the default), never its value.
    dspy_version : str
        DSPy version that wrote ``program.json``.
    program_sha256 : str
        Digest of ``program.json`` (checked on load; filled in by :func:`save_program`).
    version : int
        Manifest format version.

    Examples
    --------
    >>> m = Manifest(config="b4", model="openai/gpt-4o-mini", optimizer="gepa", seed=0)
    >>> m.family, Manifest.from_dict(m.to_dict()) == m
    ('openai-gpt-4o-mini', True)
    """

    config: str
    model: str
    optimizer: str
    seed: int
    budget: str | None = None
    family: str = ""
    splits: dict[str, str] = field(default_factory=dict)
    objective: dict[str, float] = field(default_factory=dict)
    scores_before: dict[str, float] = field(default_factory=dict)
    scores_after: dict[str, float] = field(default_factory=dict)
    lm_calls: int = 0
    lm_calls_by_phase: dict[str, int] = field(default_factory=dict)
    api_base: str = ""
    api_key_env: str = ""
    suite: str = ""
    reflection_model: str = ""
    reflection_api_base: str = ""
    reflection_api_key_env: str = ""
    dspy_version: str = ""
    program_sha256: str = ""
    version: int = MANIFEST_VERSION

    def __post_init__(self):
        if not self.family:
            object.__setattr__(self, "family", model_family(self.model))
        if not self.dspy_version:
            import dspy

            object.__setattr__(self, "dspy_version", dspy.__version__)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (keys in field order)."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Any, *, source: str = "manifest") -> "Manifest":
        """Read a manifest dict, naming ``source`` and the field on error.

        Raises
        ------
        ProgramLoadError
            On a missing required field, an unknown field or a value of the wrong type.
        """
        if not isinstance(data, dict):
            raise ProgramLoadError(f"{source}: expected a JSON object, got {type(data).__name__}")
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ProgramLoadError(f"{source}: unknown field {unknown[0]!r}")
        for name in ("config", "model", "optimizer", "seed"):
            if name not in data:
                raise ProgramLoadError(f"{source}: missing field {name!r}")
        for name in ("config", "model", "optimizer"):
            if not isinstance(data[name], str) or not data[name]:
                raise ProgramLoadError(f"{source}: field {name!r} must be a non-empty string, got {data[name]!r}")
        if not isinstance(data["seed"], int) or isinstance(data["seed"], bool):
            raise ProgramLoadError(f"{source}: field 'seed' must be an integer, got {data['seed']!r}")
        for name in ("splits", "objective", "scores_before", "scores_after", "lm_calls_by_phase"):
            if not isinstance(data.get(name, {}), dict):
                raise ProgramLoadError(f"{source}: field {name!r} must be an object, got {data[name]!r}")
        for name in ("api_base", "api_key_env", "reflection_api_base", "reflection_api_key_env"):
            if not isinstance(data.get(name, ""), str):
                raise ProgramLoadError(f"{source}: field {name!r} must be a string, got {data[name]!r}")
        if data.get("version", MANIFEST_VERSION) != MANIFEST_VERSION:
            raise ProgramLoadError(f"{source}: manifest version {data['version']!r} is not supported "
                                   f"(this paratrace reads version {MANIFEST_VERSION})")
        return cls(**data)


@dataclass(frozen=True)
class LoadedProgram:
    """A program ready to run: its configuration, the DSPy module and its manifest.

    Attributes
    ----------
    config : str
        Base configuration of ``program``.
    program : dspy.Module
        The compiled module (instructions and demos restored).
    manifest : Manifest
    source : str
        Where it was loaded from (directory or URI).
    """

    config: str
    program: Any
    manifest: Manifest
    source: str = ""

    def assistant(self, model: str | None = None, **kwargs):
        """An :class:`assistant.api.Assistant` running this program (on ``model``, default the manifest's).

        Parameters
        ----------
        model : str, optional
            Backbone; the manifest's model when ``None`` (``scripted/tutor*`` resolve to
            :class:`optimize.tutor.Tutor`, answering minimally on cases it does not know).
        **kwargs
            Further :class:`~assistant.api.Assistant` options (not ``program``).
        """
        from assistant.api import Assistant

        model = model or self.manifest.model
        if "backbone" not in kwargs:
            from .tutor import TUTOR_MODELS, tutor_for

            if model in TUTOR_MODELS:  # the offline tutor families are optimize's own
                kwargs["backbone"] = tutor_for(model)
        return Assistant(self.config, model, program=self.program, **kwargs)


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


def _read_manifest(path: Path) -> Manifest:
    try:
        data = json.loads(read_text(path))
    except PathError as exc:
        raise ProgramLoadError(f"{path}: cannot read the manifest ({exc.reason})") from None
    except ValueError as exc:
        raise ProgramLoadError(f"{path}: not valid JSON ({exc})") from None
    return Manifest.from_dict(data, source=str(path))


def _load_directory(directory: Path, source: str) -> LoadedProgram:
    from assistant.configs import build
    from assistant.errors import ConfigurationError

    if (directory / _ARTIFACT_DIR / MANIFEST_FILE).is_file() and not (directory / MANIFEST_FILE).is_file():
        directory = directory / _ARTIFACT_DIR
    manifest_path, state_path = directory / MANIFEST_FILE, directory / PROGRAM_FILE
    if not manifest_path.is_file():
        raise ProgramLoadError(f"{source}: no {MANIFEST_FILE} (not a saved paratrace program)")
    manifest = _read_manifest(manifest_path)
    if not state_path.is_file():
        raise ProgramLoadError(f"{source}: no {PROGRAM_FILE} next to the manifest")
    state_bytes = read_bytes(state_path, error=ProgramLoadError)  # read once: the digest is of what is loaded
    digest = hashlib.sha256(state_bytes).hexdigest()
    if manifest.program_sha256 and digest != manifest.program_sha256:
        raise ProgramLoadError(f"{state_path}: SHA-256 {digest[:12]}... does not match the manifest's "
                               f"{manifest.program_sha256[:12]}... (file changed after saving)")
    try:
        program = build(manifest.config)
    except ConfigurationError as exc:
        raise ProgramLoadError(f"{manifest_path}: field 'config': {exc}") from None
    try:
        state = json.loads(state_bytes.decode("utf-8"))
    except ValueError as exc:
        raise ProgramLoadError(f"{state_path}: not valid JSON ({exc})") from None
    if not isinstance(state, dict):
        raise ProgramLoadError(f"{state_path}: expected a JSON object")
    expected = {name for name, _ in program.named_predictors()}
    missing = sorted(expected - set(state))
    if missing:
        raise ProgramLoadError(f"{state_path}: no state for predictor {missing[0]!r} of configuration "
                               f"{manifest.config!r}")
    try:
        program.load(str(state_path))
    except Exception as exc:  # noqa: BLE001 - DSPy raises assorted errors on a bad state
        raise ProgramLoadError(f"{state_path}: DSPy could not load the state ({type(exc).__name__}: {exc})") from None
    return LoadedProgram(manifest.config, program, manifest, source)


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
            local = mlflow.artifacts.download_artifacts(artifact_uri=f"{uri.rstrip('/')}/{_ARTIFACT_DIR}",
                                                        dst_path=target)
        except Exception as exc:  # noqa: BLE001 - MLflow raises many kinds (MlflowException, OSError...)
            message = " ".join(str(exc).split())[:300]
            raise ProgramLoadError(f"{uri}: cannot download the program ({type(exc).__name__}: {message})") from None
        return _load_directory(Path(local), uri)


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
    return _load_directory(directory, text)
