"""Internal-policy (``pol-NNN``) and regulatory (``reg-NNN``) scenarios of ``normative-en``.

Hand-written in plain professional English; the institutions, people,
documents and section numbers are fictional.  The authoring format is the
docstring of :mod:`experiments.suites.sources`: this module defines
``SCENARIOS``, a list of plain JSON-compatible dicts in the
:class:`symbolic.model.Scenario` schema without ``gold.trace``.  The helpers
below only assemble those dicts; each scenario's reasoning is written next to
it as a comment (what stands, what is attacked, why the status follows under
SEMANTICS.md section 7).

Update pairs (``metadata.pair`` ``pr-pNN``) share their fragments: the update
package is the base package with fragments added (next free id), removed (the
id is left as a gap) or amended (same id).
"""

from __future__ import annotations

__all__ = ["SCENARIOS"]


def _e(num, source, clause, text, distractor=False):
    """Fragment ``E-<num>``; ``text`` is re-flowed onto one line.

    >>> _e(3, "Memo", None, '''Two
    ...     lines.''')["id"], _e(3, "Memo", None, "x")["tags"]
    ('E-03', [])
    """
    return {"id": f"E-{num:02d}", "text": " ".join(text.split()), "source": source,
            "clause": clause, "tags": ["distractor"] if distractor else []}


def _f(num, literal, *evidence):
    """Gold fact ``f<num>`` grounded in ``evidence``."""
    return {"id": f"f{num}", "literal": literal, "evidence": list(evidence)}


def _r(num, antecedents, consequent, *evidence, kind="defeasible"):
    """Gold rule ``r<num>: antecedents => consequent``."""
    return {"id": f"r{num}", "antecedents": list(antecedents), "consequent": consequent,
            "kind": kind, "evidence": list(evidence)}


def _p(stronger, weaker, basis, *evidence, note=None):
    """Gold priority ``stronger > weaker`` on ``basis``."""
    return {"stronger": stronger, "weaker": weaker, "basis": basis,
            "evidence": list(evidence), "note": note}


def _case(ident, query, target, evidence, *, facts, rules, status, tags,
          priorities=(), attacks=(), contradiction, pair=None, role=None):
    """One scenario dict; the domain follows the id prefix, ``priority`` the priorities."""
    domain = "internal_policies" if ident.startswith("pol-") else "regulatory"
    return {
        "id": ident,
        "query": query,
        "target": target,
        "evidence": list(evidence),
        "gold": {"facts": list(facts), "rules": list(rules), "attacks": list(attacks),
                 "priorities": list(priorities), "status": status},
        "metadata": {"domain": domain, "contradiction": contradiction,
                     "priority": bool(priorities), "pair": pair, "role": role,
                     "tags": sorted(tags)},
    }


def _with(evidence, *extra):
    """An update package: the base fragments followed by the added ones."""
    return [*evidence, *extra]


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


# --- pr-p04: approval authority after a conflict of interest ----------------------------------
# r1: a personal relationship with the supplier bars approval; r2 (COI s. 6.2): a relationship
# that ended more than 24 months ago, confirmed by Compliance, no longer counts -> r2 undercuts
# r1.  Base: the only argument (against) is OUT and nothing grants approval authority
# -> undecidable.  Update: the delegation-of-authority matrix is added; r3 grants authority and
# its argument is IN (its only attacker, r1, is OUT) -> accepted.
_P04 = [
    _e(1, "Procurement Policy PP-5", "s. 2.4", """
        An employee may not approve a purchase order for a supplier with which he or she has a
        close personal relationship, including a relationship with a director of the supplier.
        The purchase must be approved by the next level of authority instead."""),
    _e(2, "Conflict of interest declaration COI-0412, 14 March 2022", None, """
        Declarant: L. Vance, Regional Logistics Manager North. Supplier: Baltic Freight Solutions
        SIA. Nature of personal relationship with supplier: family - brother-in-law is a director
        of the supplier."""),
    _e(3, "Conflict of Interest Policy COI-1", "s. 6.2", """
        A declared relationship ceases to count for the purposes of any approval restriction
        24 months after it ended, once the Compliance Officer has confirmed the end date in
        writing."""),
    _e(4, "Compliance Officer file note, 20 January 2025", None, """
        COI-0412 (L. Vance): the brother-in-law resigned as director of Baltic Freight Solutions
        on 30 November 2022 (registry filing 2022/11/8812). The relationship ended more than
        24 months ago and ceased to count on 30 November 2024. Declaration closed."""),
    _e(5, "Purchase order PO-7731", None, """
        Supplier: Baltic Freight Solutions SIA. Scope: cross-dock handling Q2 2025. Amount
        EUR 32,400 (excl. VAT). Requested approver: L. Vance, Regional Logistics Manager
        North."""),
]
_P04_FACTS = [
    _f(1, "PersonalRelationshipWithSupplier(vance)", "E-02", "E-05"),
    _f(2, "RelationshipEndedOver24Months(vance)", "E-04"),
]
_P04_RULES = [
    _r(1, ["PersonalRelationshipWithSupplier(vance)"], "¬MayApprovePurchase(vance)", "E-01"),
    _r(2, ["RelationshipEndedOver24Months(vance)"], "¬applicable(r1)", "E-03"),
]
_P04_QUERY = "May L. Vance approve purchase order PO-7731 for Baltic Freight Solutions?"

SCENARIOS += [
    _case("pol-010", _P04_QUERY, "MayApprovePurchase(vance)", _P04,
          facts=_P04_FACTS, rules=_P04_RULES, status="undecidable", contradiction=True,
          pair="pr-p04", role="base", tags=["undercut", "absence_of_proof"]),
    _case("pol-011", _P04_QUERY, "MayApprovePurchase(vance)", _with(_P04, _e(
        6, "Delegation of Authority Matrix DOA-2025", "row 3.2", """
        Purchase orders for logistics services: a Regional Logistics Manager may approve a
        purchase up to EUR 50,000 within the approved budget; above EUR 50,000 the Head of
        Supply Chain approves.""")),
          facts=[*_P04_FACTS, _f(3, "RegionalLogisticsManager(vance)", "E-02", "E-05"),
                 _f(4, "WithinApprovalLimit(vance)", "E-05", "E-06")],
          rules=[*_P04_RULES, _r(3, ["RegionalLogisticsManager(vance)", "WithinApprovalLimit(vance)"],
                                 "MayApprovePurchase(vance)", "E-06")],
          status="accepted", contradiction=True, pair="pr-p04", role="update",
          tags=["rebut", "undercut", "update:add"]),
]


# --- pr-p05: bonus withheld during a disciplinary investigation (a defeater) -------------------
# r1 (AIP s. 4.1): a rating of Meets or above makes the employee bonus eligible.  r2 (s. 4.6)
# only allows the committee to withhold: a defeater against eligibility, stated to override
# s. 4.1 (r2 > r1).  Base: the defeater's attack on r1 is active, r1's rebuttal of the defeater
# is neutralized; the defeater is IN, r1 is OUT -> rejected (no support, something against).
# Update: the re-issued case extract shows the case closed before the payment date; r2 no
# longer applies, r1 stands alone -> accepted.
_P05_HEAD = [
    _e(1, "Annual Incentive Plan AIP-2025", "s. 4.1", """
        An employee whose performance for the plan year is rated Meets or above is bonus
        eligible, subject to the remaining provisions of this section."""),
    _e(2, "Annual Incentive Plan AIP-2025", "s. 4.6", """
        Where a disciplinary investigation concerning the employee is open on the payment date
        (31 March), the Remuneration Committee may withhold the bonus, and need not treat the
        employee as bonus eligible, until the investigation concludes. This discretion
        overrides s. 4.1."""),
    _e(3, "Performance review record, plan year 2024", None, """
        Employee: C. Ruiz, Key Account Manager. Final calibrated rating: Exceeds (rated above
        Meets). Calibration panel 21 January 2025."""),
]
_P05_TAIL = [
    _e(5, "Annual Incentive Plan AIP-2025", "s. 4.3", """
        Employees who joined during the plan year receive a bonus pro-rated by full months of
        service; part-time employees are pro-rated by contractual hours.""", distractor=True),
]
_P05_OPEN = _e(4, "HR case management extract, run 31 March 2025", None, """
    Case ER-2025-118 - employee C. Ruiz - disciplinary investigation (allegation: personal use
    of the corporate card) - opened 3 February 2025 - status on payment date: OPEN - next step:
    investigation hearing 9 April 2025.""")
_P05_CLOSED = _e(4, "HR case management extract, re-issued 31 March 2025", None, """
    Case ER-2025-118 - employee C. Ruiz - disciplinary investigation (allegation: personal use
    of the corporate card) - opened 3 February 2025 - closed 14 March 2025, outcome: no case to
    answer (charges were business expenses booked to the wrong cost code). Correction: the
    extract issued earlier today showed the case as open in error.""")
_P05_RULES = [
    _r(1, ["RatedMeetsOrAbove(ruiz)"], "BonusEligible(ruiz)", "E-01"),
    _r(2, ["DisciplinaryInvestigationOpen(ruiz)"], "¬BonusEligible(ruiz)", "E-02", kind="defeater"),
]
_P05_PRIO = [_p("r2", "r1", "exception", "E-02", note="s. 4.6 'This discretion overrides s. 4.1'")]
_P05_QUERY = "Is C. Ruiz bonus eligible under AIP-2025 for plan year 2024?"

SCENARIOS += [
    _case("pol-012", _P05_QUERY, "BonusEligible(ruiz)", [*_P05_HEAD, _P05_OPEN, *_P05_TAIL],
          facts=[_f(1, "RatedMeetsOrAbove(ruiz)", "E-03"),
                 _f(2, "DisciplinaryInvestigationOpen(ruiz)", "E-04")],
          rules=_P05_RULES, priorities=_P05_PRIO, status="rejected", contradiction=True,
          pair="pr-p05", role="base", tags=["defeater", "rebut", "distractor"]),
    _case("pol-013", _P05_QUERY, "BonusEligible(ruiz)", [*_P05_HEAD, _P05_CLOSED, *_P05_TAIL],
          facts=[_f(1, "RatedMeetsOrAbove(ruiz)", "E-03"),
                 _f(2, "¬DisciplinaryInvestigationOpen(ruiz)", "E-04")],
          rules=_P05_RULES, priorities=_P05_PRIO, status="accepted", contradiction=False,
          pair="pr-p05", role="update", tags=["defeater", "distractor", "update:amend"]),
]


