"""Scoring a finished (or partly finished) run: per suite, the scorer's report
over every cell (the same files as ``paratrace score --report``, the
component-dependency audit included); per cell, the metrics with their
intervals for MLflow.

Only model answers are scored: a case whose latest record is an
infrastructure error or a token/time limit is counted in the cell's
``outcomes`` and reported as not scored, never as an incorrect answer.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping, Sequence

from symbolic.errors import PriorityCycleWarning
from symbolic.support.fsio import write_atomic
from symbolic.scenario.model import Scenario

from .engine import NOT_SCORED
from .runlog import ResultLog
from .spec import CellKey

__all__ = ["CellScore", "SuiteScore", "score_log"]


@dataclass(frozen=True)
class CellScore:
    """One (configuration, backbone, variant, repeat) cell of one suite."""

    suite: str
    configuration: str
    backbone: str
    variant: str
    repeat: int
    outputs: tuple
    results: tuple
    summary: object
    outcomes: Mapping[str, int]
    prompt_hash: str = ""
    operations: object = None

    @property
    def key(self) -> CellKey:
        """This cell's :class:`~experiments.runner.spec.CellKey`."""
        return CellKey(self.suite, self.configuration, self.backbone, self.variant, self.repeat)

    @property
    def name(self) -> str:
        """The cell's full name (reports, ``cells.json``, the nested run's tag ``paratrace.cell``)."""
        return f"{self.configuration} | {self.backbone} | {self.variant} | r{self.repeat}"

    @property
    def label(self) -> str:
        """The nested run's name: short enough for MLflow's compare views, distinct within a run.

        Configuration and backbone first (what tells two runs apart), the
        variant only when it is not ``standard``, the repeat only after the first.

        Examples
        --------
        >>> cell = CellScore("s", "b4", "exact", "standard", 0, (), (), None, {})
        >>> cell.label, CellScore("s", "b4", "m", "noisy-0.3", 2, (), (), None, {}).label
        ('b4·exact', 'b4·m·noisy-0.3·r2')
        """
        parts = [self.configuration, self.backbone]
        if self.variant != "standard":
            parts.append(self.variant)
        if self.repeat:
            parts.append(f"r{self.repeat}")
        return "·".join(parts)

    @property
    def not_scored(self) -> int:
        """Cases without a model answer (infrastructure errors, limits)."""
        return sum(self.outcomes.get(o, 0) for o in NOT_SCORED)

    def not_scored_text(self) -> str:
        """``not scored (N infrastructure errors, M token/time limits)``, or ``""``."""
        parts = []
        if self.outcomes.get("infra_error"):
            parts.append(f"{self.outcomes['infra_error']} infrastructure errors")
        if self.outcomes.get("limit"):
            parts.append(f"{self.outcomes['limit']} token/time limits")
        return f"not scored ({', '.join(parts)})" if parts else ""

    def metrics(self) -> dict[str, tuple[float | None, float | None, float | None, int]]:
        """``metric -> (value, ci_low, ci_high, n_applicable)``, status accuracy as ``ASA``;
        empty when no case of the cell was scored."""
        if self.summary is None:
            return {}
        out = {}
        for row in self.summary.metric_rows:
            low = high = None
            if row.interval is not None:
                low, high = row.interval.low, row.interval.high
            out[row.metric] = (row.estimate, low, high, row.n_applicable)
        return out

    def operational_metrics(self) -> dict[str, float]:
        """Latency, tokens, calls and JSON validity rates (absent figures left out)."""
        if self.operations is None:
            return {}
        return {k: v for k, v in self.operations.to_dict().items() if v is not None and k != "n"}

    def table(self) -> list[dict]:
        """Per-case rows: ids, statuses, correctness and every metric value."""
        rows = []
        for r in sorted(self.results, key=lambda r: r.case_id):
            row = {"case_id": r.case_id, "status_gold": r.status_gold, "status_pred": r.status_pred,
                   "correct": r.correct, "hard_failure": r.hard_failure}
            row.update({m: rec.value for m, rec in sorted(r.metrics.items())})
            rows.append(row)
        return rows


