"""Contract scenarios of ``normative-en``, second part (``cont-009`` onwards, in
authoring order; see :mod:`experiments.suites.sources._cbc_contracts`)."""

from __future__ import annotations

from .authoring import case, fact, frag, prio, revise, rule  # noqa: F401

__all__ = ["CONTRACTS_B"]

CONTRACTS_B: list[dict] = []

# --- cont-009: termination right against an accepted remediation plan (defeater) --------------
# r1 (cl. 18.2) three consecutive failures of a critical service level -> the client may
# terminate; r2 (cl. 18.4) is a defeater: while an accepted remediation plan runs the client
# "should not" terminate; it argues against r1 without establishing a prohibition.  No priority:
# r1 and r2 rebut each other, both UNDEC -> both.
CONTRACTS_B.append(case(
    "cont-009", "May Oriel Bank terminate its facilities contract with Castell for persistent service-level failure?",
    "MayTerminate(oriel)", [
        frag("E-01", "Facilities Management Contract Castell Facilities Ltd / Oriel Bank plc", "cl. 18.2", """
            The Client may terminate this Contract by written notice if the Provider fails to meet
            the same Critical Service Level in three consecutive months."""),
        frag("E-02", "Monthly service-level reports, Critical SL-2 (P1 helpdesk response within 30 minutes)", None, """
            July 2025: 86.0% against a target of 95% - missed. August 2025: 91.2% - missed.
            September 2025: 88.7% - missed. SL-2 missed in three consecutive months."""),
        frag("E-03", "Facilities Management Contract Castell Facilities Ltd / Oriel Bank plc", "cl. 18.4", """
            Where the Client has accepted a remediation plan under clause 17.3, the Client should not
            terminate under clause 18.2 for the failures covered by the plan while the plan is being
            carried out."""),
        frag("E-04", "E-mail, Oriel Bank vendor management to Castell, 3 October 2025", None, """
            We accept remediation plan RP-07 of 1 October for SL-2, on the basis that all actions are
            completed by 31 December 2025."""),
        frag("E-05", "Facilities Management Contract Castell Facilities Ltd / Oriel Bank plc", "cl. 18.6", """
            On any termination the Client shall pay for the services performed up to the termination
            date and for demobilisation costs agreed in advance.""", distractor=True),
    ],
    facts=[fact("f1", "ThreeConsecutiveFailures(castell)", "E-02"),
           fact("f2", "RemediationPlanAccepted(oriel)", "E-04")],
    rules=[rule("r1", ["ThreeConsecutiveFailures(castell)"], "MayTerminate(oriel)", "E-01"),
           rule("r2", ["RemediationPlanAccepted(oriel)"], "¬MayTerminate(oriel)", "E-03", kind="defeater")],
    status="both", contradiction=True, tags=["defeater", "rebut", "distractor"]))

# --- cont-010: two executed counterparts with different territory schedules (strict conflict) --
# Clause 2.1 makes the listed territories exclusive and clause 2.3 denies exclusivity elsewhere:
# both are definitional, so strict.  Each counterpart is an original (cl. 30.2); Verdal's lists
# Austria, Kestrel's strikes it out.  Two strict arguments for p and not-p do not attack each
# other: both IN -> both.
CONTRACTS_B.append(case(
    "cont-010", "Does Kestrel Distribution hold exclusive distribution rights for Austria?",
    "ExclusiveInAustria(kestrel)", [
        frag("E-01", "Distribution Agreement Verdal Foods AG / Kestrel Distribution GmbH (2024)", "cl. 2.1, 2.3", """
            2.1 The Principal appoints the Distributor as its exclusive distributor in each territory
            listed in Schedule A. 2.3 The Distributor has no exclusivity in any territory that is not
            listed in Schedule A."""),
        frag("E-02", "Schedule A, Verdal Foods counterpart, signed 4 March 2024", None, """
            Territories: Germany; Austria; Liechtenstein. Signed for the Principal: U. Brandner.
            Signed for the Distributor: H. Kestrel."""),
        frag("E-03", "Schedule A, Kestrel Distribution counterpart, signed 6 March 2024", None, """
            Territories: Germany; Liechtenstein. ('Austria' struck through and initialled 'HK' and
            'UB'.) Signed for the Principal: U. Brandner. Signed for the Distributor: H. Kestrel."""),
        frag("E-04", "Distribution Agreement Verdal Foods AG / Kestrel Distribution GmbH (2024)", "cl. 30.2", """
            This Agreement may be executed in counterparts, each of which is an original; together
            they form one instrument."""),
        frag("E-05", "Kestrel Distribution, sales report Q2 2025", None, """
            Austria: 14 retail accounts, net sales EUR 212,400 (+8% on Q1); Germany: EUR 1.31m.""",
             distractor=True),
    ],
    facts=[fact("f1", "AustriaListedInScheduleA(verdal_copy)", "E-02", "E-04"),
           fact("f2", "AustriaNotListedInScheduleA(kestrel_copy)", "E-03", "E-04")],
    rules=[rule("r1", ["AustriaListedInScheduleA(verdal_copy)"], "ExclusiveInAustria(kestrel)", "E-01", kind="strict"),
           rule("r2", ["AustriaNotListedInScheduleA(kestrel_copy)"], "¬ExclusiveInAustria(kestrel)", "E-01",
                kind="strict")],
    status="both", contradiction=True, tags=["strict_conflict", "distractor"]))

