"""Ingestion of the fixture set: clause-level fragments, their locators and
offsets, cross-references, the stated renumbering, stable ids, and the typed
errors for what cannot be ingested."""

from __future__ import annotations

import re

import pytest

from assistant.ingest.errors import DocumentError, NoTextLayerError, UnsupportedFormatError
from assistant.ingest.package import ingest, ingest_bytes

from ingest_fixtures import fragment_id


def _clauses(package, source):
    return [f.clause for f in package.fragments if f.source == source]


def test_every_fragment_is_the_slice_its_offsets_name(package):
    package.verify()
    texts = {d.sha256: d.text for d in package.documents}
    for frag in package.fragments:
        loc = package.locators[frag.id]
        assert texts[loc.sha256][loc.start:loc.end] == frag.text
        assert (frag.span.start, frag.span.end) == (loc.start, loc.end)
        assert loc.document == frag.source and loc.clause == frag.clause
        assert re.fullmatch(r"[a-z0-9.-]+-[0-9a-f]{6}-[a-z0-9.-]+", frag.id)


def test_contract_pdf_is_cut_at_its_own_clause_numbers_with_pages(package):
    assert _clauses(package, "supply-contract.pdf") == [
        "preamble", "1.1", "1.2", "5.1", "5.2", "12.1", "12.2", "14.1", "14.2", "14.3", "18.1",
        "Appendix 2, para 1", "Appendix 2, para 2", "Appendix 3, para 1"]
    doc = next(d for d in package.documents if d.name == "supply-contract.pdf")
    assert doc.format == "pdf" and doc.pages == 2 and doc.role == "document" and len(doc.sha256) == 64
    penalty = package.fragments[[f.id for f in package.fragments].index(fragment_id(package, doc.name, "12.1"))]
    assert penalty.text.startswith("12. LIQUIDATED DAMAGES\n12.1 If a shipment is delivered after its Delivery Date")
    assert "0.5% of the price" in penalty.text and penalty.text.endswith("for each day of delay.")
    locs = {f.clause: package.locators[f.id] for f in package.fragments if f.source == doc.name}
    assert locs["12.1"].page == 1 and locs["Appendix 2, para 1"].page == 2 and locs["18.1"].page == 2
    assert doc.text[locs["14.1"].start:].startswith("14. FORCE MAJEURE\n14.1 Neither party is liable")


def test_cross_references_resolve_to_clauses(package):
    loc = package.locators
    contract = "supply-contract.pdf"
    subject_to = loc[fragment_id(package, contract, "12.2")]
    assert subject_to.references == ("14", "12.1")
    assert subject_to.cross_refs == tuple(fragment_id(package, contract, c) for c in ("14.1", "14.2", "14.3", "12.1"))
    assert loc[fragment_id(package, contract, "14.2")].cross_refs == (fragment_id(package, contract, "18.1"),)
    assert loc[fragment_id(package, contract, "1.1")].cross_refs == (
        fragment_id(package, contract, "Appendix 2, para 1"), fragment_id(package, contract, "Appendix 2, para 2"))
    # the email and the amendment cite the contract ("of the Supply Agreement", "of the Agreement")
    assert loc[fragment_id(package, "notice-email.txt", "para 3")].cross_refs[0] == fragment_id(package, contract,
                                                                                                "14.1")
    assert loc[fragment_id(package, "amendment-1.docx", "1")].cross_refs == (fragment_id(package, contract, "14.2"),)


def test_amendment_keeps_its_own_numbers_and_records_the_renumbering(package):
    doc = next(d for d in package.documents if d.name == "amendment-1.docx")
    assert doc.format == "docx" and doc.role == "amendment"
    assert _clauses(package, doc.name) == ["preamble", "1", "2", "3"]
    [renumbered] = doc.renumbering
    assert (renumbered.old, renumbered.new) == ("Appendix 3", "Appendix 4")
    assert renumbered.stated_in == fragment_id(package, doc.name, "2")
    # a reference to the new number finds the clause under its old one
    assert package.locators[renumbered.stated_in].cross_refs == (
        fragment_id(package, "supply-contract.pdf", "Appendix 3, para 1"),)


def test_policy_page_and_notice_email(package):
    assert _clauses(package, "penalty-policy.html") == ["preamble", "1", "2.1", "2.2", "3.1"]
    texts = {f.clause: f.text for f in package.fragments if f.source == "penalty-policy.html"}
    assert texts["2.2"].startswith("2.2 A penalty may be waived only by the Head of Procurement")
    assert "Home / Procurement" not in " ".join(texts.values())  # navigation and scripts are not evidence
    assert "console.log" not in " ".join(texts.values())
    notice = [f for f in package.fragments if f.source == "notice-email.txt"]
    assert [f.clause for f in notice] == ["para 1", "para 2", "para 3", "para 4", "para 5"]
    assert notice[0].text.startswith("From: contracts@nordhavn-components.example")
    assert [package.locators[f.id].paragraph for f in notice] == [1, 2, 3, 4, 5]


def test_ids_are_stable_across_runs_and_batches(fixture_files, package):
    alone = ingest([fixture_files["contract"]])
    batch = {f.id for f in package.fragments if f.source == "supply-contract.pdf"}
    assert {f.id for f in alone.fragments} == batch
    again = ingest([fixture_files["notice"], fixture_files["contract"]])
    assert {f.id for f in again.fragments} >= batch
    edited = ingest_bytes([("supply-contract.pdf", fixture_files["contract"].read_bytes() + b"\n%edited\n")])
    assert not {f.id for f in edited.fragments} & batch  # another version, other ids


def test_markdown_headings_and_lists():
    pkg = ingest_bytes([("rules.md", "# House rules\n\n## 1. Visitors\n\nVisitors sign in.\n\n"
                                     "## 2. Keys\n\n1. Keys are returned daily.\n2. Lost keys are reported.\n"
                         .encode())])
    assert [(f.clause, f.text) for f in pkg.fragments] == [
        ("preamble", "House rules"), ("1", "1. Visitors\nVisitors sign in."),
        ("2", "2. Keys\n1. Keys are returned daily.\n2. Lost keys are reported.")]
    assert pkg.documents[0].format == "markdown"


def test_pdf_without_text_layer_is_a_typed_error(fixture_files):
    with pytest.raises(NoTextLayerError, match=r"scanned-page.pdf: the PDF has no text layer .* no OCR"):
        ingest([fixture_files["scan"]])


@pytest.mark.parametrize("name, data, error, message", [
    ("sheet.xlsx", b"PK\x03\x04 not word", UnsupportedFormatError, "sheet.xlsx: unsupported document format"),
    ("broken.pdf", b"%PDF-1.7 garbage", DocumentError, "broken.pdf: not a readable PDF"),
    ("broken.docx", b"PK\x03\x04garbage", DocumentError, "broken.docx: not a readable DOCX"),
    ("latin.txt", "Straße".encode("latin-1"), DocumentError, "latin.txt: not UTF-8 text"),
    ("empty.html", b"<html><script>x</script></html>", DocumentError, "empty.html: no text found"),
])
def test_unreadable_documents_are_typed_errors_naming_the_file(name, data, error, message):
    with pytest.raises(error, match=re.escape(message)):
        ingest_bytes([(name, data)])


def test_the_same_document_twice_is_refused(fixture_files):
    data = fixture_files["notice"].read_bytes()
    with pytest.raises(DocumentError, match="copy.txt: same content as notice-email.txt"):
        ingest_bytes([("notice-email.txt", data), ("copy.txt", data)])