@dataclass(frozen=True)
class SuiteScore:
    """All cells of one suite and the report written for them."""

    suite: str
    cells: tuple[CellScore, ...]
    report_dir: Path
    files: tuple[str, ...]


def score_log(log: ResultLog, suites: Mapping[str, Sequence[Scenario]], report_root: Path,
              *, seed: int = 0) -> list[SuiteScore]:
    """Score every record of ``log`` and write one report per suite.

    Parameters
    ----------
    log : ResultLog
    suites : mapping of str to sequence of Scenario
    report_root : Path
        Reports go to ``report_root/<suite>/``.
    seed : int
        Seed of the scorer's bootstraps.
    """
    with warnings.catch_warnings():
        # Priority cycles are part of the scored traces; the warning adds nothing here.
        warnings.simplefilter("ignore", PriorityCycleWarning)
        return _score_log(log, suites, report_root, seed=seed)


def _score_log(log, suites, report_root, *, seed):
    from scorer.audit import component_audit
    from scorer.contract import OutputRecord
    from scorer.operations import operations, operations_markdown
    from scorer.report import write_report
    from scorer.gold_views import GoldViews
    from scorer.score import score_suite
    from scorer.summary import summarize

    grouped: dict[str, dict[CellKey, list[dict]]] = {}
    for record in log.latest().values():
        cell = CellKey.of(record["key"])
        grouped.setdefault(cell.suite, {}).setdefault(cell, []).append(record)
    scores = []
    for suite in sorted(grouped):
        scenarios = suites[suite]
        cells, all_outputs, all_results = [], [], []
        views = GoldViews()  # every cell and the audit's rescoring share the suite's gold sides
        for cell in sorted(grouped[suite]):
            records = grouped[suite][cell]
            answered = [r for r in records if r["outcome"] not in NOT_SCORED]
            outputs = tuple(OutputRecord.model_validate(r["output"]) for r in answered)
            results = tuple(score_suite(scenarios, outputs, gold_views=views)) if outputs else ()
            outcomes = {o: sum(1 for r in records if r["outcome"] == o)
                        for o in ("scored", "parse_failure", *NOT_SCORED)}
            hashes = sorted({r.get("prompt_hash", "") for r in records} - {""})
            summary = summarize(results, outputs=outputs, seed=seed) if results else None
            cells.append(CellScore(*cell, outputs, results, summary, outcomes,
                                   ",".join(hashes), operations(outputs) if outputs else None))
            all_outputs.extend(outputs)
            all_results.extend(results)
        directory = report_root / suite
        files: list[str] = []
        if all_results:
            summary = summarize(all_results, outputs=all_outputs, scenarios=scenarios, seed=seed)

            def rescore(outs, scenarios=scenarios, views=views):
                return score_suite(scenarios, outs, gold_views=views)

            audit = component_audit(scenarios, all_outputs, all_results, rescore)
            files = list(write_report(directory, summary=summary, scenarios=scenarios, outputs=all_outputs,
                                      results=all_results, audit=audit, suite_name=suite,
                                      output_names=("results.jsonl",)))
        directory.mkdir(parents=True, exist_ok=True)
        ops = directory / "operations.md"
        write_atomic(ops, operations_markdown([(c.name, c.operations) for c in cells if c.operations is not None])
                     + _not_scored_md(cells))
        scores.append(SuiteScore(suite, tuple(cells), directory, tuple(sorted([*files, str(ops)]))))
    return scores


def _not_scored_md(cells) -> str:
    rows = [f"| {c.name} | {c.outcomes.get('infra_error', 0)} | {c.outcomes.get('limit', 0)} |"
            for c in cells if c.not_scored]
    if not rows:
        return ""
    return ("\n\n## Not scored\n\nCases without a model answer; they are in no metric or interval.\n\n"
            "| cell | infrastructure errors | token/time limits |\n| --- | ---: | ---: |\n" + "\n".join(rows) + "\n")
