"""Markdown rendering of a :class:`~scorer.summary.Summary`, laid out like the
paper's tables: status accuracy and DLA, confusion matrices, metrics per
configuration with counts and intervals, paired comparison with q-values,
repeated-run stability, and the component-dependency audit (Table 19).

Pure text: fixed float formatting, sorted rows, no timestamps.
"""

from __future__ import annotations

from typing import Sequence

from .metrics.aggregate import HIGHER_IS_BETTER
from .stats import Interval
from .summary import REPAIR_KINDS, Summary, config_label

__all__ = ["fmt_interval", "fmt_p", "fmt_pct", "md_table", "render_markdown"]


def fmt_pct(x: float | None) -> str:
    """A proportion as a percentage with one decimal; ``—`` for ``None``.

    >>> fmt_pct(0.857142), fmt_pct(None)
    ('85.7', '—')
    """
    return "\u2014" if x is None else f"{100 * x:.1f}"


def fmt_interval(ci: Interval | None, *, rate: bool = True) -> str:
    """``85.7 [82.6, 88.4]`` for a rate (percent), ``1.25 [0.75, 1.75]`` otherwise.

    >>> from scorer.stats import wilson
    >>> fmt_interval(wilson(486, 567))
    '85.7 [82.6, 88.4]'
    """
    if ci is None:
        return "\u2014"
    if rate:
        return f"{fmt_pct(ci.estimate)} [{fmt_pct(ci.low)}, {fmt_pct(ci.high)}]"
    return f"{ci.estimate:.2f} [{ci.low:.2f}, {ci.high:.2f}]"


def fmt_p(p: float) -> str:
    """A p- or q-value with four decimals, ``<0.0001`` below that.

    >>> fmt_p(0.0123456), fmt_p(1e-7), fmt_p(1.0)
    ('0.0123', '<0.0001', '1.0000')
    """
    return "<0.0001" if p < 0.0001 else f"{p:.4f}"


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:.2f}"