# --- cbc-p05: early-payment discount, proof of receipt ----------------------------------------
# r1 (cl. 6.3) payment received within ten days -> discount.  Base: the buyer's payment run is
# only "scheduled" and the supplier cannot date the receipt: no argument for the antecedent, none
# for or against the discount -> undecidable.  Update: the bank statement dates the credit on
# 11 September, inside the window -> accepted.
_P05 = [
    frag("E-01", "General Terms of Sale, Mercer Tooling Ltd (2023 edition)", "cl. 6.3", """
        The Buyer may deduct a prompt-payment discount of 2% if the full invoice amount, less the
        discount, is received in the Supplier's account within ten (10) days of the invoice date."""),
    frag("E-02", "Invoice MT-7781, Mercer Tooling Ltd to Dunmore Engineering Ltd", None, """
        Invoice MT-7781 issued 3 September 2025; GBP 62,400.00; terms: 2% 10 days, net 45 days."""),
    frag("E-03", "Dunmore Engineering treasury system, payment run export", None, """
        PAYMENT RUN 2025-09-10 | beneficiary MERCER TOOLING LTD | ref MT-7781 | GBP 61,152.00 (2%
        discount deducted) | status SCHEDULED | value date: to be confirmed by bank"""),
    frag("E-04", "E-mail, Mercer Tooling credit control to Dunmore, 22 September 2025", None, """
        We have received GBP 61,152.00 against MT-7781, but we cannot confirm the date it reached
        our account until our bank statement for that week is available."""),
    frag("E-05", "General Terms of Sale, Mercer Tooling Ltd (2023 edition)", "cl. 6.5", """
        Overdue amounts bear interest at 4% a year above the Bank of England base rate from the due
        date until payment.""", distractor=True),
]
_P05_Q = "Is Dunmore Engineering entitled to the 2% prompt-payment discount on invoice MT-7781?"
_P05_T = "DiscountEntitled(dunmore)"
_P05_FACTS = [fact("f1", "InvoiceIssued(mt7781)", "E-02"),
              fact("f2", "PaymentScheduled(mt7781)", "E-03"),
              fact("f3", "PaymentReceived(mt7781)", "E-04")]
_P05_RULES = [rule("r1", ["PaymentReceivedWithinTenDays(mt7781)"], _P05_T, "E-01")]
CONTRACTS_B += [
    case("cont-011", _P05_Q, _P05_T, _P05, facts=_P05_FACTS, rules=_P05_RULES, status="undecidable",
         contradiction=False, pair="cbc-p05", role="base", tags=["absence_of_proof", "distractor"]),
    case("cont-012", _P05_Q, _P05_T, revise(_P05, add=[frag(
        "E-06", "Mercer Tooling Ltd, bank statement extract, account 4410-2291", None, """
        11/09/2025 | CREDIT | GBP 61,152.00 | DUNMORE ENG MT-7781 | payment received | value date
        11/09/2025""")]),
         facts=_P05_FACTS + [fact("f4", "PaymentReceivedWithinTenDays(mt7781)", "E-06", "E-02")],
         rules=_P05_RULES, status="accepted", contradiction=False, pair="cbc-p05", role="update",
         tags=["distractor", "update:add"]),
]

