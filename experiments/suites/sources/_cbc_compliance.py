"""Compliance scenarios ``comp-001`` .. ``comp-012`` of ``normative-en``.

Fictional firms, people, screening vendors and jurisdictions (Korvania is
invented), written for paratrace.  Each block states the reasoning under
docs/semantics.md section 7 that gives its gold status.
"""

from __future__ import annotations

from .authoring import case, fact, frag, prio, revise, rule

__all__ = ["COMPLIANCE"]

COMPLIANCE: list[dict] = []

# --- cbc-p10: PEP-related client, self-declaration against screening, vendor correction -------
# r1 (s. 6.3) family member of a PEP -> PEP-related; r2 (s. 6.1) PEP-related -> EDD required;
# r3 (s. 4.6) the client's declaration -> not PEP-related, but screening prevails over a
# conflicting declaration (r1 > r3).  r3's rebuttals are neutralized, r1's is active -> r3 OUT,
# r1 and r2 IN -> accepted.  Update: the screening vendor deletes the relationship record as an
# error; the strict r4 undermines f1 (the screening match), so r1's and r2's arguments are OUT, r3
# is IN; the only path to EDD is OUT -> rejected.
_P10 = [
    frag("E-01", "Meridian Private Bank, AML Policy v7", "s. 6.1", """
        Enhanced due diligence is required before onboarding any client who is PEP-related, that
        is, a politically exposed person (PEP), a family member of a PEP or a known close
        associate of a PEP."""),
    frag("E-02", "Meridian Private Bank, AML Policy v7", "s. 6.3", """
        The spouse, civil partner, children and parents of a PEP are family members of a PEP and
        are treated as PEP-related for the whole of their relationship with the bank."""),
    frag("E-03", "Client self-declaration, A. Kessel, 2 September 2025", "Question 7", """
        'Are you, or is any member of your family, a politically exposed person (PEP)?' Answer: No,
        I am not PEP-related. Signed: Adrian Kessel."""),
    frag("E-04", "WorldScreen result WS-2025-118842, 2 September 2025", None, """
        KESSEL, Adrian (b. 14.03.1979) - relationship match: spouse and family member of Mira
        Kessel-Andrade, Deputy Minister of Finance of Veldonia (PEP, tier 1). Match confirmed on
        date of birth and residential address."""),
    frag("E-05", "Meridian Private Bank, AML Policy v7", "s. 4.6", """
        Client declarations may be relied on to treat a client as not PEP-related unless they are
        contradicted by screening results; where a declaration and a screening result conflict, the
        screening result prevails."""),
    frag("E-06", "Meridian Private Bank, AML Policy v7", "s. 9.2", """
        Customer due diligence records are kept for five years after the end of the business
        relationship.""", distractor=True),
]
_P10_Q = "Must Meridian Private Bank apply enhanced due diligence before onboarding Adrian Kessel?"
_P10_T = "EnhancedDueDiligenceRequired(kessel)"
_P10_FACTS = [fact("f1", "FamilyMemberOfPEP(kessel)", "E-04"),
              fact("f2", "DeclaredNotPEPRelated(kessel)", "E-03")]
_P10_RULES = [rule("r1", ["FamilyMemberOfPEP(kessel)"], "PEPRelated(kessel)", "E-02"),
              rule("r2", ["PEPRelated(kessel)"], _P10_T, "E-01"),
              rule("r3", ["DeclaredNotPEPRelated(kessel)"], "¬PEPRelated(kessel)", "E-05")]
