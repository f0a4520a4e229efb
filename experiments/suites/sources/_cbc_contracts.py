"""Contract scenarios ``cont-001`` .. ``cont-016`` of ``normative-en``.

Fictional parties and documents, written for paratrace.  Each block states the
reasoning under docs/semantics.md section 7 that gives its gold status.
"""

from __future__ import annotations

from .authoring import case, fact, frag, prio, revise, rule
from ._cbc_contracts_b import CONTRACTS_B

__all__ = ["CONTRACTS"]

CONTRACTS: list[dict] = []

# --- cbc-p01: late delivery, force majeure, gross negligence (paper Appendix B, docs/semantics.md section 8) --
# r1 (cl. 11.1) delay -> liquidated damages; r2 (cl. 11.4) force majeure -> none, "notwithstanding
# 11.1" (r2 > r1); r3 (cl. 11.5) gross negligence -> damages again, overriding 11.4 (r3 > r2).
# r2's rebuttals of r1 and r3 are neutralized by r3 > r2 (r3 is applicable), r3's rebuttal of r2
# is active: r2 OUT, r1 and r3 IN -> accepted.  Update: the surveyor's final report replaces the
# preliminary one and withdraws the gross-negligence finding; r3 is no longer applicable, r2 > r1
# neutralizes r1's rebuttal, r2's stands -> rejected.
_P01 = [
    frag("E-01", "Supply Agreement Halvorsen Marine Supply AS / Corvia Shipyards Ltd (2024)", "cl. 11.1", """
        If the Supplier fails to deliver any Lot by the Delivery Date in Schedule 2, the Supplier
        shall pay the Buyer liquidated damages of 0.5% of the price of that Lot for each full week
        of delay, up to a maximum of 10% of that price."""),
    frag("E-02", "Supply Agreement Halvorsen Marine Supply AS / Corvia Shipyards Ltd (2024)", "cl. 11.4", """
        Notwithstanding clause 11.1, no liquidated damages are payable for any period of delay
        caused by a Force Majeure Event that the Supplier has notified in accordance with
        clause 19.2."""),
    frag("E-03", "Supply Agreement Halvorsen Marine Supply AS / Corvia Shipyards Ltd (2024)", "cl. 11.5", """
        Clause 11.4 does not relieve the Supplier of liquidated damages where the delay, or its
        extent, would have been avoided but for the gross negligence of the Supplier or of any
        of its subcontractors. This clause prevails over clause 11.4."""),
    frag("E-04", "Corvia receiving log, Yard 2", None, """
        2025-05-02 14:05 | PO 4471-07 | Lot 7 (deck crane pedestals, 6 units) | scheduled
        delivery date 2025-03-14 | received 2025-05-02 | delay: 7 weeks | checked by T. Brennan"""),
    frag("E-05", "Letter, Halvorsen Marine Supply AS to Corvia Shipyards Ltd, 17 March 2025", None, """
        Notice under clause 19.2. On 11 March 2025 the harbour authority closed the port of
        Alesund after storm damage to berth 4. Lot 7 was in our bonded warehouse inside the port
        and could not be loaded until the port reopened. We hereby notify a Force Majeure Event
        affecting Lot 7."""),
    frag("E-06", "Nordic Survey & Valuation, preliminary report NSV-25-118, 9 April 2025", "s. 4", """
        The harbour authority issued closure warnings on 3 and 6 March. Lot 7 had been ready for
        dispatch since 28 February, and on 5 March the Supplier declined two road-haulage slots
        offered by its forwarder. In our opinion the Supplier's failure to act on repeated
        warnings amounts to gross negligence in the handling of the consignment."""),
    frag("E-07", "Supply Agreement Halvorsen Marine Supply AS / Corvia Shipyards Ltd (2024)", "cl. 24.1", """
        This Agreement and any non-contractual obligation arising out of it are governed by
        Norwegian law. The Oslo District Court has exclusive jurisdiction.""", distractor=True),
]
_P01_Q = "Must Halvorsen Marine Supply pay Corvia liquidated damages for the late delivery of Lot 7?"
_P01_T = "LiquidatedDamagesPayable(halvorsen)"
_P01_RULES = [
    rule("r1", ["DelayedDelivery(lot7)"], _P01_T, "E-01"),
    rule("r2", ["ForceMajeureEvent(lot7)"], "¬" + _P01_T, "E-02"),
    rule("r3", ["GrossNegligence(halvorsen)"], _P01_T, "E-03"),
]
_P01_PRIO = [
    prio("r2", "r1", "exception", "E-02", note="cl. 11.4 'notwithstanding clause 11.1'"),
    prio("r3", "r2", "exception", "E-03", note="cl. 11.5 'prevails over clause 11.4'"),
]
CONTRACTS += [
    case("cont-001", _P01_Q, _P01_T, _P01,
         facts=[fact("f1", "DelayedDelivery(lot7)", "E-04"),
                fact("f2", "ForceMajeureEvent(lot7)", "E-05"),
                fact("f3", "GrossNegligence(halvorsen)", "E-06")],
         rules=_P01_RULES, priorities=_P01_PRIO, status="accepted", contradiction=True,
         pair="cbc-p01", role="base",
         tags=["appendix_b", "rebut", "nested_exception", "distractor"]),
    case("cont-002", _P01_Q, _P01_T, revise(_P01, amend=[frag(
        "E-06", "Nordic Survey & Valuation, final report NSV-25-118/F, 30 April 2025", "s. 4", """
        This final report supersedes our preliminary report of 9 April. The road-haulage slots
        offered on 5 March were for loads of up to 24 t; each pedestal of Lot 7 weighs 41 t, so
        the slots could not have been used. The Supplier's handling of the consignment was in line
        with ordinary practice, and we withdraw the finding of gross negligence.""")]),
         facts=[fact("f1", "DelayedDelivery(lot7)", "E-04"),
                fact("f2", "ForceMajeureEvent(lot7)", "E-05"),
                fact("f3", "¬GrossNegligence(halvorsen)", "E-06")],
         rules=_P01_RULES, priorities=_P01_PRIO, status="rejected", contradiction=True,
         pair="cbc-p01", role="update",
         tags=["appendix_b", "rebut", "distractor", "update:amend"]),
]