# --- cont-013: price indexation, fixed-price period disproved, index not evidenced --------------
# r1 (cl. 5.2) index rise above 3% and a written notice -> increase permitted; r2 (cl. 5.1) within
# the fixed-price period -> not permitted.  The buyer's claim that the period is still running
# (f2) is undermined by the strict r3: the effective date is the last signature, 20 June 2024,
# more than twelve months before 1 July 2025.  The supplier's annex uses a national metal-products
# index, not the contractual index (distractor), so r1 has no argument.  Nothing stands on either
# side -> undecidable.
CONTRACTS_B.append(case(
    "cont-013", "Is Ostrava Components entitled to raise its unit prices from 1 July 2025 under the indexation clause?",
    "PriceIncreasePermitted(ostrava)", [
        frag("E-01", "Component Supply Agreement Ostrava Components s.r.o. / Lumen Lighting BV", "cl. 5.1", """
            The prices in Schedule 1 are fixed for the first twelve months after the Effective Date;
            no price increase is permitted during that fixed-price period."""),
        frag("E-02", "Component Supply Agreement Ostrava Components s.r.o. / Lumen Lighting BV", "cl. 5.2", """
            After that period the Supplier may adjust the prices once a year by written notice given
            at least thirty days in advance, if the euro-area producer price index for electrical
            equipment has risen by more than 3% since the last adjustment."""),
        frag("E-03", "Letter, Ostrava Components to Lumen Lighting, 30 May 2025", None, """
            We give written notice under clause 5.2 of a price increase of 6.5% on all Schedule 1
            items from 1 July 2025. Our calculation is annexed."""),
        frag("E-04", "Letter, Lumen Lighting to Ostrava Components, 12 June 2025", None, """
            Prices remain fixed: in our view the fixed-price period under clause 5.1 runs until
            1 September 2025, so no increase can take effect on 1 July."""),
        frag("E-05", "Component Supply Agreement Ostrava Components s.r.o. / Lumen Lighting BV", "Signature page", """
            'Effective Date' means the date of the last signature below. Signed for Ostrava
            Components s.r.o. on 14 June 2024; signed for Lumen Lighting BV on 20 June 2024."""),
        frag("E-06", "Annex to Ostrava's letter of 30 May 2025", None, """
            National producer price index, metal products (2021 = 100): April 2024 112.4, April 2025
            119.7, change +6.5%.""", distractor=True),
    ],
    facts=[fact("f1", "WrittenPriceNotice(ostrava)", "E-03"),
           fact("f2", "WithinFixedPricePeriod(ostrava)", "E-04"),
           fact("f3", "FixedPricePeriodEnded(ostrava)", "E-05", "E-01")],
    rules=[rule("r1", ["IndexRoseAboveThreePercent(ostrava)", "WrittenPriceNotice(ostrava)"],
                "PriceIncreasePermitted(ostrava)", "E-02"),
           rule("r2", ["WithinFixedPricePeriod(ostrava)"], "¬PriceIncreasePermitted(ostrava)", "E-01"),
           rule("r3", ["FixedPricePeriodEnded(ostrava)"], "¬WithinFixedPricePeriod(ostrava)", "E-01",
                kind="strict")],
    status="undecidable", contradiction=True, tags=["undermine", "absence_of_proof", "distractor"]))

# --- cont-014: deemed acceptance, conflicting precedence clauses (priority cycle) --------------
# r1 (MSA cl. 9.3) no rejection within ten business days -> deemed accepted; r2 (SOW s. 6.1) no
# signed certificate -> not accepted.  The MSA says it prevails over any SOW (r1 > r2, hierarchy);
# the SOW says its acceptance procedure prevails over the MSA (r2 > r1, specificity).  The cycle
# is unresolved, both rules lose their comparisons, the rebuttals stay active -> both UNDEC ->
# both.
CONTRACTS_B.append(case(
    "cont-014", "Were the Milestone 2 deliverables accepted by Corbel Insurance?",
    "DeliverablesAccepted(milestone2)", [
        frag("E-01", "Master Services Agreement Fenwick Digital Ltd / Corbel Insurance plc", "cl. 1.4", """
            If this Agreement conflicts with a Statement of Work, this Agreement prevails."""),
        frag("E-02", "Master Services Agreement Fenwick Digital Ltd / Corbel Insurance plc", "cl. 9.3", """
            A deliverable is deemed accepted if the Customer has not notified a material
            non-conformity within ten business days after delivery; no rejection in that period
            means acceptance."""),
        frag("E-03", "Statement of Work No. 2 (Claims Platform Migration)", "s. 0.2 and s. 6.1", """
            0.2 For the deliverables described in this SOW, the acceptance procedure in section 6
            prevails over anything in the MSA. 6.1 A deliverable is accepted only when the Customer's
            project sponsor signs an acceptance certificate; without a signed certificate it is not
            accepted, and silence is not acceptance."""),
        frag("E-04", "Fenwick delivery note DN-2-014", None, """
            Milestone 2 deliverables (data migration scripts v2.3, test evidence pack) uploaded to the
            Corbel project portal on 4 August 2025 at 17:02."""),
        frag("E-05", "Corbel project log, Claims Platform Migration", None, """
            No rejection or non-conformity notice raised within ten business days of delivery
            (4-18 August 2025). Milestone 2 acceptance certificate: no signed certificate - sponsor
            on leave until 1 September."""),
        frag("E-06", "Fenwick invoice FD-2025-117", None, """
            Milestone 2 payment, 30% of the SOW price: GBP 96,000 plus VAT, due 30 days from
            acceptance.""", distractor=True),
    ],
    facts=[fact("f1", "NoRejectionWithinTenDays(milestone2)", "E-04", "E-05"),
           fact("f2", "NoSignedCertificate(milestone2)", "E-05")],
    rules=[rule("r1", ["NoRejectionWithinTenDays(milestone2)"], "DeliverablesAccepted(milestone2)", "E-02"),
           rule("r2", ["NoSignedCertificate(milestone2)"], "¬DeliverablesAccepted(milestone2)", "E-03")],
    priorities=[prio("r1", "r2", "hierarchy", "E-01", note="MSA cl. 1.4: the MSA prevails over an SOW"),
                prio("r2", "r1", "specificity", "E-03", note="SOW s. 0.2: its acceptance procedure prevails")],
    status="both", contradiction=True, tags=["priority_cycle", "rebut", "distractor"]))