_P10_PRIO = [prio("r1", "r3", "authority", "E-05", note="s. 4.6: screening prevails over a declaration")]
COMPLIANCE += [
    case("comp-001", _P10_Q, _P10_T, _P10, facts=_P10_FACTS, rules=_P10_RULES, priorities=_P10_PRIO,
         status="accepted", contradiction=True, pair="cbc-p10", role="base",
         tags=["rebut", "multi_step", "distractor"]),
    case("comp-002", _P10_Q, _P10_T, revise(_P10, add=[frag(
        "E-07", "WorldScreen data correction notice WS-DC-2025-4471, 19 September 2025", None, """
        The relationship record linking Adrian Kessel (b. 1979) to Mira Kessel-Andrade was created in
        error: her spouse is Adrian Kessel-Andrade (b. 1971). The record has been deleted as an
        error; Adrian Kessel (b. 1979) is not a family member of a PEP, and results returned for the
        record between 1 August and 18 September 2025 must be disregarded.""")]),
         facts=_P10_FACTS + [fact("f3", "ScreeningRecordDeletedAsError(kessel)", "E-07")],
         rules=_P10_RULES + [rule("r4", ["ScreeningRecordDeletedAsError(kessel)"], "¬FamilyMemberOfPEP(kessel)",
                                  "E-07", kind="strict")],
         priorities=_P10_PRIO, status="rejected", contradiction=True, pair="cbc-p10", role="update",
         tags=["rebut", "undermine", "multi_step", "distractor", "update:add"]),
]

# --- cbc-p12: CCTV retention, legal hold, hold released ----------------------------------------
# r1 (schedule item 7.3) retention period expired -> deletion required; r2 (hold procedure
# s. 2.1) footage under a legal hold excepts r1, whatever the schedule says (r2 > r1); r3
# (s. 5.2) a released hold excepts r2.  r3 undercuts r2 -> OUT; r1 IN -> accepted.  Update: a
# second hold notice arrives, but its scope is complaint files and it says CCTV is out of scope
# (distractor): nothing changes -> accepted.
_P12 = [
    frag("E-01", "Carrow Building Society, Records Retention Schedule 2025", "item 7.3", """
        CCTV recordings: retain for 30 days, then deletion is required unless the recording has been
        flagged for an incident investigation."""),
    frag("E-02", "Carrow Building Society, Legal Hold Procedure", "s. 2.1", """
        Records within the scope of a legal hold notice issued by Legal must not be deleted,
        whatever the retention schedule says; this procedure prevails over the schedule."""),
    frag("E-03", "Legal hold notice LH-2025-09, 20 February 2025", None, """
        Scope: all CCTV footage of the Leeds branch for 10-16 February 2025 (claim by Ms R. Addo for
        a fall in the branch on 14 February). The footage is under legal hold until released."""),
    frag("E-04", "Carrow Building Society, Legal Hold Procedure", "s. 5.2", """
        A legal hold ends when Legal issues a release notice; the released records then return to
        their normal retention period."""),
    frag("E-05", "Release notice for legal hold LH-2025-09, 3 November 2025", None, """
        The claim by Ms Addo was settled on 28 October 2025. Legal hold LH-2025-09 is released and
        the records may be handled under the retention schedule."""),
    frag("E-06", "RetentionSvc job log", None, """
        2025-11-04 02:00 | asset CCTV/LDS/2025-02-14 | retention period expired 2025-03-16 | status
        SUSPENDED (hold LH-2025-09) | next review 2025-12-01"""),
    frag("E-07", "Subject access request log, Carrow Building Society", None, """
        DSAR-25-0311 received 1 December 2025 from Mr P. Lowe: copies of his data, including CCTV
        images of the Leeds branch on 2 December 2025.""", distractor=True),
]
_P12_Q = "Must Carrow delete the Leeds branch CCTV footage of 14 February 2025 now?"
_P12_T = "DeletionRequired(cctv_leeds_0214)"
_P12_FACTS = [fact("f1", "RetentionPeriodExpired(cctv_leeds_0214)", "E-06"),
              fact("f2", "UnderLegalHold(cctv_leeds_0214)", "E-03"),
              fact("f3", "LegalHoldReleased(lh202509)", "E-05")]
_P12_RULES = [rule("r1", ["RetentionPeriodExpired(cctv_leeds_0214)"], _P12_T, "E-01"),
              rule("r2", ["UnderLegalHold(cctv_leeds_0214)"], "¬applicable(r1)", "E-02"),
              rule("r3", ["LegalHoldReleased(lh202509)"], "¬applicable(r2)", "E-04")]