# --- cbc-p02: payment term, order of precedence, later amendment ------------------------------
# r1 (Order Form) paid after 30 days -> overdue; r2 (MSA cl. 8.2) paid within 60 days -> not
# overdue; the MSA prevails over an Order Form (cl. 1.3, r2 > r1).  r1's rebuttal is neutralized,
# r2's is active -> r1 OUT, r2 IN -> rejected.  The vendor's reminder asserts "overdue" but is not
# a source of payment terms (distractor).  Update: Amendment No. 2 to the MSA (later in time,
# r3 > r2) sets 30 days for invoices dated from 2025: r3's rebuttal of r2 is active, r2's
# rebuttals of r1 and r3 are neutralized by r3 > r2 (r3 applicable) -> r2 OUT -> accepted.
_P02 = [
    frag("E-01", "Master Services Agreement Brightwater Analytics GmbH / Talmont Retail SA", "cl. 1.3", """
        If the documents forming the contract conflict, they take precedence in this order:
        (a) this Master Services Agreement, including its amendments; (b) the Data Processing
        Terms; (c) any Order Form; (d) any purchase order issued by the Customer."""),
    frag("E-02", "Master Services Agreement Brightwater Analytics GmbH / Talmont Retail SA", "cl. 8.2", """
        The Customer shall pay each undisputed invoice within sixty (60) days of the invoice date.
        An invoice paid within that period is not overdue."""),
    frag("E-03", "Order Form No. 3 (Retail Demand Forecasting), signed 10 January 2025", "Commercial terms", """
        Invoices are payable net thirty (30) days from the invoice date. Any amount unpaid after
        thirty days is overdue and bears interest under the Agreement."""),
    frag("E-04", "Brightwater accounts receivable ledger, customer TAL-001", None, """
        INV-2025-0342 | invoice dated 03-02-2025 | EUR 84,250.00 | paid 20-03-2025 (45 days
        after invoice date) | status CLEARED"""),
    frag("E-05", "E-mail, Brightwater credit control to Talmont accounts payable, 6 March 2025", None, """
        Friendly reminder: our records show INV-2025-0342 as overdue under your Order Form terms.
        Please arrange payment at your earliest convenience.""", distractor=True),
]
_P02_Q = "Was Talmont's payment of invoice INV-2025-0342 overdue?"
_P02_T = "PaymentOverdue(inv0342)"
_P02_FACTS = [fact("f1", "PaidAfterThirtyDays(inv0342)", "E-04"),
              fact("f2", "PaidWithinSixtyDays(inv0342)", "E-04")]
