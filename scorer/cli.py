"""The ``paratrace score`` command (registered on the root CLI by ``register(app)``).

``paratrace score --suite SUITE.jsonl --outputs OUTPUTS.jsonl [--outputs ...]
--report DIR`` loads the suite and the outputs (repairing raw lines that carry
only ``meta.raw_text``, :func:`scorer.outputs_io.load_outputs`; a run's own
``runs/<name>/results.jsonl`` reads as its outputs), scores every output
(:func:`scorer.score.score_suite`), and writes the report
(:mod:`scorer.report`).  A suite case without an output in some run is
scored as a hard failure of that run ("no output"), never dropped.  Bad
input (a missing file, a malformed record, an output for an unknown case)
raises a :class:`~symbolic.errors.ParatraceError`, which the root CLI turns
into one line on stderr and exit code 2.
"""

from __future__ import annotations

from pathlib import Path
from typing import List, Optional, Sequence

import typer

__all__ = ["fill_missing", "register", "run_score"]


def fill_missing(scenarios, outputs, not_scored=()) -> list:
    """Add a hard-failure record for every suite case a run has no output for.

    Parameters
    ----------
    scenarios : sequence of Scenario
    outputs : sequence of OutputRecord
    not_scored : sequence of OutputRecord, optional
        Cases of a run's log without a model answer (infrastructure errors,
        limits): not scored, so not filled in as failures either.

    Returns
    -------
    list of OutputRecord
        ``outputs`` followed by the added failures, sorted by run and case.

    Examples
    --------
    >>> from scorer.contract import OutputRecord
    >>> from types import SimpleNamespace
    >>> sc = [SimpleNamespace(id="c1"), SimpleNamespace(id="c2")]
    >>> out = [OutputRecord(case_id="c1", configuration="d", model="m", common={"final_status": "both"})]
    >>> [(o.case_id, o.meta.failure_reason) for o in fill_missing(sc, out)]
    [('c1', None), ('c2', 'no output for this case in the outputs files')]
    """
    from .contract import OutputRecord

    have = {o.run_key + (o.case_id,) for o in (*outputs, *not_scored)}
    runs = sorted({o.run_key for o in outputs})
    added = []
    for configuration, model, variant, repeat in runs:
        for s in sorted(scenarios, key=lambda s: s.id):
            if (configuration, model, variant, repeat, s.id) not in have:
                added.append(OutputRecord.failure(
                    case_id=s.id, configuration=configuration, model=model, variant=variant or None,
                    repeat=repeat, raw_text="", reason="no output for this case in the outputs files"))
    return sorted(list(outputs) + added, key=lambda o: o.run_key + (o.case_id,))


