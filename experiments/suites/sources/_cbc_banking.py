"""Banking-guarantee scenarios ``bank-001`` .. ``bank-012`` of ``normative-en``.

Fictional banks, parties and instruments, written for paratrace.  Each block
states the reasoning under docs/semantics.md section 7 that gives its gold status.
"""

from __future__ import annotations

from .authoring import case, fact, frag, prio, revise, rule

__all__ = ["BANKING"]

BANKING: list[dict] = []

# --- cbc-p06: demand after the original expiry, within the amended one (paper Appendix B) ------
# r1 (para 4) demand after the original expiry -> no payment obligation; r2 (Amendment No. 1)
# demand before the amended expiry and complying -> payment obligation; the amendment is later in
# time and replaces the expiry date (r2 > r1).  r3 (para 6) derives a complying demand from a
# statement of breach signed by two authorised signatories (two steps to the target).  r1's
# rebuttal of r2 is neutralized, r2's is active -> r1 OUT, r2 IN -> accepted.  The applicant's
# letter about the underlying works is irrelevant to an independent guarantee (distractor).
# Update: the amendment turns out to be a draft that was never issued (amended fragment, now a
# distractor); r2 and the priority have no ground, r1 stands alone -> rejected.
_P06 = [
    frag("E-01", "Performance Guarantee PG-2025-0117, Baltic Merchant Bank AB", "paras 2 and 4", """
        2. Our undertaking is independent of the Construction Contract and of any dispute between
        the Applicant and the Beneficiary. 4. This guarantee expires on 31 March 2026. A demand
        received after that date creates no payment obligation, and on expiry we are released
        from all liability under this guarantee."""),
    frag("E-02", "SWIFT MT767 from Baltic Merchant Bank AB, 20 March 2026", "Amendment No. 1", """
        At the Beneficiary's request we amend guarantee PG-2025-0117: the expiry date is extended to
        30 June 2026. Our payment obligation applies to any complying demand received on or before
        the amended expiry date. All other terms remain unchanged."""),
    frag("E-03", "Baltic Merchant Bank, trade services incoming log", None, """
        2026-05-14 10:32 | MT765 demand under PG-2025-0117 received | presenter: Harbourline
        Terminals UAB via AB Nordlanka | amount EUR 1,200,000 | checker: L. Vaitkus"""),
    frag("E-04", "Demand of Harbourline Terminals UAB, 13 May 2026", None, """
        We demand EUR 1,200,000 under guarantee PG-2025-0117 and state that Strand Construction Oy
        is in breach of the Construction Contract by abandoning the quay works in April 2026.
        Signed by V. Petraitis (Managing Director) and R. Jonaitis (Finance Director)."""),
    frag("E-05", "Performance Guarantee PG-2025-0117, Baltic Merchant Bank AB", "para 6", """
        A demand complies if it states in what respect the Applicant is in breach and is signed by
        two authorised signatories of the Beneficiary. Authorised signatories of Harbourline
        Terminals UAB on our file: V. Petraitis, R. Jonaitis, E. Kairys (any two jointly)."""),
    frag("E-06", "Letter, Strand Construction Oy to Baltic Merchant Bank, 15 May 2026", None, """
        The quay works were substantially complete in March and the Beneficiary's claim is
        unjustified. We ask you not to pay until the engineer has issued the final account.""",
         distractor=True),
]
_P06_Q = "Is Baltic Merchant Bank obliged to pay Harbourline's demand of 14 May 2026 under guarantee PG-2025-0117?"
_P06_T = "PaymentObligation(bmb)"
_P06_F1 = fact("f1", "DemandAfterOriginalExpiry(pg0117)", "E-03", "E-01")
_P06_F34 = [fact("f3", "StatementOfBreach(pg0117)", "E-04"),
            fact("f4", "SignedByTwoAuthorisedSignatories(pg0117)", "E-04", "E-05")]
_P06_R1 = rule("r1", ["DemandAfterOriginalExpiry(pg0117)"], "¬" + _P06_T, "E-01")
_P06_R3 = rule("r3", ["StatementOfBreach(pg0117)", "SignedByTwoAuthorisedSignatories(pg0117)"],
               "ComplyingDemand(pg0117)", "E-05")
