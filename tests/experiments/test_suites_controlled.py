"""controlled-140: deterministic generation, one defect per case exactly as its
class says, gold over the delivered package, and the scorer's localizer.
"""

from __future__ import annotations

import warnings
from collections import Counter
from functools import lru_cache

import pytest

from experiments.errors import SuiteError
from experiments.suites.checks import evaluate_gold
from experiments.suites.controlled import controlled_case, select_bases
from experiments.suites.registry import load_suite
from scorer.defects import candidate_analysis, localize_case
from symbolic.errors import PriorityCycleWarning
from symbolic.scenario.literals import complement
from symbolic.scenario.model import DEFECT_CLASSES, Analysis, DefectClass, EdgeType, Scenario


@lru_cache(maxsize=None)
def corpus() -> tuple[Scenario, ...]:
    return tuple(load_suite("normative-en"))


@lru_cache(maxsize=None)
def shipped() -> tuple[Scenario, ...]:
    return tuple(load_suite("controlled-140"))


def by_base() -> dict[str, dict[DefectClass, Scenario]]:
    out: dict[str, dict[DefectClass, Scenario]] = {}
    for case in shipped():
        out.setdefault(case.metadata.tags[1], {})[case.metadata.defect_class] = case
    return out


def test_base_selection_is_seeded_and_matches_the_shipped_suite():
    # Byte-identical regeneration of the whole file is tested in test_suites_build.py.
    bases = [s.id for s in select_bases(corpus())]
    assert bases == [s.id for s in select_bases(corpus())]
    assert [f"base:{b}" for b in bases] == sorted(by_base())


def test_one_base_regenerates_identically():
    base_id = sorted(by_base())[0]
    base = next(s for s in corpus() if f"base:{s.id}" == base_id)
    for defect, case in by_base()[base_id].items():
        assert controlled_case(base, defect) == case


def test_a_different_seed_draws_different_bases():
    assert [s.id for s in select_bases(corpus(), seed=7)] != [s.id for s in select_bases(corpus())]


def test_shape_20_bases_7_cases_4_per_category():
    groups = by_base()
    assert len(shipped()) == 140 and len(groups) == 20
    assert all(set(cases) == {DefectClass.NONE, *DEFECT_CLASSES} for cases in groups.values())
    domains = Counter(cases[DefectClass.NONE].metadata.domain.value for cases in groups.values())
    assert sum(domains.values()) == 20 and all(n >= 1 for n in domains.values())
    assert all(case.candidate is not None and case.metadata.split == "controlled-140" for case in shipped())


def test_too_small_a_corpus_is_an_error():
    with pytest.raises(SuiteError, match="eligible base scenarios"):
        select_bases(corpus()[:5])


def test_clean_candidate_equals_the_gold_objects_and_changes_nothing():
    for base_id, cases in by_base().items():
        clean = cases[DefectClass.NONE]
        base = next(s for s in corpus() if f"base:{s.id}" == base_id)
        cand = clean.candidate
        assert (cand.facts, cand.rules, cand.priorities) == (base.gold.facts, base.gold.rules, base.gold.priorities)
        assert cand.attacks and cand == candidate_analysis(base)
        assert evaluate_gold(clean, cand).status is base.gold.status is clean.gold.status
        assert clean.metadata.defect_location is None


def _objects(a: Analysis) -> dict[str, object]:
    out = {f"fact:{f.id}": f for f in a.facts}
    out.update({f"rule:{r.id}": r for r in a.rules})
    out.update({f"priority:{p.id}": p for p in a.priorities})
    out.update({f"attack:{e.source}-{e.kind.value}->{e.target}": e for e in a.attacks})
    return out


