"""The paper's penalty example (docs/semantics.md section 8), defined once.

A delayed delivery makes the supplier liable to a penalty (r1), force majeure excuses it (r2,
``r2 > r1``), gross negligence takes the excuse away (r3, ``r3 > r2``): the penalty is accepted.
Fragments E-01 to E-03 are the clauses, E-04 to E-06 the facts' sources (the other way round with
``facts_first=True``, as the metrics' examples cite them).  :func:`penalty_analysis` gives each
variant's objects, :func:`penalty_scenario` one case, :func:`penalty_table` the rows of the section 8
table (``tests/symbolic/fixtures/penalty_suite.jsonl`` is written from it).

Examples
--------
>>> import warnings
>>> from symbolic.engine.status import evaluate_analysis
>>> with warnings.catch_warnings():  # the priority-cycle row warns of its cycle
...     warnings.simplefilter("ignore")
...     [evaluate_analysis(s.evidence_ids(), s.gold, s.target).status.value for s in penalty_table()]
['accepted', 'both', 'rejected', 'both', 'undecidable', 'both', 'rejected']
"""

from __future__ import annotations

from symbolic.scenario.model import Analysis, EvidenceFragment, Fact, Gold, Metadata, Priority, Rule, Scenario

__all__ = ["PENALTY_FRAGMENTS", "PENALTY_QUERY", "PENALTY_TARGET", "PENALTY_VARIANTS", "UNRELATED_FRAGMENT",
           "penalty_analysis", "penalty_scenario", "penalty_table"]

PENALTY_QUERY = "Is the supplier liable to the delay penalty for shipment 118?"
PENALTY_TARGET = "Penalty(x)"

_AGREEMENT = "Supply Agreement 2024"

#: The case's evidence, norms first (E-01 to E-03 state r1, r2, r3; E-04 to E-06 the facts f1, f2, f3).
PENALTY_FRAGMENTS: tuple[EvidenceFragment, ...] = (
    EvidenceFragment(id="E-01", source=_AGREEMENT, clause="7.1",
                     text="Clause 7.1: a delay in delivery makes the supplier liable to a penalty."),
    EvidenceFragment(id="E-02", source=_AGREEMENT, clause="7.4",
                     text="Clause 7.4: no penalty is due for a delay caused by force majeure."),
    EvidenceFragment(id="E-03", source=_AGREEMENT, clause="7.5",
                     text="Clause 7.5: clause 7.4 does not apply where the supplier was grossly negligent."),
    EvidenceFragment(id="E-04", source="Delivery log", clause="entry 118",
                     text="Delivery log: shipment 118 arrived 12 days late."),
    EvidenceFragment(id="E-05", source="Supplier notice", clause="3 March",
                     text="Notice of 3 March: the supplier invokes force majeure (port strike)."),
    EvidenceFragment(id="E-06", source="Audit report 2024", clause="finding 2",
                     text="Audit report: the supplier ignored two strike warnings (gross negligence)."),
)

#: A fragment of the same agreement that bears on none of the objects (the ``unsupported`` variant cites it).
UNRELATED_FRAGMENT = EvidenceFragment(id="E-07", source=_AGREEMENT, clause="Annex C",
                                      text="Annex C: invoices are payable within 30 days.")

_FACTS = (Fact(id="f1", literal="Delay(x)", evidence=["E-04"]),
          Fact(id="f2", literal="ForceMajeure(x)", evidence=["E-05"]),
          Fact(id="f3", literal="GrossNegligence(x)", evidence=["E-06"]))
_RULES = (Rule(id="r1", antecedents=["Delay(x)"], consequent="Penalty(x)", evidence=["E-01"]),
          Rule(id="r2", antecedents=["ForceMajeure(x)"], consequent="¬Penalty(x)", evidence=["E-02"]),
          Rule(id="r3", antecedents=["GrossNegligence(x)"], consequent="Penalty(x)", evidence=["E-03"]))
_R2_OVER_R1 = Priority(stronger="r2", weaker="r1", basis="exception", evidence=["E-02"])
_R3_OVER_R2 = Priority(stronger="r3", weaker="r2", basis="exception", evidence=["E-03"])

#: Each variant: the objects and the status the engine gives them (docs/semantics.md section 8).
PENALTY_VARIANTS: dict[str, str] = {
    "gold": "accepted",
    "no-r3>r2": "both",
    "no-r3": "rejected",
    "no-priorities": "both",
    "no-facts": "undecidable",
    "priority-cycle": "both",
    "r3-ungrounded": "rejected",
    "no-r2": "accepted",
    "inverted": "rejected",
    "unsupported": "accepted",
}


def _facts_first(evidence_id: str) -> str:
    """The id of a norms-first fragment when the facts are numbered first (E-01 <-> E-04 ...)."""
    number = int(evidence_id[2:])
    return f"E-{number + 3 if number <= 3 else number - 3:02d}" if number <= 6 else evidence_id


def _renumbered(analysis: Analysis) -> Analysis:
    def cite(item):
        return item.model_copy(update={"evidence": tuple(_facts_first(e) for e in item.evidence)})

    return Analysis(facts=[cite(f) for f in analysis.facts], rules=[cite(r) for r in analysis.rules],
                    priorities=[cite(p) for p in analysis.priorities], attacks=[cite(a) for a in analysis.attacks])