def run_score(suite: Path, outputs: Sequence[Path], report: Path, *, seed: int = 0, alpha: float = 0.05,
              n_resamples: int = 2000, ncr: bool = True, audit: bool = True,
              budget: int | None = None) -> tuple[list[str], str]:
    """Score outputs against a suite and write the report; the function behind the command.

    ``budget`` is the scoring budget per case side in engine work units
    (:mod:`scorer.budget`; default :data:`~scorer.budget.DEFAULT_CASE_BUDGET`).

    Returns
    -------
    (list of str, str)
        The files written and a one-line summary.

    Raises
    ------
    ParatraceError
        On bad input (``ScenarioError``, ``OutputFileError``, ``ScoringError``,
        ``ReportError``).
    """
    import warnings

    from symbolic.errors import PriorityCycleWarning
    from symbolic.suites.io import load_suite

    from .audit import component_audit
    from .errors import OutputFileError, ScoringError
    from .outputs_io import load_outputs
    from .report import write_report
    from .score import score_suite
    from .summary import summarize

    if not outputs:
        raise OutputFileError("no --outputs file given")
    if not 0.0 < alpha < 1.0:
        raise ScoringError(f"--alpha must be in (0, 1), got {alpha}")
    if n_resamples < 1:
        raise ScoringError(f"--resamples must be at least 1, got {n_resamples}")
    scenarios = load_suite(suite)
    evidence = {s.id: s.evidence_ids() for s in scenarios}
    records, not_scored = [], []
    first_file: dict[tuple, str] = {}
    for path in outputs:
        for rec in load_outputs(path, evidence=evidence, not_scored=not_scored):
            key = rec.run_key + (rec.case_id,)
            if key in first_file:
                raise OutputFileError(
                    f"output for case {rec.case_id!r} of run {rec.run_key!r} also in {first_file[key]}",
                    file=str(path), field="case_id", value=rec.case_id)
            first_file[key] = str(path)
            records.append(rec)
    known = {s.id for s in scenarios}
    for rec in records:
        if rec.case_id not in known:
            where = first_file[rec.run_key + (rec.case_id,)]
            raise ScoringError(f"{where}: output for case {rec.case_id!r}, which is not in the suite {suite}")
    if not records:
        raise OutputFileError(f"no case has a model answer ({len(not_scored)} not scored: infrastructure errors "
                              "or token/time limits)", file=str(outputs[0]))
    records = fill_missing(scenarios, records, not_scored)
    import gc

    gc.freeze()  # the suite and outputs live until the end: keep the collector's full passes off them

    from .budget import DEFAULT_CASE_BUDGET
    from .gold_views import GoldViews

    budget = DEFAULT_CASE_BUDGET if budget is None else budget
    views = GoldViews()  # the audit's rescoring reuses the gold sides

    def rescore(outs):
        return score_suite(scenarios, outs, ncr=ncr, budget=budget, gold_views=views)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PriorityCycleWarning)
        results = score_suite(scenarios, records, ncr=ncr, budget=budget, gold_views=views)
        summary = summarize(results, outputs=records, scenarios=scenarios, seed=seed, alpha=alpha,
                            n_resamples=n_resamples)
        rows = component_audit(scenarios, records, results, rescore) if audit else None
    written = write_report(report, summary=summary, scenarios=scenarios, outputs=records, results=results,
                           audit=rows, suite_name=Path(suite).name,
                           output_names=[Path(p).name for p in outputs])
    failures = sum(r.hard_failure for r in results)
    skipped = (f"; {len(not_scored)} not scored (infrastructure errors or token/time limits, no model answer)"
               if not_scored else "")
    line = (f"scored {len(results)} outputs of {len(summary.configs)} configuration(s) on {len(scenarios)} "
            f"cases ({failures} hard failure(s)){skipped}; report in {report}")
    return written, line


def register(app: typer.Typer) -> None:
    """Add the ``score`` command to the root ``paratrace`` app."""

    @app.command("score")
    def score(
        suite: Path = typer.Option(..., "--suite", help="The scenario suite (JSONL)."),
        outputs: List[Path] = typer.Option(..., "--outputs",
                                           help="An outputs file (JSONL of output records, or a run's "
                                                "runs/NAME/results.jsonl); repeatable."),
        report: Path = typer.Option(..., "--report", help="Directory to write the report into."),
        seed: int = typer.Option(0, "--seed", help="Seed of the bootstrap intervals."),
        alpha: float = typer.Option(0.05, "--alpha", help="One minus the confidence level."),
        resamples: int = typer.Option(2000, "--resamples", help="Bootstrap resamples."),
        ncr: bool = typer.Option(True, "--ncr/--no-ncr", help="Run the NCR search (Algorithm 5)."),
        audit: bool = typer.Option(True, "--audit/--no-audit",
                                   help="Run the component-dependency audit (Table 19)."),
        budget: Optional[int] = typer.Option(None, "--budget", min=1,
                                             help="Scoring budget per case in engine work units (arguments + "
                                                  "attacks built; deterministic). Default 250000. A case over "
                                                  "it is reported 'not scored (budget)'."),
    ) -> None:
        """Score assistant outputs against a suite and write per-case files, summaries and the audit."""
        _, line = run_score(suite, outputs, report, seed=seed, alpha=alpha, n_resamples=resamples, ncr=ncr,
                            audit=audit, budget=budget)
        typer.echo(line)