BANKING += [
    case("bank-001", _P06_Q, _P06_T, _P06,
         facts=[_P06_F1, fact("f2", "DemandBeforeAmendedExpiry(pg0117)", "E-03", "E-02"), *_P06_F34],
         rules=[_P06_R1, rule("r2", ["DemandBeforeAmendedExpiry(pg0117)", "ComplyingDemand(pg0117)"],
                              _P06_T, "E-02"), _P06_R3],
         priorities=[prio("r2", "r1", "temporal", "E-02", note="Amendment No. 1 replaces the expiry date")],
         status="accepted", contradiction=True, pair="cbc-p06", role="base",
         tags=["appendix_b", "rebut", "multi_step", "distractor"]),
    case("bank-002", _P06_Q, _P06_T, revise(_P06, amend=[frag(
        "E-02", "Baltic Merchant Bank trade-finance system, amendment record", "Draft amendment No. 1", """
        Draft prepared 18 March 2026: extend the expiry of PG-2025-0117 to 30 June 2026. Status:
        CANCELLED 19 March 2026 (Applicant withdrew its instruction). Not issued - no MT767 sent.""",
        distractor=True)]),
         facts=[_P06_F1, *_P06_F34], rules=[_P06_R1, _P06_R3], status="rejected", contradiction=False,
         pair="cbc-p06", role="update", tags=["appendix_b", "distractor", "update:amend"]),
]

# --- cbc-p07: courier receipt against the guarantor's conclusive register (undermine) ----------
# r1 (para 5) demand received by expiry and stating a breach -> payment due.  The courier's proof
# of delivery supports receipt on 28 March (f1), but para 9 makes the bank's register conclusive:
# the strict r2 from the register entry of 2 April undermines f1; a fact cannot rebut a strict
# argument -> f1 and r1's argument OUT; the only path to payment is OUT -> rejected.  Update: the
# register entry is corrected to 28 March by the head of trade services; the late-receipt record
# is gone, f1 is grounded in the register as well -> accepted.
_P07 = [
    frag("E-01", "Advance Payment Guarantee APG-0392, Calder & Finch Bank plc", "para 5", """
        We shall pay any demand stating that the Applicant has failed to repay the advance payment,
        provided the demand is received by us at our Trade Services counter, 40 Moorgate, London,
        on or before the expiry date of 31 March 2025."""),
    frag("E-02", "Advance Payment Guarantee APG-0392, Calder & Finch Bank plc", "para 9", """
        Our register record of the date on which a demand is received is conclusive for the
        purposes of this guarantee; a demand the register records as received late was not
        received by the expiry date."""),
    frag("E-03", "SwiftPost proof of delivery, consignment SP-77120934", None, """
        Contents declared by sender: demand under guarantee APG-0392. Delivered and received
        28/03/2025 16:41 at 40 Moorgate, London EC2; signed 'J OKAFOR'."""),
    frag("E-04", "Calder & Finch Bank, Trade Services incoming register", None, """
        02-APR-2025 10:15 | ref TS/IN/25/1184 | Ashgrove Water Authority | demand under APG-0392 |
        received at counter: Y | recorded late (after expiry 31-MAR-2025) | logged by S. Mehta"""),
    frag("E-05", "Demand of Ashgrove Water Authority, 27 March 2025", None, """
        We demand GBP 450,000 under guarantee APG-0392 and state that Tamsin Pumps Ltd is in breach:
        it has failed to repay the advance payment after termination of the Supply Contract."""),
    frag("E-06", "E-mail, Tamsin Pumps Ltd project manager to its finance team, 1 April 2025", None, """
        The last two pump sets left our works on 28 March; the advance should be fully earned out
        once they are installed.""", distractor=True),
]
_P07_Q = "Is Calder & Finch Bank obliged to pay Ashgrove's demand under guarantee APG-0392?"
_P07_T = "PaymentDue(calder)"
_P07_R = [rule("r1", ["DemandReceivedByExpiry(apg0392)", "DemandStatesBreach(apg0392)"], _P07_T, "E-01"),
          rule("r2", ["RegisterRecordsLateReceipt(apg0392)"], "¬DemandReceivedByExpiry(apg0392)", "E-02",
               kind="strict")]
