"""Experiment specs: what a run covers, frozen before any call is made.

A spec names suites, configurations, backbones, prompt variants, repeats and a
seed.  It is read from TOML (``paratrace run CONFIG.toml``) or built from the
quick form (``paratrace run --suite S --config b4 --model M``).
"""

from __future__ import annotations

import itertools
import tomllib
from pathlib import Path
from typing import Iterator, Literal, NamedTuple

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from ..errors import ExperimentError

__all__ = ["Backbone", "ExperimentSpec", "RunKey", "load_spec"]

_FROZEN = ConfigDict(frozen=True, extra="forbid")


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
    api_base: str | None = None
    api_key_env: str | None = Field(default=None, pattern=r"^[A-Za-z_][A-Za-z0-9_]*$")
    rate_per_minute: float | None = Field(default=None, gt=0)
    decoding: dict[str, float | int | str] = Field(default_factory=dict)

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

    @model_validator(mode="after")
    def _cells_known(self):
        for configuration, _ in self.cells or ():
            if configuration not in self.configurations:
                raise ValueError(f"cells names configuration {configuration!r}, "
                                 f"which is not in configurations {list(self.configurations)}")
        return self

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
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ExperimentError(f"{path}: no such experiment spec") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ExperimentError(f"{path}: cannot read the spec ({exc})") from None
    except tomllib.TOMLDecodeError as exc:
        raise ExperimentError(f"{path}: not valid TOML ({exc})") from None
    data.setdefault("name", path.stem)
    try:
        return ExperimentSpec.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        field = ".".join(str(p) for p in err["loc"]) or "<root>"
        raise ExperimentError(
            f"{path}: field {field}: {err['msg']} (value {err.get('input')!r})"
        ) from None