_P12_PRIO = [prio("r2", "r1", "exception", "E-02", note="s. 2.1 'whatever the retention schedule says'")]
COMPLIANCE += [
    case("comp-003", _P12_Q, _P12_T, _P12, facts=_P12_FACTS, rules=_P12_RULES, priorities=_P12_PRIO,
         status="accepted", contradiction=True, pair="cbc-p12", role="base",
         tags=["undercut", "nested_exception", "distractor"]),
    case("comp-012", _P12_Q, _P12_T, revise(_P12, add=[frag(
        "E-08", "Legal hold notice LH-2025-31, 6 November 2025", None, """
        Regulatory inquiry into complaint handling at the Leeds branch. Scope: complaint files and
        call recordings for January-June 2025. CCTV footage is out of scope of this hold.""",
        distractor=True)]),
         facts=_P12_FACTS, rules=_P12_RULES, priorities=_P12_PRIO, status="accepted", contradiction=True,
         pair="cbc-p12", role="update", tags=["undercut", "nested_exception", "distractor", "update:add"]),
]

# --- comp-004: SAR filing deadline, filing neither proved nor disproved -------------------------
# r1 (s. 12.4) suspicion confirmed and no filing within 30 days -> deadline breached.  The MLRO's
# report says the SAR was filed, the portal export cannot confirm it either way; there is no
# evidence that it was not filed in time, and no rule concludes the opposite -> undecidable.
COMPLIANCE.append(case(
    "comp-004", "Did Fairhaven Payments breach the 30-day deadline for filing a suspicious activity report in case 25-0917?",
    "SARDeadlineBreached(fairhaven)", [
        frag("E-01", "Fairhaven Payments Ltd, Financial Crime Manual", "s. 12.4", """
            Once the MLRO confirms suspicion on an escalated alert, a suspicious activity report must
            be filed within 30 calendar days of confirmation. A report not filed within that time is a
            breach of the SAR deadline and of this Manual."""),
        frag("E-02", "Case management system, case 25-0917", None, """
            cust 88-1042 | 2025-06-02 alert raised (structuring pattern) | 2025-06-05 escalated to MLRO
            | 2025-06-09 MLRO: 'suspicion confirmed, prepare SAR'"""),
        frag("E-03", "MLRO weekly report, week 27 (30 June - 6 July 2025)", None, """
            SARs filed this week: 4, including case 25-0917 (portal receipt pending)."""),
        frag("E-04", "FIU reporting portal, submissions export for Fairhaven Payments Ltd, June-July 2025", None, """
            3 reports submitted; the internal case reference field is optional and is blank on all 3
            submissions listed."""),
        frag("E-05", "Fairhaven Payments Ltd, Financial Crime Manual", "s. 12.7", """
            Staff must not tell a customer, or anyone else, that a report has been or may be
            made.""", distractor=True),
    ],
    facts=[fact("f1", "SuspicionConfirmed(c881042)", "E-02"),
           fact("f2", "SARReportedFiled(c881042)", "E-03"),
           fact("f3", "PortalSubmissionsListed(fairhaven)", "E-04")],
    rules=[rule("r1", ["SuspicionConfirmed(c881042)", "NotFiledWithin30Days(c881042)"],
                "SARDeadlineBreached(fairhaven)", "E-01")],
    status="undecidable", contradiction=False, tags=["absence_of_proof", "distractor"]))

