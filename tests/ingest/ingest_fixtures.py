"""The ingestion fixture set, written for paratrace and generated at test time:
a supply contract (PDF, two pages, penalty and force-majeure clauses and
appendices), its first amendment (DOCX, renumbering an appendix), the buyer's
penalty-waiver policy (HTML), a force-majeure notice (plain-text email) and a
scanned page without a text layer (PDF).

Run ``python tests/ingest/ingest_fixtures.py DIR`` to write the files to DIR.
Module name kept unique because the test directories have no ``__init__.py``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

CONTRACT_TITLE = "SUPPLY AGREEMENT No. SA-2025-031"
CONTRACT_PAGE_1 = [
    "This Supply Agreement is made on 3 February 2025 between Nordhavn Components A/S (the Supplier) and "
    "Veldt Machinery B.V. (the Buyer).",
    "1. DEFINITIONS",
    "1.1 Delivery Date means the date set out for each shipment in Appendix 2.",
    "1.2 Business Day means a day on which banks are open in Rotterdam.",
    "5. DELIVERY",
    "5.1 The Supplier shall deliver each shipment DAP Rotterdam on its Delivery Date.",
    "5.2 Title and risk pass to the Buyer on delivery.",
    "12. LIQUIDATED DAMAGES",
    "12.1 If a shipment is delivered after its Delivery Date, the Supplier shall pay a penalty of 0.5% of the "
    "price of the late shipment for each day of delay.",
    "12.2 Subject to clause 14, the penalty under clause 12.1 is the Buyer's sole remedy for delay and is "
    "capped at 10% of the price of the late shipment.",
    "14. FORCE MAJEURE",
    "14.1 Neither party is liable for a delay caused by an event beyond its reasonable control, including "
    "storm, flood and the closure of a port by the authorities (Force Majeure).",
    "14.2 A party affected by Force Majeure shall notify the other party in writing within 5 Business Days of "
    "the start of the event, in accordance with clause 18.",
    "14.3 Clause 14.1 does not apply where the delay results from the gross negligence of the affected party.",
]
CONTRACT_PAGE_2 = [
    "18. NOTICES",
    "18.1 Notices shall be sent by email to the addresses set out in Appendix 3.",
    "APPENDIX 2 - DELIVERY SCHEDULE",
    "1. Shipment A: 400 gear housings, Delivery Date 10 March 2025, price EUR 180,000.",
    "2. Shipment B: 250 gear housings, Delivery Date 14 April 2025, price EUR 112,500.",
    "APPENDIX 3 - NOTICE ADDRESSES",
    "1. Supplier: contracts@nordhavn-components.example. Buyer: procurement@veldt-machinery.example.",
]

AMENDMENT = [
    ("Title", "Amendment No. 1 to Supply Agreement No. SA-2025-031"),
    (None, "This Amendment is made on 20 February 2025 between Nordhavn Components A/S and Veldt Machinery B.V. "
           "and amends the Supply Agreement No. SA-2025-031 (the Agreement)."),
    (None, "1. Clause 14.2 of the Agreement is amended so that the notice period is 10 Business Days."),
    (None, "2. Appendix 3 of the Agreement is renumbered as Appendix 4. A new Appendix 3 (Port Contacts) is "
           "inserted as set out in the Annex to this Amendment."),
    (None, "3. All other terms of the Agreement remain unchanged."),
]

POLICY_HTML = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Supplier Penalty Policy</title>
<style>body { font-family: sans-serif; }</style></head>
<body>
<nav>Home / Procurement / Policies</nav>
<h1>Veldt Machinery - Supplier Penalty Policy</h1>
<p>Version 3, approved by the Procurement Board on 6 January 2025.</p>
<h2>1. Purpose</h2>
<p>This policy sets out when the Buyer claims contractual penalties from suppliers.</p>
<h2>2. Claiming penalties</h2>
<p>2.1 Procurement shall claim every penalty that falls due under a supply agreement.</p>
<p>2.2 A penalty may be waived only by the Head of Procurement, in writing, where the delay was caused by
Force Majeure notified in time under the supply agreement.</p>
<h2>3. Records</h2>
<p>3.1 Waivers under section 2.2 are recorded in the supplier file.</p>
<script>console.log("not evidence")</script>
</body></html>
"""

NOTICE_EMAIL = """From: contracts@nordhavn-components.example
To: procurement@veldt-machinery.example
Date: Fri, 7 Mar 2025 09:12:00 +0100
Subject: Force majeure notice - Supply Agreement SA-2025-031, Shipment A

Dear Sirs,

We notify you under clause 14 of the Supply Agreement that the Port of Aarhus was closed by the port
authority from 4 March 2025 because of storm Elin. Shipment A could not be loaded during the closure.

We expect to deliver Shipment A on 17 March 2025, seven days after its Delivery Date.

Kind regards,
Mette Lund, Contracts Manager, Nordhavn Components A/S
"""


def contract_pdf() -> bytes:
    """The supply contract as a two-page PDF with a text layer (fpdf2)."""
    from fpdf import FPDF

    pdf = FPDF(format="A4")
    pdf.set_creation_date(__import__("datetime").datetime(2025, 2, 3, tzinfo=__import__("datetime").timezone.utc))
    pdf.set_auto_page_break(False)
    for page in (CONTRACT_PAGE_1, CONTRACT_PAGE_2):
        pdf.add_page()
        if page is CONTRACT_PAGE_1:
            pdf.set_font("Helvetica", "B", 13)
            pdf.multi_cell(0, 8, CONTRACT_TITLE, new_x="LMARGIN", new_y="NEXT")
        for line in page:
            bold = line.split(" ", 1)[1].isupper() or line.isupper()
            pdf.set_font("Helvetica", "B" if bold else "", 10)
            pdf.multi_cell(0, 5.5, line, new_x="LMARGIN", new_y="NEXT")
            pdf.ln(1.5)
    return bytes(pdf.output())