BANKING += [
    case("bank-003", _P07_Q, _P07_T, _P07,
         facts=[fact("f1", "DemandReceivedByExpiry(apg0392)", "E-03"),
                fact("f2", "RegisterRecordsLateReceipt(apg0392)", "E-04"),
                fact("f3", "DemandStatesBreach(apg0392)", "E-05")],
         rules=_P07_R, status="rejected", contradiction=True, pair="cbc-p07", role="base",
         tags=["undermine", "distractor"]),
    case("bank-004", _P07_Q, _P07_T, revise(_P07, amend=[frag(
        "E-04", "Calder & Finch Bank, Trade Services incoming register - corrected entry", None, """
        ref TS/IN/25/1184 | Ashgrove Water Authority | demand under APG-0392 | date received amended
        from 02-APR-2025 to 28-MAR-2025 16:45 (envelope date-stamped by reception; indexing
        delay) | correction approved by the Head of Trade Services, 9 April 2025""")]),
         facts=[fact("f1", "DemandReceivedByExpiry(apg0392)", "E-03", "E-04"),
                fact("f3", "DemandStatesBreach(apg0392)", "E-05")],
         rules=_P07_R, status="accepted", contradiction=False, pair="cbc-p07", role="update",
         tags=["distractor", "update:amend"]),
]

# --- cbc-p08: abusive-demand exception, withdrawn certificate, court order ---------------------
# r1 (para 3) first demand stating a breach -> payment due.  r2 (para 11) a demand alleging
# non-completion after the beneficiary's own completion certificate is manifestly abusive; r3
# (para 11) an abusive demand excepts r1.  r4 (Building Contract cl. 21.6) a certificate withdrawn
# before the demand is of no effect: it excepts r2 (an exception to the rule feeding the
# exception).  r4 undercuts r2's and r3's arguments -> OUT; r1 IN -> accepted.  Update: an interim
# court order restrains payment; para 14 subjects payment to court orders (r5 > r1, authority):
# r5's rebuttal of r1 is active, r1's of r5 is neutralized -> r1 OUT, r5 IN -> rejected.
_P08 = [
    frag("E-01", "Performance Guarantee PB-8841, Nordhavn Sparebank ASA", "para 3", """
        We irrevocably undertake to pay any amount up to NOK 6,000,000 on receipt of the Employer's
        first written demand stating that the Contractor is in breach of the Building Contract;
        payment is then due within five banking days."""),
    frag("E-02", "Performance Guarantee PB-8841, Nordhavn Sparebank ASA", "para 11", """
        We are not obliged to pay a demand that the Contractor shows, by documents issued by the
        Employer itself, to be manifestly abusive. A demand alleging non-completion of works for
        which the Employer has issued a completion certificate is manifestly abusive."""),
    frag("E-03", "Demand of Elmfield Developments Ltd, 3 March 2026", None, """
        First written demand under guarantee PB-8841: we demand NOK 6,000,000 and state that Gravitas
        Build AS is in breach of the Building Contract, having failed to complete the works at
        Block C."""),
    frag("E-04", "Certificate of Practical Completion No. 3, Block C", None, """
        Issued by Elmfield Developments' Employer's Agent on 2 February 2026: the works at Block C
        are practically complete; completion certificate effective from that date."""),
    frag("E-05", "Building Contract Elmfield Developments Ltd / Gravitas Build AS", "cl. 21.6", """
        A Certificate of Practical Completion that the Employer's Agent withdraws under clause 21.5
        before any demand is made is of no effect for any purpose."""),
    frag("E-06", "Letter, Employer's Agent to Gravitas Build AS, 20 February 2026", None, """
        Under clause 21.5 we withdraw Certificate No. 3 for Block C: the fire-stopping inspection
        on 18 February found 14 compartments without certified seals. The certificate was
        withdrawn before any demand under the guarantee."""),
]
_P08_Q = "Must Nordhavn Sparebank pay Elmfield's demand of 3 March 2026 under guarantee PB-8841?"
_P08_T = "PaymentDue(nordhavn)"
_P08_FACTS = [fact("f1", "FirstDemandStatingBreach(pb8841)", "E-03"),
              fact("f2", "DemandAllegesNonCompletion(pb8841)", "E-03"),
              fact("f3", "CompletionCertificateIssued(elmfield)", "E-04"),
              fact("f4", "CertificateWithdrawnBeforeDemand(elmfield)", "E-06", "E-03")]
