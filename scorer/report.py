"""Report files: per-case JSONL and CSV, a Markdown summary and one CSV per
summary table, and the component-dependency audit (paper Section 6, Table 19).

Files written into the report directory:

============================  ================================================
``cases.jsonl``               one scored case a line (metrics, alignment, repair
                              log; raw text of hard failures)
``cases.csv``                 the same, flat: one column per metric value
``summary.md``                every table, laid out like the paper's
``summary_accuracy.csv``      status accuracy and DLA per configuration
``summary_subsets.csv``       status accuracy per configuration and case subset
``summary_repairs.csv``       outputs touched by each kind of deterministic repair
``summary_confusion.csv``     confusion matrices (long format)
``summary_metrics.csv``       metrics per configuration with counts and intervals
``summary_paired.csv``        exact McNemar tests with BH q-values
``summary_stability.csv``     repeated-run stability
``summary_run_metrics.csv``   each metric's mean and sample SD over repeated runs
``audit.csv``                 the component-dependency audit
============================  ================================================

Every file is a pure function of the inputs: rows sorted, keys sorted, floats
in a fixed format, no timestamps and no absolute paths, so a rerun writes
byte-identical files.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
from pathlib import Path
from typing import Iterable, Sequence

from symbolic.support.fsio import write_atomic
from symbolic.suites.io import scenario_line
from symbolic.scenario.model import Scenario

from .audit import VARIANTS, AuditRow
from .contract import OutputRecord
from .errors import ReportError
from .records import CaseResult
from .report_md import fmt_pct, md_table, render_markdown
from .stats import Interval
from .summary import REPAIR_KINDS, Summary, config_label

__all__ = ["REPORT_FILES", "audit_markdown", "digest", "write_report"]

REPORT_FILES = ("audit.csv", "cases.csv", "cases.jsonl", "summary.md", "summary_accuracy.csv",
                "summary_confusion.csv", "summary_metrics.csv", "summary_paired.csv",
                "summary_limits.csv", "summary_repairs.csv", "summary_run_metrics.csv", "summary_stability.csv",
                "summary_subsets.csv")


def digest(lines: Iterable[str]) -> str:
    """First 16 hex digits of the SHA-256 of the given lines (joined by newlines).

    >>> digest(["a", "b"])
    '911169ddaaf146af'
    """
    h = hashlib.sha256()
    for line in lines:
        h.update(line.encode("utf-8") + b"\n")
    return h.hexdigest()[:16]


def _f(x) -> str:
    if x is None:
        return ""
    if isinstance(x, bool):
        return "true" if x else "false"
    if isinstance(x, int):
        return str(x)
    if isinstance(x, float):
        return f"{x:.6f}"
    return str(x)


def _csv(header: Sequence[str], rows: Iterable[Sequence]) -> str:
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(header)
    for row in rows:
        writer.writerow([_f(x) for x in row])
    return buf.getvalue()


def _ci(ci: Interval | None) -> list:
    if ci is None:
        return [None, None, None, None, None, None]
    return [ci.estimate, ci.low, ci.high, ci.numerator, ci.denominator, ci.method]


_CI_HEAD = ["estimate", "low", "high", "numerator", "denominator", "interval"]


def _out_key(o: OutputRecord) -> tuple:
    return o.run_key + (o.case_id,)


def _res_key(r: CaseResult) -> tuple:
    return r.run_key + (r.case_id,)


def _cases_jsonl(results: Sequence[CaseResult], outputs: dict[tuple, OutputRecord]) -> str:
    lines = []
    for r in results:
        row = r.to_dict()
        o = outputs.get(_res_key(r))
        if o is not None:
            meta = {"repair_log": list(o.meta.repair_log), "failure_reason": o.meta.failure_reason}
            if o.meta.hard_failure:
                meta["raw_text"] = o.meta.raw_text
            row["output_meta"] = meta
        lines.append(json.dumps(row, sort_keys=True, ensure_ascii=False))
    return "".join(line + "\n" for line in lines)


def _cases_csv(results: Sequence[CaseResult], outputs: dict[tuple, OutputRecord],
               metrics: Sequence[str]) -> str:
    header = ["configuration", "model", "variant", "repeat", "case_id", "status_gold", "status_pred",
              "correct", "hard_failure", "failure_reason", "repairs", *metrics]
    rows = []
    for r in results:
        o = outputs.get(_res_key(r))
        rows.append([r.configuration, r.model, r.variant or "", r.repeat, r.case_id, r.status_gold,
                     r.status_pred, r.correct, r.hard_failure,
                     None if o is None else o.meta.failure_reason,
                     None if o is None else len(o.meta.repair_log),
                     *[r.metrics[m].value if m in r.metrics else None for m in metrics]])
    return _csv(header, rows)


def _split(key) -> list[str]:
    return [key[0], key[1], key[2]]


def _summary_csvs(s: Summary) -> dict[str, str]:
    cfg = ["configuration", "model", "variant"]
    acc = _csv(cfg + ["repeat", "cases", "hard_failures", "repaired"] + [f"accuracy_{h}" for h in _CI_HEAD]
               + [f"dla_{h}" for h in _CI_HEAD],
               [_split(r.config) + [r.repeat, r.n_cases, r.hard_failures, r.repaired] + _ci(r.accuracy)
                + _ci(r.dla) for r in s.accuracy])
    conf = _csv(cfg + ["gold", "predicted", "count"],
                [_split(key) + [g, p, cm.count(g, p)] for key, cm in s.confusion
                 for g in cm.labels for p in cm.columns])
    met = _csv(cfg + ["metric", "cases", "applicable", "value"] + _CI_HEAD,
               [_split(r.config) + [r.metric, r.n_cases, r.n_applicable, r.estimate] + _ci(r.interval)
                for r in s.metric_rows])
    paired = _csv(["metric"] + [f"a_{c}" for c in cfg] + [f"b_{c}" for c in cfg]
                  + ["paired_cases", "a_rate", "b_rate", "only_a", "only_b", "pvalue", "qvalue"],
                  [[p.metric] + _split(p.a) + _split(p.b) + [p.n, p.a_rate, p.b_rate, p.only_a, p.only_b,
                                                             p.pvalue, p.qvalue] for p in s.paired])
    stab = _csv(cfg + ["runs", "cases", "accuracy_mean", "accuracy_sd", "all_same", "pairwise_agreement",
                       "per_run_accuracy"],
                [_split(key) + [x.n_runs, x.n_cases, x.accuracy_mean, x.accuracy_sd, x.all_same,
                                x.pairwise_agreement, " ".join(_f(v) for v in x.per_run_accuracy)]
                 for key, x in s.stability])
    run_metrics = _csv(cfg + ["metric", "runs", "mean", "sd", "per_run"],
                       [_split(m.config) + [m.metric, len(m.values), m.mean, m.sd,
                                            " ".join(_f(v) for v in m.values)] for m in s.run_metrics])
    subsets = _csv(cfg + ["subset", "cases", "hard_failures"] + [f"accuracy_{h}" for h in _CI_HEAD],
                   [_split(r.config) + [r.subset, r.n_cases, r.hard_failures] + _ci(r.accuracy)
                    for r in s.subsets])
    repairs = _csv(cfg + ["outputs", "repaired", "hard_failures", *[k.replace(" ", "_") for k in REPAIR_KINDS]],
                   [_split(r.config) + [r.n_outputs, r.repaired, r.hard_failures, *r.by_kind] for r in s.repairs])
    limits = _csv(cfg + ["cases", "not_scored_budget", "ncr_stopped", "ncr_lower_bound_min", "ncr_lower_bound_max",
                         "alignment_capped"],
                  [_split(r.config) + [r.n_cases, r.not_scored, r.ncr_stopped,
                                       *(r.ncr_bounds if r.ncr_bounds else ("", "")), r.alignment_capped]
                   for r in s.limits])
    return {"summary_limits.csv": limits, "summary_repairs.csv": repairs, "summary_subsets.csv": subsets, "summary_run_metrics.csv": run_metrics, "summary_accuracy.csv": acc, "summary_confusion.csv": conf, "summary_metrics.csv": met,
            "summary_paired.csv": paired, "summary_stability.csv": stab}


def audit_markdown(rows: Sequence[AuditRow]) -> str:
    """The audit as a Markdown section body.

    Examples
    --------
    >>> row = AuditRow("no_priority_edges", "gold", 10, 3, None, None, "accepted->both: 3")
    >>> print(audit_markdown([row]).splitlines()[-1])
    | no priority edges | gold | 10 | 3 (30.0%) | — | — | accepted->both: 3 |
    """
    lines = ["Each variant removes one component; the audit measures what changes. Status variants "
             "recompute the engine's status of the gold analyses and of each configuration's own "
             "trace (first run); the accuracy columns compare those statuses with gold. `no tnf` "
             "compares pooled edge coverage in trace normal form (TGC) with coverage on the authors' "
             "raw ids; `no trace graph` scores the outputs again without their traces.", ""]
    lines += [f"- **{v.replace('_', ' ')}**: {what}." for v, what in VARIANTS.items()]
    table = []
    for r in rows:
        share = f" ({fmt_pct(r.changed / r.n_cases)}%)" if r.n_cases and r.variant in (
            "no_priority_edges", "no_attack_edges", "no_ner_check") else ""
        extra = f"; {r.skipped} case(s) not evaluable" if r.skipped else ""
        table.append([r.variant.replace("_", " "), r.source, str(r.n_cases), f"{r.changed}{share}",
                      fmt_pct(r.full_value), fmt_pct(r.variant_value), r.detail + extra])
    lines += ["", md_table(["Variant", "Source", "Cases", "Changed", "Full %", "Variant %", "What changes"],
                           table)]
    return "\n".join(lines)


def _atomic_write(path: Path, text: str) -> None:
    write_atomic(path, text, error=ReportError)


def write_report(directory, *, summary: Summary, scenarios: Sequence[Scenario],
                 outputs: Sequence[OutputRecord], results: Sequence[CaseResult],
                 audit: Sequence[AuditRow] | None = None, suite_name: str = "suite",
                 output_names: Sequence[str] = ()) -> list[str]:
    """Write every report file into ``directory`` (created if needed).

    Parameters
    ----------
    directory : str or path-like
    summary : Summary
        From :func:`scorer.summary.summarize`.
    scenarios : sequence of Scenario
        The suite (for its size and digest).
    outputs : sequence of OutputRecord
        The scored outputs (repair logs, raw text of hard failures).
    results : sequence of CaseResult
        The scored cases.
    audit : sequence of AuditRow, optional
        From :func:`scorer.audit.component_audit`; ``audit.csv`` is written
        with a header only when ``None``.
    suite_name : str
        How the suite is named in the summary (a file name, not a path).
    output_names : sequence of str
        How the outputs files are named in the summary.

    Returns
    -------
    list of str
        The paths written, sorted.

    Raises
    ------
    ReportError
        If ``directory`` exists and is not a directory, or cannot be written.

    Examples
    --------
    >>> import tempfile
    >>> from scorer.metrics._examples import penalty_output, penalty_scenario
    >>> from scorer.score import score_suite
    >>> from scorer.summary import summarize
    >>> suite, outs = [penalty_scenario()], [penalty_output("accepted", "gold")]
    >>> res = score_suite(suite, outs)
    >>> files = write_report(tempfile.mkdtemp(), summary=summarize(res, outputs=outs, n_resamples=50),
    ...                      scenarios=suite, outputs=outs, results=res)
    >>> sorted(f.rsplit("/", 1)[1] for f in files) == sorted(REPORT_FILES)
    True
    """
    out = Path(directory)
    if out.exists() and not out.is_dir():
        raise ReportError(f"{out}: exists and is not a directory")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ReportError(f"{out}: cannot create the report directory ({exc.strerror})") from None
    by_key = {_out_key(o): o for o in outputs}
    ordered = sorted(results, key=_res_key)
    files = {"cases.jsonl": _cases_jsonl(ordered, by_key),
             "cases.csv": _cases_csv(ordered, by_key, summary.metrics)}
    files.update(_summary_csvs(summary))
    audit_rows = list(audit or ())
    files["audit.csv"] = _csv(["variant", "source", "cases", "changed", "full_value", "variant_value",
                               "detail", "skipped"],
                              [[r.variant, r.source, r.n_cases, r.changed, r.full_value, r.variant_value,
                                r.detail, r.skipped] for r in audit_rows])
    suite_digest = digest(scenario_line(s) for s in sorted(scenarios, key=lambda s: s.id))
    output_digest = digest(sorted(o.to_json() for o in outputs))
    preamble = [
        f"- Suite: `{suite_name}` ({len(scenarios)} cases, digest `{suite_digest}`)",
        f"- Outputs: {', '.join(f'`{n}`' for n in output_names) or '—'} ({len(outputs)} records, "
        f"digest `{output_digest}`)",
        f"- Configurations: {len(summary.configs)}; scored cases: {len(results)}",
        f"- Confidence level {fmt_pct(1 - summary.alpha)}%; bootstrap seed {summary.seed}, "
        f"{summary.n_resamples} resamples",
    ]
    failures = [[config_label((r.configuration, r.model, r.variant or "")), r.repeat, r.case_id,
                 (by_key[_res_key(r)].meta.failure_reason if _res_key(r) in by_key else "no output")]
                for r in ordered if r.hard_failure]
    files["summary.md"] = render_markdown(
        summary, title="ParaTraceBench score report", preamble=preamble,
        audit=None if audit is None else audit_markdown(audit_rows), failures=failures)
    written = []
    try:
        for name in sorted(files):
            _atomic_write(out / name, files[name])
            written.append(str(out / name))
    except OSError as exc:
        raise ReportError(f"{out}: cannot write the report ({exc.strerror})") from None
    return written
