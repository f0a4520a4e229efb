"""Scorer self-validation: deterministic defect injection and gold-free localization."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from metric_builders import fact, make_scenario, rule, two_paths
from scorer.errors import ScoringError
from scorer.inject import INJECTABLE, gold_output, inject
from scorer.localize import localization_table, localize, localize_case
from scorer.metrics._examples import penalty_scenario
from symbolic.model import Analysis, DefectClass

PEER = Path(__file__).resolve().parents[2] / ".." / "shared" / "data" / "neuro_symbolic" / "controlled_benchmark_600.jsonl"

EXPECTED_PENALTY = {
    "missing_evidence": "f1",
    "incomplete_coverage": "Penalty(x)",
    "extraction_error": "f1",
    "priority_inversion": "r2>r3",
    "invalid_proof_node": None,  # a fabricated argument node, checked below
    "attack_deletion": None,     # an attack edge id, checked below
}


@pytest.mark.parametrize("cls", [c.value for c in INJECTABLE])
def test_each_class_is_localized_on_the_penalty_case(cls):
    sc = penalty_scenario()
    inj = inject(sc, cls)
    assert inj.defect_class.value == cls
    if EXPECTED_PENALTY[cls] is not None:
        assert inj.location == EXPECTED_PENALTY[cls]
    diag = localize_case(sc, inj.output)
    assert (diag.defect_class.value, diag.location) == (cls, inj.location)
    assert diag.explanation


def test_attack_deletion_and_invalid_node_locations():
    sc = penalty_scenario()
    assert inject(sc, "attack_deletion").location.startswith("attack:rebut:")
    assert inject(sc, "invalid_proof_node").location.startswith("arg:Penalty(x)@")


def test_clean_gold_output_is_no_defect():
    sc = penalty_scenario()
    assert localize_case(sc, gold_output(sc)).defect_class is DefectClass.NONE
    assert inject(sc, "none").output == gold_output(sc)


def test_injection_is_deterministic():
    sc = penalty_scenario()
    for cls in INJECTABLE:
        a, b = inject(sc, cls), inject(sc, cls)
        assert a.output.to_json() == b.output.to_json() and a.location == b.location


def test_localizer_never_reads_the_gold():
    # Same case input, a different (wrong) gold: the diagnosis cannot change.
    sc = penalty_scenario()
    other = penalty_scenario(status="rejected", variant="no-r2")
    for cls in INJECTABLE:
        out = inject(sc, cls).output
        assert localize_case(sc, out) == localize_case(other, out)


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
    from symbolic.peer import import_peer_file

    scenarios = import_peer_file(PEER)[::60]
    t = localization_table(scenarios)
    assert t.clean == 1.0
    assert t.overall >= 0.95
    assert all(r.injected > 0 for r in t.rows if r.defect_class != "attack_deletion")
