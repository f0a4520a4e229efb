"""The deterministic component-dependency audit (paper Table 19).

Each variant removes one component of the reference pipeline and the audit
measures what that changes, on the suite's gold analyses and on the traces
of every configuration that emits them (first run):

- ``no_priority_edges`` -- the priority base is emptied (``P0 = {}``): no
  attack is neutralized (Definition 4). Measured: the statuses that change.
- ``no_attack_edges`` -- the labelling runs without attacks: every argument
  is IN (Algorithm 1 on an empty attack relation). Measured: statuses.
- ``no_ner_check`` -- the non-explosion guarantee is dropped: a theory in
  which some literal and its complement both stand (IN or UNDEC) makes every
  target ``both``, as classical explosion would (Definition 6 is what NER
  checks). Measured: statuses.
- ``no_tnf`` -- traces are compared on the authors' ids instead of the trace
  normal form (Algorithm 4). Measured: pooled edge coverage of the gold trace
  on raw ids against TGC (which aligns in TNF).
- ``no_trace_graph`` -- only ``common-v1`` is scored. Measured: per metric,
  the case values that change or become not applicable when each output's
  ``trace`` is removed and the outputs are scored again.

Status variants recompute the status with the engine's own components
(:mod:`symbolic.engine.arguments`, :mod:`symbolic.engine.priorities`,
:mod:`symbolic.engine.attacks`, :mod:`symbolic.engine.labelling`, :mod:`symbolic.engine.status`);
nothing here is random.
"""

from __future__ import annotations

import warnings
from collections import Counter
from dataclasses import dataclass, replace
from typing import Callable, Iterable, Mapping, Sequence

from symbolic.engine.arguments import build_arguments
from symbolic.errors import SymbolicError
from symbolic.engine.grounding import Theory, ground
from symbolic.engine.labelling import grounded_labelling
from symbolic.scenario.literals import complement
from symbolic.scenario.model import Analysis, Scenario
from symbolic.engine.results import Label
from symbolic.engine.status import evaluate, four_valued

from .contract import OutputRecord
from .records import CaseResult
from .metrics.context import white_box

__all__ = [
    "AuditRow",
    "STATUS_VARIANTS",
    "VARIANTS",
    "component_audit",
    "raw_edges",
    "status_under",
]

VARIANTS = {
    "no_priority_edges": "priority base emptied: no attack is neutralized",
    "no_attack_edges": "labelling without attacks: every argument IN",
    "no_ner_check": "no non-explosion guarantee: a contradiction anywhere makes every target both",
    "no_tnf": "traces compared on the authors' ids, not in trace normal form",
    "no_trace_graph": "only common-v1 scored: each output's trace removed",
}
STATUS_VARIANTS = ("no_priority_edges", "no_attack_edges", "no_ner_check")
GOLD = "gold"


def _full(theory: Theory, target: str) -> str:
    return evaluate(theory, target).status.value


def _no_priorities(theory: Theory, target: str) -> str:
    return evaluate(replace(theory, priorities=()), target).status.value


def _no_attacks(theory: Theory, target: str) -> str:
    arguments = build_arguments(theory)
    labelling = grounded_labelling([a.id for a in arguments], [])
    return four_valued(target, arguments, labelling).value


def _explosive(theory: Theory, target: str) -> str:
    ev = evaluate(theory, target)
    standing = {a.conclusion for a in ev.arguments
                if not a.defeater and ev.labelling.labels.get(a.id) in (Label.IN, Label.UNDEC)}
    if any(complement(lit) in standing for lit in standing):
        return "both"
    return ev.status.value


_STATUS_FNS: Mapping[str, Callable[[Theory, str], str]] = {
    "full": _full,
    "no_priority_edges": _no_priorities,
    "no_attack_edges": _no_attacks,
    "no_ner_check": _explosive,
}


def status_under(variant: str, evidence_ids: Iterable[str], analysis: Analysis, target: str) -> str:
    """The engine's status of ``target`` with one component removed.

    Parameters
    ----------
    variant : {"full", "no_priority_edges", "no_attack_edges", "no_ner_check"}
    evidence_ids : iterable of str
    analysis : Analysis
    target : str

    Returns
    -------
    str
        A status label.

    Raises
    ------
    KeyError
        For an unknown variant.

    Examples
    --------
    The penalty example (docs/semantics.md section 8):

    >>> from symbolic.scenario.examples import PENALTY_FRAGMENTS, penalty_analysis
    >>> e, a = [f.id for f in PENALTY_FRAGMENTS], penalty_analysis()
    >>> [status_under(v, e, a, "Penalty(x)") for v in ("full", "no_priority_edges", "no_attack_edges", "no_ner_check")]
    ['accepted', 'both', 'both', 'accepted']
    """
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return _STATUS_FNS[variant](ground(evidence_ids, analysis), target)