# --- pr-p06: an unapproved SaaS tool, two independent paths ------------------------------------
# Path A: r1 customer data -> DPIA required; r2 DPIA required and none completed -> unapproved.
# Path B: r3 a failed security review -> unapproved.  Base: both paths IN -> accepted.
# Update: the DPO's pilot waiver (r4) undercuts r2; path A is OUT but path B still stands and
# nothing argues against the target -> accepted again (one path lost, status unchanged).
_P06 = [
    _e(1, "Software Approval Standard SAS-1", "s. 2.1", """
        A SaaS tool that processes customer personal data requires a completed Data Protection
        Impact Assessment (DPIA) before it is used."""),
    _e(2, "Software Approval Standard SAS-1", "s. 2.3", """
        A SaaS tool for which a required DPIA has not been completed is unapproved software and
        must be removed from company devices. A tool that has failed the security review is
        likewise unapproved software until a re-review is passed."""),
    _e(3, "Vendor questionnaire, NoteWise AI (received 2 June 2025)", "Q14-Q16", """
        Q14: The service records and transcribes meetings, including customer calls. Q15: Stored
        data includes customer names, e-mail addresses and voice recordings (customer personal
        data). Q16: Data is hosted in eu-central-1."""),
    _e(4, "DPIA register, extract 2025-06-30", None, """
        Search 'NoteWise': no DPIA record. Open DPIAs in Sales: CRM migration (draft), call
        analytics (in review). No DPIA completed for NoteWise."""),
    _e(5, "Security review register", "SR-2025-144", """
        NoteWise AI - review date 18 June 2025 - result: security review failed (no SSO/SAML
        support; shared admin account; no audit log export). Re-review not requested."""),
    _e(6, "Sales enablement newsletter, June 2025", None, """
        Several account teams are trialling AI note-takers. Early feedback is positive: reps
        save about 40 minutes a day on call notes.""", distractor=True),
]
_P06_FACTS = [
    _f(1, "ProcessesCustomerPersonalData(notewise)", "E-03"),
    _f(2, "¬DpiaCompleted(notewise)", "E-04"),
    _f(3, "SecurityReviewFailed(notewise)", "E-05"),
]
_P06_RULES = [
    _r(1, ["ProcessesCustomerPersonalData(notewise)"], "DpiaRequired(notewise)", "E-01"),
    _r(2, ["DpiaRequired(notewise)", "¬DpiaCompleted(notewise)"], "UnapprovedSoftware(notewise)", "E-02"),
    _r(3, ["SecurityReviewFailed(notewise)"], "UnapprovedSoftware(notewise)", "E-02"),
]
_P06_QUERY = "Is NoteWise AI unapproved software under the Software Approval Standard?"

SCENARIOS += [
    _case("pol-014", _P06_QUERY, "UnapprovedSoftware(notewise)", _P06,
          facts=_P06_FACTS, rules=_P06_RULES, status="accepted", contradiction=False,
          pair="pr-p06", role="base", tags=["multi_step", "distractor"]),
    _case("pol-015", _P06_QUERY, "UnapprovedSoftware(notewise)", _with(_P06, _e(
        7, "Data Protection Officer decision DPO-W-2025-09, 4 July 2025", None, """
        NoteWise AI is admitted to the low-risk pilot category for 60 days (ten named users,
        no recording of calls with consumers). During the pilot the DPIA requirement of SAS-1
        is waived and the missing DPIA does not make the tool unapproved software.""")),
          facts=[*_P06_FACTS, _f(4, "LowRiskPilotWaiver(notewise)", "E-07")],
          rules=[*_P06_RULES, _r(4, ["LowRiskPilotWaiver(notewise)"], "¬applicable(r2)", "E-07")],
          status="accepted", contradiction=True, pair="pr-p06", role="update",
          tags=["multi_step", "undercut", "distractor", "update:add"]),
]


# --- pr-p07: USB copying under a superseded and a superseding standard -------------------------
# Base: DHS v3 s. 5.2 (r1) permits Internal data on company encrypted drives; the file is labelled
# Internal (the Confidential rule is a distractor) -> accepted.  Update: DHS v4 (in force 1 May
# 2025, before the copy) prohibits any copy to removable media (r2); r2 > r1 as the later
# version; r1's rebuttal of r2 is neutralized, r2's is active -> rejected.
_P07 = [
    _e(1, "Data Handling Standard DHS v3 (effective 1 January 2023)", "s. 5.2", """
        Information classified Internal may be copied to a company-issued encrypted USB drive
        registered in the asset inventory. USB transfer of Internal information to any other
        device is not permitted."""),
    _e(2, "Endpoint DLP event log, host LT-4471", None, """
        2025-06-11 16:22:09 DLP-EP user=akowalski action=COPY dest=USB removable media
        device='Kingston IronKey D300' asset=CA-10923 (company-issued, encrypted)
        file=Q3_pricing_model.xlsx label=INTERNAL policy_action=ALLOW_AND_LOG"""),
    _e(3, "Data Handling Standard DHS v3 (effective 1 January 2023)", "s. 5.5", """
        Information classified Confidential or Secret must never be copied to removable media,
        whether encrypted or not.""", distractor=True),
]
_P07_FACTS = [
    _f(1, "InternalClassification(kowalski)", "E-02"),
    _f(2, "CompanyEncryptedUsb(kowalski)", "E-02"),
]
_P07_R1 = _r(1, ["InternalClassification(kowalski)", "CompanyEncryptedUsb(kowalski)"],
             "UsbTransferPermitted(kowalski)", "E-01")
_P07_QUERY = ("Was A. Kowalski permitted to copy Q3_pricing_model.xlsx to the encrypted company "
              "USB drive on 11 June 2025?")

SCENARIOS += [
    _case("pol-016", _P07_QUERY, "UsbTransferPermitted(kowalski)", _P07,
          facts=_P07_FACTS, rules=[_P07_R1], status="accepted", contradiction=False,
          pair="pr-p07", role="base", tags=["distractor"]),
    _case("pol-017", _P07_QUERY, "UsbTransferPermitted(kowalski)", _with(_P07, _e(
        4, "Data Handling Standard DHS v4 (effective 1 May 2025)", "s. 5.2", """
        Copying information of any classification to removable media, including company-issued
        encrypted USB drives, is prohibited; USB transfer is not permitted for any label. Use the
        managed file transfer service. This version supersedes DHS v3 in full.""")),
          facts=[*_P07_FACTS, _f(3, "RemovableMediaCopy(kowalski)", "E-02")],
          rules=[_P07_R1, _r(2, ["RemovableMediaCopy(kowalski)"], "¬UsbTransferPermitted(kowalski)", "E-04")],
          priorities=[_p("r2", "r1", "temporal", "E-04", note="v4 of 1 May 2025 supersedes v3")],
          status="rejected", contradiction=True, pair="pr-p07", role="update",
          tags=["rebut", "distractor", "update:add"]),
]


# --- pol-018: outside work for a competitor, a manager's right to object (defeater) ------------
# r1: notified outside employment is permitted.  r2 (s. 9.3): a manager may object to work for a
# competitor - a defeater; the code leaves the outcome to HR and ranks neither section above the
# other, so there is no priority.  r2 attacks r1 and r1 rebuts r2: both UNDEC -> both.  The manager's chat message is not a recorded objection (distractor).
SCENARIOS.append(_case(
    "pol-018",
    "Is P. Lindgren's weekend work for Fjordline Analytics permitted outside employment?",
    "OutsideEmploymentPermitted(lindgren)",
    [
        _e(1, "Code of Conduct (2024 edition)", "s. 9.1", """
            Employees may take up outside employment after notifying HR in writing, provided that
            it does not interfere with their working hours. Outside employment notified in this
            way is permitted."""),
        _e(2, "Code of Conduct (2024 edition)", "s. 9.3", """
            A line manager may object to outside employment with a competitor or a customer of
            the company. An objection must be recorded in Workday with reasons; HR then decides
            whether the outside employment may continue."""),
        _e(3, "HR notification form OE-2025-031", None, """
            Employee: P. Lindgren, Data Scientist, Routing team. Outside employment: data analyst
            for Fjordline Analytics AS, weekends only, up to 8 hours per week. Notified to HR on
            3 March 2025; acknowledged by HR Services 4 March 2025."""),
        _e(4, "Strategy deck 'Competitive landscape 2025', slide 7", None, """
            Fjordline Analytics AS: direct competitor in route-optimisation software for
            mid-sized carriers; won 3 of the 5 Nordic tenders we lost in 2024."""),
        _e(5, "Teams chat, K. Aas (line manager) to P. Lindgren, 5 March 2025", None, """
            Saw the HR note about Fjordline. Not thrilled, to be honest - let's talk about it at
            our next 1:1.""", distractor=True),
    ],
    facts=[
        _f(1, "OutsideEmploymentNotified(lindgren)", "E-03"),
        _f(2, "EmployerIsCompetitor(lindgren)", "E-03", "E-04"),
    ],
    rules=[
        _r(1, ["OutsideEmploymentNotified(lindgren)"], "OutsideEmploymentPermitted(lindgren)", "E-01"),
        _r(2, ["EmployerIsCompetitor(lindgren)"], "¬OutsideEmploymentPermitted(lindgren)", "E-02",
           kind="defeater"),
    ],
    status="both", contradiction=True, tags=["defeater", "rebut", "distractor"],
))