_P08_RULES = [rule("r1", ["FirstDemandStatingBreach(pb8841)"], _P08_T, "E-01"),
              rule("r2", ["CompletionCertificateIssued(elmfield)", "DemandAllegesNonCompletion(pb8841)"],
                   "DemandManifestlyAbusive(pb8841)", "E-02"),
              rule("r3", ["DemandManifestlyAbusive(pb8841)"], "¬applicable(r1)", "E-02"),
              rule("r4", ["CertificateWithdrawnBeforeDemand(elmfield)"], "¬applicable(r2)", "E-05")]
BANKING += [
    case("bank-005", _P08_Q, _P08_T, _P08, facts=_P08_FACTS, rules=_P08_RULES, status="accepted",
         contradiction=True, pair="cbc-p08", role="base",
         tags=["undercut", "nested_exception", "multi_step"]),
    case("bank-006", _P08_Q, _P08_T, revise(_P08, add=[
        frag("E-07", "Oslo District Court, case 26-041177TVI-OTIR, interim order of 10 March 2026", None, """
            Nordhavn Sparebank ASA is restrained from making any payment under guarantee PB-8841
            until judgment in the main proceedings. The interim order restraining payment takes
            effect on service."""),
        frag("E-08", "Performance Guarantee PB-8841, Nordhavn Sparebank ASA", "para 14", """
            Payment under this guarantee is subject to any order of a competent court that is
            binding on us; no payment is due while such an order restrains it."""),
    ]),
         facts=_P08_FACTS + [fact("f5", "InterimOrderRestrainingPayment(nordhavn)", "E-07")],
         rules=_P08_RULES + [rule("r5", ["InterimOrderRestrainingPayment(nordhavn)"], "¬" + _P08_T, "E-08")],
         priorities=[prio("r5", "r1", "authority", "E-08", "E-07", note="para 14: court orders bind the guarantor")],
         status="rejected", contradiction=True, pair="cbc-p08", role="update",
         tags=["undercut", "nested_exception", "multi_step", "rebut", "update:add"]),
]

# --- bank-007: counter-guarantee reimbursement without proof of payment ------------------------
# r1 (para 2) the local guarantee was paid and a complying counter-demand received ->
# reimbursement due.  The counter-demand says a demand was received, not that it was paid, and
# the payment order is still awaiting authorisation: neither antecedent is established, nothing
# argues against reimbursement -> undecidable.
BANKING.append(case(
    "bank-007", "Is Rhein-Main Handelsbank obliged to reimburse Banca Adriatica under counter-guarantee CG-5520?",
    "ReimbursementDue(rheinmain)", [
        frag("E-01", "Counter-Guarantee CG-5520, Rhein-Main Handelsbank AG", "para 2", """
            We undertake to reimburse you on your first demand stating that you have received a
            complying demand under your guarantee LG-9913 and that you have paid it. Reimbursement
            is due within three banking days of such a counter-demand."""),
        frag("E-02", "SWIFT MT765 from Banca Adriatica Commerciale, 13 May 2025", None, """
            Counter-demand under CG-5520: we have received a complying demand under our guarantee
            LG-9913 on 12 May 2025 and claim EUR 310,000 from you."""),
        frag("E-03", "Banca Adriatica payments system, order PO-25-8812", None, """
            created 13-05-2025 09:40 | beneficiary Public Works Directorate, Split | EUR 310,000.00 |
            payment order status AWAITING SECOND AUTHORISATION"""),
        frag("E-04", "Rhein-Main Handelsbank credit file note, 14 May 2025", None, """
            Applicant Dalmar Bau GmbH: counter-indemnity in place; exposure covered 120% by cash
            collateral.""", distractor=True),
    ],
    facts=[fact("f1", "LocalDemandReceived(lg9913)", "E-02"),
           fact("f2", "PaymentOrderAwaitingAuthorisation(lg9913)", "E-03")],
    rules=[rule("r1", ["LocalGuaranteePaid(lg9913)", "CounterDemandStatesPayment(cg5520)"],
                "ReimbursementDue(rheinmain)", "E-01")],
    status="undecidable", contradiction=False, tags=["absence_of_proof", "distractor"]))

