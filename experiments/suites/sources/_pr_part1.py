"""Internal-policy and regulatory scenarios of ``normative-en``, part 1 of 5
(authoring order; see :mod:`experiments.suites.sources.normative_en_pr`)."""

from __future__ import annotations

from ._pr_authoring import _case, _e, _f, _p, _r, _with  # noqa: F401

__all__ = ["SCENARIOS"]

SCENARIOS: list[dict] = []


# --- pr-p01: break-glass access without prior approval (paper Appendix B) --------------------
# r1 (ISP-04 s. 6.1): access to a Restricted system without prior approval is a violation.
# r2 (s. 6.4): break-glass access in a declared emergency is excepted from r1 only when the
# system owner records a retrospective approval within 24 hours.  The line manager's e-mail is
# not the system owner's approval (distractor).  Base: no retrospective approval, r2 never
# applies, r1 stands unchallenged -> accepted.  Update: the owner's record RA-3391 arrives,
# r2 undercuts r1, the only path to the violation is OUT and nothing supports it -> rejected.
_P01 = [
    _e(1, "Information Security Policy ISP-04 v5.2", "s. 6.1", """
        Access to a system classified Restricted, including the PAYCORE production databases,
        requires prior approval by the system owner, recorded in the Access Request Tool before
        the session starts. Any access to a Restricted system without prior approval is a
        policy violation and is reported to the CISO within one working day."""),
    _e(2, "Information Security Policy ISP-04 v5.2", "s. 6.4 (Emergency access)", """
        Where a Severity 1 incident has been declared, an engineer on the incident rota may use
        break-glass access to a Restricted system without prior approval, provided that the
        system owner records a retrospective approval within 24 hours of the start of the
        session. Emergency access that receives a retrospective approval is not treated as a
        violation of s. 6.1; break-glass access that is not approved in this way is handled
        under s. 6.1."""),
    _e(3, "PAM gateway session log PAM-GW01", None, """
        2025-03-14T02:41:07Z session=BG-77120 user=jokafor (J. Okafor) target=paycore-prod-db01
        classification=RESTRICTED mode=break-glass access result=GRANTED |
        2025-03-14T03:58:44Z session=BG-77120 closed by user"""),
    _e(4, "Access Request Tool, search export AR-Q-5531", None, """
        Query run 2025-03-14 11:20 by IAM Operations: requester=jokafor, system=PAYCORE-PROD,
        window 2025-03-13 00:00 to 2025-03-14 02:41 UTC. Result: 0 approvals found; no prior
        approval existed for session BG-77120."""),
    _e(5, "Incident record INC-2291", None, """
        Severity 1 declared 02:19 UTC on 14 March 2025 by the duty manager (payment batch
        stuck, emergency change procedure invoked). J. Okafor, on-call database engineer,
        assigned from the incident rota for week 11."""),
    _e(6, "E-mail, D. Farrell (line manager) to IAM Operations, 14 March 2025 09:12", None, """
        Jo had to get into the payments database overnight to clear the stuck batch. I am
        happy with what she did and approve it from my side. Please close the alert.""",
       distractor=True),
]
_P01_FACTS = [
    _f(1, "RestrictedAccess(okafor)", "E-03"),
    _f(2, "¬PriorApproval(okafor)", "E-04"),
    _f(3, "BreakGlassAccess(okafor)", "E-03"),
    _f(4, "EmergencyDeclared(okafor)", "E-05"),
]
_P01_RULES = [
    _r(1, ["RestrictedAccess(okafor)", "¬PriorApproval(okafor)"], "PolicyViolation(okafor)", "E-01"),
    _r(2, ["BreakGlassAccess(okafor)", "EmergencyDeclared(okafor)", "RetrospectiveApproval(okafor)"],
       "¬applicable(r1)", "E-02"),
]
_P01_PRIO = [_p("r2", "r1", "exception", "E-02", note="s. 6.4 carves emergency access out of s. 6.1")]
_P01_QUERY = ("Was J. Okafor's break-glass session BG-77120 on the PAYCORE production database "
              "on 14 March 2025 a violation of the Information Security Policy?")