# --- pol-019: an LMS completion voided by the minimum engagement rule --------------------------
# r1: completing the annual AML course makes the employee training compliant.  The LMS records a
# completion (f1), but s. 3.4 makes a completion with under 10 minutes in the module invalid
# (strict r2).  The strict argument undermines f1; a bare fact cannot rebut a strict argument,
# so f1 and r1 are OUT; nothing supports compliance -> rejected.
SCENARIOS.append(_case(
    "pol-019",
    "Is H. Nakamura training compliant for the 2025 annual anti-money-laundering course?",
    "TrainingCompliant(nakamura)",
    [
        _e(1, "Mandatory Training Policy MTP-4", "s. 2.1", """
            An employee who has completed the annual anti-money-laundering e-learning course
            by 30 November is training compliant for the year."""),
        _e(2, "Mandatory Training Policy MTP-4", "s. 3.4", """
            A course completion recorded with less than the minimum engagement time of 10 minutes
            in the module is invalid and does not count as completed; the employee must retake
            the course."""),
        _e(3, "LMS transcript export, 28 November 2025", None, """
            User hnakamura - course AML-2025-EN - status: Completed 2025-11-27 22:48 -
            assessment score 90% - certificate C-88213 issued."""),
        _e(4, "LMS activity log, course AML-2025-EN", None, """
            2025-11-27 22:45:32 hnakamura module_open | 2025-11-27 22:46:10 quiz_start |
            2025-11-27 22:48:13 quiz_submit score=9/10 | time_in_module=00:02:41 (below minimum
            engagement time)"""),
        _e(5, "Compliance bulletin 11/2025", None, """
            Reminder: the sanctions screening refresher is due by 15 December 2025 for all
            client-facing staff.""", distractor=True),
    ],
    facts=[
        _f(1, "CourseCompleted(nakamura)", "E-03"),
        _f(2, "BelowMinimumEngagementTime(nakamura)", "E-04"),
    ],
    rules=[
        _r(1, ["CourseCompleted(nakamura)"], "TrainingCompliant(nakamura)", "E-01"),
        _r(2, ["BelowMinimumEngagementTime(nakamura)"], "¬CourseCompleted(nakamura)", "E-02",
           kind="strict"),
    ],
    status="rejected", contradiction=True, tags=["undermine", "distractor"],
))


# --- pr-p08: a breach notified after 72 hours ----------------------------------------------------
# r1 (s. 33(1)): notification after 72 hours is late.  r2 (s. 33(4)): the duty does not apply when
# the breach is unlikely to result in a risk; the DPO's assessment (f2) says so.  Base: r2 IN,
# r1 OUT, nothing else supports lateness -> rejected.  Update: the forensic note shows the
# recovery key was stolen with the laptop; r3 concludes the complement of f2 and undermines it;
# f2 rebuts r3 back; f2, r3, r2 and r1 end UNDEC -> both.
_R01 = [
    _e(1, "Data Protection Act 2021", "s. 33(1)", """
        A controller that becomes aware of a personal data breach must notify the Information
        Commissioner without undue delay and in any event within 72 hours of becoming aware of
        it. A notification made after that period is a late notification and must be
        accompanied by reasons for the delay."""),
    _e(2, "Data Protection Act 2021", "s. 33(4)", """
        Subsection (1) does not apply where the personal data breach is unlikely to result in a
        risk to the rights and freedoms of individuals."""),
    _e(3, "Incident timeline, Dunmore Housing Association, breach BR-25-006", None, """
        02/04/2025 09:15 DPO informed of laptop theft from staff car (tenant arrears data) - aware.
        05/04/2025 17:40 notification submitted to the Information Commissioner, reference
        ICO-0078812: notified after 72 hours (80 h 25 min after becoming aware)."""),
    _e(4, "DPO risk assessment RA-17, 3 April 2025", None, """
        Device encrypted with full-disk encryption (XTS-AES 256), powered off when stolen. Data is
        unintelligible to any person without the key. Conclusion: the breach is unlikely to
        result in a risk to tenants."""),
    _e(5, "Data Protection Act 2021", "s. 34(1)", """
        Where a personal data breach is likely to result in a high risk to individuals, the
        controller must also communicate the breach to the data subjects without undue delay.""",
       distractor=True),
]
_R01_FACTS = [
    _f(1, "NotifiedAfter72Hours(dunmore)", "E-03"),
    _f(2, "UnlikelyToResultInRisk(dunmore)", "E-04"),
]
_R01_RULES = [
    _r(1, ["NotifiedAfter72Hours(dunmore)"], "LateNotification(dunmore)", "E-01"),
    _r(2, ["UnlikelyToResultInRisk(dunmore)"], "¬applicable(r1)", "E-02"),
]
_R01_PRIO = [_p("r2", "r1", "exception", "E-02", note="s. 33(4) 'Subsection (1) does not apply'")]
_R01_QUERY = "Did Dunmore Housing Association make a late breach notification for breach BR-25-006?"

SCENARIOS += [
    _case("reg-001", _R01_QUERY, "LateNotification(dunmore)", _R01,
          facts=_R01_FACTS, rules=_R01_RULES, priorities=_R01_PRIO, status="rejected",
          contradiction=True, pair="pr-p08", role="base", tags=["undercut", "distractor"]),
    _case("reg-002", _R01_QUERY, "LateNotification(dunmore)", _with(_R01, _e(
        6, "Forensic note FN-25-011 (external examiner), 22 April 2025", None, """
        Police report CR/2291/25 lists a printed card with the BitLocker recovery key in the
        laptop bag taken with the device. Because the recovery key was stolen with the laptop,
        the encryption gave no protection and the breach cannot be treated as unlikely to
        result in a risk to tenants.""")),
          facts=[*_R01_FACTS, _f(3, "RecoveryKeyStolen(dunmore)", "E-06")],
          rules=[*_R01_RULES, _r(3, ["RecoveryKeyStolen(dunmore)"], "¬UnlikelyToResultInRisk(dunmore)", "E-06")],
          priorities=_R01_PRIO, status="both", contradiction=True, pair="pr-p08", role="update",
          tags=["undercut", "undermine", "distractor", "update:add"]),
]


# --- reg-003: the right to withdraw and personalised goods ----------------------------------
# r1: a distance contract carries a right to withdraw; r2: none for clearly personalised goods;
# r2 > r1 by specificity.  r2's rebuttal is active, r1's is neutralized -> rejected.
SCENARIOS.append(_case(
    "reg-003",
    "Does the customer have a right to withdraw from web order A-55120 for the engraved watch?",
    "WithdrawalRight(a55120)",
    [
        _e(1, "Consumer Protection (Distance Sales) Regulations 2016", "reg. 29(1)", """
            A consumer who concludes a distance contract has a right to withdraw from it within
            14 days of delivery without giving any reason and without incurring costs other than
            the direct cost of returning the goods."""),
        _e(2, "Consumer Protection (Distance Sales) Regulations 2016", "reg. 28(1)(b)", """
            There is no right to withdraw from a distance contract for goods that are made to the
            consumer's specifications or are clearly personalised."""),
        _e(3, "Order confirmation A-55120, Hollis & Grey online shop, 3 March 2025", None, """
            Distance contract concluded via the online shop. Item: Hollis field watch, 38 mm,
            with caseback engraving 'M & J - 14.02.2025' (personalised to the customer's text).
            Delivered 6 March 2025."""),
        _e(4, "E-mail, customer to Hollis & Grey, 10 March 2025", None, """
            I would like to withdraw from order A-55120 and send the watch back - it is smaller
            than I expected. Please treat this e-mail as my request."""),
        _e(5, "Trading Standards guidance note TS-DC-07", "para. 12", """
            For digital content supplied online, the right to withdraw is lost once download has
            begun with the consumer's express consent.""", distractor=True),
    ],
    facts=[
        _f(1, "DistanceContract(a55120)", "E-03"),
        _f(2, "ClearlyPersonalised(a55120)", "E-03"),
        _f(3, "WithdrawalRequested(a55120)", "E-04"),
    ],
    rules=[
        _r(1, ["DistanceContract(a55120)", "WithdrawalRequested(a55120)"], "WithdrawalRight(a55120)", "E-01"),
        _r(2, ["ClearlyPersonalised(a55120)"], "¬WithdrawalRight(a55120)", "E-02"),
    ],
    priorities=[_p("r2", "r1", "specificity", "E-02",
                   note="reg. 28(1)(b) singles out personalised goods among distance contracts")],
    status="rejected", contradiction=True, tags=["rebut", "distractor"],
))


# --- reg-004: two strict definitions of a large undertaking ---------------------------------
# The Act counts heads (strict r1), the threshold regulations count full-time equivalents
# (strict r2).  Strict arguments cannot rebut each other: both are IN -> both.
SCENARIOS.append(_case(
    "reg-004",
    "Is Halden Marine AS a large undertaking for sustainability reporting in financial year 2024?",
    "LargeUndertaking(halden)",
    [
        _e(1, "Corporate Sustainability Reporting Act 2024", "s. 3(2)", """
            For the purposes of this Act an undertaking is a large undertaking if it had more
            than 250 employees on average during the financial year."""),
        _e(2, "Sustainability Reporting (Thresholds) Regulations 2024", "reg. 4", """
            Employees are counted on a full-time-equivalent basis. An undertaking whose
            full-time-equivalent average for the financial year is below the threshold of 250 is
            not a large undertaking."""),
        _e(3, "Halden Marine AS, Annual Report 2024", "note 7", """
            The average number of employees during the year was 262 (headcount; 2023: 241),
            i.e. more than 250 employees, of whom 58 work part time."""),
        _e(4, "Payroll FTE computation, HR Controlling, 15 January 2025", None, """
            Monthly full-time-equivalent totals January-December 2024 averaged 231.6 FTE, below
            the 250 threshold."""),
        _e(5, "Corporate Sustainability Reporting Act 2024", "s. 3(4)", """
            A listed small or medium-sized undertaking may defer its first report by two
            financial years.""", distractor=True),
    ],
    facts=[
        _f(1, "MoreThan250Employees(halden)", "E-03"),
        _f(2, "FullTimeEquivalentBelowThreshold(halden)", "E-04"),
    ],
    rules=[
        _r(1, ["MoreThan250Employees(halden)"], "LargeUndertaking(halden)", "E-01", kind="strict"),
        _r(2, ["FullTimeEquivalentBelowThreshold(halden)"], "¬LargeUndertaking(halden)", "E-02",
           kind="strict"),
    ],
    status="both", contradiction=True, tags=["strict_conflict", "distractor"],
))