_P02_RULES = [rule("r1", ["PaidAfterThirtyDays(inv0342)"], _P02_T, "E-03"),
              rule("r2", ["PaidWithinSixtyDays(inv0342)"], "¬" + _P02_T, "E-02")]
_P02_PRIO = [prio("r2", "r1", "hierarchy", "E-01", note="cl. 1.3: the MSA prevails over an Order Form")]
CONTRACTS += [
    case("cont-003", _P02_Q, _P02_T, _P02, facts=_P02_FACTS, rules=_P02_RULES,
         priorities=_P02_PRIO, status="rejected", contradiction=True, pair="cbc-p02", role="base",
         tags=["rebut", "distractor"]),
    case("cont-004", _P02_Q, _P02_T, revise(_P02, add=[frag(
        "E-06", "Amendment No. 2 to the Master Services Agreement, signed by both parties on 12 December 2024",
        "s. 1", """
        With effect from 1 January 2025, clause 8.2 is replaced for invoices dated on or after that
        date: the Customer shall pay within thirty (30) days of the invoice date, and an amount
        unpaid after that period is overdue. Invoices dated before 1 January 2025 remain subject
        to the sixty-day term.""")]),
         facts=_P02_FACTS + [fact("f3", "InvoiceDatedFrom2025(inv0342)", "E-04")],
         rules=_P02_RULES + [rule("r3", ["PaidAfterThirtyDays(inv0342)", "InvoiceDatedFrom2025(inv0342)"],
                                  _P02_T, "E-06")],
         priorities=_P02_PRIO + [prio("r3", "r2", "temporal", "E-06",
                                      note="Amendment No. 2 replaces cl. 8.2 for 2025 invoices")],
         status="accepted", contradiction=True, pair="cbc-p02", role="update",
         tags=["rebut", "distractor", "update:add"]),
]

# --- cbc-p03: automatic renewal, late notice, waiver -----------------------------------------
# r1 (cl. 12.1) end of term -> renewed, unless timely non-renewal notice (r2: exception to r1).
# The customer's letter claims the notice is timely (f2), but notices take effect on receipt
# (cl. 12.2) and the mailroom register shows receipt after the 2 October cut-off: the strict r3
# undermines f2, which cannot strike back at a strict argument -> f2 and r2 OUT, r1 IN ->
# accepted.  Update: Quillon's authorised signatory waives the notice period in writing (cl. 27.3
# makes such a waiver effective): r4 undercuts r1 -> the only path to renewal is OUT -> rejected.
_P03 = [
    frag("E-01", "Subscription Agreement QS-2291, Quillon Software Ltd / Aster Health Partners LLP", "cl. 12.1", """
        The Subscription Term renews automatically for successive periods of twelve months unless
        either party gives written notice of non-renewal at least ninety (90) days before the end
        of the then-current term."""),
    frag("E-02", "Subscription Agreement QS-2291, Quillon Software Ltd / Aster Health Partners LLP", "cl. 12.2", """
        A notice under this Agreement takes effect when it is received at the addressee's address
        in clause 25, not when it is sent. A notice of non-renewal received less than ninety days
        before the end of the term is not timely."""),
    frag("E-03", "Letter, Aster Health Partners LLP to Quillon Software Ltd, dated 29 September 2025", None, """
        Re: Subscription Agreement QS-2291 - notice of non-renewal. We give notice that we will not
        renew the subscription at the end of the current term on 31 December 2025. This notice is
        timely under clause 12.1."""),
    frag("E-04", "Quillon Software Ltd, inbound post register", None, """
        2025-10-07 09:12 | item 25-10-0415 | from: Aster Health Partners LLP | recorded delivery |
        subject: notice of non-renewal QS-2291 | received at reception (M. Patel)"""),
    frag("E-05", "Order Form QS-2291", "Term", """
        Initial Subscription Term: 1 January 2025 to 31 December 2025; the end of the term is
        therefore 31 December 2025. Annual fee GBP 148,000, payable annually in advance."""),
    frag("E-06", "Subscription Agreement QS-2291, Quillon Software Ltd / Aster Health Partners LLP", "cl. 16.2", """
        On each renewal the Supplier may increase the annual fee by no more than the change in the
        UK consumer price index over the preceding twelve months plus two percentage points.""",
         distractor=True),
]
_P03_Q = "Did Aster's subscription QS-2291 renew for 2026?"
_P03_T = "SubscriptionRenewed(qs2291)"
_P03_FACTS = [fact("f1", "EndOfTerm(qs2291)", "E-05"),
              fact("f2", "TimelyNonRenewalNotice(aster)", "E-03"),
              fact("f3", "NoticeReceivedAfterCutoff(aster)", "E-04")]