def _cell(text: str) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def md_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """A GitHub Markdown table.

    >>> print(md_table(["a", "b"], [["1", "x|y"]]))
    | a | b |
    | --- | --- |
    | 1 | x\\|y |
    """
    lines = ["| " + " | ".join(_cell(h) for h in header) + " |",
             "| " + " | ".join("---" for _ in header) + " |"]
    lines += ["| " + " | ".join(_cell(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def _accuracy(summary: Summary) -> str:
    rows = []
    for row in summary.accuracy:
        dla = "\u2014" if row.dla is None else f"{fmt_interval(row.dla)} (n={_num(row.dla.denominator)})"
        rows.append([config_label(row.config), str(row.repeat), str(row.n_cases),
                     str(row.hard_failures), "\u2014" if row.repaired is None else str(row.repaired),
                     f"{_num(row.accuracy.numerator)}/{row.n_cases}", fmt_interval(row.accuracy), dla])
    return md_table(["Configuration", "Run", "Cases", "Hard failures", "Repaired", "Correct",
                     "Status accuracy % [95% CI]", "DLA % [95% CI]"], rows)


def _subsets(summary: Summary) -> str:
    rows = [[config_label(r.config), r.subset, str(r.n_cases), str(r.hard_failures),
             f"{_num(r.accuracy.numerator)}/{r.n_cases}", fmt_interval(r.accuracy)] for r in summary.subsets]
    return md_table(["Configuration", "Subset", "Cases", "Hard failures", "Correct",
                     "Status accuracy % [95% CI]"], rows)


def _repairs(summary: Summary) -> str:
    rows = [[config_label(r.config), str(r.n_outputs), str(r.repaired), str(r.hard_failures),
             *[str(n) for n in r.by_kind]] for r in summary.repairs]
    return md_table(["Configuration", "Outputs", "Repaired", "Hard failures", *REPAIR_KINDS], rows)


def _confusion(summary: Summary) -> str:
    parts = []
    for key, cm in summary.confusion:
        rows = [[label] + [str(n) for n in counts] for label, counts in zip(cm.labels, cm.counts)]
        parts.append(f"### {config_label(key)}\n\n" + md_table(["gold \\ predicted", *cm.columns], rows))
    return "\n\n".join(parts)


def _metrics(summary: Summary) -> str:
    rows = []
    for row in summary.metric_rows:
        ci = row.interval
        counts = "\u2014" if ci is None else f"{_num(ci.numerator)}/{_num(ci.denominator)}"
        better = {True: "\u2191", False: "\u2193"}.get(HIGHER_IS_BETTER.get(row.metric), "")
        rows.append([config_label(row.config), f"{row.metric} {better}".strip(),
                     f"{row.n_applicable}/{row.n_cases}", counts, fmt_interval(ci, rate=row.is_rate),
                     "\u2014" if ci is None else ci.method])
    return md_table(["Configuration", "Metric", "Applicable/cases", "Numerator/denominator",
                     "Value [95% CI]", "Interval"], rows)


def _paired(summary: Summary) -> str:
    if not summary.paired:
        return "No paired comparison: fewer than two configurations share a case."
    rows = [[p.metric, config_label(p.a), config_label(p.b), str(p.n), fmt_pct(p.a_rate),
             fmt_pct(p.b_rate), str(p.only_a), str(p.only_b), fmt_p(p.pvalue), fmt_p(p.qvalue)]
            for p in summary.paired]
    return md_table(["Metric", "A", "B", "Paired cases", "A %", "B %", "Only A", "Only B",
                     "p (exact McNemar)", "q (BH)"], rows)


def _stability(summary: Summary) -> str:
    if not summary.stability:
        return "No configuration has two or more runs."
    rows = []
    for key, s in summary.stability:
        sd = "\u2014" if s.accuracy_sd is None else f"{100 * s.accuracy_sd:.1f}"
        rows.append([config_label(key), str(s.n_runs), str(s.n_cases), fmt_pct(s.accuracy_mean), sd,
                     fmt_pct(s.all_same), fmt_pct(s.pairwise_agreement)])
    table = md_table(["Configuration", "Runs", "Cases", "Accuracy mean %", "Accuracy SD (pp)",
                      "Same status in all runs %", "Mean pairwise agreement %"], rows)
    if not summary.run_metrics:
        return table
    rates = {(r.config, r.metric): r.is_rate for r in summary.metric_rows}
    metric_rows = []
    for m in summary.run_metrics:
        rate = rates.get((m.config, m.metric), True)
        show = fmt_pct if rate else (lambda x: "\u2014" if x is None else f"{x:.2f}")
        per_run = ", ".join(show(v) for v in m.values)
        metric_rows.append([config_label(m.config), m.metric, str(len(m.values)), show(m.mean),
                            show(m.sd), per_run])
    return table + "\n\nEach metric's run-level value over the runs (percent for rates):\n\n" + md_table(
        ["Configuration", "Metric", "Runs", "Mean", "Sample SD", "Per run"], metric_rows)


def _limits(summary: Summary) -> str:
    rows = []
    for r in summary.limits:
        bounds = "" if r.ncr_bounds is None else (f"\u2265 {r.ncr_bounds[0]}" if r.ncr_bounds[0] == r.ncr_bounds[1]
                                                 else f"\u2265 {r.ncr_bounds[0]} .. \u2265 {r.ncr_bounds[1]}")
        rows.append([config_label(r.config), str(r.n_cases), str(r.not_scored), str(r.ncr_stopped), bounds,
                     str(r.alignment_capped)])
    return md_table(["Configuration", "Cases", "Not scored (budget)", "NCR stopped", "NCR lower bounds",
                     "Alignment capped"], rows)


def render_markdown(summary: Summary, *, title: str, preamble: Sequence[str] = (),
                    audit: str | None = None, failures: Sequence[Sequence[str]] = ()) -> str:
    """Render the whole report.

    Parameters
    ----------
    summary : Summary
    title : str
        First heading.
    preamble : sequence of str
        Lines under the title (suite, output files, settings).
    audit : str, optional
        The rendered component-dependency audit section body.
    failures : sequence of (configuration, repeat, case id, reason)
        Hard failures to list.

    Returns
    -------
    str
        Markdown ending in a newline.

    Examples
    --------
    >>> from scorer.records import CaseResult, MetricRecord
    >>> from scorer.summary import summarize
    >>> r = CaseResult("c1", "engine", "m", "", 0, "both", "both", True, False,
    ...                {"ASA": MetricRecord("ASA", 1.0, "")})
    >>> text = render_markdown(summarize([r], n_resamples=10), title="Report")
    >>> text.splitlines()[0], "| engine / m | 0 | 1 | 0 |" in text
    ('# Report', True)
    """
    conf = int(round(100 * (1 - summary.alpha)))
    sections = [
        f"# {title}",
        "\n".join(preamble),
        "## 1. Status accuracy and DLA\n\nFirst run of each configuration; hard failures are "
        f"scored incorrect. Wilson {conf}% intervals.\n\n" + _accuracy(summary)
        + ("\n\nBy subset of the suite (gold status, domain, contradiction and priority cases, "
           "defect class, split, update-pair role):\n\n" + _subsets(summary) if summary.subsets else "")
        + ("\n\nDeterministic repairs (Appendix A.8): outputs touched by each kind of repair "
           "(`cases.jsonl` has every output's log):\n\n" + _repairs(summary) if summary.repairs else ""),
        "## 2. Confusion matrices\n\nRows: gold status; columns: predicted status "
        "(`failure` = hard failure).\n\n" + _confusion(summary),
        "## 3. Metrics per configuration\n\n\u2191 higher is better, \u2193 lower is better. Wilson intervals for 0/1 metrics, an edge-level "
        f"bootstrap for TGC and a case-level bootstrap otherwise ({summary.n_resamples} resamples, "
        f"seed {summary.seed}). Not-applicable cases are excluded from a metric's denominator.\n\n"
        + _metrics(summary),
        "### Scoring limits\n\nCases over the scoring budget (engine work units, deterministic) are *not "
        "scored* and left out of every rate above; an NCR search stopped by a cap or the budget gives a "
        "lower bound (\u2265 k), left out of the NCR mean; an alignment whose admissible-class search hit "
        "the seed or priority-subset cap used the closest class generated.\n\n" + _limits(summary),
        "## 4. Paired comparison\n\nTwo-sided exact McNemar on the cases both configurations "
        "have (first runs), for status correctness and every 0/1 metric; Benjamini-Hochberg "
        "q-values across all rows.\n\n" + _paired(summary),
        "## 5. Repeated-run stability\n\nMean and sample SD of per-run status accuracy; a hard "
        "failure agrees with no run.\n\n" + _stability(summary),
    ]
    if audit is not None:
        sections.append("## 6. Component-dependency audit (Table 19)\n\n" + audit)
    if failures:
        rows = [[str(c) for c in row] for row in failures]
        sections.append("## Hard failures\n\n" + md_table(["Configuration", "Run", "Case", "Reason"], rows))
    return "\n\n".join(s for s in sections if s) + "\n"
