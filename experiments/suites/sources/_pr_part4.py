"""Internal-policy and regulatory scenarios of ``normative-en``, part 4 of 5
(authoring order; see :mod:`experiments.suites.sources.normative_en_pr`)."""

from __future__ import annotations

from ._pr_authoring import _case, _e, _f, _p, _r, _with  # noqa: F401

__all__ = ["SCENARIOS"]

SCENARIOS: list[dict] = []
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
