"""The six defect classes of the controlled suite (paper Table 6): their metadata,
their injection and their detection, in one place (docs/metrics.md B4, B6).

- :mod:`~scorer.defects.classes` -- what each class is, its location spelling,
  the location comparison DLA uses;
- :mod:`~scorer.defects.mutate` -- the operation of each class on an analysis;
- :mod:`~scorer.defects.inject` -- the controlled suite's injection into a
  candidate analysis (``paratrace suite build``) and the scorer's
  self-validation injection into a gold trace;
- :mod:`~scorer.defects.whitebox` -- white-box outputs built from an analysis;
- :mod:`~scorer.defects.detect` -- the gold-free localizer of a white-box output;
- :mod:`~scorer.defects.diff` -- a candidate judged against a reference extraction
  (B4's audit);
- :mod:`~scorer.defects.selfcheck` -- the localization table (paper Table 10).
"""

from .classes import DEFECTS, DefectSpec, defect_class, is_defect, same_location
from .detect import localize, localize_case
from .diff import diff_candidate
from .inject import CandidateInjection, Injected, inject, inject_candidate
from .mutate import candidate_analysis
from .selfcheck import LocalizationRow, LocalizationTable, localization_table
from .whitebox import gold_output, output_from_analysis

__all__ = [
    "CandidateInjection",
    "DEFECTS",
    "DefectSpec",
    "Injected",
    "LocalizationRow",
    "LocalizationTable",
    "candidate_analysis",
    "defect_class",
    "diff_candidate",
    "gold_output",
    "inject",
    "inject_candidate",
    "is_defect",
    "localization_table",
    "localize",
    "localize_case",
    "output_from_analysis",
    "same_location",
]
