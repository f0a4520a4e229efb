"""Machine-readable outputs of ``paratrace status`` and the trace check of
``paratrace validate --check-gold``, all through the trace normal form
(:mod:`symbolic.traces.tnf`, docs/semantics.md section 12).
"""

from __future__ import annotations

import json
import warnings
from typing import Iterable, Iterator

from symbolic.errors import PriorityCycleWarning
from symbolic.scenario.model import Analysis, Scenario

__all__ = ["iter_traces_dot_bytes", "iter_traces_json_bytes", "scenario_normal_form", "trace_disagreement"]


def scenario_normal_form(scenario: Scenario, analysis: Analysis | None = None, evaluated=None):
    """The :class:`~symbolic.traces.tnf.NormalForm` of a scenario's analysis (gold by default).

    ``evaluated``, the engine's result on the grounded analysis when the caller
    has it, is reused when the normal form's theory equals it
    (:func:`symbolic.traces.tnf.normal_form`).

    Examples
    --------
    >>> from symbolic.scenario.model import EvidenceFragment, Fact, Gold, Rule
    >>> s = Scenario(id="c1", query="Penalty?", target="Penalty(x)",
    ...              evidence=[EvidenceFragment(id="E-01", text="clause", source="contract")],
    ...              gold=Gold(status="accepted",
    ...                        facts=[Fact(id="f1", literal="Delay(x)", evidence=["E-01"])],
    ...                        rules=[Rule(id="r1", antecedents=["Delay(x)"], consequent="Penalty(x)",
    ...                                    evidence=["E-01"])]))
    >>> scenario_normal_form(s).evaluation.status.value
    'accepted'
    """
    from symbolic.traces.tnf import normal_form

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PriorityCycleWarning)
        return normal_form(scenario.evidence_ids(), scenario.gold if analysis is None else analysis,
                           scenario.target, query=scenario.query, evaluated=evaluated)


def _record_head(scenario: Scenario, form) -> str:
    """The JSON record of one scenario without its last member, ``tnf``."""
    record = {
        "case": scenario.id,
        "target": form.evaluation.target,
        "status": form.evaluation.status.value,
        "support": form.evaluation.support,
        "against": form.evaluation.against,
        "gold_status": scenario.gold.status.value,
        "dropped": [{"kind": d.kind, "id": d.id, "reason": d.reason} for d in form.dropped],
    }
    return json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=False)[:-1]


def iter_traces_json_bytes(evaluated: Iterable[tuple[Scenario, Analysis]], *, defeats: str = "auto",
                           attacks: str = "auto") -> Iterator[bytes]:
    """One JSON line per scenario, as UTF-8 bytes in chunks: case, status, ``s(p)``, ``a(p)``, gold status
    and the TNF.

    Each scenario's engine runs once (in :func:`scenario_normal_form`), and its
    trace is written as it is made (:func:`symbolic.traces.tnf_json.write_tnf` of
    :func:`symbolic.traces.trace.evaluation_rows`): ``tnf`` is exactly
    :func:`symbolic.traces.tnf.tnf_json` of the trace unless ``defeats`` summarizes the
    defeat edges.

    Parameters
    ----------
    evaluated : iterable of (Scenario, Analysis)
        Each scenario with the analysis to evaluate.
    defeats : {"auto", "edges", "summary"}
    attacks : {"auto", "edges", "columns"}
        See :func:`symbolic.traces.trace.evaluation_rows`.

    Yields
    ------
    bytes
        Pieces of the output; every record ends with a newline.
    """
    from symbolic.traces.tnf_json import write_tnf
    from symbolic.traces.trace import evaluation_rows

    for scenario, analysis in evaluated:
        form = scenario_normal_form(scenario, analysis)
        yield (_record_head(scenario, form) + ',"tnf":').encode("utf-8")
        yield from write_tnf(evaluation_rows(form.evaluation, query=scenario.query, defeats=defeats, attacks=attacks))
        yield b"}\n"


def iter_traces_dot_bytes(evaluated: Iterable[tuple[Scenario, Analysis]], *,
                          defeats: str = "auto") -> Iterator[bytes]:
    """Graphviz DOT of each scenario's trace graph (one ``digraph`` per scenario), as UTF-8 bytes in chunks.

    The graph shows the authors' ids under each canonical node; the text is
    :func:`symbolic.traces.dot.to_dot` of :func:`symbolic.traces.trace.build_trace`.
    """
    from symbolic.traces.dot import write_dot
    from symbolic.traces.trace import evaluation_rows

    for scenario, analysis in evaluated:
        form = scenario_normal_form(scenario, analysis)
        yield from write_dot(evaluation_rows(form.evaluation, query=scenario.query, defeats=defeats, attacks="edges"),
                             name=scenario.id)


def _ids(trace) -> tuple[set[str], set[str]]:
    from symbolic.traces.naming import edge_id

    return {n.id for n in trace.nodes}, {edge_id(e) for e in trace.edges}


def trace_disagreement(scenario: Scenario, evaluated=None) -> str | None:
    """Why the gold trace is not TNF-equivalent to the recomputed one (``None`` if it is).

    Compares ``scenario.gold.trace`` with the TNF of the gold analysis
    (:func:`symbolic.traces.tnf.tnf_equivalent`); the reason names a few nodes or
    edges present on one side only, or says that only attributes differ.
    ``evaluated`` (the engine's result on the grounded gold analysis) is
    reused where the normal form's theory equals it.
    """
    from symbolic.traces.tnf import tnf_json
    from symbolic.traces.tnf_json import write_tnf
    from symbolic.traces.trace import evaluation_rows

    gold = scenario.gold.trace
    if gold is None:
        return None
    form = scenario_normal_form(scenario, evaluated=evaluated)
    streamed = b"".join(write_tnf(evaluation_rows(form.evaluation, query=scenario.query, defeats="edges")))
    if streamed == tnf_json(gold).encode("utf-8"):
        return None  # TNF-equivalent, decided without building the recomputed trace's objects
    mine = form.trace
    (gold_nodes, gold_edges), (my_nodes, my_edges) = _ids(gold), _ids(mine)
    parts = []
    for what, left, right in (("node", gold_nodes, my_nodes), ("edge", gold_edges, my_edges)):
        missing, extra = sorted(right - left), sorted(left - right)
        if missing:
            parts.append(f"gold lacks {what} {', '.join(missing[:3])}" + (" ..." if len(missing) > 3 else ""))
        if extra:
            parts.append(f"gold has extra {what} {', '.join(extra[:3])}" + (" ..." if len(extra) > 3 else ""))
    return "; ".join(parts) or "same nodes and edges, but labels or attack states differ"
