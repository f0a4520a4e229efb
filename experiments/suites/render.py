"""Rich rendering of one suite case for ``paratrace suite show``: the evidence
package, the gold objects, the candidate and its defect (controlled suites),
the engine's labelling and attacks (the trace), and the status.
"""

from __future__ import annotations

from collections import Counter

from rich.console import Console, Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from symbolic.traces.text import evaluation_renderable
from symbolic.scenario.model import Analysis, Scenario

from .checks import evaluate_gold

__all__ = ["analysis_table", "case_renderable", "evidence_table", "render_case", "trace_summary"]


def evidence_table(scenario: Scenario) -> Table:
    """The evidence package: id, source and clause, tags, text."""
    table = Table(title="Evidence package", title_justify="left", show_lines=True, expand=True)
    table.add_column("id", no_wrap=True)
    table.add_column("source / clause", ratio=1)
    table.add_column("text", ratio=3)
    for frag in scenario.evidence:
        where = frag.source + (f"\n{frag.clause}" if frag.clause else "")
        if frag.tags:
            where += "\n[" + ", ".join(frag.tags) + "]"
        table.add_row(frag.id, Text(where), Text(frag.text))
    return table


def analysis_table(analysis: Analysis, title: str) -> Table:
    """Facts, rules, priorities and explicit attacks of an analysis, one row each."""
    table = Table(title=title, title_justify="left", expand=True)
    table.add_column("object", no_wrap=True)
    table.add_column("content", ratio=3, overflow="fold")
    table.add_column("cites", no_wrap=True)
    for f in analysis.facts:
        table.add_row(f"fact {f.id}", Text(f.literal), ", ".join(f.evidence))
    for r in analysis.rules:
        body = " ∧ ".join(r.antecedents) or "⊤"
        arrow = {"strict": "→", "defeasible": "⇒", "defeater": "⇝"}[r.kind.value]
        table.add_row(f"rule {r.id} ({r.kind.value})", Text(f"{body} {arrow} {r.consequent}"), ", ".join(r.evidence))
    for p in analysis.priorities:
        note = f"  ({p.note})" if p.note else ""
        table.add_row(f"priority {p.basis.value}", Text(f"{p.stronger} > {p.weaker}{note}"), ", ".join(p.evidence))
    for a in analysis.attacks:
        table.add_row(f"attack {a.kind.value}", Text(f"{a.source} → {a.target}"), ", ".join(a.evidence))
    return table


def case_renderable(scenario: Scenario) -> Panel:
    """One case as a rich panel."""
    meta = scenario.metadata
    head = Text()
    head.append(f"query: {scenario.query}\n")
    head.append(f"target: {scenario.target}    gold status: ", style="bold")
    head.append(scenario.gold.status.value, style="bold")
    flags = [f"domain {meta.domain.value}" if meta.domain else None,
             "contradiction" if meta.contradiction else None, "priority" if meta.priority else None,
             f"pair {meta.pair} ({meta.role})" if meta.pair else None]
    head.append("\n" + "; ".join(f for f in flags if f))
    if meta.tags:
        head.append("\ntags: " + ", ".join(meta.tags))
    parts = [head, evidence_table(scenario), analysis_table(scenario.gold, "Gold analysis")]
    if scenario.candidate is not None:
        defect = meta.defect_class.value if meta.defect_class else "unknown"
        where = f" at {meta.defect_location}" if meta.defect_location else ""
        parts.append(analysis_table(scenario.candidate, f"Candidate analysis (defect: {defect}{where})"))
    parts.append(evaluation_renderable(scenario, evaluate_gold(scenario), analysis="gold"))
    parts.append(trace_summary(scenario))
    return Panel(Group(*parts), title=f"{scenario.id}", title_align="left")


def trace_summary(scenario: Scenario) -> Text:
    """One line on the stored gold trace: nodes and edges by type.

    Examples
    --------
    >>> from symbolic.scenario.model import EvidenceFragment, Gold
    >>> s = Scenario(id="c1", query="q?", target="P(x)",
    ...              evidence=[EvidenceFragment(id="E-01", text="t", source="doc")], gold=Gold(status="both"))
    >>> str(trace_summary(s))
    'Gold trace: none stored (the build fills it).'
    """
    trace = scenario.gold.trace
    if trace is None:
        return Text("Gold trace: none stored (the build fills it).")
    nodes = Counter(n.type.value for n in trace.nodes)
    edges = Counter(e.type.value for e in trace.edges)
    return Text(f"Gold trace (TNF): {len(trace.nodes)} nodes ({_counts(nodes)}); {len(trace.edges)} edges "
                f"({_counts(edges)}). Full trace: paratrace status FILE --case {scenario.id} --format json")


def _counts(counter: Counter) -> str:
    return ", ".join(f"{k} {v}" for k, v in sorted(counter.items()))


def render_case(console: Console, scenario: Scenario) -> None:
    """Print :func:`case_renderable` to ``console``."""
    console.print(case_renderable(scenario))