def raw_edges(analysis: Analysis) -> frozenset[tuple[str, str, str]]:
    """The analysis as edges over the authors' own ids (no trace normal form).

    Grounding ``(evidence, "grounding", object id)``, derivation
    ``(antecedent literal, "derivation", rule id)`` and ``(rule id,
    "derivation", consequent)``, priority ``(stronger, "priority", weaker)``,
    attack ``(source, "attack:<kind>", target)``.

    Examples
    --------
    >>> from symbolic.scenario.model import Analysis
    >>> a = Analysis.model_validate({"rules": [{"id": "r1", "antecedents": ["A"], "consequent": "B",
    ...                                        "evidence": ["E-01"]}]})
    >>> sorted(raw_edges(a))
    [('A', 'derivation', 'r1'), ('E-01', 'grounding', 'r1'), ('r1', 'derivation', 'B')]
    """
    edges: set[tuple[str, str, str]] = set()
    for f in analysis.facts:
        edges |= {(e, "grounding", f.id) for e in f.evidence}
        edges.add((f.id, "derivation", f.literal))
    for r in analysis.rules:
        edges |= {(e, "grounding", r.id) for e in r.evidence}
        edges |= {(a, "derivation", r.id) for a in r.antecedents}
        edges.add((r.id, "derivation", r.consequent))
    for p in analysis.priorities:
        edges |= {(e, "grounding", p.id) for e in p.evidence}
        edges.add((p.stronger, "priority", p.weaker))
    for x in analysis.attacks:
        edges.add((x.source, f"attack:{x.kind.value}", x.target))
    return frozenset(edges)


@dataclass(frozen=True, slots=True)
class AuditRow:
    """What one variant changes for one source (``gold`` or a configuration label).

    Attributes
    ----------
    variant, source : str
    n_cases : int
        Cases measured (cases the engine could not evaluate are left out and
        counted in ``skipped``).
    changed : int
        Cases (status variants) or metric values (``no_trace_graph``) that change.
    full_value, variant_value : float or None
        Status accuracy against gold with and without the component (status
        variants of a configuration), or pooled coverage in TNF and on raw ids
        (``no_tnf``); ``None`` where it does not apply.
    detail : str
        The largest transitions, e.g. ``accepted->both: 3``.
    skipped : int
    """

    variant: str
    source: str
    n_cases: int
    changed: int
    full_value: float | None
    variant_value: float | None
    detail: str
    skipped: int = 0

    def to_dict(self) -> dict:
        """JSON-ready dict."""
        return {"variant": self.variant, "source": self.source, "n_cases": self.n_cases,
                "changed": self.changed, "full_value": self.full_value,
                "variant_value": self.variant_value, "detail": self.detail, "skipped": self.skipped}


def _transitions(pairs: Iterable[tuple[str, str]], limit: int = 4) -> str:
    counts = Counter(f"{a}->{b}" for a, b in pairs if a != b)
    top = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:limit]
    return ", ".join(f"{k}: {v}" for k, v in top) or "no change"


def _status_rows(source: str, items: Sequence[tuple[str, Analysis, str, str | None]],
                 evidence: Mapping[str, frozenset[str]]) -> list[AuditRow]:
    """``items``: (case id, analysis, target, gold status or None for the gold source)."""
    base: dict[str, str] = {}
    skipped: set[str] = set()
    for case_id, analysis, target, _ in items:
        try:
            base[case_id] = status_under("full", evidence[case_id], analysis, target)
        except (SymbolicError, ValueError):
            skipped.add(case_id)
    rows = []
    gold = {c: g for c, _, _, g in items if g is not None}
    for variant in STATUS_VARIANTS:
        pairs, after = [], {}
        for case_id, analysis, target, _ in items:
            if case_id in skipped:
                continue
            try:
                after[case_id] = status_under(variant, evidence[case_id], analysis, target)
            except (SymbolicError, ValueError):
                skipped.add(case_id)
                continue
            pairs.append((base[case_id], after[case_id]))
        measured = [c for c in after if c not in skipped]
        full_acc = var_acc = None
        if gold and measured:
            full_acc = sum(base[c] == gold[c] for c in measured) / len(measured)
            var_acc = sum(after[c] == gold[c] for c in measured) / len(measured)
        rows.append(AuditRow(variant, source, len(measured), sum(a != b for a, b in pairs),
                             full_acc, var_acc, _transitions(pairs), len(skipped)))
    return rows


def _label(o: OutputRecord | CaseResult) -> str:
    return " / ".join(p for p in (o.configuration, o.model, o.variant or "") if p)


def _first_run(items):
    first: dict[str, int] = {}
    for o in items:
        first[_label(o)] = min(first.get(_label(o), o.repeat), o.repeat)
    return [o for o in items if o.repeat == first[_label(o)]]


