"""Selection of ingested fragments under a token budget: BM25 (bm25s) ranks,
cross-referenced clauses and amending clauses come along, and the record says
what was kept and left out, and why."""

from __future__ import annotations

import pytest

from assistant.errors import ConfigurationError
from assistant.ingest.run import prepare_package
from assistant.ingest.select import fragment_tokens, select
from symbolic.scenario.model import EvidenceFragment

from ingest_fixtures import QUERY, TARGET, fragment_id


def test_everything_is_kept_when_it_fits(package):
    prepared = prepare_package(QUERY, package, budget=10_000, target=TARGET)
    assert prepared.fragments == package.fragments
    assert {x["reason"] for x in prepared.selection["kept"]} == {"all fragments fit the budget"}
    assert prepared.selection["left_out"] == []


def test_a_tight_budget_keeps_ranked_clauses_their_references_and_amendments(package):
    prepared = prepare_package(QUERY, package, budget=400, target=TARGET)
    sel = prepared.selection
    kept = {x["id"]: x["reason"] for x in sel["kept"]}
    out = {x["id"]: x["reason"] for x in sel["left_out"]}
    contract = "supply-contract.pdf"
    penalty, subject_to = fragment_id(package, contract, "12.1"), fragment_id(package, contract, "12.2")
    assert kept[penalty].startswith("BM25 rank 1 ")
    for clause in ("14.1", "14.2", "14.3"):  # "Subject to clause 14" in 12.2
        assert kept[fragment_id(package, contract, clause)] == f"cross-referenced by {subject_to}"
    amending = fragment_id(package, "amendment-1.docx", "1")
    assert kept[amending] == f"amends {fragment_id(package, contract, '14.2')}"
    notice = fragment_id(package, "notice-email.txt", "para 3")  # the notice given under clause 14
    assert kept[notice] == f"cites {fragment_id(package, contract, '14.1')}"
    assert kept[fragment_id(package, "notice-email.txt", "para 1")] == f"opens the document of {notice}"
    assert kept[fragment_id(package, contract, "preamble")] == f"opens the document of {penalty}"
    assert sel["kept_tokens"] <= 400 < sel["total_tokens"] and len(kept) + len(out) == len(package.fragments)
    assert sum(fragment_tokens(f) for f in prepared.fragments) == sel["kept_tokens"]
    assert all(r.startswith(("over budget", "cross-referenced by", "amends", "cites", "opens")) for r in out.values())
    # package order is kept, and the package records the selection
    order = [f.id for f in package.fragments]
    assert [f.id for f in prepared.fragments] == [i for i in order if i in kept]
    assert prepared.package.selection == sel and prepared.package.query == QUERY


def test_selection_is_deterministic_and_a_bad_budget_is_refused(package):
    a = prepare_package(QUERY, package, budget=250, target=TARGET)
    b = prepare_package(QUERY, package, budget=250, target=TARGET)
    assert a.selection == b.selection
    with pytest.raises(ConfigurationError, match="budget must be a positive number"):
        select(QUERY, package.fragments, budget=0)


def test_hand_made_fragments_get_their_cross_references_from_the_text():
    fs = [EvidenceFragment(id="E1", text="Clause 9.3: force majeure does not excuse gross negligence " * 3,
                           source="SA", clause="9.3"),
          EvidenceFragment(id="E2", text="Subject to clause 9.3, a late-delivery penalty of 1% a day is due.",
                           source="SA", clause="7.2"),
          EvidenceFragment(id="E3", text="Invoices are payable within 30 days of receipt. " * 2, source="SA",
                           clause="11")]
    sel = select("Is the late-delivery penalty due?", fs, budget=70)
    assert sel.kept_ids == ("E-01", "E-02")
    assert sel.record["kept"][0]["reason"] == "cross-referenced by E-02"
    assert sel.record["left_out"][0]["id"] == "E-03"