# --- bank-008: SWIFT presentation against a paper-original clause (unresolved rebuttal) -------
# r1 (para 6) an authenticated SWIFT demand is a valid presentation; r2 (para 12) no original
# paper demand -> not a valid presentation.  Both clauses are in the same instrument and neither
# says it prevails: the rebuttals stay active, both UNDEC -> both.  The cover e-mail's promise to
# send the original is not evidence of presentation (distractor).
BANKING.append(case(
    "bank-008", "Did Solano Energia make a valid presentation under warranty guarantee WG-3318?",
    "PresentationValid(wg3318)", [
        frag("E-01", "Warranty Guarantee WG-3318, Pacifica Trade Bank", "para 6", """
            A demand may be presented by authenticated SWIFT message from the Beneficiary's bank
            confirming that the demand was signed by the Beneficiary's authorised signatories; such
            a message is a valid presentation."""),
        frag("E-02", "Warranty Guarantee WG-3318, Pacifica Trade Bank", "para 12", """
            Demands must be presented as an original paper demand at our counters in Valencia. A
            demand not presented in original paper form is not a valid presentation."""),
        frag("E-03", "Pacifica Trade Bank, SWIFT inbound log", None, """
            2025-11-04 14:22 UTC | MT765 | sender BCOESMMXXX (Banco Costa Este) | ref WG-3318 | field
            77: 'We confirm the demand signed by authorised signatories of Solano Energia S.A.' |
            authentication: OK"""),
        frag("E-04", "Pacifica Trade Bank, documents counter log, 4-30 November 2025", None, """
            No original paper demand or other paper document referring to WG-3318 received."""),
        frag("E-05", "E-mail, Solano Energia treasury to Pacifica Trade Bank, 4 November 2025", None, """
            Our demand has been sent by SWIFT today through Banco Costa Este; the original will
            follow by courier.""", distractor=True),
    ],
    facts=[fact("f1", "AuthenticatedSwiftDemand(wg3318)", "E-03"),
           fact("f2", "¬OriginalPaperDemand(wg3318)", "E-04")],
    rules=[rule("r1", ["AuthenticatedSwiftDemand(wg3318)"], "PresentationValid(wg3318)", "E-01"),
           rule("r2", ["¬OriginalPaperDemand(wg3318)"], "¬PresentationValid(wg3318)", "E-02")],
    status="both", contradiction=True, tags=["rebut", "distractor"]))

# --- bank-009: second signatory not authorised (undermine, two steps) --------------------------
# r1 (para 4) a demand stating the refusal to sign and signed by two authorised signatories is
# complying; r2 (para 5) complying demand -> payment due.  The cover letter asserts two authorised
# signatures (f2), but the certified signatory list does not name L. Vestergaard: the strict r3
# undermines f2 -> r1's and r2's arguments OUT; the only path to payment is OUT -> rejected.
BANKING.append(case(
    "bank-009", "Is Eastbridge Bank obliged to pay Tollund Rail's demand under bid bond BG-6077?",
    "PaymentDue(eastbridge)", [
        frag("E-01", "Bid Bond BG-6077, Eastbridge Bank A/S", "para 4", """
            A demand complies only if it states that the Applicant withdrew its bid during the
            validity period or refused to sign the contract awarded to it, and is signed by two
            authorised signatories of the Beneficiary."""),
        frag("E-02", "Bid Bond BG-6077, Eastbridge Bank A/S", "para 5", """
            We shall pay against a complying demand within five business days of receipt; payment is
            due on that date."""),
        frag("E-03", "Demand of Tollund Rail A/S, 9 June 2025, with cover letter", None, """
            We demand DKK 2,500,000 under bid bond BG-6077: the Applicant refused to sign the contract
            awarded to it on 2 June 2025. Signed: K. Morch (Procurement Director) and L. Vestergaard
            (Category Manager). Cover letter: 'the demand is duly signed by two authorised
            signatories'."""),
        frag("E-04", "Certified authorised signatory list of Tollund Rail A/S, lodged 3 March 2025", None, """
            Authorised signatories (any two jointly): K. Morch, Procurement Director; P. Holm, CFO;
            A. Jensen, General Counsel. A signatory not on this list is not an authorised signatory
            for the purposes of BG-6077."""),
        frag("E-05", "Letter, Sorlund Anlaeg ApS (Applicant) to Tollund Rail, 1 June 2025", None, """
            We cannot sign the contract at the tendered price because the steel surcharge index rose
            by 11% after our bid; we ask for a price review.""", distractor=True),
    ],
    facts=[fact("f1", "DemandStatesRefusalToSign(bg6077)", "E-03"),
           fact("f2", "SignedByTwoAuthorisedSignatories(bg6077)", "E-03"),
           fact("f3", "SecondSignatoryNotOnList(bg6077)", "E-03", "E-04")],
    rules=[rule("r1", ["DemandStatesRefusalToSign(bg6077)", "SignedByTwoAuthorisedSignatories(bg6077)"],
                "ComplyingDemand(bg6077)", "E-01"),
           rule("r2", ["ComplyingDemand(bg6077)"], "PaymentDue(eastbridge)", "E-02"),
           rule("r3", ["SecondSignatoryNotOnList(bg6077)"], "¬SignedByTwoAuthorisedSignatories(bg6077)",
                "E-04", kind="strict")],
    status="rejected", contradiction=True, tags=["undermine", "multi_step", "distractor"]))