def component_audit(scenarios: Sequence[Scenario], outputs: Sequence[OutputRecord] = (),
                    results: Sequence[CaseResult] = (),
                    rescore: Callable[[Sequence[OutputRecord]], Sequence[CaseResult]] | None = None,
                    ) -> tuple[AuditRow, ...]:
    """Run the component-dependency audit (Table 19).

    Parameters
    ----------
    scenarios : sequence of Scenario
        The suite.
    outputs : sequence of OutputRecord
        Scored outputs; configurations with traces are audited on their first run.
    results : sequence of CaseResult
        The scores of ``outputs`` (for ``no_tnf`` and ``no_trace_graph``).
    rescore : callable, optional
        Scores a list of outputs against the suite (``no_trace_graph``); without
        it that variant is measured on nothing.

    Returns
    -------
    tuple of AuditRow
        Sorted by variant (Table 19 order), then source (``gold`` first).

    Examples
    --------
    >>> from scorer.metrics._examples import penalty_scenario
    >>> [(r.variant, r.source, r.changed, r.detail) for r in component_audit([penalty_scenario()])]
    [('no_priority_edges', 'gold', 1, 'accepted->both: 1'), ('no_attack_edges', 'gold', 1, 'accepted->both: 1'), ('no_ner_check', 'gold', 0, 'no change')]
    """
    by_id = {s.id: s for s in scenarios}
    evidence = {s.id: s.evidence_ids() for s in scenarios}
    suite = sorted(by_id.values(), key=lambda s: s.id)
    rows = _status_rows(GOLD, [(s.id, s.gold, s.target, None) for s in suite], evidence)
    first = sorted(_first_run([o for o in outputs if o.case_id in by_id]),
                   key=lambda o: (_label(o), o.case_id))
    traced = sorted({_label(o) for o in first if white_box(o.trace)})
    for label in traced:
        items = [(o.case_id, o.trace.analysis(), by_id[o.case_id].target, by_id[o.case_id].gold.status.value)
                 for o in first if _label(o) == label and white_box(o.trace)]
        rows += _status_rows(label, items, evidence)
    rows += _tnf_rows(by_id, first, traced, results)
    rows += _trace_graph_rows(first, traced, results, rescore)
    order = {v: i for i, v in enumerate(VARIANTS)}
    return tuple(sorted(rows, key=lambda r: (order[r.variant], r.source != GOLD, r.source)))


def _tnf_rows(by_id, first, traced, results) -> list[AuditRow]:
    rows = []
    first_results = {(_label(r), r.case_id): r for r in _first_run(list(results))}
    for label in traced:
        matched = total = 0
        tnf_num = tnf_den = 0.0
        n = 0
        for o in first:
            if _label(o) != label or not white_box(o.trace):
                continue
            gold = raw_edges(by_id[o.case_id].gold)
            out = raw_edges(o.trace.analysis())
            matched += len(gold & out)
            total += len(gold)
            n += 1
            res = first_results.get((label, o.case_id))
            tgc = None if res is None else res.metrics.get("TGC")
            if tgc is not None and tgc.value is not None and "matched" in tgc.metadata:
                tnf_num += tgc.metadata["matched"]
                tnf_den += tgc.metadata["gold"]
        raw = matched / total if total else None
        in_tnf = tnf_num / tnf_den if tnf_den else None
        detail = (f"gold edges matched on raw ids: {matched}/{total}; "
                  f"in TNF (TGC): {int(tnf_num)}/{int(tnf_den)}")
        rows.append(AuditRow("no_tnf", label, n, total - matched, in_tnf, raw, detail))
    return rows


def _trace_graph_rows(first, traced, results, rescore) -> list[AuditRow]:
    if rescore is None or not traced:
        return []
    stripped = [o.model_copy(update={"trace": None}) if _label(o) in traced and o.trace is not None else o
                for o in first if _label(o) in traced]
    before = {(_label(r), r.case_id): r for r in _first_run(list(results))}
    after = {(_label(r), r.case_id): r for r in rescore(stripped)}
    rows = []
    for label in traced:
        keys = sorted(k for k in after if k[0] == label and k in before)
        lost: Counter = Counter()
        changed: Counter = Counter()
        for k in keys:
            for metric, rec in before[k].metrics.items():
                new = after[k].metrics.get(metric)
                if rec.value is not None and (new is None or new.value is None):
                    lost[metric] += 1
                elif new is not None and new.value != rec.value:
                    changed[metric] += 1
        parts = [f"{m}: {lost[m]} not applicable" for m in sorted(lost)]
        parts += [f"{m}: {changed[m]} changed" for m in sorted(changed)]
        acc_before = sum(before[k].correct for k in keys) / len(keys) if keys else None
        acc_after = sum(after[k].correct for k in keys) / len(keys) if keys else None
        rows.append(AuditRow("no_trace_graph", label, len(keys), sum(lost.values()) + sum(changed.values()),
                             acc_before, acc_after, "; ".join(parts) or "no change"))
    return rows
