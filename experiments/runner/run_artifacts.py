"""The text artifacts and params of one cell's nested run.

``cases.txt`` is the per-case text that MLflow's compare view shows for two
runs side by side (tick two runs -> Compare -> Artifacts -> ``cases.txt``),
in the page, not in a pop-up: one block of five lines per case in case-id
order, so the blocks of two runs of one suite line up, each with the run,
the gold status, the answer's status, whether it is correct, the case's
metrics and the answer; the heading names the run and its backbone (model
and endpoint).  (A text artifact is shown in full; an HTML one only in a
frame 150 pixels high.)
"""

from __future__ import annotations

import csv
import io
from typing import Any, Mapping, Sequence

__all__ = ["CASES_TEXT", "case_rows_text", "cell_params", "cell_texts", "csv_text"]

#: The nested run's per-case blocks (MLflow's compare view shows two runs' side by side).
CASES_TEXT = "cases.txt"


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



def _value(value: Any) -> str:
    return " n/a" if value is None else f"{float(value):4.2f}"


def case_rows_text(title: str, backbone: str, rows: Sequence[Mapping[str, Any]], metrics: Sequence[str]) -> str:
    """``cases.txt``: a block of the same number of lines per case, so two runs' blocks line up.

    MLflow's compare view shows a text artifact of two runs side by side in
    fixed-width panes about 50 characters wide; each case takes the same lines
    of at most about 45 characters (beyond its id): the case and the run;
    gold, answer and whether it is correct; the metrics, four to a line; the
    answer's text (cut to one line); a blank line.

    Parameters
    ----------
    title : str
        The run's name (``b4·exact``).
    backbone : str
        The backbone as a reader should see it (model string and endpoint).
    rows : sequence of mapping
        Per case: ``case_id``, ``outcome`` and the keys of
        :func:`~experiments.runner.case_traces.case_response` (``gold_status``,
        ``final_status``, ``correct``, one key per metric, ``answer``).
    metrics : sequence of str
        The metrics, in order.

    Examples
    --------
    >>> text = case_rows_text("b4·m", "m = openai/m at http://h:1/v1", [{"case_id": "c1", "outcome": "scored",
    ...     "gold_status": "both", "final_status": "accepted", "correct": False, "ASA": 0.0,
    ...     "answer": "P(x) is accepted."}], ["ASA", "TGC"])
    >>> print(text)
    b4·m
    backbone m = openai/m
      at http://h:1/v1
    1 cases: 1 scored, 0 correct
    n/a: the metric does not apply
    <BLANKLINE>
    c1 · b4·m
      gold both      answer accepted  correct NO
      ASA 0.00  TGC  n/a
      "P(x) is accepted."
    <BLANKLINE>
    <BLANKLINE>
    """
    lines_per_metrics = max(1, -(-len(metrics) // 4))
    scored = [r for r in rows if r.get("correct") is not None and r.get("outcome") != "infra_error"]
    right = sum(1 for r in scored if r.get("correct"))
    name, _, where = backbone.partition(" at ")
    out = [title, f"backbone {name}", *([f"  at {where}"] if where else []),
           f"{len(rows)} cases: {len(scored)} scored, {right} correct", "n/a: the metric does not apply", ""]
    for row in rows:
        outcome = str(row.get("outcome") or "scored")
        correct = row.get("correct")
        if outcome == "infra_error" or correct is None:
            verdict = "not scored" if outcome == "infra_error" else outcome
        else:
            verdict = "correct yes" if correct else "correct NO"
        out.append(f"{row.get('case_id')} · {title}")
        out.append(f"  gold {str(row.get('gold_status') or '-'):<9} answer {str(row.get('final_status') or '-'):<9} "
                   f"{verdict}".rstrip())
        cells = [f"{m} {_value(row.get(m))}" for m in metrics]
        chunks = [cells[i:i + 4] for i in range(0, len(cells), 4)]
        chunks += [[]] * (lines_per_metrics - len(chunks))
        out += [("  " + "  ".join(chunk)).rstrip() for chunk in chunks]
        answer = " ".join(str(row.get("answer") or row.get("failure_reason") or "").split())
        out.append(f'  "{answer[:60]}{"…" if len(answer) > 60 else ""}"' if answer else "  (no answer)")
        out.append("")
    return "\n".join(out) + "\n"