# --- reg-005: a permitted extension in a conservation area (defeater) -----------------------
# r1: a single-storey rear extension up to 4 m deep is permitted development.  r2 (art. 3(5)): in
# a conservation area the authority may withdraw the right - a defeater, no priority.  Mutual
# attack, both UNDEC -> both.
SCENARIOS.append(_case(
    "reg-005",
    "Is the 3.8 m single-storey rear extension at 14 Ashgrove Road permitted development?",
    "PermittedDevelopment(ashgrove14)",
    [
        _e(1, "Town Planning (Householder Development) Order 2015", "art. 3(1), Class A", """
            The enlargement of a dwellinghouse by a single-storey rear extension not exceeding
            4 metres in depth, measured from the original rear wall, is permitted development."""),
        _e(2, "Town Planning (Householder Development) Order 2015", "art. 3(5)", """
            Where the dwellinghouse is in a conservation area, the local planning authority may
            direct that the permitted development right in Class A is withdrawn for that
            dwellinghouse, having regard to the character of the area."""),
        _e(3, "Application for a lawful development certificate LDC/25/0412, 2 June 2025", None, """
            Site: 14 Ashgrove Road. Proposal: single-storey rear extension, depth 3.8 metres from
            the original rear wall, flat roof, height 3.0 m, brick to match."""),
        _e(4, "Council GIS extract, 5 June 2025", None, """
            14 Ashgrove Road lies inside the Ashgrove Conservation Area (designated 1998, boundary
            revised 2011). No listed building on the plot."""),
        _e(5, "Building Regulations completion guidance BR-G3", None, """
            Extensions must have building regulations approval for structure, insulation and
            drainage, whether or not planning permission is needed.""", distractor=True),
    ],
    facts=[
        _f(1, "SingleStoreyRearExtension(ashgrove14)", "E-03"),
        _f(2, "DepthNotExceeding4Metres(ashgrove14)", "E-03"),
        _f(3, "InConservationArea(ashgrove14)", "E-04"),
    ],
    rules=[
        _r(1, ["SingleStoreyRearExtension(ashgrove14)", "DepthNotExceeding4Metres(ashgrove14)"],
           "PermittedDevelopment(ashgrove14)", "E-01"),
        _r(2, ["InConservationArea(ashgrove14)"], "¬PermittedDevelopment(ashgrove14)", "E-02",
           kind="defeater"),
    ],
    status="both", contradiction=True, tags=["defeater", "rebut", "distractor"],
))


# --- pr-p09: a wallet provider and the custody licence ---------------------------------------
# r1: controlling customers' private keys requires a licence (no evidence in the base package).
# r2: a non-custodial software provider needs no licence; r3: not one that operates key-recovery
# infrastructure, which Vaultly does (its own product page).  Base: r2 is undercut and OUT, no
# argument for the licence -> undecidable (the marketing article is a distractor).  Update: the
# supervisory visit report shows Vaultly controls customers' keys; r1 is IN -> accepted.
_R02 = [
    _e(1, "Digital Asset Services Act 2023", "s. 5(1)", """
        No person may provide a custodial wallet service by way of business unless it holds a
        licence from the Financial Conduct Authority; a licence is required by any person who
        holds or controls private keys on behalf of customers."""),
    _e(2, "Digital Asset Services Act 2023", "s. 5(3)", """
        A provider of non-custodial wallet software that never holds or controls its
        customers' private keys does not require a licence under subsection (1)."""),
    _e(3, "Digital Asset Services Act 2023", "s. 5(4)", """
        Subsection (3) does not apply to a provider that operates co-signing or key-recovery
        infrastructure for its customers."""),
    _e(4, "Vaultly Ltd, registration statement to the FCA, 12 January 2025", "para. 2", """
        Vaultly Ltd is a provider of non-custodial wallet software for mobile devices. Keys are
        generated on the customer's device."""),
    _e(5, "Vaultly product page 'Vaultly Recover' (captured 3 March 2025)", None, """
        Never lose your wallet again: our key-recovery service keeps an encrypted backup share
        of your key on Vaultly's recovery infrastructure and restores access after ID
        verification."""),
    _e(6, "FinNews Daily, 20 February 2025", None, """
        Regulator fines rival wallet app KeyNest GBP 1.2m for operating without a licence;
        analysts expect more enforcement across the sector.""", distractor=True),
]
_R02_FACTS = [
    _f(1, "NonCustodialSoftwareProvider(vaultly)", "E-04"),
    _f(2, "OperatesKeyRecoveryInfrastructure(vaultly)", "E-05"),
]
_R02_RULES = [
    _r(1, ["ControlsCustomerPrivateKeys(vaultly)"], "LicenceRequired(vaultly)", "E-01"),
    _r(2, ["NonCustodialSoftwareProvider(vaultly)"], "¬LicenceRequired(vaultly)", "E-02"),
    _r(3, ["OperatesKeyRecoveryInfrastructure(vaultly)"], "¬applicable(r2)", "E-03"),
]
_R02_PRIO = [_p("r3", "r2", "exception", "E-03", note="s. 5(4) 'Subsection (3) does not apply'")]
_R02_QUERY = "Does Vaultly Ltd require a licence under s. 5 of the Digital Asset Services Act 2023?"

SCENARIOS += [
    _case("reg-006", _R02_QUERY, "LicenceRequired(vaultly)", _R02,
          facts=_R02_FACTS, rules=_R02_RULES, priorities=_R02_PRIO, status="undecidable",
          contradiction=True, pair="pr-p09", role="base",
          tags=["undercut", "absence_of_proof", "distractor"]),
    _case("reg-007", _R02_QUERY, "LicenceRequired(vaultly)", _with(_R02, _e(
        7, "FCA supervisory visit report SV-25-118, 2 April 2025", "Finding 1", """
        Inspectors observed that the recovery service holds two of three key shares for 4,120
        customer wallets. Vaultly can therefore sign transactions without the customer: it
        controls customers' private keys in substance.""")),
          facts=[*_R02_FACTS, _f(3, "ControlsCustomerPrivateKeys(vaultly)", "E-07")],
          rules=_R02_RULES, priorities=_R02_PRIO, status="accepted", contradiction=True,
          pair="pr-p09", role="update", tags=["rebut", "undercut", "distractor", "update:add"]),
]


# --- reg-008: an export with no classification on file -------------------------------------
# r1 needs the item to be a controlled encryption item: the data sheet gives no key length and
# the brochure's 'military-grade' claim is marketing (distractor).  r2 (general authorisation)
# says no individual licence; r3 removes the authorisation after a military end-use notice.
# r2 is OUT and nothing supports the licence -> undecidable.
SCENARIOS.append(_case(
    "reg-008",
    "Does Sentrel's shipment SH-2025-3307 of LinkGuard units to Türkiye need an individual export licence?",
    "ExportLicenceRequired(sh3307)",
    [
        _e(1, "Export Control (Dual-Use Items) Order 2022", "art. 6; Sched. 2 cat. 5A002", """
            An individual export licence is required for the export of a controlled encryption
            item listed in category 5A002 of Schedule 2, that is equipment using symmetric
            encryption with a key length above 56 bits, unless a general authorisation
            applies."""),
        _e(2, "General Export Authorisation GEA-3 (Telecommunications)", "para. 2", """
            Exports of category 5 telecommunications items to the destinations listed in Annex I
            (including Türkiye) are covered by this general authorisation; no individual export
            licence is required."""),
        _e(3, "General Export Authorisation GEA-3 (Telecommunications)", "para. 5(b)", """
            This authorisation may not be used where the exporter has been notified by the Export
            Control Office that the items are or may be intended for a military end-use."""),
        _e(4, "Export Control Office letter ECO/N/25/0917 to Sentrel Ltd, 9 September 2025", None, """
            We inform you that the LinkGuard units ordered by Anka Savunma Sistemleri may be
            intended for a military end-use. This notice applies to every shipment of these
            items to that consignee."""),
        _e(5, "Customs pre-lodgement SH-2025-3307", None, """
            Exporter Sentrel Ltd; consignee Anka Savunma Sistemleri, Ankara (Türkiye); 40 x
            LinkGuard LG-400 network units, commodity code 8517 62; export under general
            authorisation GEA-3 declared."""),
        _e(6, "LinkGuard LG-400 sales brochure", None, """
            Military-grade encryption keeps your links safe. Gigabit throughput, zero-touch
            provisioning, five-year warranty.""", distractor=True),
    ],
    facts=[
        _f(1, "CoveredByGeneralAuthorisation(sh3307)", "E-02", "E-05"),
        _f(2, "MilitaryEndUseNotified(sh3307)", "E-04", "E-05"),
    ],
    rules=[
        _r(1, ["ControlledEncryptionItem(sh3307)"], "ExportLicenceRequired(sh3307)", "E-01"),
        _r(2, ["CoveredByGeneralAuthorisation(sh3307)"], "¬ExportLicenceRequired(sh3307)", "E-02"),
        _r(3, ["MilitaryEndUseNotified(sh3307)"], "¬applicable(r2)", "E-03"),
    ],
    status="undecidable", contradiction=True,
    tags=["undercut", "absence_of_proof", "distractor"],
))