# --- cbc-p13: termination fee, uncured material breach, breach notice withdrawn ---------------
# r1 (cl. 21.3) a customer termination notice -> termination fee payable; r3 (cl. 21.1) a breach
# notice and no cure within thirty days -> uncured material breach; r2 (cl. 21.4) an uncured
# material breach excepts r1.  Base: r2 (through r3) undercuts r1; the only path to the fee is OUT
# -> rejected.  Update: the breach notice was withdrawn and is no longer in the file (removed
# fragment); r3 and r2 have no argument, r1 stands -> accepted.
_P13 = [
    frag("E-01", "Warehousing Services Agreement Corran Logistics Ltd / Wexford Grocers plc", "cl. 21.3", """
        The Customer may terminate this Agreement for convenience on ninety days' written notice. On
        any termination by the Customer under this clause 21, a termination fee equal to three months'
        average charges is payable by the Customer."""),
    frag("E-02", "Warehousing Services Agreement Corran Logistics Ltd / Wexford Grocers plc", "cl. 21.1 and 21.4", """
        21.1 Either party may terminate by notice if the other commits a material breach that is not
        cured within thirty days of a written breach notice; such a breach is an uncured material
        breach. 21.4 No termination fee is payable where the Customer terminates after an uncured
        material breach by the Supplier."""),
    frag("E-03", "Letter, Wexford Grocers plc to Corran Logistics Ltd, 2 September 2025", None, """
        Wexford gives notice terminating the Warehousing Services Agreement with effect from
        1 December 2025. This termination notice is served under clause 21."""),
    frag("E-04", "Letter, Wexford Grocers plc to Corran Logistics Ltd, 15 July 2025", None, """
        Breach notice under clause 21.1: stock accuracy at the Naas warehouse fell to 91.4% in Q2
        2025 against the 99.5% required by Schedule 3, a material breach. Please cure it within
        thirty days."""),
    frag("E-05", "Corran Logistics remediation tracker, item RM-44", None, """
        Stock accuracy remediation (Naas): opened 16-07-2025 | thirty-day cure period ended
        14-08-2025 | status at 01-09-2025: OPEN, not cured, accuracy 93.0%"""),
    frag("E-06", "Warehousing Services Agreement Corran Logistics Ltd / Wexford Grocers plc", "cl. 23.2", """
        For up to six months after termination the Supplier shall provide reasonable exit assistance
        at the rates in Schedule 5.""", distractor=True),
]
_P13_Q = "Must Wexford Grocers pay Corran Logistics the termination fee?"
_P13_T = "TerminationFeePayable(wexford)"
_P13_RULES = [rule("r1", ["TerminationNoticeServed(wexford)"], _P13_T, "E-01"),
              rule("r2", ["UncuredMaterialBreach(corran)"], "¬applicable(r1)", "E-02"),
              rule("r3", ["BreachNoticeServed(corran)", "NotCuredWithinThirtyDays(corran)"],
                   "UncuredMaterialBreach(corran)", "E-02")]
CONTRACTS_B += [
    case("cont-015", _P13_Q, _P13_T, _P13,
         facts=[fact("f1", "TerminationNoticeServed(wexford)", "E-03"),
                fact("f2", "BreachNoticeServed(corran)", "E-04"),
                fact("f3", "NotCuredWithinThirtyDays(corran)", "E-05")],
         rules=_P13_RULES, status="rejected", contradiction=True, pair="cbc-p13", role="base",
         tags=["undercut", "distractor"]),
    case("cont-016", _P13_Q, _P13_T, revise(_P13, drop=["E-04"]),
         facts=[fact("f1", "TerminationNoticeServed(wexford)", "E-03"),
                fact("f3", "NotCuredWithinThirtyDays(corran)", "E-05")],
         rules=_P13_RULES, status="accepted", contradiction=False, pair="cbc-p13", role="update",
         tags=["distractor", "update:remove"]),
]
