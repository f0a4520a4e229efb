"""The text artifacts and params of one cell's nested run."""

from __future__ import annotations

import csv
import io
from typing import Any, Mapping, Sequence

__all__ = ["cell_params", "cell_texts", "csv_text"]


def csv_text(rows: Sequence[Mapping]) -> str:
    """Rows as CSV, columns in the first row's order (empty text for no rows).

    >>> csv_text([{"case_id": "c1", "correct": True}])
    'case_id,correct\\nc1,True\\n'
    """
    if not rows:
        return ""
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=list(rows[0]), lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return buf.getvalue()


def _dot(output) -> str:
    from symbolic.traces.dot import to_dot

    return to_dot(output.trace.trace())


def cell_texts(cell) -> dict[str, str]:
    """``cases.csv``, ``case_results.jsonl`` and the DOT trace of every incorrect case."""
    from .compare import CASE_RESULTS, case_results_jsonl

    failed = [o for o, r in zip(sorted(cell.outputs, key=lambda o: o.case_id),
                                sorted(cell.results, key=lambda r: r.case_id))
              if not r.correct and o.trace is not None]
    texts = {f"traces/{o.case_id}.dot": _dot(o) for o in failed}
    texts["cases.csv"] = csv_text(cell.table())
    texts[CASE_RESULTS] = case_results_jsonl(cell.results)
    return texts


def cell_params(manifest: Mapping[str, Any], spec_seed: int, suite: str, cell) -> dict[str, Any]:
    """The params of a cell's nested run: the cell, its provenance and its outcome counts."""
    return {"configuration": cell.configuration, "backbone": cell.backbone,
            "variant": cell.variant, "repeat": cell.repeat, "suite": suite,
            "prompt_hash": cell.prompt_hash or "unknown",
            "suite_digest": manifest.get("suites", {}).get(suite, "unknown"),
            "schema_hash": manifest.get("schema_hash", "unknown"),
            "git_revision": manifest.get("git_revision", "unknown"),
            "seed": manifest.get("seed", spec_seed),
            **{f"backbone.{k}": v for k, v in manifest.get("backbones", {}).get(cell.backbone, {}).items()},
            **{f"packages.{k}": v for k, v in manifest.get("packages", {}).items()},
            **{f"outcomes.{k}": v for k, v in cell.outcomes.items()}}
