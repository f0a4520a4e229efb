"""The scorer's self-validation table: every defect class injected into every
gold trace and localized (paper Table 10; docs/metrics.md B6).

:func:`localization_table` injects each class (:func:`scorer.defects.inject.inject`)
and reports, per class, how often the gold-free localizer
(:func:`scorer.defects.detect.localize`) names the class and the location.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from symbolic.scenario.model import DEFECT_CLASSES, DefectClass, Scenario

from .classes import same_location
from .detect import localize
from .inject import inject

__all__ = ["LocalizationRow", "LocalizationTable", "localization_table"]


@dataclass(frozen=True, slots=True)
class LocalizationRow:
    """One defect class of the self-validation table.

    Attributes
    ----------
    defect_class : str
    injected : int
        Cases the class was injected into.
    skipped : int
        Cases it cannot apply to.
    class_correct : int
        Localizer named the class.
    location_correct : int
        ... and the location.
    confusions : tuple of (str, int)
        Classes named instead, with counts.
    """

    defect_class: str
    injected: int
    skipped: int
    class_correct: int
    location_correct: int
    confusions: tuple[tuple[str, int], ...]

    @property
    def accuracy(self) -> float | None:
        """``class_correct / injected`` (``None`` when nothing was injected)."""
        return self.class_correct / self.injected if self.injected else None

    def to_dict(self) -> dict:
        """JSON-ready dict."""
        return {"defect_class": self.defect_class, "injected": self.injected, "skipped": self.skipped,
                "class_correct": self.class_correct, "location_correct": self.location_correct,
                "accuracy": self.accuracy, "confusions": dict(self.confusions)}


@dataclass(frozen=True, slots=True)
class LocalizationTable:
    """Per-class localization of injected defects (paper Table 10).

    Attributes
    ----------
    rows : tuple of LocalizationRow
        The six defect classes, then ``none`` (clean gold traces).
    """

    rows: tuple[LocalizationRow, ...]

    @property
    def overall(self) -> float | None:
        """Class accuracy pooled over the six defect classes (``none`` excluded)."""
        rows = [r for r in self.rows if r.defect_class != DefectClass.NONE.value]
        n = sum(r.injected for r in rows)
        return sum(r.class_correct for r in rows) / n if n else None

    @property
    def clean(self) -> float | None:
        """Share of clean gold traces localized as ``none``."""
        row = next(r for r in self.rows if r.defect_class == DefectClass.NONE.value)
        return row.accuracy

    def to_dict(self) -> dict:
        """JSON-ready dict."""
        return {"rows": [r.to_dict() for r in self.rows], "overall": self.overall, "clean": self.clean}


def localization_table(scenarios: Sequence[Scenario],
                       classes: Sequence[DefectClass] = (*DEFECT_CLASSES, DefectClass.NONE)) -> LocalizationTable:
    """Inject each class into each scenario and localize it (scorer self-validation).

    Parameters
    ----------
    scenarios : sequence of Scenario
    classes : sequence of DefectClass
        Classes to inject (default: the six, then ``none``).

    Returns
    -------
    LocalizationTable

    Examples
    --------
    >>> from scorer.metrics._examples import penalty_scenario
    >>> t = localization_table([penalty_scenario()])
    >>> t.overall, t.clean
    (1.0, 1.0)
    """
    rows = []
    for cls in classes:
        injected = skipped = class_ok = loc_ok = 0
        confusions: dict[str, int] = {}
        for sc in scenarios:
            inj = inject(sc, cls)
            if inj is None:
                skipped += 1
                continue
            injected += 1
            diag = localize(inj.output, evidence_ids=inj.evidence_ids, target=sc.target, query=sc.query)
            if diag.defect_class is cls:
                class_ok += 1
                if cls is DefectClass.NONE or same_location(diag.location, inj.location):
                    loc_ok += 1
            else:
                confusions[diag.defect_class.value] = confusions.get(diag.defect_class.value, 0) + 1
        rows.append(LocalizationRow(cls.value, injected, skipped, class_ok, loc_ok,
                                    tuple(sorted(confusions.items()))))
    return LocalizationTable(tuple(rows))
