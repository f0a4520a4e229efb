"""Experiment specs: what a run covers, frozen before any call is made.

A spec names suites, configurations, backbones, prompt variants, repeats and a
seed.  It is read from TOML (``paratrace run CONFIG.toml``) or built from the
quick form (``paratrace run --suite S --config b4 --model M``).
"""

from __future__ import annotations

import itertools
import re
import tomllib
from pathlib import Path
from typing import Iterator, Literal, Mapping, NamedTuple

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from ..errors import ExperimentError

__all__ = ["Backbone", "CellKey", "ExperimentSpec", "RunKey", "load_spec", "name_problem", "safe_name", "spec_error"]

_FROZEN = ConfigDict(frozen=True, extra="forbid")
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._+-]{0,127}")


def name_problem(name: str) -> str | None:
    """Why ``name`` cannot name a run directory (``runs/<name>/``), or ``None``.

    A run name is one safe path component: 1-128 characters of letters,
    digits, ``.``, ``_``, ``+`` and ``-``, starting with a letter or digit (so
    never ``.``, ``..``, an absolute path, a separator or a NUL).

    Examples
    --------
    >>> name_problem("demo-b4"), name_problem("../../x")
    (None, "run name '../../x' is not a single safe path component (1-128 letters, digits, '.', '_', '+', '-'; starting with a letter or digit)")
    """
    if isinstance(name, str) and _NAME.fullmatch(name) and name not in (".", ".."):
        return None
    return (f"run name {name!r} is not a single safe path component (1-128 letters, digits, '.', '_', '+', "
            "'-'; starting with a letter or digit)")


def safe_name(text: str) -> str:
    """``text`` turned into a valid run name (other characters become ``_``).

    >>> safe_name("normative-en-b4-ollama/llama3:8b")
    'normative-en-b4-ollama_llama3_8b'
    """
    cleaned = re.sub(r"[^A-Za-z0-9._+-]", "_", text).lstrip("._+-")[:128]
    return cleaned or "run"


def _suite_label(name: str) -> str:
    return Path(name).stem if name.endswith(".jsonl") or "/" in name else name


def spec_error(exc: ValidationError, where: str = "spec") -> ExperimentError:
    """One :class:`ExperimentError` naming the field and the value of a spec's first validation error."""
    err = exc.errors()[0]
    field = ".".join(str(p) for p in err["loc"])
    msg = err["msg"].removeprefix("Value error, ")
    if not field:
        return ExperimentError(f"{where}: {msg}")
    value = err.get("input")
    shown = "" if isinstance(value, dict) else f" (value {value!r})"
    return ExperimentError(f"{where}: field {field}: {msg}{shown}")


class CellKey(NamedTuple):
    """One cell of a run's grid in one suite: a :class:`RunKey` without its case.

    Examples
    --------
    >>> CellKey.of({"suite": "s", "case": "c1", "configuration": "b4", "backbone": "m", "variant": "standard",
    ...             "repeat": 0})
    CellKey(suite='s', configuration='b4', backbone='m', variant='standard', repeat=0)
    """

    suite: str
    configuration: str
    backbone: str
    variant: str
    repeat: int

    @classmethod
    def of(cls, key: Mapping) -> "CellKey":
        """The cell of a result record's ``key`` mapping (or of a :class:`RunKey`'s :meth:`~RunKey.as_dict`)."""
        return cls(key["suite"], key["configuration"], key["backbone"], key["variant"], key["repeat"])


class RunKey(NamedTuple):
    """The identity of one case result: the unit of resume."""

    suite: str
    case: str
    configuration: str
    backbone: str
    variant: str
    repeat: int

    def as_dict(self) -> dict:
        """The key as a JSON-ready mapping."""
        return self._asdict()

    @property
    def cell(self) -> CellKey:
        """The grid cell this case result belongs to.

        >>> RunKey("s", "c1", "b4", "m", "standard", 0).cell.configuration
        'b4'
        """
        return CellKey(self.suite, self.configuration, self.backbone, self.variant, self.repeat)