# --- reg-009: a filming permission caught in a priority cycle --------------------------------
# r1 (air regulation art. 12) and r3 (stadium bylaw) forbid the flight, r2 (the operational
# authorisation) permits it.  The texts claim r2 > r1, r3 > r2 and r1 > r3: a cycle, every
# comparison is dropped, the rebuttals are mutual -> every argument UNDEC -> both.
SCENARIOS.append(_case(
    "reg-009",
    "Is BrightSky Media's drone flight over Harbour Stadium during the 18 October 2025 match permitted?",
    "FlightPermitted(brightsky)",
    [
        _e(1, "Unmanned Aircraft Regulation 2021", "art. 12; art. 3(2)", """
            art. 12: a flight of an unmanned aircraft within 150 metres of an assembly of people
            is not permitted. art. 3(2): in matters of airspace use this Regulation prevails over
            any local bylaw."""),
        _e(2, "Civil Aviation Authority operational authorisation OA-2291", "conditions 1-4", """
            BrightSky Media Ltd is authorised to fly the DJI M30 (reg. UAS-GB-55120) over Harbour
            Stadium on match days in 2025 for broadcast filming. The flight is permitted
            notwithstanding art. 12 of the Unmanned Aircraft Regulation 2021, subject to a
            maximum height of 60 m."""),
        _e(3, "Harbour City Stadium Safety Bylaw 2024", "s. 8", """
            No unmanned aircraft may be flown over the stadium on an event day, and no flight is
            permitted there on such a day. This section prevails over any permission or
            authorisation granted to a person to fly there."""),
        _e(4, "Flight plan FP-1018-BS, submitted 14 October 2025", None, """
            Operator BrightSky Media; flight over Harbour Stadium on event day 18 October 2025
            (league match, 21,400 tickets sold - an assembly of people); planned altitude 55 m;
            broadcast filming under OA-2291."""),
        _e(5, "Harbour City events calendar", None, """
            October 2025: farmers' market in Harbour Square every Saturday 08:00-13:00.""",
           distractor=True),
    ],
    facts=[
        _f(1, "WithinAssemblyOfPeople(brightsky)", "E-04"),
        _f(2, "AuthorisedBroadcastFlight(brightsky)", "E-02", "E-04"),
        _f(3, "EventDayFlight(brightsky)", "E-04"),
    ],
    rules=[
        _r(1, ["WithinAssemblyOfPeople(brightsky)"], "¬FlightPermitted(brightsky)", "E-01"),
        _r(2, ["AuthorisedBroadcastFlight(brightsky)"], "FlightPermitted(brightsky)", "E-02"),
        _r(3, ["EventDayFlight(brightsky)"], "¬FlightPermitted(brightsky)", "E-03"),
    ],
    priorities=[
        _p("r2", "r1", "exception", "E-02", note="OA-2291 'notwithstanding art. 12'"),
        _p("r3", "r2", "authority", "E-03", note="bylaw s. 8 'prevails over any permission'"),
        _p("r1", "r3", "hierarchy", "E-01", note="art. 3(2) 'prevails over any local bylaw'"),
    ],
    status="both", contradiction=True, tags=["rebut", "priority_cycle", "distractor"],
))


# --- reg-010: customer due diligence after a threshold amendment ------------------------------
# r1 derives an occasional transaction from the till record; r2 (old reg. 27(2)) waives CDD
# below EUR 15,000; r3 (amended threshold, in force 1 January 2025) requires it from EUR 10,000;
# r3 > r2 as the later rule.  r3's chain (two rules) is IN, r2 is OUT -> accepted.
SCENARIOS.append(_case(
    "reg-010",
    "Was Riverside Exchange required to apply customer due diligence to the EUR 12,500 cash exchange of 14 February 2025?",
    "DueDiligenceRequired(tx4471)",
    [
        _e(1, "Money Laundering Regulations 2017", "reg. 27(2) (as originally made)", """
            A relevant person need not apply customer due diligence measures to an occasional
            transaction below EUR 15,000, whether carried out in a single operation or in linked
            operations; for such a transaction due diligence is not required."""),
        _e(2, "Money Laundering (Amendment) Regulations 2024", "reg. 3 (in force 1 January 2025)", """
            In regulation 27 of the 2017 Regulations, for 'EUR 15,000' substitute 'EUR 10,000':
            customer due diligence is required for any occasional transaction at or above
            EUR 10,000."""),
        _e(3, "Money Laundering Regulations 2017", "reg. 3 (interpretation)", """
            An occasional transaction is a transaction carried out other than as part of a
            business relationship."""),
        _e(4, "Till record RX-0214-077, Riverside Exchange, Gare Street branch", None, """
            14/02/2025 11:32 walk-in customer, no account, no business relationship - exchange of
            EUR 12,500 cash to GBP 10,402.10 - single operation. AML screen: amount below the
            former threshold (EUR 15,000), at or above the amended threshold (EUR 10,000)."""),
        _e(5, "Money Laundering Regulations 2017", "reg. 33(1)(b)", """
            Enhanced due diligence applies to a transaction with a person established in a
            high-risk third country.""", distractor=True),
    ],
    facts=[
        _f(1, "NoBusinessRelationship(tx4471)", "E-04"),
        _f(2, "AmountBelowFormerThreshold(tx4471)", "E-04"),
        _f(3, "AmountAtOrAboveAmendedThreshold(tx4471)", "E-04"),
    ],
    rules=[
        _r(1, ["NoBusinessRelationship(tx4471)"], "OccasionalTransaction(tx4471)", "E-03"),
        _r(2, ["OccasionalTransaction(tx4471)", "AmountBelowFormerThreshold(tx4471)"],
           "¬DueDiligenceRequired(tx4471)", "E-01"),
        _r(3, ["OccasionalTransaction(tx4471)", "AmountAtOrAboveAmendedThreshold(tx4471)"],
           "DueDiligenceRequired(tx4471)", "E-02"),
    ],
    priorities=[_p("r3", "r2", "temporal", "E-02",
                   note="the 2024 amendment substitutes the threshold from 1 January 2025")],
    status="accepted", contradiction=True, tags=["rebut", "multi_step", "distractor"],
))


# --- pr-p10: a registered food business under an emergency prohibition notice ----------------
# r1: a registered establishment may operate; r2 (reg. 8(1)): not while an emergency prohibition
# notice is in force, 'notwithstanding registration' (r2 > r1).  Base: r2 IN, r1 OUT -> rejected.
# Update: the council's certificate ends the notice; r3 (reg. 8(2)) undercuts r2; r1's only
# attacker is OUT -> accepted.
_R03 = [
    _e(1, "Food Premises (Registration) Regulations 2010", "reg. 3(1)", """
        A food business operator whose establishment is registered with the district council
        may operate that establishment for the purposes of the registered food business."""),
    _e(2, "District council register of food establishments, entry FE-2019-0447", None, """
        Harbour Kitchen Ltd, 2 Quay Street - restaurant and takeaway - establishment registered
        11 April 2019 - registration current."""),
    _e(3, "Hygiene Emergency Prohibition Notice HEPN-25-031, served 12 August 2025", None, """
        Served on Harbour Kitchen Ltd under reg. 8(1). The authorised officer is satisfied that
        the health risk condition is met (active rodent infestation in the dry store and
        kitchen). The premises at 2 Quay Street must not be used for a food business."""),
    _e(4, "Food Hygiene Regulations 2013", "reg. 8(1)-(2)", """
        (1) While an emergency prohibition notice served on an operator is in force, no person
        may use the premises for a food business, notwithstanding any registration. (2) The
        notice ceases to have effect when the authority issues a certificate that the health
        risk condition no longer exists."""),
    _e(5, "Food hygiene rating letter, 2023 inspection", None, """
        Harbour Kitchen Ltd was awarded a food hygiene rating of 4 (good) following the
        inspection of 6 June 2023.""", distractor=True),
]
_R03_FACTS = [
    _f(1, "RegisteredEstablishment(harbourkitchen)", "E-02"),
    _f(2, "EmergencyProhibitionNoticeServed(harbourkitchen)", "E-03"),
]
_R03_RULES = [
    _r(1, ["RegisteredEstablishment(harbourkitchen)"], "MayOperate(harbourkitchen)", "E-01"),
    _r(2, ["EmergencyProhibitionNoticeServed(harbourkitchen)"], "¬MayOperate(harbourkitchen)", "E-04"),
]
_R03_PRIO = [_p("r2", "r1", "exception", "E-04", note="reg. 8(1) 'notwithstanding any registration'")]
_R03_QUERY = "May Harbour Kitchen Ltd operate its food business at 2 Quay Street on 20 August 2025?"

SCENARIOS += [
    _case("reg-011", _R03_QUERY, "MayOperate(harbourkitchen)", _R03,
          facts=_R03_FACTS, rules=_R03_RULES, priorities=_R03_PRIO, status="rejected",
          contradiction=True, pair="pr-p10", role="base", tags=["rebut", "distractor"]),
    _case("reg-012", _R03_QUERY, "MayOperate(harbourkitchen)", _with(_R03, _e(
        6, "Health risk condition certificate HEPN-25-031-C, 19 August 2025", None, """
        The council certifies that the health risk condition no longer exists at 2 Quay Street
        (pest control completion report PC-8812, re-inspection 19 August 2025). Emergency
        prohibition notice HEPN-25-031 ceases to have effect from today.""")),
          facts=[*_R03_FACTS, _f(3, "NoticeCeasedToHaveEffect(harbourkitchen)", "E-06")],
          rules=[*_R03_RULES, _r(3, ["NoticeCeasedToHaveEffect(harbourkitchen)"], "¬applicable(r2)", "E-04", "E-06")],
          priorities=_R03_PRIO, status="accepted", contradiction=True, pair="pr-p10", role="update",
          tags=["rebut", "undercut", "distractor", "update:add"]),
]