SCENARIOS += [
    _case("pol-001", _P01_QUERY, "PolicyViolation(okafor)", _P01,
          facts=_P01_FACTS, rules=_P01_RULES, priorities=_P01_PRIO, status="accepted",
          contradiction=False, pair="pr-p01", role="base",
          tags=["appendix_b", "distractor"]),
    _case("pol-002", _P01_QUERY, "PolicyViolation(okafor)", _with(_P01, _e(
        7, "Access Request Tool, retrospective approval RA-3391", None, """
        Retrospective approval RA-3391 recorded 2025-03-14 10:05 UTC by M. Lindqvist, PAYCORE
        system owner. Session BG-77120 (jokafor, paycore-prod-db01). Justification: Severity 1
        incident INC-2291, stuck payment batch. Reviewed session recording; no data exported.""")),
          facts=[*_P01_FACTS, _f(5, "RetrospectiveApproval(okafor)", "E-07")],
          rules=_P01_RULES, priorities=_P01_PRIO, status="rejected",
          contradiction=True, pair="pr-p01", role="update",
          tags=["appendix_b", "distractor", "undercut", "update:add"]),
]


# --- pr-p02: hotel cap and the high-cost-location annex ---------------------------------------
# r1 (TEP s. 5.3): a night above the standard cap is not reimbursable.  r2 (Annex C): in a listed
# high-cost location a night within the location cap is reimbursable; r2 > r1 by specificity.
# Base: r1's rebuttal of r2 is neutralized, r2's rebuttal of r1 is active -> accepted.
# Update: circular FC-2025-07 suspends Annex C for bookings made after 1 July 2025; the claim
# was booked on 8 July, r3 undercuts r2, r2 is OUT, r1 stands -> rejected.
_P02 = [
    _e(1, "Travel and Expenses Policy TEP-2024", "s. 5.3", """
        Hotel accommodation is reimbursable up to the standard cap of EUR 180 per night,
        excluding breakfast and city tax. The part of a hotel cost above the standard cap is not
        reimbursable, and a claim that exceeds the cap is returned to the traveller."""),
    _e(2, "Travel and Expenses Policy TEP-2024", "Annex C (High-cost locations)", """
        For stays in the high-cost locations listed in this annex (Geneva, London, Oslo, Zurich)
        the standard cap in s. 5.3 is replaced by a location cap of EUR 260 per night. A hotel
        cost within the location cap is reimbursable in full."""),
    _e(3, "Expense claim EXP-2025-08812 (Concur export)", None, """
        Traveller: R. Haddad, Treasury. Hotel Limmatblick, Zurich, 3 nights 14-17 July 2025,
        booked 8 July 2025 via the travel portal, EUR 238 per night. Automatic policy check:
        exceeds standard cap (EUR 180); Zurich is a high-cost location; within location cap
        (EUR 260)."""),
    _e(4, "Travel and Expenses Policy TEP-2024", "s. 5.6", """
        Meals while travelling are covered by the daily allowance for the destination country;
        receipts for meals are not required and individual meals are not reimbursed.""",
       distractor=True),
]
_P02_FACTS = [
    _f(1, "ExceedsStandardCap(exp8812)", "E-03"),
    _f(2, "HighCostLocation(exp8812)", "E-02", "E-03"),
    _f(3, "WithinLocationCap(exp8812)", "E-03"),
]
_P02_RULES = [
    _r(1, ["ExceedsStandardCap(exp8812)"], "¬HotelCostReimbursable(exp8812)", "E-01"),
    _r(2, ["HighCostLocation(exp8812)", "WithinLocationCap(exp8812)"],
       "HotelCostReimbursable(exp8812)", "E-02"),
]
_P02_PRIO = [_p("r2", "r1", "specificity", "E-02",
                note="Annex C replaces the s. 5.3 cap for the listed locations")]
_P02_QUERY = "Is the Zurich hotel cost in expense claim EXP-2025-08812 reimbursable in full?"

SCENARIOS += [
    _case("pol-003", _P02_QUERY, "HotelCostReimbursable(exp8812)", _P02,
          facts=_P02_FACTS, rules=_P02_RULES, priorities=_P02_PRIO, status="accepted",
          contradiction=True, pair="pr-p02", role="base", tags=["rebut", "distractor"]),
    _case("pol-004", _P02_QUERY, "HotelCostReimbursable(exp8812)", _with(_P02, _e(
        5, "Finance circular FC-2025-07, 1 July 2025", None, """
        Pending the annual hotel benchmark review, Annex C of TEP-2024 is suspended for all
        bookings made after 1 July 2025. For stays booked after that date the standard cap of
        s. 5.3 applies in every location until a revised annex is published.""")),
          facts=[*_P02_FACTS, _f(4, "BookedAfterSuspension(exp8812)", "E-03", "E-05")],
          rules=[*_P02_RULES, _r(3, ["BookedAfterSuspension(exp8812)"], "¬applicable(r2)", "E-05")],
          priorities=_P02_PRIO, status="rejected", contradiction=True,
          pair="pr-p02", role="update", tags=["rebut", "undercut", "distractor", "update:add"]),
]


