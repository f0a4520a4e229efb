"""The defect classes (scorer.defects): the scorer's deterministic injection into gold
traces, gold-free localization, and the class table."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from metric_builders import fact, make_scenario, rule, two_paths
from scorer.errors import ScoringError
from scorer.defects import (DEFECTS, candidate_analysis, gold_output, inject, localization_table, localize,
                            localize_case, output_from_analysis)
from scorer.metrics._examples import penalty_scenario
from symbolic.scenario.model import DEFECT_CLASSES, Analysis, DefectClass

PEER = Path(__file__).resolve().parents[2] / ".." / "shared" / "data" / "neuro_symbolic" / "controlled_benchmark_600.jsonl"

EXPECTED_PENALTY = {  # the controlled suite's spelling
    "missing_evidence": "evidence:E-01",
    "incomplete_coverage": "target:Penalty(x)",
    "extraction_error": "fact:f1",
    "priority_inversion": "priority:r3>r2",
    "attack_deletion": "attack:r1-rebut->¬Penalty(x)",
    "invalid_proof_node": "rule:r4",
}


def run(sc, inj):
    return localize(inj.output, evidence_ids=inj.evidence_ids, target=sc.target, query=sc.query)


@pytest.mark.parametrize("cls", [c.value for c in DEFECT_CLASSES])
def test_each_class_is_localized_on_the_penalty_case(cls):
    sc = penalty_scenario()
    inj = inject(sc, cls)
    assert inj.defect_class.value == cls
    assert inj.location == EXPECTED_PENALTY[cls]
    diag = run(sc, inj)
    assert (diag.defect_class.value, diag.location) == (cls, inj.location)
    assert diag.explanation


def test_missing_evidence_removes_the_fragment_from_the_delivered_package():
    sc = penalty_scenario()
    inj = inject(sc, "missing_evidence")
    assert inj.evidence_ids == sc.evidence_ids() - {"E-01"}
    assert inj.output == gold_output(sc)  # the output itself is unchanged
    assert localize_case(sc, inj.output).defect_class is DefectClass.NONE  # with the full package


def test_fabricated_claimed_node_is_an_invalid_proof_node():
    from symbolic.scenario.model import TraceEdge

    sc = penalty_scenario()
    out = gold_output(sc)
    fake = TraceEdge(source="fact:Delay(x)", target="arg:Penalty(x)@000000000000", type="derivation")
    forged = out.model_copy(update={"trace": out.trace.model_copy(update={"edges": out.trace.edges + (fake,)})})
    d = localize_case(sc, forged)
    assert (d.defect_class, d.location) == (DefectClass.INVALID_PROOF_NODE, "arg:Penalty(x)@000000000000")


def test_candidate_style_output_without_claimed_edges_shows_a_deleted_attack():
    sc = penalty_scenario()
    cand = candidate_analysis(sc)
    kw = dict(evidence_ids=sc.evidence_ids(), target=sc.target, query=sc.query)
    full = output_from_analysis(sc, cand, edges=(), nodes=())
    assert localize(full, **kw).defect_class is DefectClass.NONE
    victim = cand.attacks[0]
    cut = output_from_analysis(sc, cand.model_copy(update={"attacks": cand.attacks[1:]}), edges=(), nodes=())
    d = localize(cut, **kw)
    assert (d.defect_class, d.location) == (
        DefectClass.ATTACK_DELETION, f"attack:{victim.source}-{victim.kind.value}->{victim.target}")


def test_clean_gold_output_is_no_defect():
    sc = penalty_scenario()
    assert localize_case(sc, gold_output(sc)).defect_class is DefectClass.NONE
    assert inject(sc, "none").output == gold_output(sc)


def test_injection_is_deterministic():
    sc = penalty_scenario()
    for cls in DEFECT_CLASSES:
        a, b = inject(sc, cls), inject(sc, cls)
        assert a.output.to_json() == b.output.to_json() and a.location == b.location


def test_localizer_never_reads_the_gold():
    # Same case input, a different (wrong) gold: the diagnosis cannot change.
    sc = penalty_scenario()
    other = penalty_scenario(status="rejected", variant="no-r2")
    for cls in DEFECT_CLASSES:
        out = inject(sc, cls).output
        assert localize_case(sc, out) == localize_case(other, out)
    assert "gold" not in localize.__code__.co_varnames


def test_classes_that_cannot_apply_are_skipped_not_faked():
    sc = make_scenario("two", two_paths(), "accepted")
    assert inject(sc, "priority_inversion") is None
    assert inject(sc, "attack_deletion") is None
    undecidable = make_scenario("u", Analysis(facts=[fact(1, "a")], rules=[rule(1, ["b"], "p")]), "undecidable")
    assert inject(undecidable, "incomplete_coverage") is None


def test_unknown_class_raises():
    with pytest.raises(ScoringError, match="unknown defect class"):
        inject(penalty_scenario(), "typo")


def test_no_trace_and_non_tnf_edges():
    sc = penalty_scenario()
    out = gold_output(sc)
    bare = out.model_copy(update={"trace": None})
    kw = dict(evidence_ids=sc.evidence_ids(), target=sc.target, query=sc.query)
    assert localize(bare, **kw).defect_class is DefectClass.NONE
    no_edges = out.model_copy(update={"trace": out.trace.model_copy(update={"edges": (), "nodes": ()})})
    assert localize(no_edges, **kw).defect_class is DefectClass.NONE
    common = type(out.common).model_validate({**out.common.model_dump(), "final_status": "both"})
    lying = no_edges.model_copy(update={"common": common})
    d = localize(lying, **kw)
    assert (d.defect_class, d.location) == (DefectClass.INVALID_PROOF_NODE, "status:both")


def test_table_on_the_penalty_case():
    t = localization_table([penalty_scenario(), make_scenario("two", two_paths(), "accepted")])
    rows = {r.defect_class: r for r in t.rows}
    assert t.overall == 1.0 and t.clean == 1.0
    assert rows["attack_deletion"].skipped == 1 and rows["none"].injected == 2
    json.dumps(t.to_dict())


@pytest.mark.skipif(not PEER.exists(), reason="peer corpus copy not available")
def test_localization_on_a_sample_of_the_peer_corpus():
    from symbolic.suites.peer import import_peer_file

    scenarios = import_peer_file(PEER)[::60]
    t = localization_table(scenarios)
    assert t.clean == 1.0
    assert t.overall >= 0.95
    assert all(r.injected > 0 for r in t.rows if r.defect_class != "attack_deletion")


def test_the_class_table_lists_the_six_classes_in_the_papers_order():
    from scorer.locations import parse_location

    assert tuple(spec.defect_class for spec in DEFECTS) == DEFECT_CLASSES
    for spec in DEFECTS:
        assert spec.name == spec.defect_class.value and spec.label and spec.summary
        for example in spec.location.split(" or "):
            assert str(parse_location(example)) == example  # each example is a typed location


def test_incomplete_coverage_drops_the_exceptions_to_the_dropped_rules():
    # The suite builder's definition: an exception to a rule that is gone goes too.
    from experiments.suites.registry import load_suite

    sc = next(s for s in load_suite("normative-en") if s.id == "bank-005")
    clean = gold_output(sc).trace
    inj = inject(sc, "incomplete_coverage")
    kept = {r.id for r in inj.output.trace.rules}
    assert any(r.excepts for r in clean.rules)  # the case has an exception to a target rule
    assert all(r.excepts in kept for r in inj.output.trace.rules if r.excepts)
    assert kept < {r.id for r in clean.rules}
    assert (run(sc, inj).defect_class, run(sc, inj).location) == (DefectClass.INCOMPLETE_COVERAGE, inj.location)