# --- comp-005: export classification, engineering memo against manufacturer declaration -------
# r1 (s. 3.1) controlled dual-use item and destination outside the EU -> licence required; r2
# (s. 3.5) below every control threshold -> no licence.  The engineering memo classifies the core
# as controlled (30 Hz), the manufacturer declares the shipped firmware locked below the
# threshold; no priority between the two readings -> the rebuttals stay active -> both.
COMPLIANCE.append(case(
    "comp-005", "Does Astrel Photonics need an export licence to ship 40 TC-640 camera cores to Belgrade?",
    "ExportLicenceRequired(so77315)", [
        frag("E-01", "Astrel Photonics GmbH, Export Compliance Manual", "s. 3.1", """
            An item classified under a controlled entry of the Dual-Use List requires an individual
            export licence for any destination outside the EU."""),
        frag("E-02", "Astrel Photonics GmbH, Export Compliance Manual", "s. 3.5", """
            An item whose performance is below the control thresholds of every controlled entry is not
            listed and needs no export licence, unless an end-use control applies."""),
        frag("E-03", "Classification memo CL-118, Astrel engineering, 12 May 2025", None, """
            TC-640 camera core: 640 x 512 microbolometer, frame rate 30 Hz. Classification: controlled
            dual-use item, entry 6A003.b.4 (frame rate above 9 Hz)."""),
        frag("E-04", "Manufacturer's export declaration, Thermion Sensors, 2 June 2025", None, """
            TC-640 OEM cores ship with firmware locked at 8.3 Hz; the lock cannot be changed by the
            user. Performance is below the control thresholds of every controlled entry; not
            listed."""),
        frag("E-05", "Sales order SO-77315", None, """
            40 x TC-640 camera cores; consignee Vidik Systems d.o.o., Belgrade, Serbia; destination
            outside the EU; requested ship date 30 June 2025."""),
        frag("E-06", "Commercial invoice draft for SO-77315", None, """
            Tariff code 8525 89 00; value EUR 96,000; Incoterms FCA Munich.""", distractor=True),
    ],
    facts=[fact("f1", "ControlledDualUseItem(tc640)", "E-03"),
           fact("f2", "BelowControlThresholds(tc640)", "E-04"),
           fact("f3", "DestinationOutsideEU(so77315)", "E-05")],
    rules=[rule("r1", ["ControlledDualUseItem(tc640)", "DestinationOutsideEU(so77315)"],
                "ExportLicenceRequired(so77315)", "E-01"),
           rule("r2", ["BelowControlThresholds(tc640)"], "¬ExportLicenceRequired(so77315)", "E-02")],
    status="both", contradiction=True, tags=["rebut", "distractor"]))

# --- comp-006: data localisation against a supervisory instruction (strict conflict) -----------
# Both norms are mandatory: the (fictional) Korvanian statute forbids the transfer outright; the
# group supervisor's instruction requires it.  Two strict arguments for p and not-p do not attack
# each other; both IN -> both.
COMPLIANCE.append(case(
    "comp-006", "May Kestrel Re's Korvania branch transfer its 2024 claims files to group internal audit in Frankfurt?",
    "TransferPermitted(claims2024)", [
        frag("E-01", "Korvanian Personal Data Localisation Act (fictional jurisdiction)", "s. 9(1)", """
            Personal data of Korvanian residents held by a financial institution shall not be
            transferred outside Korvania; no such transfer is permitted on any ground."""),
        frag("E-02", "Instruction of the Federal Insurance Supervisor to Kestrel Re Group, 12 May 2025", None, """
            The group internal audit function shall receive copies of the claims files of every
            branch for 2024, including personal data, at its Frankfurt office by 30 June 2025. The
            branches are required and permitted to make this transfer."""),
        frag("E-03", "Kestrel Re Korvania branch, data inventory", None, """
            2024 claims files: 11,482 records; data subjects: Korvanian residents (100%); storage:
            Almera data centre."""),
        frag("E-04", "Kestrel Re Group, Data Protection Standard DPS-3", "s. 5", """
            Files transferred between group entities must be encrypted in transit with TLS 1.2 or
            later.""", distractor=True),
    ],
    facts=[fact("f1", "KorvanianResidentData(claims2024)", "E-03"),
           fact("f2", "SupervisoryInstructionToTransfer(claims2024)", "E-02")],
    rules=[rule("r1", ["KorvanianResidentData(claims2024)"], "¬TransferPermitted(claims2024)", "E-01",
                kind="strict"),
           rule("r2", ["SupervisoryInstructionToTransfer(claims2024)"], "TransferPermitted(claims2024)", "E-02",
                kind="strict")],
    status="both", contradiction=True, tags=["strict_conflict", "distractor"]))