# --- reg-013: a type-examination certificate issued during a suspension ------------------------
# r1: a valid certificate allows the router on the market.  Strict r2 (reg. 43(3)): a certificate
# issued while the body's approval was suspended is void.  The strict argument undermines the
# certificate fact, which cannot answer back; the fact and r1 are OUT -> rejected.
SCENARIOS.append(_case(
    "reg-013",
    "May the RX-200 router be made available on the market on the strength of certificate TEC-0931?",
    "MayBeMadeAvailable(rx200)",
    [
        _e(1, "Radio Equipment Regulations 2017", "reg. 41(1)", """
            Radio equipment may be made available on the market where it is covered by a valid
            type-examination certificate issued by an approved body and the manufacturer has
            drawn up the declaration of conformity."""),
        _e(2, "Type-examination certificate TEC-0931", None, """
            Issued 5 June 2024 by Calder Test Labs Ltd (approved body AB-0217) to Norrland
            Networks AB for the RX-200 dual-band router. Valid until 4 June 2029."""),
        _e(3, "Radio Equipment Regulations 2017", "reg. 43(3)", """
            A certificate issued by an approved body during any period in which its approval was
            suspended is void and is not a valid type-examination certificate."""),
        _e(4, "Register of approved bodies, extract 1 March 2025", None, """
            AB-0217 Calder Test Labs Ltd - approval suspended from 1 May 2024 to 30 September 2024
            (notice RA/AB/24/07, failure to maintain accreditation scope) - reinstated 1 October
            2024."""),
        _e(5, "Norrland Networks product leaflet", None, """
            RX-200: fully certified for Europe and the UK, Wi-Fi 6, WPA3, five-year firmware
            support.""", distractor=True),
    ],
    facts=[
        _f(1, "ValidTypeExaminationCertificate(rx200)", "E-02"),
        _f(2, "IssuedDuringSuspension(rx200)", "E-02", "E-04"),
    ],
    rules=[
        _r(1, ["ValidTypeExaminationCertificate(rx200)"], "MayBeMadeAvailable(rx200)", "E-01"),
        _r(2, ["IssuedDuringSuspension(rx200)"], "¬ValidTypeExaminationCertificate(rx200)", "E-03",
           kind="strict"),
    ],
    status="rejected", contradiction=True, tags=["undermine", "distractor"],
))


# --- pr-p11: a PEP screening hit and its disposition -------------------------------------------
# r1: a politically exposed person triggers enhanced due diligence.  Base: the screening hit (f1)
# stands unchallenged -> accepted.  Update: the analyst's note (the customer denies being the
# listed person; the list entry has no date of birth to compare; MLRO sign-off pending) concludes
# the complement of f1 and undermines it; f1 rebuts back; no priority can settle an attack on a
# bare fact, so f1, r2 and r1 are UNDEC -> both: the identity question is genuinely open.
_R04 = [
    _e(1, "Money Laundering Regulations 2017", "reg. 35(1)", """
        Enhanced due diligence is required where the customer or a beneficial owner of the
        customer is a politically exposed person; the relevant person must apply the measures
        before the business relationship is established."""),
    _e(2, "Screening alert SCR-2025-55871 (World-Check)", None, """
        Match score 92%: KWAME OSEI - Deputy Minister of Finance, Republic of Ghana (2017-2021)
        - category: politically exposed person (PEP). Matched on name and nationality."""),
    _e(3, "Onboarding form, personal current account application APP-88120", None, """
        New customer: Kwame Osei. Date of birth: 14 July 1988. Nationality: Ghanaian. Occupation:
        software engineer, Lumen Payments Ltd. Source of funds: salary."""),
    _e(4, "Money Laundering Regulations 2017", "reg. 33(3)", """
        A high-risk third country is a country identified by the Treasury in the list published
        under this regulation.""", distractor=True),
]
_R04_FACTS = [_f(1, "PoliticallyExposedPerson(osei)", "E-02")]
_R04_RULES = [_r(1, ["Customer(osei)", "PoliticallyExposedPerson(osei)"], "EnhancedDueDiligenceRequired(osei)", "E-01")]
_R04_QUERY = "Must the bank apply enhanced due diligence to applicant Kwame Osei (APP-88120)?"

SCENARIOS += [
    _case("reg-014", _R04_QUERY, "EnhancedDueDiligenceRequired(osei)", _R04,
          facts=[*_R04_FACTS, _f(2, "Customer(osei)", "E-03")],
          rules=_R04_RULES, status="accepted", contradiction=False,
          pair="pr-p11", role="base", tags=["distractor"]),
    _case("reg-015", _R04_QUERY, "EnhancedDueDiligenceRequired(osei)", _with(_R04, _e(
        5, "Alert disposition SCR-2025-55871, L2 analyst, 7 May 2025", None, """
        The list entry carries no date of birth. The applicant was called on 6 May and denies
        being the former deputy minister; he says he has worked in software since 2010 and has
        never held public office. Analyst view: the customer denies being the listed person
        and is not a politically exposed person; proposed disposition: false positive, awaiting
        MLRO sign-off.""")),
          facts=[*_R04_FACTS, _f(2, "Customer(osei)", "E-03"),
                 _f(3, "CustomerDeniesBeingListedPerson(osei)", "E-05")],
          rules=[*_R04_RULES, _r(2, ["CustomerDeniesBeingListedPerson(osei)"], "¬PoliticallyExposedPerson(osei)", "E-05")],
          status="both", contradiction=True, pair="pr-p11", role="update",
          tags=["undermine", "distractor", "update:add"]),
]


# --- reg-016: the 48-hour limit and a voluntary opt-out ---------------------------------------
# r1: an average above 48 hours breaches the limit.  r2 (reg. 5(1)): a written opt-out excepts
# the worker from r1.  r3 (reg. 5(3)): an opt-out required as a condition of employment is void
# and cannot except anyone - but the agreement was signed voluntarily months after the start,
# so r3 never applies.  r2 IN, r1 OUT, nothing else supports the breach -> rejected.
SCENARIOS.append(_case(
    "reg-016",
    "Did Meridian Logistics breach the weekly working time limit for driver's mate G. Pryce?",
    "WorkingTimeLimitBreached(pryce)",
    [
        _e(1, "Working Time Regulations 1998", "reg. 4(1)", """
            A worker's average working time, including overtime, must not exceed 48 hours for
            each seven days over a 17-week reference period; an employer who exceeds it has
            breached the working time limit."""),
        _e(2, "Working Time Regulations 1998", "reg. 5(1)", """
            The limit in regulation 4(1) does not apply to a worker who has signed a written
            opt-out agreement with the employer. The worker may end the opt-out agreement on
            seven days' notice."""),
        _e(3, "Working Time Regulations 1998", "reg. 5(3)", """
            An opt-out agreement that the employer required the worker to sign as a condition of
            employment is void, and regulation 5(1) does not apply to it."""),
        _e(4, "Timesheet summary, reference period 2 June - 28 September 2025", None, """
            Worker: G. Pryce (driver's mate, depot Thurrock). Total hours 904.4 over 17 weeks:
            average 53.2 hours per week, average above 48 hours."""),
        _e(5, "Opt-out agreement, Meridian Logistics Ltd and G. Pryce, 3 October 2024", None, """
            I agree to opt out of the 48-hour weekly limit. Employment began 1 July 2024; this
            opt-out agreement was offered after my start date, I signed it voluntarily, and it
            is not a condition of employment. Signed G. Pryce; countersigned by the depot
            manager."""),
        _e(6, "Road transport driving hours guidance, chapter 2", None, """
            Drivers of goods vehicles over 3.5 tonnes are subject to the EU-derived drivers'
            hours rules: 9 hours' daily driving, extendable to 10 hours twice a week.""",
           distractor=True),
    ],
    facts=[
        _f(1, "AverageAbove48Hours(pryce)", "E-04"),
        _f(2, "OptOutAgreementSigned(pryce)", "E-05"),
        _f(3, "¬OptOutConditionOfEmployment(pryce)", "E-05"),
    ],
    rules=[
        _r(1, ["AverageAbove48Hours(pryce)"], "WorkingTimeLimitBreached(pryce)", "E-01"),
        _r(2, ["OptOutAgreementSigned(pryce)"], "¬applicable(r1)", "E-02"),
        _r(3, ["OptOutConditionOfEmployment(pryce)"], "¬applicable(r2)", "E-03"),
    ],
    priorities=[
        _p("r2", "r1", "exception", "E-02", note="reg. 5(1) 'does not apply to a worker who...'"),
        _p("r3", "r2", "exception", "E-03", note="reg. 5(3) 'regulation 5(1) does not apply'"),
    ],
    status="rejected", contradiction=True,
    tags=["undercut", "nested_exception", "distractor"],
))


# --- reg-017: a waste site whose exemption has lapsed -----------------------------------------
# r1 needs more than 50 tonnes stored; the inspection note only says 'significant quantities'
# (no tonnage: no fact).  r2: a registered exemption means no permit; r3: a registration not
# renewed within three years lapses, which it did.  r2 is OUT, nothing supports the permit duty
# -> undecidable.
SCENARIOS.append(_case(
    "reg-017",
    "Does Greenmill Recycling need an environmental permit for its green-waste storage at Yard 4?",
    "PermitRequired(greenmill)",
    [
        _e(1, "Environmental Permitting Regulations 2016", "reg. 12; Sched. 3 para. 4", """
            An environmental permit is required for a waste operation that stores more than
            50 tonnes of green waste at any one time."""),
        _e(2, "Environmental Permitting Regulations 2016", "Sched. 3 para. 7", """
            An operation covered by a registered exemption T23 (aerobic composting and storage)
            does not need an environmental permit; no permit is required while the registration
            has effect."""),
        _e(3, "Environmental Permitting Regulations 2016", "Sched. 3 para. 9", """
            The registration of an exemption lapses three years after the date of registration
            unless renewed; a lapsed registration has no effect."""),
        _e(4, "Public register of waste exemptions, extract 10 November 2025", None, """
            Greenmill Recycling Ltd, Yard 4, Stoke Lane - exemption T23 registered 2 September
            2022 (ref. WEX-22-40915) - no renewal recorded - registration lapsed."""),
        _e(5, "Agency site inspection note SIN-25-3318, 6 November 2025", None, """
            Significant quantities of shredded green waste in windrows across Yard 4; no odour
            complaints; drainage satisfactory. Operator to supply weighbridge records.""",
           distractor=True),
    ],
    facts=[
        _f(1, "RegisteredExemption(greenmill)", "E-04"),
        _f(2, "RegistrationLapsed(greenmill)", "E-04"),
    ],
    rules=[
        _r(1, ["StoresMoreThan50Tonnes(greenmill)"], "PermitRequired(greenmill)", "E-01"),
        _r(2, ["RegisteredExemption(greenmill)"], "¬PermitRequired(greenmill)", "E-02"),
        _r(3, ["RegistrationLapsed(greenmill)"], "¬applicable(r2)", "E-03"),
    ],
    status="undecidable", contradiction=True,
    tags=["undercut", "absence_of_proof", "distractor"],
))


