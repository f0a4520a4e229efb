"""Frozen result records of the scorer: one metric on one case, one scored case,
the trace alignment of a case and the aggregate of a metric over a split.

A metric that does not apply to a case is recorded with ``value=None`` and an
explanation, never as a silent 0 (STYLE.md, point 5).  Records are plain frozen
dataclasses over strings and numbers; :meth:`to_dict` gives a JSON-ready view
with sorted keys so that reports serialize byte-identically.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Mapping

__all__ = ["AlignmentRecord", "CaseResult", "MetricAggregate", "MetricRecord"]


def _freeze(value: Any) -> Any:
    """Recursively turn dicts into read-only mappings and lists into tuples."""
    if isinstance(value, Mapping):
        return MappingProxyType({str(k): _freeze(v) for k, v in sorted(value.items(), key=lambda kv: str(kv[0]))})
    if isinstance(value, (list, tuple)):
        return tuple(_freeze(v) for v in value)
    if isinstance(value, (set, frozenset)):
        return tuple(sorted(_freeze(v) for v in value))
    return value


def _plain(value: Any) -> Any:
    """JSON-ready copy of a frozen value (mappings -> dicts, tuples -> lists)."""
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in sorted(value.items(), key=lambda kv: str(kv[0]))}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if hasattr(value, "to_dict"):
        return value.to_dict()
    if hasattr(value, "value") and isinstance(getattr(value, "value"), str):  # enums
        return value.value
    return value


@dataclass(frozen=True, slots=True)
class MetricRecord:
    """One metric on one case.

    Attributes
    ----------
    metric : str
        Metric name (``"ASA"``, ``"TGC"``, ...).
    value : float or None
        The per-case value in ``[0, 1]`` (NCR: a non-negative edit cost), or
        ``None`` when the metric does not apply to the case.
    explanation : str
        One human-readable sentence saying why the value is what it is.
    metadata : Mapping
        Metric-specific detail (numerator, denominator, witness...), read-only.

    Examples
    --------
    >>> r = MetricRecord("ASA", 1.0, "predicted accepted, gold accepted")
    >>> r.applicable, MetricRecord("CLA", None, "no gold contradiction").applicable
    (True, False)
    """

    metric: str
    value: float | None
    explanation: str
    metadata: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self):
        object.__setattr__(self, "metadata", _freeze(dict(self.metadata)))
        if self.value is not None:
            object.__setattr__(self, "value", float(self.value))

    @property
    def applicable(self) -> bool:
        """Whether the metric applies to the case (``value`` is not ``None``)."""
        return self.value is not None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict with sorted metadata keys."""
        return {"metric": self.metric, "value": self.value, "explanation": self.explanation,
                "metadata": _plain(self.metadata)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "MetricRecord":
        """Inverse of :meth:`to_dict`.

        >>> r = MetricRecord("TGC", 0.5, "1 of 2", {"matched": 1, "gold": 2})
        >>> MetricRecord.from_dict(r.to_dict()) == r
        True
        """
        return cls(data["metric"], data["value"], data["explanation"], data.get("metadata", {}))


@dataclass(frozen=True, slots=True)
class AlignmentRecord:
    """Trace alignment of one case (Algorithm 4), as canonical edge ids.

    Attributes
    ----------
    matched : tuple of str
        Gold mandatory edges the output also has.
    missing : tuple of str
        Gold mandatory edges the output lacks.
    unsupported : tuple of str
        Output edges outside every admissible gold edge set.
    metadata : Mapping
        Alignment detail (edit distance, chosen gold set, number of admissible sets).

    Examples
    --------
    >>> a = AlignmentRecord(("e1", "e2"), ("e3",), ())
    >>> a.coverage
    0.6666666666666666
    """

    matched: tuple[str, ...]
    missing: tuple[str, ...]
    unsupported: tuple[str, ...]
    metadata: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self):
        for name in ("matched", "missing", "unsupported"):
            object.__setattr__(self, name, tuple(sorted(set(getattr(self, name)))))
        object.__setattr__(self, "metadata", _freeze(dict(self.metadata)))

    @property
    def coverage(self) -> float | None:
        """``|matched| / (|matched| + |missing|)``; ``None`` when the gold set is empty."""
        total = len(self.matched) + len(self.missing)
        return len(self.matched) / total if total else None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict."""
        return {"matched": list(self.matched), "missing": list(self.missing),
                "unsupported": list(self.unsupported), "metadata": _plain(self.metadata)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "AlignmentRecord":
        """Inverse of :meth:`to_dict`."""
        return cls(tuple(data["matched"]), tuple(data["missing"]), tuple(data["unsupported"]),
                   data.get("metadata", {}))


@dataclass(frozen=True, slots=True)
class CaseResult:
    """One output scored against one scenario.

    Attributes
    ----------
    case_id, configuration, model : str
        Identify the run cell.
    variant : str or None
        Prompt or program variant; ``None`` when the configuration has only one.
    repeat : int
        Repeat index of the run.
    status_gold : str
        The gold status label.
    status_pred : str or None
        The predicted status label, ``None`` on a hard failure or missing answer.
    correct : bool
        ``status_pred == status_gold`` (always ``False`` on a hard failure).
    hard_failure : bool
        The output could not be parsed even after repair.
    metrics : Mapping of str to MetricRecord
        Per-metric records, keyed by metric name.
    alignment : AlignmentRecord or None
        Trace alignment, when the output carries (or implies) a trace.
    not_scored : str or None
        Why the case was not scored (``"budget: ..."``: it needed more engine
        work than the case budget, :mod:`scorer.budget`); then every metric is
        ``None`` and the case is left out of every rate and counted apart.
    shortcut : bool
        The output's theory asserts the target (or its complement) as a fact
        (:mod:`scorer.shortcut`): scored as incorrect and counted apart.
    """

    case_id: str
    configuration: str
    model: str
    variant: str | None
    repeat: int
    status_gold: str
    status_pred: str | None
    correct: bool
    hard_failure: bool
    metrics: Mapping[str, MetricRecord]
    alignment: AlignmentRecord | None = None
    not_scored: str | None = None
    shortcut: bool = False

    def __post_init__(self):
        object.__setattr__(self, "metrics", MappingProxyType(dict(sorted(self.metrics.items()))))

    @property
    def run_key(self) -> tuple[str, str, str, int]:
        """``(configuration, model, variant or "", repeat)``: the run cell, as
        :attr:`scorer.contract.OutputRecord.run_key` of the output scored."""
        return (self.configuration, self.model, self.variant or "", self.repeat)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict (metrics sorted by name)."""
        return {
            "case_id": self.case_id, "configuration": self.configuration, "model": self.model,
            "variant": self.variant, "repeat": self.repeat, "status_gold": self.status_gold,
            "status_pred": self.status_pred, "correct": self.correct,
            "hard_failure": self.hard_failure,
            "metrics": {k: v.to_dict() for k, v in self.metrics.items()},
            "alignment": None if self.alignment is None else self.alignment.to_dict(),
            **({} if self.not_scored is None else {"not_scored": self.not_scored}),
            **({"shortcut": True} if self.shortcut else {}),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "CaseResult":
        """Inverse of :meth:`to_dict` (reads a per-case results JSONL line back)."""
        alignment = data.get("alignment")
        return cls(
            data["case_id"], data["configuration"], data["model"], data.get("variant"), data["repeat"],
            data["status_gold"], data.get("status_pred"), data["correct"], data["hard_failure"],
            {k: MetricRecord.from_dict(v) for k, v in data["metrics"].items()},
            None if alignment is None else AlignmentRecord.from_dict(alignment),
            data.get("not_scored"), bool(data.get("shortcut", False)),
        )


@dataclass(frozen=True, slots=True)
class MetricAggregate:
    """A metric aggregated over a set of case results.

    Attributes
    ----------
    metric : str
    value : float or None
        ``numerator / denominator``; ``None`` when no case applies.
    numerator, denominator : float
        Pooled sums (TGC pools edges; the case metrics pool cases).
    n_applicable : int
        Number of cases where the metric applied.

    Examples
    --------
    >>> MetricAggregate("ASA", 0.75, 3.0, 4.0, 4).value
    0.75
    """

    metric: str
    value: float | None
    numerator: float
    denominator: float
    n_applicable: int

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict."""
        return {"metric": self.metric, "value": self.value, "numerator": self.numerator,
                "denominator": self.denominator, "n_applicable": self.n_applicable}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "MetricAggregate":
        """Inverse of :meth:`to_dict`."""
        return cls(data["metric"], data["value"], float(data["numerator"]), float(data["denominator"]),
                   int(data["n_applicable"]))
