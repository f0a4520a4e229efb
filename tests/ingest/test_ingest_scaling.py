"""Ingestion's cross-reference pass does work linear in the documents (issue 32, item 2).

The measure is the cross-reference index's own count of entries looked up and
examined (``_ClauseIndex.work``), never seconds: it must stay within a constant
per fragment whatever the document's size, the number of documents and the
depth of the clause numbers (``benchmarks/ingest_scaling.py`` times the same
inputs through the command line).
"""

from __future__ import annotations

import pytest

import assistant.ingest.package as package
from assistant.ingest.limits import DocumentLimitError, DocumentLimits
from assistant.ingest.package import ingest_bytes
from hostile_documents import citing_clauses


@pytest.fixture
def indexes(monkeypatch):
    """Every cross-reference index that ingestion builds, recorded."""
    made = []

    class Recording(package._ClauseIndex):
        def __init__(self, by_doc):
            super().__init__(by_doc)
            made.append(self)

    monkeypatch.setattr(package, "_ClauseIndex", Recording)
    return made


def _cross_refs(pkg) -> int:
    return sum(len(loc.cross_refs) for loc in pkg.locators.values())


@pytest.mark.parametrize("count", [250, 500, 1_000, 2_000, 4_000])
def test_clauses_citing_the_one_before_cost_a_constant_per_fragment(indexes, count):
    pkg = ingest_bytes([("terms.txt", citing_clauses(count))])
    assert len(pkg.fragments) == count
    assert _cross_refs(pkg) == count - (count + 499) // 500  # each x.1 cites itself: no cross-reference
    first = pkg.fragments[1]
    assert pkg.locators[first.id].cross_refs == (pkg.fragments[0].id,)
    (index,) = indexes
    assert index.work <= 2 * count, (count, index.work)


@pytest.mark.parametrize("documents", [25, 50, 100, 200, 400])
def test_many_documents_cost_a_constant_per_fragment(indexes, documents):
    files = [(f"contract-{i}.txt", (f"Contract {i}\n\n1.1 The buyer pays, subject to clause 1.2.\n\n"
                                    f"1.2 The seller ships, subject to clause 1.1; see clause 3 of the "
                                    f"Agreement.").encode())
             for i in range(documents)]
    pkg = ingest_bytes(files)
    assert len(pkg.fragments) == 3 * documents
    for doc in range(documents):  # each citation stays in its own document (clause 3 is nowhere)
        own = [f.id for f in pkg.fragments if f.source == f"contract-{doc}.txt"]
        assert pkg.locators[own[1]].cross_refs == (own[2],)
        assert pkg.locators[own[2]].cross_refs == (own[1],)
    (index,) = indexes
    assert index.work <= 4 * len(pkg.fragments), (documents, index.work)


@pytest.mark.parametrize("depth", [10, 100, 400])
def test_deep_clause_numbers_cost_a_constant_per_fragment(indexes, depth):
    tail = ".".join(["1"] * depth)
    text = "\n\n".join(f"{k}.{tail} The buyer pays, subject to clause {max(k - 1, 1)}." for k in range(1, 201))
    pkg = ingest_bytes([("deep.txt", text.encode())])
    assert len(pkg.fragments) == 200
    assert pkg.locators[pkg.fragments[5].id].cross_refs == (pkg.fragments[4].id,)
    (index,) = indexes
    assert len(index.rows) == 200  # one entry per fragment, not one per prefix of its number
    assert index.work <= 2 * 200, (depth, index.work)


def test_a_reference_cited_by_every_clause_is_looked_up_once(indexes):
    text = "1. Definitions\n\n" + "\n\n".join(f"2.{k} The buyer pays, as clause 1 defines." for k in range(1, 301))
    pkg = ingest_bytes([("defs.txt", text.encode())])
    (index,) = indexes
    assert set(index._groups) == {"1"}
    assert _cross_refs(pkg) == 300 and index.work <= 2 * 300 + 1


def test_the_cross_reference_limit_stops_one_fragment_s_resolution_early():
    """A fragment citing clauses that name many fragments stops at the limit, not after all of them."""
    text = "\n\n".join([f"1.{k} Item {k}." for k in range(1, 401)]
                       + ["2.1 Subject to clauses 1, 1.1, 1.2 and 1.3."])
    with pytest.raises(DocumentLimitError) as info:
        ingest_bytes([("many.txt", text.encode())], limits=DocumentLimits(max_cross_refs=100))
    assert info.value.limit == "max_cross_refs" and info.value.file == "many.txt"
    index = package._ClauseIndex({"d": [f for f in ingest_bytes([("many.txt", text.encode())]).fragments]})
    fid = "x"
    loc = {"clause": "2.1", "sha256": "d", "references": ("1", "1.1", "1.2"), "external": frozenset()}
    assert len(package._resolve(fid, loc, index, {}, budget=100)) == 400  # the first reference alone
    assert set(index._groups) == {"1"}  # the others were never looked up