# --- pol-005: working from abroad, an exception with its own exception -------------------------
# r1: working from abroad is a breach.  r2 (s. 7.2): manager-approved stays within the 20-day
# allowance are excepted from r1.  r3 (s. 7.3): s. 7.2 does not apply to export-controlled roles.
# r3 is IN, so r2's undercut is OUT, r1 stands -> accepted.
SCENARIOS.append(_case(
    "pol-005",
    "Did T. Brandt's eleven working days in Lisbon in February 2025 breach the remote work rules "
    "of the Flexible Working Policy?",
    "RemoteWorkBreach(brandt)",
    [
        _e(1, "Flexible Working Policy FWP-3", "s. 7.1", """
            Employees must not work from abroad, that is from outside the country named in their
            employment contract. Working from abroad without authorisation is a breach of the
            remote work provisions of this policy."""),
        _e(2, "Flexible Working Policy FWP-3", "s. 7.2", """
            By way of exception to s. 7.1, an employee may work from abroad for up to 20 working
            days per calendar year where the line manager approved the request in Workday before
            travel and the stay is within the day allowance."""),
        _e(3, "Flexible Working Policy FWP-3", "s. 7.3", """
            Section 7.2 does not apply to an employee whose role gives access to export-controlled
            technical data (roles flagged EC in the HR role register). Such employees may work
            abroad only on a business trip approved by Trade Compliance."""),
        _e(4, "Workday request WD-REM-4410", None, """
            Employee: T. Brandt (emp. 200931). Request type: work from abroad, Lisbon (PT),
            3-17 February 2025, 11 working days. Days used this year including this request: 11,
            within the 20-day allowance. Status: approved by line manager K. Yilmaz on
            29 January 2025."""),
        _e(5, "VPN gateway log vpn-gw2", None, """
            2025-02-03 08:02:51 user=tbrandt src_ip=85.240.x.x geo=PT (abroad) posture=OK
            session=start | 2025-02-14 17:31:09 user=tbrandt geo=PT session=end"""),
        _e(6, "HR role register, extract 2025-02-20", None, """
            T. Brandt - Senior Design Engineer, Radar Systems. Flags: EC (export-controlled
            technical data, ECCN 3E001). Flag set 2023-09-04 by Trade Compliance."""),
        _e(7, "Travel insurance memo TI-12", None, """
            The group travel insurance covers employees on business trips and on approved
            remote working stays abroad of up to 30 days, including medical repatriation.""",
           distractor=True),
    ],
    facts=[
        _f(1, "WorkingFromAbroad(brandt)", "E-04", "E-05"),
        _f(2, "ManagerApproved(brandt)", "E-04"),
        _f(3, "WithinDayAllowance(brandt)", "E-04"),
        _f(4, "ExportControlledRole(brandt)", "E-06"),
    ],
    rules=[
        _r(1, ["WorkingFromAbroad(brandt)"], "RemoteWorkBreach(brandt)", "E-01"),
        _r(2, ["ManagerApproved(brandt)", "WithinDayAllowance(brandt)"], "¬applicable(r1)", "E-02"),
        _r(3, ["ExportControlledRole(brandt)"], "¬applicable(r2)", "E-03"),
    ],
    priorities=[
        _p("r2", "r1", "exception", "E-02", note="s. 7.2 'by way of exception to s. 7.1'"),
        _p("r3", "r2", "exception", "E-03", note="s. 7.3 'Section 7.2 does not apply'"),
    ],
    status="accepted", contradiction=True,
    tags=["undercut", "nested_exception", "distractor"],
))