class Backbone(BaseModel):
    """One model: a litellm model string plus per-run overrides.

    ``rate_per_minute`` bounds calls to this backbone across all workers.
    API keys are never part of a backbone: they come from the environment
    (``api_key_env`` names the variable; default ``PARATRACE_API_KEY`` with an
    ``api_base``, else the provider's own).
    """

    model_config = _FROZEN
    model: str = Field(min_length=1)
    alias: str | None = None
    api_base: str | tuple[str, ...] | None = Field(
        default=None, description="The endpoint, or several replicas of one model (calls spread by litellm's Router).")
    api_key_env: str | None = Field(default=None, pattern=r"^[A-Za-z_][A-Za-z0-9_]*$")
    rate_per_minute: float | None = Field(default=None, gt=0)
    decoding: dict[str, float | int | str] = Field(default_factory=dict)

    @field_validator("api_base")
    @classmethod
    def _endpoints(cls, value):
        if isinstance(value, tuple):
            if not value or any(not b.strip() for b in value):
                raise ValueError("api_base lists no endpoint or an empty one")
            if len(set(value)) != len(value):
                raise ValueError("api_base lists an endpoint twice")
            return value[0] if len(value) == 1 else value
        return value

    @property
    def endpoints(self) -> tuple[str, ...]:
        """The replicas' base URLs (one for a single endpoint, none for the provider's default)."""
        if self.api_base is None:
            return ()
        return self.api_base if isinstance(self.api_base, tuple) else (self.api_base,)

    @field_validator("decoding")
    @classmethod
    def _no_secrets(cls, value):
        bad = [k for k in value if "key" in k.lower() or "token" == k.lower() or "secret" in k.lower()]
        if bad:
            raise ValueError(f"decoding must not carry credentials ({', '.join(sorted(bad))}); "
                             "keys come from the environment only")
        return value

    @property
    def name(self) -> str:
        """The name used in run keys and MLflow: the alias or the model string."""
        return self.alias or self.model