# --- cbc-p11: share dealing in a closed period, insider list --------------------------------------
# r1 (s. 4.1) pre-clearance -> dealing permitted; r2 (s. 6.1) closed period and on the insider
# list -> not permitted, and clearance given for a closed period is void (r2 > r1).  r1 OUT, r2 IN
# -> rejected.  Update: version 7 of the insider list (amended fragment) shows Ms Duarte removed
# on 20 February; r2 is no longer applicable, r1 stands -> accepted.
_P11 = [
    frag("E-01", "Halcyon Therapeutics plc, Share Dealing Code", "s. 4.1", """
        A person who has obtained pre-clearance from the Company Secretary may deal within the two
        business days after clearance; dealing so cleared is permitted."""),
    frag("E-02", "Halcyon Therapeutics plc, Share Dealing Code", "s. 6.1", """
        No person on an insider list may deal during a closed period, and any clearance given for
        dealing in a closed period is void."""),
    frag("E-03", "Pre-clearance PC-25-044, Company Secretary, 28 February 2025", None, """
        Pre-clearance granted to I. Duarte for a sale of up to 12,000 ordinary shares, valid until
        close of business on 4 March 2025."""),
    frag("E-04", "Halcyon Therapeutics plc, closed periods 2025", None, """
        Closed period: 10 February - 6 March 2025 (preliminary results announced 6 March 2025)."""),
    frag("E-05", "Insider list - Project Heron (preliminary results), version 6, 10 February 2025", None, """
        Persons on the insider list: ... I. Duarte, Head of Investor Relations, added 10 February
        2025 ..."""),
    frag("E-06", "Contract note, Bramwell Stockbrokers", None, """
        Sold 12,000 HCT ordinary shares at GBP 4.12 for I. Duarte; trade date 03/03/2025."""),
]
_P11_Q = "Was Ms Duarte's sale of 12,000 Halcyon shares on 3 March 2025 permitted under the Share Dealing Code?"
_P11_T = "DealingPermitted(duarte)"
_P11_FACTS = [fact("f1", "PreClearanceGranted(duarte)", "E-03"),
              fact("f2", "ClosedPeriod(heron_results)", "E-04"),
              fact("f4", "SharesSold(duarte)", "E-06")]
_P11_RULES = [rule("r1", ["PreClearanceGranted(duarte)"], _P11_T, "E-01"),
              rule("r2", ["ClosedPeriod(heron_results)", "OnInsiderList(duarte)"], "¬" + _P11_T, "E-02")]
_P11_PRIO = [prio("r2", "r1", "exception", "E-02", note="s. 6.1: clearance for a closed period is void")]
COMPLIANCE += [
    case("comp-007", _P11_Q, _P11_T, _P11, facts=_P11_FACTS + [fact("f3", "OnInsiderList(duarte)", "E-05")],
         rules=_P11_RULES, priorities=_P11_PRIO, status="rejected", contradiction=True,
         pair="cbc-p11", role="base", tags=["rebut"]),
    case("comp-008", _P11_Q, _P11_T, revise(_P11, amend=[frag(
        "E-05", "Insider list - Project Heron (preliminary results), version 7, 21 February 2025", None, """
        Change log: I. Duarte removed from the insider list on 20 February 2025 (reassigned to
        Project Osprey, which is not price-sensitive and has no insider list).""")]),
         facts=_P11_FACTS + [fact("f3", "¬OnInsiderList(duarte)", "E-05")],
         rules=_P11_RULES, priorities=_P11_PRIO, status="accepted", contradiction=False,
         pair="cbc-p11", role="update", tags=["update:amend"]),
]

