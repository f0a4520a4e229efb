"""The penalty fixtures of the symbolic tests, all made from :mod:`symbolic.scenario.examples`.

``fixtures/penalty_suite.jsonl`` (the rows of docs/semantics.md section 8) is
committed, because the docs and the benchmarks name it;
``test_semantics_examples`` checks that it is what :func:`write_suite` writes.
Rewrite it with ``python tests/symbolic/penalty_cases.py``.
"""

from __future__ import annotations

import json
from pathlib import Path

from symbolic.scenario.examples import penalty_analysis, penalty_scenario, penalty_table
from symbolic.suites.io import dump_suite

__all__ = ["SUITE", "trace_case", "write_case_json", "write_suite"]

SUITE = Path(__file__).resolve().parent / "fixtures" / "penalty_suite.jsonl"


def trace_case() -> dict:
    """The as-given case for the trace and TNF tests: query, target, fragment ids and the objects
    (facts numbered first)."""
    scenario = penalty_scenario(facts_first=True)
    return {"query": scenario.query, "target": scenario.target, "evidence": sorted(scenario.evidence_ids()),
            "analysis": penalty_analysis(facts_first=True).model_dump(mode="json")}


def write_case_json(directory: Path) -> Path:
    """The as-given case as one indented JSON document (``penalty.json``) in ``directory``."""
    record = json.loads(penalty_table()[0].model_dump_json(exclude_none=True))
    path = Path(directory) / "penalty.json"
    path.write_text(json.dumps(record, indent=2, sort_keys=True, ensure_ascii=False) + "\n", encoding="utf-8")
    return path


def write_suite(path: Path = SUITE) -> str:
    """Write the section 8 table as a suite; returns its sha256."""
    return dump_suite(penalty_table(), path)


if __name__ == "__main__":
    print(f"wrote {SUITE} (sha256 {write_suite()[:16]})")