# --- pr-p12: substitution under a serious shortage protocol that is later withdrawn ------------
# r1: a prescription-only medicine is dispensed as prescribed (no substitution); r2: under a
# serious shortage protocol in force the pharmacist may substitute; r2 > r1 (exception).
# Base: r2 IN, r1 OUT -> accepted.  Update: SSP-061 was withdrawn and the re-issued package no
# longer contains it, the register line is amended; r2 has no premise, so nothing contests r1
# and the only argument concerning substitution is against it -> rejected.
_R05_HEAD = [
    _e(1, "Human Medicines Regulations 2012", "reg. 214", """
        A prescription-only medicine must be dispensed in accordance with the prescription; a
        pharmacist may not substitute a different strength or form without the prescriber's
        agreement, so substitution is not permitted."""),
    _e(2, "Human Medicines Regulations 2012", "reg. 226A", """
        Where a serious shortage protocol is in force for a medicine, a pharmacist may supply in
        accordance with the protocol instead of the prescription; substitution permitted by the
        protocol overrides reg. 214."""),
    _e(3, "Prescription EPS-7Q2-88431, dispensed 12 March 2025", None, """
        Prescription-only medicine: estradiol 50 micrograms/24 hours transdermal patches, 8
        patches. Pharmacist proposes to supply estradiol 2 x 25 microgram patches instead."""),
]
_R05_PROTOCOL = _e(4, "Serious shortage protocol SSP-061 (estradiol patches)", None, """
    Serious shortage protocol in force from 3 February 2025 to 4 April 2025: where estradiol
    50 microgram patches are unavailable, pharmacists may supply two 25 microgram patches per
    prescribed patch.""")
_R05_REGISTER = _e(5, "SSP register, NHS Business Services, extract 12 March 2025", None, """
    SSP-061 estradiol 50 microgram patches - status: protocol in force - pharmacy stock check
    12/03/2025: 50 microgram patches unavailable from all three wholesalers.""")
_R05_REGISTER_AMENDED = _e(5, "SSP register, NHS Business Services, extract 12 March 2025 (re-issued)", None, """
    SSP-061 estradiol 50 microgram patches - serious shortage protocol withdrawn 28 February
    2025 (supply restored); no shortage protocol in force for this medicine - pharmacy stock check 12/03/2025: 50 microgram patches unavailable from all
    three wholesalers.""")
_R05_FACTS = [
    _f(1, "PrescriptionOnlyMedicine(eps88431)", "E-03"),
]
_R05_RULES = [
    _r(1, ["PrescriptionOnlyMedicine(eps88431)"], "¬SubstitutionPermitted(eps88431)", "E-01"),
    _r(2, ["ShortageProtocolInForce(eps88431)"], "SubstitutionPermitted(eps88431)", "E-02"),
]
_R05_PRIO = [_p("r2", "r1", "exception", "E-02", note="reg. 226A 'overrides reg. 214'")]
_R05_QUERY = ("Could the pharmacist substitute two 25 microgram estradiol patches for each 50 microgram "
              "patch on prescription EPS-7Q2-88431 on 12 March 2025?")

SCENARIOS += [
    _case("reg-018", _R05_QUERY, "SubstitutionPermitted(eps88431)",
          [*_R05_HEAD, _R05_PROTOCOL, _R05_REGISTER],
          facts=[*_R05_FACTS, _f(2, "ShortageProtocolInForce(eps88431)", "E-04", "E-05")],
          rules=_R05_RULES, priorities=_R05_PRIO, status="accepted", contradiction=True,
          pair="pr-p12", role="base", tags=["rebut"]),
    _case("reg-019", _R05_QUERY, "SubstitutionPermitted(eps88431)",
          [*_R05_HEAD, _R05_REGISTER_AMENDED],
          facts=[*_R05_FACTS, _f(2, "¬ShortageProtocolInForce(eps88431)", "E-05")],
          rules=_R05_RULES, priorities=_R05_PRIO, status="rejected", contradiction=False,
          pair="pr-p12", role="update", tags=["update:remove", "update:amend"]),
]


# --- pol-020: a sabbatical request with service continuity under review -----------------------
# r1 needs five years' continuous service confirmed by HR: the HR record leaves it under review
# and the employee's own count is not a confirmation (distractor).  r2 (PIP bar) is undercut by
# r3 (a PIP closed successfully over six months ago does not count).  r2 is OUT and nothing
# supports eligibility -> undecidable.
SCENARIOS.append(_case(
    "pol-020",
    "Is S. Adeyemi eligible for the unpaid sabbatical requested from 1 March 2026?",
    "SabbaticalEligible(adeyemi)",
    [
        _e(1, "Sabbatical Policy HR-SAB-2", "s. 2.1", """
            An employee with at least five years' continuous service, as confirmed by HR, is
            eligible for an unpaid sabbatical of up to three months."""),
        _e(2, "Sabbatical Policy HR-SAB-2", "s. 2.4", """
            An employee who is subject to a performance improvement plan (PIP) is not eligible
            for a sabbatical."""),
        _e(3, "Sabbatical Policy HR-SAB-2", "s. 2.5", """
            A PIP that was closed successfully more than six months before the requested start
            date does not count for the purposes of s. 2.4."""),
        _e(4, "Workday employee record, extract 5 January 2026", None, """
            S. Adeyemi, Senior Analyst. Hire date 1 September 2021 (transfer from Castell
            Insurance Services under TUPE). Continuous service date: under review by HR Shared
            Services (case HRSS-4410). Performance improvement plan PIP-23-117: opened
            6 March 2023, closed successfully 30 June 2023."""),
        _e(5, "E-mail, S. Adeyemi to HR, 2 January 2026", None, """
            I have worked for the business since April 2017, first at Castell and then here, so
            I have well over five years' service.""", distractor=True),
    ],
    facts=[
        _f(1, "SubjectToPerformanceImprovementPlan(adeyemi)", "E-04"),
        _f(2, "PipClosedSuccessfullyOverSixMonthsBefore(adeyemi)", "E-04"),
    ],
    rules=[
        _r(1, ["FiveYearsContinuousServiceConfirmed(adeyemi)"], "SabbaticalEligible(adeyemi)", "E-01"),
        _r(2, ["SubjectToPerformanceImprovementPlan(adeyemi)"], "¬SabbaticalEligible(adeyemi)", "E-02"),
        _r(3, ["PipClosedSuccessfullyOverSixMonthsBefore(adeyemi)"], "¬applicable(r2)", "E-03"),
    ],
    priorities=[_p("r3", "r2", "exception", "E-03", note="s. 2.5 limits s. 2.4")],
    status="undecidable", contradiction=True,
    tags=["undercut", "absence_of_proof", "distractor"],
))


# --- pol-021: sharing EU customer data with a group company in Singapore -----------------------
# r1 (group fraud policy) allows sharing with group companies for fraud prevention; r2 (data
# residency standard) forbids EU customer data leaving the EU region.  Both are board-approved
# on the same date and neither text claims precedence: no priority, mutual rebuttal, both UNDEC
# -> both.
SCENARIOS.append(_case(
    "pol-021",
    "May the Dublin branch share the transaction history of customer account IE-204-5518 with "
    "the group fraud hub in Singapore?",
    "SharingPermitted(ie2045518)",
    [
        _e(1, "Group Fraud Prevention Policy GFP-1 (approved by the Board 12 May 2025)", "s. 6.2", """
            Customer data may be shared with another group company where the sharing is
            necessary for fraud prevention, including the investigation of a fraud alert by a
            group fraud hub; such sharing is permitted without customer consent."""),
        _e(2, "Data Residency Standard DRS-3 (approved by the Board 12 May 2025)", "s. 3.1", """
            Personal data of customers of the EU branches must be stored and processed only in
            the EU region. Sharing it with any recipient outside the EU region is not permitted,
            including group companies."""),
        _e(3, "Fraud alert FA-2025-10-7781", None, """
            Account IE-204-5518 (Dublin branch, EU customer): 14 card-not-present transactions
            flagged as probable fraud. Referral to the group fraud hub (Singapore) for
            investigation - fraud prevention case opened 21 October 2025."""),
        _e(4, "Group entity register", None, """
            Northbridge Analytics Pte Ltd (Singapore) - group company, 100% owned - operates the
            group fraud hub; location outside the EU region."""),
        _e(5, "Information Classification Standard ICS-2", "s. 4", """
            Customer transaction data is classified Confidential and must be encrypted in
            transit and at rest.""", distractor=True),
    ],
    facts=[
        _f(1, "NecessaryForFraudPrevention(ie2045518)", "E-03"),
        _f(2, "RecipientGroupCompany(ie2045518)", "E-03", "E-04"),
        _f(3, "EuCustomerData(ie2045518)", "E-03"),
        _f(4, "RecipientOutsideEuRegion(ie2045518)", "E-04"),
    ],
    rules=[
        _r(1, ["NecessaryForFraudPrevention(ie2045518)", "RecipientGroupCompany(ie2045518)"],
           "SharingPermitted(ie2045518)", "E-01"),
        _r(2, ["EuCustomerData(ie2045518)", "RecipientOutsideEuRegion(ie2045518)"],
           "¬SharingPermitted(ie2045518)", "E-02"),
    ],
    status="both", contradiction=True, tags=["rebut", "distractor"],
))