# --- pol-006: three retention instruments that each claim to prevail ---------------------------
# r1 (schedule) and r3 (data minimisation) require deletion, r2 (legal hold) forbids it.  The
# documents claim r2 > r1, r3 > r2 and r1 > r3: a cycle, so all three lose every comparison and
# the rebuttals between r2 and r1/r3 stay active and mutual -> every argument UNDEC -> both.
SCENARIOS.append(_case(
    "pol-006",
    "Must the Q1 2023 batch of customer support call recordings be deleted now?",
    "DeletionRequired(batch23q1)",
    [
        _e(1, "Records Management Policy RM-2 (2021)", "Schedule A, row 14; s. 1.4", """
            Row 14 - customer support call recordings: retain for 24 months from the call date,
            then deletion is required. s. 1.4: where a retention period in Schedule A conflicts
            with any other internal standard, Schedule A prevails."""),
        _e(2, "Legal Hold Notice LH-2024-03, General Counsel, 9 October 2024", None, """
            All records relating to the Meridian Freight dispute, including call recordings of
            the Meridian account team from 2022 and 2023, are under legal hold and must be
            preserved. This hold overrides any retention schedule and suspends every deletion
            requirement; no deletion is permitted until
            the hold is released in writing."""),
        _e(3, "Data Minimisation Standard DMS-1 (Data Protection Officer, March 2025)", "s. 4.2", """
            Call recordings found to contain full card numbers (PAN) captured in error must be
            deleted within 30 days of discovery. This requirement applies notwithstanding any
            legal hold, because retaining card data breaches our PCI DSS obligations."""),
        _e(4, "Records inventory, Contact Centre, run 2025-04-07", None, """
            Batch 23Q1: 41,206 call recordings dated 2 January - 31 March 2023. Age at run date:
            older than 24 months (retention period expired). Includes 1,312 recordings of the
            Meridian account team, under legal hold per LH-2024-03."""),
        _e(5, "PCI scan report PCI-SCAN-0419, 19 April 2025", None, """
            Speech-analytics scan of batch 23Q1 found card numbers (PAN, Luhn-valid) spoken in
            212 recordings, of which 37 belong to the Meridian account team. Discovery date
            19 April 2025."""),
    ],
    facts=[
        _f(1, "RetentionPeriodExpired(batch23q1)", "E-04"),
        _f(2, "UnderLegalHold(batch23q1)", "E-02", "E-04"),
        _f(3, "ContainsCardNumbers(batch23q1)", "E-05"),
    ],
    rules=[
        _r(1, ["RetentionPeriodExpired(batch23q1)"], "DeletionRequired(batch23q1)", "E-01"),
        _r(2, ["UnderLegalHold(batch23q1)"], "¬DeletionRequired(batch23q1)", "E-02"),
        _r(3, ["ContainsCardNumbers(batch23q1)"], "DeletionRequired(batch23q1)", "E-03"),
    ],
    priorities=[
        _p("r2", "r1", "authority", "E-02", note="the hold 'overrides any retention schedule'"),
        _p("r3", "r2", "specificity", "E-03", note="DMS-1 'applies notwithstanding any legal hold'"),
        _p("r1", "r3", "hierarchy", "E-01", note="RM-2 s. 1.4 'Schedule A prevails'"),
    ],
    status="both", contradiction=True, tags=["rebut", "priority_cycle"],
))


# --- pr-p03: a CAB approval contradicted by the pipeline log -----------------------------------
# r1: a production change approved by the CAB before deployment is authorised.  The ticket says
# it was approved first (f1); the pipeline log puts the deployment start before the approval, so
# r2 concludes the complement of f1 and undermines it.  f1 rebuts r2 back (a fact: never
# neutralized), the undermine of a bare fact cannot be neutralized either: f1, r2 and r1 are all
# UNDEC -> both.  Update: incident review IR-2025-061 shows the runner's clock ran 58 minutes
# slow; r3 undercuts r2, f1 and r1 are IN -> accepted.
_P03 = [
    _e(1, "Change Management Standard CMS-2", "s. 3.1", """
        A change to a production system is an authorised change only if the Change Advisory
        Board (CAB) approved it before deployment started. Emergency changes follow s. 3.4."""),
    _e(2, "ServiceNow change ticket CHG-5521 (export 2025-05-12)", None, """
        Service: ledger-api (production). Type: normal change. CAB decision: approved by e-vote
        closing 2025-05-09 01:40 UTC, approved before deployment (implementer's entry:
        implementation started 02:14 UTC). State: Implemented, closed successful."""),
    _e(3, "Internal Audit extract of the deployment pipeline log, job #88412", None, """
        2025-05-09T00:52:13Z runner=ci-runner-07 job=88412 env=prod service=ledger-api
        change=CHG-5521 deployment started | 2025-05-09T01:07:55Z job=88412 status=SUCCESS.
        Auditor's note: the deployment start precedes the CAB approval time (01:40) recorded
        on CHG-5521 by 48 minutes."""),
    _e(4, "Internal Audit working paper IA-25-014", "Test 6", """
        Where the pipeline log shows that deployment started before the CAB approval time, audit
        treats the change as not approved before deployment, whatever the ticket states."""),
]
_P03_FACTS = [
    _f(1, "ApprovedBeforeDeployment(chg5521)", "E-02"),
    _f(2, "ProductionChange(chg5521)", "E-02"),
    _f(3, "DeploymentStartPrecedesApproval(chg5521)", "E-03"),
]
_P03_RULES = [
    _r(1, ["ProductionChange(chg5521)", "ApprovedBeforeDeployment(chg5521)"],
       "AuthorisedChange(chg5521)", "E-01"),
    _r(2, ["DeploymentStartPrecedesApproval(chg5521)"], "¬ApprovedBeforeDeployment(chg5521)", "E-04"),
]
_P03_QUERY = "Was production change CHG-5521 to ledger-api an authorised change under CMS-2?"

