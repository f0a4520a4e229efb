"""White-box outputs built from an analysis: what a perfect assistant would return
(the scorer's self-validation, paper Table 10; docs/metrics.md B6).

:func:`gold_output` turns a scenario's gold objects into the output a perfect
white-box assistant would return: the grounded gold objects (proof aliases
collapsed), their TNF nodes and edges as the *claimed* trace, the engine's
status as ``final_status``.  :func:`output_from_analysis` does the same for
any analysis, with the claims optionally given.
"""

from __future__ import annotations

import warnings

from symbolic.errors import PriorityCycleWarning
from symbolic.scenario.labels import Status
from symbolic.scenario.literals import complement
from symbolic.scenario.model import Analysis, Scenario, TraceEdge, TraceNode
from symbolic.traces.tnf import normal_form as _symbolic_normal_form

from ..contract import CommonV1, OutputRecord, RunMeta, TraceV2
from ..subtheory import Universe

__all__ = ["gold_output", "output_from_analysis", "quiet_normal_form"]


def quiet_normal_form(*args, **kwargs):
    """:func:`symbolic.traces.tnf.normal_form` with the priority-cycle warning silenced
    (a cycle belongs to the case and shows in the trace)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PriorityCycleWarning)
        return _symbolic_normal_form(*args, **kwargs)


def _emitted(status: Status, target: str) -> tuple[str, ...]:
    if status is Status.ACCEPTED:
        return (target,)
    if status is Status.REJECTED:
        return (complement(target),)
    if status is Status.BOTH:
        return tuple(sorted((target, complement(target))))
    return ()


def output_from_analysis(scenario: Scenario, analysis: Analysis, *, status: Status | None = None,
                         edges: tuple[TraceEdge, ...] | None = None,
                         nodes: tuple[TraceNode, ...] | None = None,
                         configuration: str = "gold", model: str = "gold") -> OutputRecord:
    """A white-box output holding ``analysis``, with its TNF as the claimed trace.

    Parameters
    ----------
    scenario : Scenario
        Only the evidence package, target and query are read.
    analysis : Analysis
        The output's objects.
    status : Status, optional
        The claimed status (default: the TNF's).
    edges, nodes : tuple, optional
        The claimed trace (default: the TNF's).
    configuration, model : str
        The run cell names.

    Returns
    -------
    OutputRecord
    """
    nf = quiet_normal_form(scenario.evidence_ids(), analysis, scenario.target, query=scenario.query)
    claimed = status if status is not None else nf.evaluation.status
    theory = nf.evaluation.theory
    cited = sorted({e for obj in (*theory.facts, *theory.rules, *theory.priorities, *theory.attacks)
                    for e in obj.evidence})
    conflict = bool(nf.evaluation.attacks) or any(
        a.conclusion == complement(b.conclusion) for a in nf.evaluation.arguments for b in nf.evaluation.arguments)
    common = CommonV1(final_status=claimed, evidence_ids=cited, conflict_detected=conflict,
                      priority_applied=any(not a.active for a in nf.evaluation.attacks),
                      emitted_conclusions=_emitted(claimed, nf.evaluation.target))
    trace = TraceV2(facts=analysis.facts, rules=analysis.rules, attacks=analysis.attacks,
                    priorities=analysis.priorities,
                    nodes=nf.trace.nodes if nodes is None else nodes,
                    edges=nf.trace.edges if edges is None else edges,
                    emitted_conclusions=_emitted(claimed, nf.evaluation.target))
    return OutputRecord(case_id=scenario.id, configuration=configuration, model=model, common=common,
                        trace=trace, meta=RunMeta())


def gold_output(scenario: Scenario, *, configuration: str = "gold", model: str = "gold") -> OutputRecord:
    """The scenario's gold objects as a clean white-box output.

    Parameters
    ----------
    scenario : Scenario
    configuration, model : str

    Returns
    -------
    OutputRecord

    Examples
    --------
    >>> from scorer.metrics._examples import penalty_scenario
    >>> out = gold_output(penalty_scenario())
    >>> out.status.value, len(out.trace.rules), out.common.emitted_conclusions
    ('accepted', 3, ('Penalty(x)',))
    """
    u = Universe(scenario.evidence_ids(), scenario.gold, scenario.target)
    return output_from_analysis(scenario, u.analysis_of(u.handles), configuration=configuration, model=model)