# --- pr-p13: client dinner with a guest from a possibly state-owned company ----------------------
# r1 (s. 2.3): staff of a majority state-owned company are public officials; r2 (s. 5.1):
# hospitality to a public official needs Compliance pre-approval.  r3 (s. 5.3): none below EUR 50
# per head, but r4 (same section) lifts that exemption while a tender with the guest's company is
# open.  Base: nothing shows who owns Baltic Terminal Operators; r3 is OUT and no argument
# supports pre-approval -> undecidable.  Update: the registry extract makes the chain r1 -> r2
# (multi-step); the privatisation notice concludes the complement of the ownership fact and
# undermines it; fact and r5 attack each other, so r1, r2 are UNDEC -> both.
_P13 = [
    _e(1, "Anti-Bribery and Corruption Policy ABC-3", "s. 2.3 (Definitions)", """
        'Public official' includes any employee of a company in which the state holds a
        majority stake (a state-owned company), whatever the employee's grade."""),
    _e(2, "Anti-Bribery and Corruption Policy ABC-3", "s. 5.1", """
        Hospitality of any value offered to a public official requires Compliance pre-approval
        through the ABC register before the invitation is issued."""),
    _e(3, "Anti-Bribery and Corruption Policy ABC-3", "s. 5.3", """
        Pre-approval is not required for a business meal below EUR 50 per head. This exemption
        does not apply while a tender in which the guest's organisation takes part is open."""),
    _e(4, "Hospitality pre-booking HB-2025-0388", None, """
        Business meal 4 December 2025, Restauracja Stary Port, Gdynia. Host: K. Nowak (Port
        Sales). Guests: P. Wiśniewski, procurement lead, Baltic Terminal Operators SA, and two
        colleagues. Estimated cost EUR 46 per head, below EUR 50."""),
    _e(5, "Tender register, extract 28 November 2025", None, """
        RFP-2025-118 terminal handling equipment - bidders include our company; buyer Baltic
        Terminal Operators SA - tender open, clarification phase until 15 December 2025."""),
    _e(6, "Gifts and Promotional Items Standard GPS-1", "s. 3", """
        Branded promotional items worth under EUR 20 may be given to any business contact
        without registration.""", distractor=True),
]
_P13_FACTS = [
    _f(1, "MealBelowFiftyPerHead(wisniewski)", "E-04"),
    _f(2, "TenderOpenWithGuestOrganisation(wisniewski)", "E-04", "E-05"),
]
_P13_RULES = [
    _r(1, ["StateOwnedCompanyEmployee(wisniewski)"], "PublicOfficial(wisniewski)", "E-01"),
    _r(2, ["PublicOfficial(wisniewski)"], "PreApprovalRequired(wisniewski)", "E-02"),
    _r(3, ["MealBelowFiftyPerHead(wisniewski)"], "¬PreApprovalRequired(wisniewski)", "E-03"),
    _r(4, ["TenderOpenWithGuestOrganisation(wisniewski)"], "¬applicable(r3)", "E-03"),
]
_P13_PRIO = [_p("r4", "r3", "exception", "E-03", note="s. 5.3 second sentence")]
_P13_QUERY = ("Does K. Nowak need Compliance pre-approval for the 4 December 2025 dinner with "
              "P. Wiśniewski of Baltic Terminal Operators?")

SCENARIOS += [
    _case("pol-022", _P13_QUERY, "PreApprovalRequired(wisniewski)", _P13,
          facts=_P13_FACTS, rules=_P13_RULES, priorities=_P13_PRIO, status="undecidable",
          contradiction=True, pair="pr-p13", role="base",
          tags=["undercut", "absence_of_proof", "distractor"]),
    _case("pol-023", _P13_QUERY, "PreApprovalRequired(wisniewski)", _with(_P13, _e(
        7, "National Court Register extract KRS 0000418823, 1 December 2025", None, """
        Baltic Terminal Operators SA. Shareholders: State Treasury 51.0% (majority stake),
        Nordhavn Ports A/S 49.0%. Entry last changed 3 March 2021."""), _e(
        8, "Ministry of State Assets press release, 2 December 2025", None, """
        The State Treasury has completed the sale of its 51% stake in Baltic Terminal Operators
        SA to Nordhavn Ports A/S (closing 27 November 2025). The company is no longer a
        state-owned company.""")),
          facts=[*_P13_FACTS, _f(3, "StateOwnedCompanyEmployee(wisniewski)", "E-04", "E-07"),
                 _f(4, "StakeSoldBeforeMeal(wisniewski)", "E-04", "E-08")],
          rules=[*_P13_RULES, _r(5, ["StakeSoldBeforeMeal(wisniewski)"],
                                 "¬StateOwnedCompanyEmployee(wisniewski)", "E-08")],
          priorities=_P13_PRIO, status="both", contradiction=True, pair="pr-p13", role="update",
          tags=["rebut", "undercut", "undermine", "multi_step", "distractor", "update:add"]),
]


# --- pr-p14: demolition of a mill under a building preservation notice ---------------------------
# r1: a building under a preservation notice needs consent to be demolished; r2: a certificate of
# immunity means no consent is needed.  Neither text ranks itself above the other: mutual
# rebuttal, both UNDEC -> both.  Update: the council withdrew the notice and the re-issued
# package no longer contains it; r1 has no premise, r2 stands alone -> rejected.
_P14_HEAD = [
    _e(1, "Planning (Listed Buildings) Act 1990", "s. 7; s. 3(5)", """
        s. 7: listed building consent is required for the demolition of a listed building.
        s. 3(5): while a building preservation notice is in force the building is treated as
        listed, so demolition consent is required."""),
]
_P14_NOTICE = _e(2, "Building preservation notice BPN/25/04, Calderdale Council, served 2 June 2025", None, """
    Calder Mill, Wharf Road: the council considers the building of special architectural
    interest and has asked for it to be listed. This building preservation notice is in force
    for six months from service.""")
_P14_TAIL = [
    _e(3, "Planning (Listed Buildings) Act 1990", "s. 6(2)", """
        Where a certificate of immunity from listing has been issued for a building, the
        building may not be listed for five years, and its demolition does not require listed
        building consent during that period."""),
    _e(4, "Certificate of immunity from listing CI-2024-031", None, """
        Certificate of immunity from listing issued 10 January 2024 to Aire Valley Homes Ltd
        for Calder Mill, Wharf Road. The Secretary of State will not list the building before
        10 January 2029."""),
    _e(5, "Demolition notice under the Building Act, 16 June 2025", None, """
        Aire Valley Homes Ltd gives notice of the intended demolition of Calder Mill from
        1 September 2025; asbestos survey attached.""", distractor=True),
]
_P14_RULES = [
    _r(1, ["PreservationNoticeInForce(caldermill)"], "DemolitionConsentRequired(caldermill)", "E-01"),
    _r(2, ["CertificateOfImmunity(caldermill)"], "¬DemolitionConsentRequired(caldermill)", "E-03"),
]
_P14_QUERY = "Is listed building consent required to demolish Calder Mill in September 2025?"


SCENARIOS += [
    _case("reg-020", _P14_QUERY, "DemolitionConsentRequired(caldermill)",
          [*_P14_HEAD, _P14_NOTICE, *_P14_TAIL],
          facts=[_f(1, "PreservationNoticeInForce(caldermill)", "E-02"),
                 _f(2, "CertificateOfImmunity(caldermill)", "E-04")],
          rules=_P14_RULES,
          status="both", contradiction=True, pair="pr-p14", role="base",
          tags=["rebut", "distractor"]),
    _case("reg-021", _P14_QUERY, "DemolitionConsentRequired(caldermill)",
          [*_P14_HEAD, *_P14_TAIL],
          facts=[_f(1, "CertificateOfImmunity(caldermill)", "E-04")],
          rules=_P14_RULES,
          status="rejected", contradiction=False, pair="pr-p14", role="update",
          tags=["distractor", "update:remove"]),
]


# --- reg-022: a low-emission-zone charge and the presumption from the registration date ----------
# r3 presumes a diesel van first registered before September 2016 is non-compliant, so the charge
# is payable; the chain r1 -> r2 (certificate of conformity -> meets Euro 6 -> no charge) is the
# more specific evidence under para. 4(3) (r2 > r3).  r2's chain is IN, r3 is OUT -> rejected.
SCENARIOS.append(_case(
    "reg-022",
    "Is the daily Clean Air Zone charge payable for van KX15 RWD on 6 October 2025?",
    "ChargePayable(kx15rwd)",
    [
        _e(1, "Clean Air Zone Charging Order 2021", "para. 4(1)", """
            A daily charge is payable for a van driven in the zone unless it meets the Euro 6
            emission standard for diesel engines. A diesel van first registered before
            1 September 2016 is presumed not to meet that standard."""),
        _e(2, "Clean Air Zone Charging Order 2021", "para. 4(3)", """
            The presumption in para. 4(1) does not prevail over a manufacturer's certificate of
            conformity showing that the particular vehicle meets the Euro 6 emission standard;
            no charge is payable for a vehicle that meets the standard."""),
        _e(3, "Vehicle register record, KX15 RWD", None, """
            Ford Transit Custom 2.2 TDCi, fuel: diesel, first registered 12 June 2015, keeper
            Tarn Joinery Ltd."""),
        _e(4, "Manufacturer's certificate of conformity, VIN WF0YXXTTGYFJ40771", None, """
            Emission standard: Euro 6 (EC 715/2007 as amended, category N1 class III). Type
            approval e13*2007/46*1234*09. Certificate issued 2 June 2015."""),
        _e(5, "Zone camera record CAZ-ANPR-0612", None, """
            06/10/2025 07:48:12 camera CAZ-14 (Wellington Street inbound) read KX15 RWD - vehicle
            driven in the zone - match to register: Tarn Joinery Ltd."""),
        _e(6, "Council scrappage grant leaflet", None, """
            Small businesses can apply for up to GBP 4,500 towards replacing a non-compliant van
            with a Euro 6 or electric model.""", distractor=True),
    ],
    facts=[
        _f(1, "CertificateOfConformityEuro6(kx15rwd)", "E-04"),
        _f(2, "DieselFirstRegisteredBefore2016(kx15rwd)", "E-03"),
        _f(3, "DrivenInZone(kx15rwd)", "E-05"),
    ],
    rules=[
        _r(1, ["CertificateOfConformityEuro6(kx15rwd)"], "MeetsEuro6Standard(kx15rwd)", "E-02"),
        _r(2, ["MeetsEuro6Standard(kx15rwd)"], "¬ChargePayable(kx15rwd)", "E-02"),
        _r(3, ["DrivenInZone(kx15rwd)", "DieselFirstRegisteredBefore2016(kx15rwd)"],
           "ChargePayable(kx15rwd)", "E-01"),
    ],
    priorities=[_p("r2", "r3", "specificity", "E-02",
                   note="para. 4(3): the presumption does not prevail over the certificate")],
    status="rejected", contradiction=True, tags=["rebut", "multi_step", "distractor"],
))