# --- cbc-p09: sanctions clause, screening alert cleared, later listing ------------------------
# r1 (para 3) complying demand -> payment due; r2 (para 15) designated beneficiary -> no payment,
# overriding para 3 (r2 > r1).  r3 (procedure s. 4.2) an open high-score alert is treated as a
# designation; r4 (s. 4.4) an alert cleared as a false positive -> not designated, and s. 4.4
# governs cleared alerts (r4 > r3).  r4 defeats r3, so r2's only argument is OUT and r1 IN ->
# accepted.  Update: the beneficiary is entered on the Consolidated List; the strict r5 cannot be
# rebutted by r4 and defeats it, r3 and r5 support the designation, r2 defeats r1 -> rejected.
_P09 = [
    frag("E-01", "Performance Guarantee PG-4410, Lindqvist & Berg Bank AB", "para 3", """
        We will pay the Beneficiary's complying demand within seven banking days; payment is then
        due without regard to any objection of the Applicant."""),
    frag("E-02", "Performance Guarantee PG-4410, Lindqvist & Berg Bank AB", "para 15", """
        Notwithstanding paragraph 3, no payment is due where payment would be made to a designated
        person under the sanctions regimes in Schedule 2. A person entered on the Consolidated List
        of Designated Persons is a designated person for this purpose."""),
    frag("E-03", "Screening alert SA-25-33019, 14 October 2025", None, """
        Beneficiary name 'ARAL LOGISTICS LLP' - possible sanctions match (score 0.87) with 'ARAL
        LOGISTIKA OOO', listed entity. Alert status: open."""),
    frag("E-04", "Second-level review of alert SA-25-33019, D. Aziz, 16 October 2025", None, """
        Different registration numbers (KZ BIN 180440012345 against RU OGRN 1027700132195),
        different addresses and owners. Alert cleared as a false positive and closed."""),
    frag("E-05", "Lindqvist & Berg Sanctions Screening Procedure v4", "ss. 4.2 and 4.4", """
        4.2 An open alert with a match score of 0.85 or more is treated as a designation of the
        screened party. 4.4 An alert cleared by a second-level reviewer as a false positive is
        closed, and the party is then treated as not designated; this section prevails over 4.2."""),
    frag("E-06", "Demand of Aral Logistics LLP, 10 October 2025", None, """
        Demand under guarantee PG-4410 for USD 640,000, stating the Applicant's breach as required by
        paragraph 3, in compliance with the guarantee's terms."""),
]
_P09_Q = "Must Lindqvist & Berg Bank pay Aral Logistics' demand under guarantee PG-4410?"
_P09_T = "PaymentDue(lbb)"
_P09_FACTS = [fact("f1", "PossibleSanctionsMatch(aral)", "E-03"),
              fact("f2", "AlertClearedAsFalsePositive(aral)", "E-04"),
              fact("f3", "ComplyingDemand(pg4410)", "E-06")]
_P09_RULES = [rule("r1", ["ComplyingDemand(pg4410)"], _P09_T, "E-01"),
              rule("r2", ["BeneficiaryDesignated(aral)"], "¬" + _P09_T, "E-02"),
              rule("r3", ["PossibleSanctionsMatch(aral)"], "BeneficiaryDesignated(aral)", "E-05"),
              rule("r4", ["AlertClearedAsFalsePositive(aral)"], "¬BeneficiaryDesignated(aral)", "E-05")]
_P09_PRIO = [prio("r2", "r1", "exception", "E-02", note="para 15 'notwithstanding paragraph 3'"),
             prio("r4", "r3", "specificity", "E-05", note="s. 4.4 prevails over s. 4.2")]
