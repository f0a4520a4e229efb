"""Internal-policy and regulatory scenarios of ``normative-en``, part 5 of 5
(authoring order; see :mod:`experiments.suites.sources.normative_en_pr`)."""

from __future__ import annotations

from ._pr_authoring import _case, _e, _f, _p, _r, _with  # noqa: F401

__all__ = ["SCENARIOS"]

SCENARIOS: list[dict] = []
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
