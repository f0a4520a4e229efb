"""The commands as subprocesses: ``paratrace ingest`` writes a package that
``ask --evidence`` reads; ``ask --doc`` ingests, selects and answers; a PDF
without a text layer or an unknown format exits 2 with one line."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from assistant.ingest.package import IngestedPackage

from ingest_fixtures import DOCUMENTS
from ingest_fixtures import QUERY, TARGET, walkthrough_replies

PARATRACE = [sys.executable, "-c", "from optimize.root import main; main()"]


def _run(*args, cwd=None):
    return subprocess.run([*PARATRACE, *map(str, args)], capture_output=True, text=True, cwd=cwd, timeout=300)


@pytest.fixture(scope="module")
def replies(tmp_path_factory, package):
    path = tmp_path_factory.mktemp("replies") / "walkthrough.jsonl"
    path.write_text("".join(json.dumps({"reply": r}, ensure_ascii=False) + "\n" for r in walkthrough_replies(package)),
                    encoding="utf-8")
    return path


def test_ingest_writes_a_package_ask_reads(fixture_files, replies, tmp_path, package):
    out = tmp_path / "package.json"
    done = _run("ingest", *(fixture_files[r] for r in DOCUMENTS), "-o", out)
    assert done.returncode == 0, done.stderr
    assert f"{out}: {len(package.fragments)} fragment(s) from 4 document(s)" in done.stderr
    written = IngestedPackage.model_validate_json(out.read_text(encoding="utf-8"))
    written.verify()
    assert written.fragments == package.fragments and written.locators == package.locators
    asked = _run("ask", "--evidence", out, "-q", QUERY, "--target", TARGET, "--model", f"scripted/replay:{replies}")
    assert asked.returncode == 0, asked.stderr
    assert "status: rejected" in asked.stdout
    assert "fact f4: cites no evidence fragment" in asked.stdout
    assert "evidence: 28 fragment(s) kept, 0 left out" in asked.stdout


def test_ask_doc_json_carries_record_and_selection(fixture_files, replies):
    docs = [a for r in DOCUMENTS for a in ("--doc", fixture_files[r])]
    done = _run("ask", *docs, "-q", QUERY, "--target", TARGET, "--model", f"scripted/replay:{replies}",
                "--format", "json")
    assert done.returncode == 0, done.stderr
    body = json.loads(done.stdout)
    record, evidence = body["record"], body["evidence"]
    assert record["common"]["final_status"] == "rejected"
    assert record["meta"]["repair_log"][0].startswith("re-ask after call 1")  # the Appendix 4 id did not exist
    assert "appendix-4-p1' is not in the evidence package" in record["meta"]["repair_log"][0]
    by_id = {f["id"]: f for f in evidence["fragments"]}
    for cited in record["common"]["evidence_ids"]:
        assert by_id[cited]["locator"]["start"] == by_id[cited]["span"]["start"]
    assert [d["name"] for d in evidence["documents"]] == ["supply-contract.pdf", "amendment-1.docx",
                                                         "penalty-policy.html", "notice-email.txt"]
    assert "text" not in evidence["documents"][0]
    assert evidence["selection"]["budget_tokens"] == 2000


def test_ask_doc_with_a_budget_reports_what_was_left_out(fixture_files):
    docs = [a for r in DOCUMENTS for a in ("--doc", fixture_files[r])]
    done = _run("ask", *docs, "-q", QUERY, "--target", TARGET, "--model", "scripted/null", "--budget", "300")
    assert done.returncode == 0, done.stderr
    assert "left out" in done.stdout and "over budget (rank " in done.stdout
    assert "tokens, budget 300)" in done.stdout


@pytest.mark.parametrize("args, message", [
    (("ingest", "{scan}"), "scanned-page.pdf: the PDF has no text layer"),
    (("ask", "--doc", "{scan}", "-q", "Is a penalty due?", "--model", "scripted/null"),
     "scanned-page.pdf: the PDF has no text layer"),
    (("ingest", "{xlsx}"), "sheet.xlsx: unsupported document format"),
    (("ask", "-q", "Is a penalty due?", "--model", "scripted/null"), "pass either --evidence"),
    (("ingest", "{contract}", "-q", "x", "--budget", "0"), "--budget"),
    (("ingest", "{contract}", "--budget", "100"), "--budget selects fragments for a question: pass --query too"),
])
def test_bad_documents_exit_2_with_one_line(fixture_files, tmp_path, args, message):
    xlsx = tmp_path / "sheet.xlsx"
    xlsx.write_bytes(b"PK\x03\x04 a spreadsheet")
    done = _run(*(a.format(scan=fixture_files["scan"], xlsx=xlsx, contract=fixture_files["contract"]) for a in args))
    assert done.returncode == 2
    assert message in done.stderr and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