# --- comp-009: board vote with a material interest (defeater with priority, two steps) ---------
# r1 (Charter s. 3.2) a director may vote; r3 (Policy s. 5.3) a holding above 5% in the
# counterparty's parent is a material interest; r2 (Policy s. 5.1) is a defeater: a director with
# a material interest "should not vote".  The Charter gives the Conflicts Policy precedence
# (r2 > r1): r1's rebuttal of the defeater is neutralized, the defeater's is active -> r1 OUT, the
# defeater IN -> rejected.
COMPLIANCE.append(case(
    "comp-009", "May Mr Haas vote on the award of the pipe-renewal contract to Ferrant Pipes?",
    "MayVote(haas)", [
        frag("E-01", "Norvale Water plc, Board Charter", "s. 3.2", """
            Each director may vote on any matter before the Board."""),
        frag("E-02", "Norvale Water plc, Conflicts of Interest Policy", "s. 5.1", """
            A director with a material interest in a counterparty should not vote on matters
            concerning that counterparty."""),
        frag("E-03", "Register of Directors' Interests, entry 2025/07", None, """
            R. Haas: shareholding of 18% in Ferrant Holdings Ltd, parent company of Ferrant Pipes Ltd,
            above the 5% threshold."""),
        frag("E-04", "Norvale Water plc, Conflicts of Interest Policy", "s. 5.3", """
            A shareholding above 5% in a counterparty or in its parent company is a material interest
            in that counterparty."""),
        frag("E-05", "Norvale Water plc, Board Charter", "s. 1.4", """
            Where the Conflicts of Interest Policy addresses a matter, it prevails over this
            Charter."""),
        frag("E-06", "Board minutes, 14 October 2025", None, """
            Present: directors A. Finch (Chair), R. Haas, M. Oduya, S. Petrov, L. Wren. Item 6: award
            of the pipe-renewal contract, lot 2."""),
        frag("E-07", "Procurement evaluation report, pipe-renewal lot 2", None, """
            Ferrant Pipes Ltd scored 81/100 (price 44/50, quality 37/50); next bidder 76/100.""",
             distractor=True),
    ],
    facts=[fact("f1", "Director(haas)", "E-06"),
           fact("f2", "ShareholdingAboveFivePercent(haas)", "E-03")],
    rules=[rule("r1", ["Director(haas)"], "MayVote(haas)", "E-01"),
           rule("r2", ["MaterialInterest(haas)"], "¬MayVote(haas)", "E-02", kind="defeater"),
           rule("r3", ["ShareholdingAboveFivePercent(haas)"], "MaterialInterest(haas)", "E-04")],
    priorities=[prio("r2", "r1", "hierarchy", "E-05", note="Charter s. 1.4: the Conflicts Policy prevails")],
    status="rejected", contradiction=True, tags=["defeater", "rebut", "multi_step", "distractor"]))

# --- comp-010: ownership-based freeze, screening negative but ownership test open -------------
# r1 (s. 7.1) owned more than 50% by designated persons -> freeze: the trust's beneficiaries are
# unknown, so r1 has no argument.  r2 (s. 7.3) no list match -> no freeze on list grounds, but
# s. 7.4 excepts r2 while the ownership test is incomplete (r3): r2 OUT.  Nothing stands on either
# side -> undecidable.
COMPLIANCE.append(case(
    "comp-010", "Must Lindenhof Bank freeze the account of Korvex Trading FZE?",
    "FreezeRequired(korvex)", [
        frag("E-01", "Lindenhof Bank AG, Sanctions Policy", "s. 7.1", """
            Accounts of an entity owned more than 50%, directly or indirectly, by one or more
            designated persons must be frozen, and a freeze is required without delay."""),
        frag("E-02", "Korvex Trading FZE, ownership chart in the client file (2025)", None, """
            49% owned by Sergei Valko (designated since 2024); 51% owned by Amber Crest Trust
            (trustee: Fidelis Trustees Ltd; beneficiaries not disclosed)."""),
        frag("E-03", "Name screening result, 4 November 2025", None, """
            Korvex Trading FZE: no list match on any sanctions list screened."""),
        frag("E-04", "Lindenhof Bank AG, Sanctions Policy", "ss. 7.3 and 7.4", """
            7.3 Where an entity returns no list match on name screening, no freeze is required on list
            grounds. 7.4 A negative screening result does not exclude an ownership-based freeze:
            s. 7.3 does not apply while the ownership test under s. 7.1 is incomplete."""),
        frag("E-05", "Compliance case note FCC-25-771, 7 November 2025", None, """
            Ownership test incomplete: trust deed and beneficiary list requested from Fidelis on
            6 November, not yet received."""),
        frag("E-06", "E-mail, relationship manager to compliance, 7 November 2025", None, """
            Korvex is a long-standing client and is not on any list; please release the outgoing
            payment today.""", distractor=True),
    ],
    facts=[fact("f1", "DesignatedPersonOwns49Percent(korvex)", "E-02"),
           fact("f2", "NoListMatch(korvex)", "E-03"),
           fact("f3", "OwnershipTestIncomplete(korvex)", "E-05", "E-02")],
    rules=[rule("r1", ["OwnedOverFiftyPercentByDesignated(korvex)"], "FreezeRequired(korvex)", "E-01"),
           rule("r2", ["NoListMatch(korvex)"], "¬FreezeRequired(korvex)", "E-04"),
           rule("r3", ["OwnershipTestIncomplete(korvex)"], "¬applicable(r2)", "E-04")],
    status="undecidable", contradiction=True, tags=["undercut", "absence_of_proof", "distractor"]))

