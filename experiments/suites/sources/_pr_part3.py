"""Internal-policy and regulatory scenarios of ``normative-en``, part 3 of 5
(authoring order; see :mod:`experiments.suites.sources.normative_en_pr`)."""

from __future__ import annotations

from ._pr_authoring import _case, _e, _f, _p, _r, _with  # noqa: F401

__all__ = ["SCENARIOS"]

SCENARIOS: list[dict] = []
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