_P03_RULES = [rule("r1", ["EndOfTerm(qs2291)"], _P03_T, "E-01"),
              rule("r2", ["TimelyNonRenewalNotice(aster)"], "¬applicable(r1)", "E-01"),
              rule("r3", ["NoticeReceivedAfterCutoff(aster)"], "¬TimelyNonRenewalNotice(aster)",
                   "E-02", kind="strict")]
CONTRACTS += [
    case("cont-005", _P03_Q, _P03_T, _P03, facts=_P03_FACTS, rules=_P03_RULES, status="accepted",
         contradiction=True, pair="cbc-p03", role="base", tags=["undermine", "undercut", "distractor"]),
    case("cont-006", _P03_Q, _P03_T, revise(_P03, add=[
        frag("E-07", "E-mail, R. Okoye (Chief Commercial Officer, Quillon Software Ltd) to Aster, 9 October 2025", None, """
            Thank you for your letter on QS-2291. Although it reached us after the ninety-day
            window, Quillon waives the notice period for this renewal and treats your notice as
            effective: the subscription will end on 31 December 2025. Signed for and on behalf of
            Quillon Software Ltd by an authorised signatory."""),
        frag("E-08", "Subscription Agreement QS-2291, Quillon Software Ltd / Aster Health Partners LLP", "cl. 27.3", """
            A waiver of any right or requirement under this Agreement, including a notice period,
            is effective only if it is in writing and signed by an authorised signatory of the
            party giving it."""),
    ]),
         facts=_P03_FACTS + [fact("f4", "NoticePeriodWaived(quillon)", "E-07")],
         rules=_P03_RULES + [rule("r4", ["NoticePeriodWaived(quillon)"], "¬applicable(r1)", "E-08", "E-07")],
         status="rejected", contradiction=True, pair="cbc-p03", role="update",
         tags=["undermine", "undercut", "distractor", "update:add"]),
]