# --- comp-011: cash reporting threshold, group policy against branch procedure (cycle) --------
# r1 (Group Cash Policy s. 2.1) deposit of EUR 5,000 or more -> report; r2 (branch procedure
# s. 3.2) deposit below EUR 10,000 -> not reportable.  The group policy claims precedence over
# any local procedure (r1 > r2), the branch procedure claims precedence for its thresholds
# (r2 > r1).  Unresolved cycle: comparisons dropped, rebuttals active, both UNDEC -> both.
COMPLIANCE.append(case(
    "comp-011", "Must Grenmark Bank's Tallinn branch report the EUR 9,500 cash deposit of 2 December 2025 to Group Financial Crime?",
    "CashReportRequired(dep1202)", [
        frag("E-01", "Grenmark Bank Group, Cash Policy", "s. 2.1", """
            Every cash deposit of EUR 5,000 or more must be reported to Group Financial Crime within
            two business days; a report is required regardless of the customer's risk rating."""),
        frag("E-02", "Grenmark Bank Group, Cash Policy", "s. 1.3", """
            This Policy prevails over any local procedure of a branch or subsidiary."""),
        frag("E-03", "Tallinn branch procedure TLN-FC-04", "s. 0.4", """
            Adopted at the request of the local supervisor. For deposits at this branch, the
            thresholds in this procedure prevail over group policy."""),
        frag("E-04", "Tallinn branch procedure TLN-FC-04", "s. 3.2", """
            Cash deposits below EUR 10,000 are not reportable to Group Financial Crime; they are
            monitored locally by the branch."""),
        frag("E-05", "Tallinn branch teller log", None, """
            2025-12-02 11:37 | teller 04 | Aava Interiors OU | cash deposit EUR 9,500.00 | ID checked"""),
        frag("E-06", "Grenmark Bank Group, Cash Policy", "s. 4.1", """
            Cash withdrawals above EUR 15,000 require one business day's notice.""", distractor=True),
    ],
    facts=[fact("f1", "CashDepositAtLeast5000(dep1202)", "E-05"),
           fact("f2", "CashDepositBelow10000(dep1202)", "E-05")],
    rules=[rule("r1", ["CashDepositAtLeast5000(dep1202)"], "CashReportRequired(dep1202)", "E-01"),
           rule("r2", ["CashDepositBelow10000(dep1202)"], "¬CashReportRequired(dep1202)", "E-04")],
    priorities=[prio("r1", "r2", "hierarchy", "E-02", note="Group Cash Policy s. 1.3"),
                prio("r2", "r1", "specificity", "E-03", note="TLN-FC-04 s. 0.4")],
    status="both", contradiction=True, tags=["priority_cycle", "rebut", "distractor"]))