SCENARIOS += [
    _case("pol-007", _P03_QUERY, "AuthorisedChange(chg5521)", _P03,
          facts=_P03_FACTS, rules=_P03_RULES, status="both", contradiction=True,
          pair="pr-p03", role="base", tags=["undermine"]),
    _case("pol-008", _P03_QUERY, "AuthorisedChange(chg5521)", _with(_P03, _e(
        5, "Incident review IR-2025-061 (Site Reliability Engineering)", "Finding 2", """
        The build runner ci-runner-07 ran with NTP disabled after an image rebuild; its clock was
        58 minutes slow between 3 and 12 May 2025. Timestamps written by this runner in that
        period are unreliable and must not be used to establish the order of events.""")),
          facts=[*_P03_FACTS, _f(4, "RunnerClockUnreliable(chg5521)", "E-03", "E-05")],
          rules=[*_P03_RULES, _r(3, ["RunnerClockUnreliable(chg5521)"], "¬applicable(r2)", "E-05")],
          status="accepted", contradiction=True, pair="pr-p03", role="update",
          tags=["undermine", "undercut", "nested_exception", "update:add"]),
]


# --- pol-009: a gift of unknown value ---------------------------------------------------------
# r1 needs the value to exceed EUR 100; nothing in the package states the value of the Classic
# hamper (the catalogue prices a different product, the hospitality rule is about meals).  No
# argument for the declaration duty or against it -> undecidable.
SCENARIOS.append(_case(
    "pol-009",
    "Must A. Moreau declare the hamper received from Nordvik Packaging in the Gifts Register?",
    "DeclarationRequired(hamper)",
    [
        _e(1, "Gifts and Hospitality Policy GHP-2", "s. 4.1", """
            A gift received from a supplier or prospective supplier with a value above EUR 100
            must be declared in the Gifts Register within five working days of receipt. The
            declaration requirement applies whether or not the gift is kept."""),
        _e(2, "Reception delivery log, Building C", None, """
            2025-12-16 10:47 - courier DPD, parcel 0934-118 - 'Classic hamper' from Nordvik
            Packaging (supplier no. 40771) for A. Moreau, Procurement - gift card enclosed -
            collected 11:05."""),
        _e(3, "Letter, Nordvik Packaging to A. Moreau, 12 December 2025", None, """
            As the year closes we would like to thank you for the excellent cooperation on the
            corrugated packaging tender. Please accept this small token of appreciation."""),
        _e(4, "Nordvik Packaging corporate gifts catalogue 2025", "p. 3", """
            Premium hamper - Champagne, smoked salmon, Belgian chocolates - EUR 145.
            Seasonal selection, available November to January.""", distractor=True),
        _e(5, "Gifts and Hospitality Policy GHP-2", "s. 5.2", """
            Hospitality such as meals, tickets or event invitations above EUR 150 per person must
            be approved by the line manager before it is accepted.""", distractor=True),
    ],
    facts=[_f(1, "GiftFromSupplier(hamper)", "E-02", "E-03")],
    rules=[_r(1, ["GiftFromSupplier(hamper)", "ValueAbove100(hamper)"], "DeclarationRequired(hamper)", "E-01")],
    status="undecidable", contradiction=False, tags=["absence_of_proof", "distractor"],
))