# --- cbc-p04: liability cap, data-protection carve-out, competing forensic reports ------------
# r1 (cl. 14.1) claim under the agreement -> liability capped; r4 (cl. 14.3) a data-protection
# breach excepts r1.  r2 (cl. 11.2) misconfigured storage -> breach; r3 (cl. 11.5) compromised
# customer credentials -> no breach.  The two forensic reports support r2 and r3 with no priority
# between them: r2 and r3 rebut each other, both UNDEC; r4's argument contains r2's and is UNDEC,
# so r1's argument, attacked by an UNDEC undercutter, is UNDEC -> both.  Update: the binding
# expert determination (cl. 20.4) finds no misconfiguration; the strict r5 undermines f2, so r2
# and r4 are OUT, r3 IN, r1 IN -> accepted.
_P04 = [
    frag("E-01", "Cloud Services Agreement Norrland Cloud AB / Pellucid Insurance Brokers Ltd", "cl. 14.1", """
        Each party's total liability arising out of or in connection with this Agreement in any
        contract year is capped at the fees paid by the Customer in that contract year."""),
    frag("E-02", "Cloud Services Agreement Norrland Cloud AB / Pellucid Insurance Brokers Ltd", "cl. 14.3", """
        The cap in clause 14.1 does not apply to loss caused by the Supplier's breach of clause 11
        (Data Protection and Security)."""),
    frag("E-03", "Cloud Services Agreement Norrland Cloud AB / Pellucid Insurance Brokers Ltd", "cl. 11.2", """
        The Supplier shall implement and maintain the technical measures in Annex 3, including
        access controls on every storage bucket that holds Customer Data. A storage bucket left
        misconfigured so that Customer Data is exposed is a breach of this clause 11."""),
    frag("E-04", "Cloud Services Agreement Norrland Cloud AB / Pellucid Insurance Brokers Ltd", "cl. 11.5", """
        The Supplier is not in breach of this clause 11 where a security incident results from the
        compromise of credentials issued to the Customer or its users."""),
    frag("E-05", "Cobalt Forensics, report for Pellucid, 30 June 2025", "Findings 3.1-3.4", """
        Storage bucket 'pib-claims-archive' was misconfigured as publicly listable from 2 June to
        19 June 2025 after a change by the Supplier's operations team (change ticket NC-55102).
        The exfiltration traffic falls entirely inside the public-listing window."""),
    frag("E-06", "Harrow Cyber, report for Norrland Cloud, 4 July 2025", "s. 2", """
        The attacker authenticated with a valid API key issued to the Pellucid service account
        pib-svc-claims; the key had been published in a public code repository on 28 May 2025.
        Every request to the bucket used these compromised customer credentials; the listing
        permission was never exercised."""),
    frag("E-07", "Letter of claim, Pellucid Insurance Brokers Ltd to Norrland Cloud AB, 21 July 2025", None, """
        Pellucid claims GBP 1.9 million for notification costs, regulatory penalties and lost
        business, arising under the Agreement from the June 2025 incident."""),
]
_P04_Q = "Is Norrland Cloud's liability for Pellucid's June 2025 data incident capped under clause 14.1?"
_P04_T = "LiabilityCapped(norrland)"
_P04_FACTS = [fact("f1", "ClaimArisesUnderAgreement(pellucid)", "E-07"),
              fact("f2", "StorageMisconfigured(norrland)", "E-05"),
              fact("f3", "CustomerCredentialsCompromised(pellucid)", "E-06")]
_P04_RULES = [rule("r1", ["ClaimArisesUnderAgreement(pellucid)"], _P04_T, "E-01"),
              rule("r2", ["StorageMisconfigured(norrland)"], "DataProtectionBreach(norrland)", "E-03"),
              rule("r3", ["CustomerCredentialsCompromised(pellucid)"], "¬DataProtectionBreach(norrland)", "E-04"),
              rule("r4", ["DataProtectionBreach(norrland)"], "¬applicable(r1)", "E-02")]
CONTRACTS += [
    case("cont-007", _P04_Q, _P04_T, _P04, facts=_P04_FACTS, rules=_P04_RULES, status="both",
         contradiction=True, pair="cbc-p04", role="base", tags=["rebut", "undercut", "multi_step"]),
    case("cont-008", _P04_Q, _P04_T, revise(_P04, add=[frag(
        "E-08", "Expert determination under clause 20, D. Lindqvist, 14 November 2025", "paras 1-3", """
        (1) The exfiltration used the exposed customer API key. (2) The storage bucket was not
        misconfigured in any way that contributed to the loss: the access logs show no anonymous
        request. (3) Under clause 20.4 this determination is final and binding on the parties as
        to these facts.""")]),
         facts=_P04_FACTS + [fact("f4", "ExpertDeterminedNoMisconfiguration(norrland)", "E-08")],
         rules=_P04_RULES + [rule("r5", ["ExpertDeterminedNoMisconfiguration(norrland)"],
                                  "¬StorageMisconfigured(norrland)", "E-08", kind="strict")],
         status="accepted", contradiction=True, pair="cbc-p04", role="update",
         tags=["rebut", "undercut", "undermine", "multi_step", "update:add"]),
]

CONTRACTS += CONTRACTS_B  # the second half, in authoring order