BANKING += [
    case("bank-010", _P09_Q, _P09_T, _P09, facts=_P09_FACTS, rules=_P09_RULES, priorities=_P09_PRIO,
         status="accepted", contradiction=True, pair="cbc-p09", role="base", tags=["rebut", "multi_step"]),
    case("bank-011", _P09_Q, _P09_T, revise(_P09, add=[frag(
        "E-07", "Consolidated List of Designated Persons, amendment notice 2025/61, published 28 October 2025", None, """
        Entry 212 added: ARAL LOGISTICS LLP, Almaty, BIN 180440012345, listed on the Consolidated
        List with effect from publication; asset freeze and prohibition on making funds available.""")]),
         facts=_P09_FACTS + [fact("f4", "ListedOnConsolidatedList(aral)", "E-07")],
         rules=_P09_RULES + [rule("r5", ["ListedOnConsolidatedList(aral)"], "BeneficiaryDesignated(aral)",
                                  "E-02", kind="strict")],
         priorities=_P09_PRIO, status="rejected", contradiction=True, pair="cbc-p09", role="update",
         tags=["rebut", "multi_step", "update:add"]),
]

# --- bank-012: assignment of proceeds, no acknowledgment (undercut, absence of proof) ----------
# r1 (para 13) an acknowledged notice of assignment -> the assignee is entitled; the bank has not
# acknowledged, so r1 has no argument.  r2 (Supply Contract cl. 9.2) refused consent -> not
# entitled, but para 2 of the guarantee makes the supply contract's assignment restrictions
# irrelevant to the proceeds (r3 excepts r2): r2 OUT.  Nothing stands on either side ->
# undecidable.
BANKING.append(case(
    "bank-012", "Is Lendmark Capital entitled to receive the proceeds of guarantee PG-2207?",
    "AssigneeEntitledToProceeds(lendmark)", [
        frag("E-01", "Performance Guarantee PG-2207, Halden Commercial Bank", "para 13", """
            The Beneficiary may assign the proceeds of this guarantee. An assignment of proceeds binds
            us, and entitles the assignee to the proceeds, only once we have acknowledged the
            Beneficiary's notice of assignment in writing."""),
        frag("E-02", "Letter, Moravia Steel Works a.s. to Halden Commercial Bank, 5 August 2025", None, """
            Notice of assignment: we have assigned to Lendmark Capital Ltd all proceeds of guarantee
            PG-2207 and ask you to acknowledge this notice."""),
        frag("E-03", "E-mail, Halden Commercial Bank trade services to Moravia, 12 August 2025", None, """
            Your notice of assignment has been passed to our legal team and is under review. Please
            note that this e-mail is not an acknowledgment of the assignment."""),
        frag("E-04", "Letter, Kelvin Cranes Ltd (Applicant) to Halden Commercial Bank, 14 August 2025", None, """
            We refuse consent to any assignment by Moravia. Under clause 9.2 of the Supply Contract
            Moravia cannot assign its rights without our consent."""),
        frag("E-05", "Supply Contract Kelvin Cranes Ltd / Moravia Steel Works a.s.", "cl. 9.2", """
            Neither party may assign its rights under this Contract without the other party's prior
            written consent; an assignee without that consent has no entitlement against the other
            party."""),
        frag("E-06", "Performance Guarantee PG-2207, Halden Commercial Bank", "para 2", """
            This guarantee is independent of the Supply Contract. Restrictions on assignment in the
            Supply Contract do not affect an assignment of the proceeds of this guarantee."""),
    ],
    facts=[fact("f1", "AssignmentNoticeGiven(pg2207)", "E-02"),
           fact("f2", "¬AssignmentNoticeAcknowledged(pg2207)", "E-03"),
           fact("f3", "ApplicantConsentRefused(kelvin)", "E-04"),
           fact("f4", "GuaranteeIndependent(pg2207)", "E-06")],
    rules=[rule("r1", ["AssignmentNoticeAcknowledged(pg2207)"], "AssigneeEntitledToProceeds(lendmark)", "E-01"),
           rule("r2", ["ApplicantConsentRefused(kelvin)"], "¬AssigneeEntitledToProceeds(lendmark)", "E-05"),
           rule("r3", ["GuaranteeIndependent(pg2207)"], "¬applicable(r2)", "E-06")],
    status="undecidable", contradiction=True, tags=["undercut", "absence_of_proof"]))
