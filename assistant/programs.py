"""Saved programs: DSPy JSON state plus a manifest, and the programs shipped for the default model.

A saved program is a directory holding

* ``program.json``: the DSPy state of the compiled module (``Module.save``:
  instructions, field prefixes and demos of every predictor), loadable with
  ``build(config).load("program.json")``;
* ``manifest.json``: a :class:`Manifest` (base configuration, model, family,
  optimizer, budget, seed, split digests, objective weights, held-out scores
  before and after, and the SHA-256 of ``program.json``).

``paratrace optimize`` writes them (:func:`optimize.programs.save_program`);
:func:`load_program_directory` reads one in any process.  The programs in
:data:`SHIPPED_DIR` were optimized for the embedded default model, one per
configuration that has one; ``ask``, ``demo`` and ``serve`` run them when the
default model answers (:func:`shipped_program`), and ``docs/optimize.md``
gives the command that reproduces each.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

from symbolic.support.fsio import PathError, read_bytes, read_text

from .errors import ConfigurationError, ProgramLoadError

__all__ = [
    "ARTIFACT_DIR",
    "LoadedProgram",
    "MANIFEST_FILE",
    "MANIFEST_VERSION",
    "Manifest",
    "PROGRAM_FILE",
    "SHIPPED_DIR",
    "load_program_directory",
    "model_family",
    "shipped_program",
]

PROGRAM_FILE = "program.json"
MANIFEST_FILE = "manifest.json"
MANIFEST_VERSION = 1
#: Where an MLflow logged model keeps the two files.
ARTIFACT_DIR = "paratrace"
#: The programs shipped with paratrace: ``<config>-<family of the default model>/``.
SHIPPED_DIR = Path(__file__).resolve().parent / "shipped"


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
            Backbone; the manifest's model when ``None``.
        **kwargs
            Further :class:`~assistant.api.Assistant` options (not ``program``).
        """
        from .api import Assistant

        return Assistant(self.config, model or self.manifest.model, program=self.program, **kwargs)

    def describe(self) -> str:
        """One line: configuration, model, optimizer and the held-out status accuracy before and after.

        Examples
        --------
        >>> m = Manifest("b4", "local/x", "random-search", 0, budget="1",
        ...              scores_before={"ASA": 0.25}, scores_after={"ASA": 0.3})
        >>> LoadedProgram("b4", None, m).describe()
        'b4 program for local/x by random-search (budget 1, seed 0); held-out ASA 0.25 -> 0.30'
        """
        m = self.manifest
        line = f"{m.config} program for {m.model} by {m.optimizer} (budget {m.budget}, seed {m.seed})"
        before, after = m.scores_before.get("ASA"), m.scores_after.get("ASA")
        if before is not None and after is not None:
            line += f"; held-out ASA {before:.2f} -> {after:.2f}"
        return line


def _read_manifest(path: Path) -> Manifest:
    try:
        data = json.loads(read_text(path))
    except PathError as exc:
        raise ProgramLoadError(f"{path}: cannot read the manifest ({exc.reason})") from None
    except ValueError as exc:
        raise ProgramLoadError(f"{path}: not valid JSON ({exc})") from None
    return Manifest.from_dict(data, source=str(path))


def load_program_directory(directory: str | Path, source: str | None = None) -> LoadedProgram:
    """Load a saved program from its directory, checking the manifest and the state's digest.

    Parameters
    ----------
    directory : str or Path
        Holds ``manifest.json`` and ``program.json`` (or an MLflow model directory
        holding them under ``paratrace/``).
    source : str, optional
        How to name it in errors and in :attr:`LoadedProgram.source` (default: the directory).

    Returns
    -------
    LoadedProgram

    Raises
    ------
    ProgramLoadError
        If the manifest or state is missing or malformed, the state's digest differs
        from the manifest's, or DSPy rejects the state.
    """
    from .configs import build

    directory = Path(directory)
    source = source or str(directory)
    if not directory.is_dir():
        raise ProgramLoadError(f"{source}: no such directory (expected a saved program)")

    if (directory / ARTIFACT_DIR / MANIFEST_FILE).is_file() and not (directory / MANIFEST_FILE).is_file():
        directory = directory / ARTIFACT_DIR
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


def shipped_program(config: str, model: str | None = None) -> LoadedProgram | None:
    """The program shipped for ``config`` on the default model, or ``None``.

    Parameters
    ----------
    config : str
        ``b1``..``b4``.
    model : str, optional
        The model that will answer (default: :func:`assistant.backends.default_model`).
        Only the embedded default model (:data:`assistant.backends.DEFAULT_MODEL`) has
        shipped programs; any other model gets ``None``.

    Returns
    -------
    LoadedProgram or None
        ``None`` when ``model`` is not the default model or no program ships for ``config``.

    Raises
    ------
    ProgramLoadError
        If a shipped program is damaged (digest, manifest) or was made for another model.

    Examples
    --------
    >>> shipped_program("b4", "openai/gpt-4o-mini") is None
    True
    """
    from .backends import DEFAULT_MODEL, default_model

    model = (model or default_model()).strip()
    if model != DEFAULT_MODEL:
        return None
    directory = SHIPPED_DIR / f"{config.strip().lower()}-{model_family(model)}"
    if not (directory / MANIFEST_FILE).is_file():
        return None
    loaded = load_program_directory(directory)
    if loaded.manifest.model != model or loaded.config != config.strip().lower():
        raise ProgramLoadError(f"{directory / MANIFEST_FILE}: made for {loaded.config} on {loaded.manifest.model}, "
                               f"shipped for {config} on {model}")
    return loaded