class ExperimentSpec(BaseModel):
    """A frozen experiment: the grid ``suites x configurations x backbones x variants x repeats``."""

    model_config = _FROZEN
    name: str = Field(min_length=1)
    suites: tuple[str, ...] = Field(min_length=1)
    configurations: tuple[str, ...] = Field(min_length=1)
    backbones: tuple[Backbone, ...] = Field(min_length=1)
    variants: tuple[str, ...] = ("standard",)
    repeats: int = Field(default=1, ge=1)
    seed: int = 42
    concurrency: int = Field(default=4, ge=1, le=256)
    max_retries: int = Field(default=3, ge=0)
    backoff_s: float = Field(default=1.0, ge=0, description="First retry backoff; doubles per retry, capped at 60 s.")
    timeout_s: float = Field(default=120.0, gt=0)
    max_calls: int | None = Field(default=None, ge=1)
    max_tokens: int | None = Field(default=None, ge=1)
    limit: int | None = Field(default=None, ge=1, description="At most this many cases per suite.")
    split: Literal["all", "test"] = Field(
        default="all",
        description="'test': evaluate only the held-out test split (by scenario and update-pair "
                    "cluster, seeded); few-shot demos then come from the other splits.",
    )
    cases: tuple[str, ...] | None = None
    cells: tuple[tuple[str, str], ...] | None = Field(
        default=None,
        description="(configuration, variant) pairs; when given they replace "
                    "configurations x variants (the fairness grid).",
    )
    shipped_programs: bool = Field(
        default=False,
        description="Run the programs shipped for the embedded default model (assistant.programs) in its "
                    "standard-variant cells; off, every configuration runs as defined.",
    )

    @field_validator("name")
    @classmethod
    def _safe_name(cls, value: str) -> str:
        problem = name_problem(value)
        if problem:
            raise ValueError(problem)
        return value

    @model_validator(mode="after")
    def _unique(self):
        for field, items in (("suites", [_suite_label(s) for s in self.suites]),
                             ("configurations", [c.strip().lower() for c in self.configurations]),
                             ("backbones", [b.name for b in self.backbones]), ("variants", list(self.variants)),
                             ("cells", list(self.cells or ())), ("cases", list(self.cases or ()))):
            seen = set()
            for item in items:
                if item in seen:
                    what = "backbone name (alias or model)" if field == "backbones" else "entry"
                    raise ValueError(f"{field} lists the {what} {item!r} twice; each must be unique")
                seen.add(item)
        return self

    @model_validator(mode="after")
    def _cells_known(self):
        for configuration, _ in self.cells or ():
            if configuration not in self.configurations:
                raise ValueError(f"cells names configuration {configuration!r}, "
                                 f"which is not in configurations {list(self.configurations)}")
        return self

    def differs_from(self, stored: dict) -> list[str]:
        """The fields in which this spec differs from ``stored``, a frozen spec's JSON.

        A field that ``stored`` lacks (written before the field existed) counts as its default.

        Examples
        --------
        >>> spec = ExperimentSpec(name="x", suites=["s"], configurations=["b1"], backbones=[{"model": "m"}])
        >>> stored = spec.model_dump(mode="json")
        >>> del stored["shipped_programs"]
        >>> spec.differs_from(stored), spec.differs_from({**stored, "seed": 1})
        ([], ['seed'])
        """
        frozen = self.model_dump(mode="json")
        if not isinstance(stored, dict):
            return sorted(frozen)
        defaults = type(self)(**{k: v for k, v in frozen.items() if type(self).model_fields[k].is_required()})
        filled = {**{k: v for k, v in defaults.model_dump(mode="json").items() if k not in stored}, **stored}
        return sorted(k for k in set(filled) | set(frozen) if filled.get(k) != frozen.get(k))

    def pairs(self) -> tuple[tuple[str, str], ...]:
        """The (configuration, variant) cells of the grid."""
        if self.cells is not None:
            return self.cells
        return tuple(itertools.product(self.configurations, self.variants))

    def grid(self) -> Iterator[tuple[str, str, Backbone, str, int]]:
        """``(suite, configuration, backbone, variant, repeat)`` in a fixed order.

        Examples
        --------
        >>> spec = ExperimentSpec(name="x", suites=["s"], configurations=["b1", "b4"],
        ...                       backbones=[{"model": "local/gemma-3-270m"}], repeats=2)
        >>> [(c, v, r) for _, c, _, v, r in spec.grid()]
        [('b1', 'standard', 0), ('b1', 'standard', 1), ('b4', 'standard', 0), ('b4', 'standard', 1)]
        """
        for suite in self.suites:
            for configuration, variant in self.pairs():
                for backbone in self.backbones:
                    for repeat in range(self.repeats):
                        yield suite, configuration, backbone, variant, repeat


def load_spec(path: str | Path) -> ExperimentSpec:
    """Read an experiment spec from a TOML file.

    Parameters
    ----------
    path : str or Path
        A TOML file with the fields of :class:`ExperimentSpec`; backbones are
        ``[[backbones]]`` tables.

    Returns
    -------
    ExperimentSpec

    Raises
    ------
    ExperimentError
        Naming the file, the field and the value when the file is missing,
        is not TOML, or does not match the schema.
    """
    from symbolic.support.fsio import input_problem, read_text

    path = Path(path)
    problem = input_problem(path)
    if problem == "no such file":
        raise ExperimentError(f"{path}: no such experiment spec")
    try:
        data = tomllib.loads(read_text(path, max_bytes=8 * 1024 * 1024, error=ExperimentError))
    except tomllib.TOMLDecodeError as exc:
        raise ExperimentError(f"{path}: not valid TOML ({exc})") from None
    except RecursionError:
        raise ExperimentError(f"{path}: not a usable spec (nested too deeply)") from None
    except ValueError as exc:  # e.g. an integer beyond sys.get_int_max_str_digits()
        raise ExperimentError(f"{path}: not a usable spec ({str(exc).split(';')[0]})") from None
    data.setdefault("name", safe_name(path.stem))
    try:
        return ExperimentSpec.model_validate(data)
    except ValidationError as exc:
        raise spec_error(exc, str(path)) from None