def scanned_pdf() -> bytes:
    """A one-page PDF with only a drawn image of text (no text layer)."""
    from fpdf import FPDF

    pdf = FPDF(format="A4")
    pdf.set_creation_date(__import__("datetime").datetime(2025, 2, 3, tzinfo=__import__("datetime").timezone.utc))
    pdf.add_page()
    for row in range(12):
        pdf.rect(20, 30 + row * 8, 150 - (row % 3) * 20, 3, style="F")
    return bytes(pdf.output())


def amendment_docx() -> bytes:
    """The amendment as DOCX (python-docx)."""
    import io

    import docx

    document = docx.Document()
    document.core_properties.created = __import__("datetime").datetime(2025, 2, 20)
    for style, text in AMENDMENT:
        document.add_paragraph(text, style=style)
    out = io.BytesIO()
    document.save(out)
    return _fixed_zip_times(out.getvalue())


def _fixed_zip_times(data: bytes) -> bytes:
    """The same zip with every entry dated 1980-01-01, so the file's hash is reproducible."""
    import io
    import zipfile

    source, target = zipfile.ZipFile(io.BytesIO(data)), io.BytesIO()
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as out:
        for info in source.infolist():
            out.writestr(zipfile.ZipInfo(info.filename, (1980, 1, 1, 0, 0, 0)), source.read(info.filename),
                         compress_type=zipfile.ZIP_DEFLATED)
    return target.getvalue()


DOCUMENTS = ("contract", "amendment", "policy", "notice")
QUERY = "Is the Supplier liable for the late-delivery penalty on Shipment A?"
TARGET = "Penalty(shipment_a)"


def fragment_id(package, document: str, clause: str) -> str:
    """The id of the fragment of ``document`` with ``clause`` in an ingested package."""
    for frag in package.fragments:
        if frag.source == document and frag.clause == clause:
            return frag.id
    raise KeyError(f"{document} has no clause {clause!r}")


def walkthrough_replies(package) -> list[dict]:
    """Two B4 extraction replies over the fixture set for :data:`QUERY`.

    The first cites the amendment's new number ``Appendix 4`` as a fragment of
    the contract (it does not exist: the validator re-asks); the second is the
    corrected reply, which cites the ingested fragments by id and quotes them,
    and keeps one fact without a source (rejected as ungrounded).
    """
    def fid(doc, clause):
        return fragment_id(package, doc, clause)

    contract, amendment, email = "supply-contract.pdf", "amendment-1.docx", "notice-email.txt"
    first = _theory(fid, contract, amendment, email)
    second = json.loads(json.dumps(first))
    second["theory"]["facts"][3]["evidence"] = []
    return [first, second]


def _theory(fid, contract, amendment, email) -> dict:
    late = fid(email, "para 4")
    closed = fid(email, "para 3")
    return {"theory": {
        "facts": [
            {"id": "f1", "literal": "LateDelivery(shipment_a)", "evidence": [late, fid(contract, "Appendix 2, para 1")],
             "quote": "seven days after its Delivery Date"},
            {"id": "f2", "literal": "PortClosed(shipment_a)", "evidence": [closed],
             "quote": "closed by the port authority"},
            {"id": "f3", "literal": "NoticeInTime(shipment_a)", "evidence": [fid(email, "para 1"), closed,
                                                                           fid(amendment, "1")]},
            {"id": "f4", "literal": "AddressesChanged(shipment_a)",
             "evidence": [fid(contract, "12.1").rsplit("-", 1)[0] + "-appendix-4-p1"]},
        ],
        "rules": [
            {"id": "r1", "antecedents": ["LateDelivery(shipment_a)"], "consequent": "Penalty(shipment_a)",
             "evidence": [fid(contract, "12.1")]},
            {"id": "r2", "antecedents": ["PortClosed(shipment_a)", "NoticeInTime(shipment_a)"],
             "consequent": "¬Penalty(shipment_a)", "evidence": [fid(contract, "14.1"), fid(contract, "14.2")]},
        ],
        "attacks": [],
        "priorities": [{"stronger": "r2", "weaker": "r1", "basis": "exception",
                        "evidence": [fid(contract, "12.2")], "note": "clause 12.2: subject to clause 14"}],
    }}


def write_all(directory: Path) -> dict[str, Path]:
    """Write the fixture set to ``directory``; returns the paths by role."""
    directory.mkdir(parents=True, exist_ok=True)
    files = {"contract": ("supply-contract.pdf", contract_pdf()),
             "amendment": ("amendment-1.docx", amendment_docx()),
             "policy": ("penalty-policy.html", POLICY_HTML.encode()),
             "notice": ("notice-email.txt", NOTICE_EMAIL.encode()),
             "scan": ("scanned-page.pdf", scanned_pdf())}
    paths = {}
    for role, (name, data) in files.items():
        paths[role] = directory / name
        paths[role].write_bytes(data)
    return paths


if __name__ == "__main__":
    for role, path in write_all(Path(sys.argv[1] if len(sys.argv) > 1 else "fixtures")).items():
        print(f"{role}: {path}")