def penalty_analysis(variant: str = "gold", *, facts_first: bool = False) -> Analysis:
    """The penalty objects of ``variant``.

    Parameters
    ----------
    variant : str
        ``gold`` (as given); the rows of the section 8 table: ``no-r3>r2`` (that
        priority omitted), ``no-r3`` (rule r3 and its priority omitted),
        ``no-priorities``, ``no-facts``, ``priority-cycle`` (``r1 > r3`` added),
        ``r3-ungrounded`` (r3 cites only E-09, a fragment not in the package);
        and for the metrics: ``no-r2`` (rule r2 and its priorities omitted),
        ``inverted`` (``r2 > r3`` instead of ``r3 > r2``), ``unsupported`` (the
        penalty derived by an invented rule ``r9`` cited to the unrelated annex
        E-07 instead of r1 and r3).
    facts_first : bool
        Number the facts' fragments first (see the module docstring).

    Raises
    ------
    ValueError
        If ``variant`` is not one of :data:`PENALTY_VARIANTS`.

    Examples
    --------
    >>> [p.stronger + ">" + p.weaker for p in penalty_analysis("inverted").priorities]
    ['r2>r1', 'r2>r3']
    >>> [f.evidence for f in penalty_analysis(facts_first=True).facts]
    [('E-01',), ('E-02',), ('E-03',)]
    """
    facts, rules, pris = list(_FACTS), list(_RULES), [_R2_OVER_R1, _R3_OVER_R2]
    if variant == "gold":
        pass
    elif variant == "no-r3>r2":
        pris = [_R2_OVER_R1]
    elif variant == "no-r3":
        rules, pris = rules[:2], [_R2_OVER_R1]
    elif variant == "no-priorities":
        pris = []
    elif variant == "no-facts":
        facts = []
    elif variant == "priority-cycle":
        pris.append(Priority(stronger="r1", weaker="r3", basis="temporal", evidence=["E-01"]))
    elif variant == "r3-ungrounded":
        rules[2] = rules[2].model_copy(update={"evidence": ("E-09",)})
    elif variant == "no-r2":
        rules, pris = [rules[0], rules[2]], []
    elif variant == "inverted":
        pris = [_R2_OVER_R1, Priority(stronger="r2", weaker="r3", basis="exception", evidence=["E-03"])]
    elif variant == "unsupported":
        rules = [Rule(id="r9", antecedents=["Delay(x)", "GrossNegligence(x)"], consequent="Penalty(x)",
                      evidence=[UNRELATED_FRAGMENT.id]), rules[1]]
        pris = [Priority(stronger="r9", weaker="r2", basis="authority", evidence=[UNRELATED_FRAGMENT.id])]
    else:
        raise ValueError(f"unknown penalty variant {variant!r}; expected one of {', '.join(PENALTY_VARIANTS)}")
    analysis = Analysis(facts=facts, rules=rules, priorities=pris)
    return _renumbered(analysis) if facts_first else analysis


def penalty_scenario(variant: str = "gold", *, id: str = "penalty-as-given", status: str | None = None,
                     metadata: Metadata | None = None, unrelated: bool = False,
                     facts_first: bool = False) -> Scenario:
    """The penalty case with the objects of ``variant`` as gold.

    Parameters
    ----------
    variant : str
        See :func:`penalty_analysis`.
    id : str
        The scenario id.
    status : str, optional
        The gold status; default the variant's (:data:`PENALTY_VARIANTS`).
    metadata : Metadata, optional
        Default: a contract case with a contradiction and a priority, tagged ``penalty-example``.
    unrelated : bool
        Add :data:`UNRELATED_FRAGMENT` to the evidence.
    facts_first : bool
        Number the facts' fragments first (see the module docstring).

    Examples
    --------
    >>> sc = penalty_scenario("no-facts", id="penalty-no-facts")
    >>> sc.gold.status.value, len(sc.evidence)
    ('undecidable', 6)
    """
    gold = penalty_analysis(variant, facts_first=facts_first)
    if metadata is None:
        metadata = Metadata(contradiction=True, priority=True, domain="contracts", tags=["penalty-example"])
    evidence = PENALTY_FRAGMENTS
    if facts_first:
        evidence = tuple(sorted((f.model_copy(update={"id": _facts_first(f.id)}) for f in evidence),
                                key=lambda f: f.id))
    evidence += (UNRELATED_FRAGMENT,) if unrelated else ()
    return Scenario(id=id, query=PENALTY_QUERY, target=PENALTY_TARGET, evidence=list(evidence),
                    gold=Gold(**gold.model_dump(), status=status or PENALTY_VARIANTS[variant]), metadata=metadata)


def penalty_table() -> list[Scenario]:
    """The rows of the section 8 table, one case each (``tests/symbolic/fixtures/penalty_suite.jsonl``)."""
    md = {"contradiction": True, "domain": "contracts", "priority": True, "tags": ["penalty-example"]}
    rows = [("penalty-as-given", "gold", md), ("penalty-no-r3-over-r2", "no-r3>r2", md),
            ("penalty-no-r3", "no-r3", md), ("penalty-no-priorities", "no-priorities", {**md, "priority": False}),
            ("penalty-no-facts", "no-facts", md), ("penalty-priority-cycle", "priority-cycle", md),
            ("penalty-r3-ungrounded", "r3-ungrounded", {**md, "tags": ["penalty-example", "ungrounded-gold"]})]
    return [penalty_scenario(variant, id=sid, metadata=Metadata(**meta)) for sid, variant, meta in rows]
