"""Internal-policy and regulatory scenarios of ``normative-en``, part 2 of 5
(authoring order; see :mod:`experiments.suites.sources.normative_en_pr`)."""

from __future__ import annotations

from ._pr_authoring import _case, _e, _f, _p, _r, _with  # noqa: F401

__all__ = ["SCENARIOS"]

SCENARIOS: list[dict] = []
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