@pytest.mark.parametrize("defect", DEFECT_CLASSES, ids=lambda d: d.value)
def test_each_defect_changes_exactly_what_its_class_says(defect):
    for base_id, cases in by_base().items():
        clean, case = cases[DefectClass.NONE], cases[defect]
        before, after = _objects(clean.candidate), _objects(case.candidate)
        removed = set(before) - set(after)
        added = set(after) - set(before)
        changed = {k for k in set(before) & set(after) if before[k] != after[k]}
        where = case.metadata.defect_location
        package = {f.id for f in case.evidence}
        if defect is DefectClass.MISSING_EVIDENCE:
            gone = {f.id for f in clean.evidence} - package
            assert (removed, added, changed) == (set(), set(), set()) and len(gone) == 1
            assert where == f"evidence:{gone.pop()}"
            assert any(where[9:] in o.evidence for o in (*case.candidate.facts, *case.candidate.rules))
            continue
        assert case.evidence == clean.evidence and case.gold == clean.gold, base_id
        if defect is DefectClass.INCOMPLETE_COVERAGE:
            sides = {case.target, complement(case.target)}
            dropped = {k for k in removed if k.startswith(("fact:", "rule:"))}
            assert dropped and not added and not changed
            on_target = {k for k in dropped
                         if getattr(before[k], "consequent", getattr(before[k], "literal", None)) in sides}
            names = {k.split(":", 1)[1] for k in dropped}
            assert on_target and all(k in on_target or before[k].excepts in names for k in dropped)
            assert not any(r.consequent in sides or r.excepts in names for r in case.candidate.rules)
            assert all(k in dropped or names & {before[k].stronger, before[k].weaker} if k.startswith("priority:")
                       else k in dropped or names & {before[k].source, before[k].target} for k in removed)
            assert where == f"target:{case.target}"
        elif defect is DefectClass.EXTRACTION_ERROR:
            assert not removed and not added and changed == {where}
            old, new = before[where], after[where]
            field = "literal" if where.startswith("fact:") else "consequent"
            assert getattr(new, field) == complement(getattr(old, field))
            assert new.model_copy(update={field: getattr(old, field)}) == old
        elif defect is DefectClass.PRIORITY_INVERSION:
            old_id = where.split(":", 1)[1]
            s, w = old_id.split(">")
            assert removed == {where} and added == {f"priority:{w}>{s}"} and not changed
        elif defect is DefectClass.ATTACK_DELETION:
            assert removed == {where} and not added and not changed
        elif defect is DefectClass.INVALID_PROOF_NODE:
            assert not removed and not changed and added == {where}
            node = after[where]
            assert node.evidence == ()
            assert getattr(node, "literal", getattr(node, "consequent", None)) in {case.target,
                                                                                 complement(case.target)}
            dropped = evaluate_gold(case, case.candidate).theory.dropped
            assert [(d.id, d.reason) for d in dropped] == [(node.id, "cites no evidence fragment")]


def test_missing_evidence_gold_is_the_correct_analysis_over_the_delivered_package():
    for cases in by_base().values():
        case = cases[DefectClass.MISSING_EVIDENCE]
        gone = case.metadata.defect_location.split(":", 1)[1]
        clean = cases[DefectClass.NONE].gold
        gold = case.gold
        assert all(gone not in o.evidence for o in (*gold.facts, *gold.rules, *gold.priorities))
        dropped = {r.id for r in clean.rules if gone in r.evidence}
        while more := {r.id for r in clean.rules if r.excepts in dropped} - dropped:
            dropped |= more  # an exception to a rule that is gone is vacuous: it goes too
        kept = [o for o in (*clean.facts, *clean.rules) if gone not in o.evidence and o.id not in dropped]
        assert [o.id for o in (*gold.facts, *gold.rules)] == [o.id for o in kept]
        assert evaluate_gold(case).status is gold.status
        assert evaluate_gold(case).theory.dropped == ()


# ------------------------------------------------------------------ the scorer's localizer


def _white_box(case: Scenario, clean: Scenario):
    """A controlled case as a white-box output: the candidate's objects; as claimed
    trace, the clean base's trace with only the attack edges the candidate lists
    (and their defeat edges); as claimed status, the clean status.
    """
    from scorer.defects import output_from_analysis
    from symbolic.traces.trace import build_trace
    from symbolic.traces.trace_graph import graph_to_trace
    from symbolic.traces.tnf import normal_form

    listed = Analysis(facts=clean.candidate.facts, rules=clean.candidate.rules,
                      priorities=clean.candidate.priorities, attacks=case.candidate.attacks)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PriorityCycleWarning)
        nf = normal_form(clean.evidence_ids(), listed, clean.target, query=clean.query)
    graph = build_trace(nf.evaluation, query=clean.query)
    unlisted = [(u, v, k) for u, v, k, d in graph.edges(keys=True, data=True)
                if d["type"] is EdgeType.ATTACK and not d.get("explicit")]
    keys = {k for *_, k in unlisted}
    graph.remove_edges_from(unlisted)
    graph.remove_edges_from([(u, v, k) for u, v, k, d in graph.edges(keys=True, data=True)
                             if d["type"] is EdgeType.DEFEAT and d.get("attack") in keys])
    claimed = graph_to_trace(graph)
    return output_from_analysis(case, case.candidate, status=nf.evaluation.status,
                                edges=claimed.edges, nodes=claimed.nodes)


@pytest.mark.parametrize("defect", [DefectClass.NONE, *DEFECT_CLASSES], ids=lambda d: d.value)
def test_localizer_names_the_injected_class_and_location(defect):
    found, wanted = [], []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PriorityCycleWarning)
        for cases in by_base().values():
            case = cases[defect]
            diagnosis = localize_case(case, _white_box(case, cases[DefectClass.NONE]))
            found.append((case.id, diagnosis.defect_class, diagnosis.location))
            wanted.append((case.id, defect, case.metadata.defect_location))
    assert found == wanted
