"""Suite checks: gold consistency and annotation smells (experiments/suites/normative-en.md).

Three families of findings, each a :class:`Finding`:

- **gold** -- the engine recomputes every scenario's status (Definition 5) and,
  where a gold trace is stored, its trace normal form (Algorithm 4); the gold
  analysis must be fully grounded in its evidence package;
- **metadata** -- the ``contradiction`` and ``priority`` flags, the feature tags
  and the update pairs must say what the engine and the data show (the
  authoring format in :mod:`experiments.suites.sources` defines each one);
- **smell** -- a fact or rule whose cited fragments do not mention its key
  terms, a fragment no gold object cites that is not tagged ``distractor``,
  or a ``distractor`` fragment that a gold object cites.
"""

from __future__ import annotations

import re
import warnings
from collections import defaultdict
from dataclasses import dataclass
from typing import Iterable, Sequence

from symbolic.errors import PriorityCycleWarning
from symbolic.scenario.labels import AttackKind, RuleKind, Status
from symbolic.scenario.literals import atom, complement
from symbolic.scenario.model import Analysis, Scenario
from symbolic.engine.results import Evaluation
from symbolic.engine.status import evaluate_analysis
from symbolic.traces.tnf import tnf, tnf_equivalent

__all__ = [
    "FEATURE_TAGS",
    "Finding",
    "check_scenarios",
    "content_words",
    "evaluate_gold",
    "gold_findings",
    "gold_trace",
    "has_contradiction",
    "metadata_findings",
    "pair_findings",
    "smell_findings",
]

FEATURE_TAGS = frozenset({
    "absence_of_proof", "appendix_b", "defeater", "distractor", "multi_step", "nested_exception",
    "priority_cycle", "rebut", "strict_conflict", "undercut", "undermine",
    "update:add", "update:amend", "update:remove",
})
_STOP = frozenset({"with", "from", "than", "over", "under", "into", "that", "this", "been", "have",
                   "applicable"})


@dataclass(frozen=True, slots=True)
class Finding:
    """One problem found in a suite.

    Attributes
    ----------
    case : str
        The scenario id (or the pair id for a pair finding).
    family : {"gold", "metadata", "smell"}
    check : str
        A short name of the check (``status``, ``trace``, ``grounding``,
        ``flag:contradiction``, ``tag:undercut``, ``pair``, ``terms``,
        ``unused-fragment``, ``cited-distractor``).
    message : str
        What is wrong, naming the object and the values.
    """

    case: str
    family: str
    check: str
    message: str

    def __str__(self) -> str:
        return f"{self.case}: {self.family}/{self.check}: {self.message}"


def evaluate_gold(scenario: Scenario, analysis: Analysis | None = None) -> Evaluation:
    """Run the engine on the gold analysis (or ``analysis``) over the scenario's package.

    Priority cycles are expected in some scenarios; their warning is silenced.

    Examples
    --------
    >>> from symbolic.scenario.model import EvidenceFragment, Fact, Gold
    >>> s = Scenario(id="c1", query="q?", target="P(x)",
    ...              evidence=[EvidenceFragment(id="E-01", text="P holds for x.", source="doc")],
    ...              gold=Gold(status="accepted", facts=[Fact(id="f1", literal="P(x)", evidence=["E-01"])]))
    >>> evaluate_gold(s).status.value
    'accepted'
    """
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PriorityCycleWarning)
        return evaluate_analysis(scenario.evidence_ids(), scenario.gold if analysis is None else analysis,
                                 scenario.target)


def gold_trace(scenario: Scenario):
    """The trace normal form of the gold analysis (what the build stores in ``gold.trace``)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PriorityCycleWarning)
        return tnf(scenario.evidence_ids(), scenario.gold, scenario.target, query=scenario.query)


def gold_findings(scenario: Scenario, evaluation: Evaluation | None = None) -> list[Finding]:
    """Status, trace and grounding of the gold analysis against the engine.

    Examples
    --------
    >>> from symbolic.scenario.model import EvidenceFragment, Fact, Gold
    >>> s = Scenario(id="c1", query="q?", target="P(x)",
    ...              evidence=[EvidenceFragment(id="E-01", text="P holds for x.", source="doc")],
    ...              gold=Gold(status="rejected", facts=[Fact(id="f1", literal="P(x)", evidence=["E-01"])]))
    >>> [str(f) for f in gold_findings(s)]
    ['c1: gold/status: gold status is rejected but the engine computes accepted']
    """
    ev = evaluation or evaluate_gold(scenario)
    out = []
    if ev.status is not scenario.gold.status:
        out.append(Finding(scenario.id, "gold", "status",
                           f"gold status is {scenario.gold.status.value} but the engine computes {ev.status.value}"))
    for dropped in ev.theory.dropped:
        out.append(Finding(scenario.id, "gold", "grounding",
                           f"gold {dropped.kind} {dropped.id} is not grounded: {dropped.reason}"))
    if scenario.gold.trace is not None and not tnf_equivalent(scenario.gold.trace, gold_trace(scenario)):
        out.append(Finding(scenario.id, "gold", "trace",
                           "gold trace is not TNF-equivalent to the trace recomputed from the gold analysis"))
    return out


def has_contradiction(evaluation: Evaluation) -> bool:
    """The ``contradiction`` flag: an attack, or arguments for some literal and its complement.

    Examples
    --------
    >>> from symbolic.scenario.model import EvidenceFragment, Fact, Gold, Rule
    >>> e = ["E-01"]
    >>> s = Scenario(id="c1", query="q?", target="P(x)",
    ...              evidence=[EvidenceFragment(id="E-01", text="t", source="doc")],
    ...              gold=Gold(status="both", facts=[Fact(id="f1", literal="a", evidence=e)],
    ...                        rules=[Rule(id="r1", antecedents=["a"], consequent="P(x)", kind="strict", evidence=e),
    ...                               Rule(id="r2", antecedents=["a"], consequent="¬P(x)", kind="strict", evidence=e)]))
    >>> ev = evaluate_gold(s)
    >>> len(ev.attacks), has_contradiction(ev)
    (0, True)
    """
    if evaluation.attacks:
        return True
    conclusions = {a.conclusion for a in evaluation.arguments if not a.defeater}
    every = {a.conclusion for a in evaluation.arguments}
    return any(complement(c) in every for c in conclusions)


def content_words(literal: str) -> tuple[str, ...]:
    """The key terms of a literal: its predicate's CamelCase parts, first five letters.

    Examples
    --------
    >>> content_words("¬NoticeReceivedAfterCutoff(aster)")
    ('notic', 'recei', 'after', 'cutof')
    >>> content_words("PEPRelated(kessel)")
    ('pep', 'relat')
    """
    predicate = atom(literal).split("(", 1)[0]
    parts = re.findall(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+", predicate)
    return tuple(p.lower()[:5] for p in parts
                 if (len(p) > 2 or p.isupper()) and p.lower() not in _STOP)


def _mentions(scenario: Scenario, ids: Iterable[str], literals: Iterable[str]) -> bool:
    ids = set(ids)
    text = " ".join(f.text for f in scenario.evidence if f.id in ids).lower()
    words = {w for lit in literals for w in content_words(lit)}
    return not words or any(w in text for w in words)


def smell_findings(scenario: Scenario) -> list[Finding]:
    """Annotation smells: unmentioned key terms, unused or cited distractor fragments.

    Examples
    --------
    >>> from symbolic.scenario.model import EvidenceFragment, Fact, Gold
    >>> s = Scenario(id="c1", query="q?", target="Delay(x)",
    ...              evidence=[EvidenceFragment(id="E-01", text="Goods arrived on time.", source="log"),
    ...                        EvidenceFragment(id="E-02", text="Unrelated.", source="memo")],
    ...              gold=Gold(status="accepted", facts=[Fact(id="f1", literal="Delay(x)", evidence=["E-01"])]))
    >>> for f in smell_findings(s): print(f)
    c1: smell/terms: fact f1 'Delay(x)': cited fragments E-01 mention none of delay
    c1: smell/unused-fragment: fragment E-02 is cited by no gold object and not tagged distractor
    """
    gold, out = scenario.gold, []
    for f in gold.facts:
        if not _mentions(scenario, f.evidence, [f.literal]):
            out.append(Finding(scenario.id, "smell", "terms",
                               f"fact {f.id} {f.literal!r}: cited fragments {', '.join(f.evidence)} mention none "
                               f"of {', '.join(content_words(f.literal))}"))
    for r in gold.rules:
        literals = r.antecedents if r.excepts else (r.consequent,)
        if not _mentions(scenario, r.evidence, literals):
            words = sorted({w for lit in literals for w in content_words(lit)})
            out.append(Finding(scenario.id, "smell", "terms",
                               f"rule {r.id} {r.consequent!r}: cited fragments {', '.join(r.evidence)} mention "
                               f"none of {', '.join(words)}"))
    cited = {e for obj in (*gold.facts, *gold.rules, *gold.priorities, *gold.attacks) for e in obj.evidence}
    for frag in scenario.evidence:
        distractor = "distractor" in frag.tags
        if frag.id not in cited and not distractor:
            out.append(Finding(scenario.id, "smell", "unused-fragment",
                               f"fragment {frag.id} is cited by no gold object and not tagged distractor"))
        elif frag.id in cited and distractor:
            out.append(Finding(scenario.id, "smell", "cited-distractor",
                               f"fragment {frag.id} is tagged distractor but a gold object cites it"))
    return out


def _tag_properties(scenario: Scenario, ev: Evaluation) -> dict[str, bool]:
    """What the engine shows for each checkable feature tag."""
    args = {a.id: a for a in ev.arguments}
    kinds = {a.kind for a in ev.attacks}
    rules = {r.id: r for r in ev.theory.rules}
    attacking_rules = {r for att in ev.attacks for r in args[att.attacker].rules}
    nested = any(
        r.excepts in rules and (rules[r.excepts].excepts is not None or r.excepts in attacking_rules)
        for r in rules.values() if r.excepts
    ) or any(
        (b, c) in ev.priorities.base and a != c for (a, b) in ev.priorities.base for c in rules
    )
    sides = {ev.target, complement(ev.target)}
    attacked_sides = {att.target for att in ev.attacks if args[att.target].conclusion in sides}
    multi = any(len(a.rules) >= 2 and (a.conclusion in sides or any(
        att.attacker == a.id and att.target in attacked_sides for att in ev.attacks)) for a in ev.arguments)
    strict_both = (ev.status is Status.BOTH
                   and any(a.conclusion == ev.target and a.strict and a.top_rule for a in ev.arguments)
                   and any(a.conclusion == complement(ev.target) and a.strict and a.top_rule
                           for a in ev.arguments))
    return {
        "rebut": any(a.kind is AttackKind.REBUT and args[a.attacker].top_rule is not None for a in ev.attacks),
        "undercut": AttackKind.UNDERCUT in kinds,
        "undermine": AttackKind.UNDERMINE in kinds,
        "priority_cycle": bool(ev.priorities.cycles),
        "defeater": any(r.kind is RuleKind.DEFEATER for r in rules.values()),
        "distractor": any("distractor" in f.tags for f in scenario.evidence),
        "strict_conflict": strict_both,
        "absence_of_proof": ev.status is Status.UNDECIDABLE,
        "nested_exception": nested,
        "multi_step": multi,
    }


# Tags whose presence must match the property exactly; the others only need the property.
_EXACT = ("rebut", "undercut", "undermine", "priority_cycle", "defeater", "distractor",
          "strict_conflict", "absence_of_proof")


def metadata_findings(scenario: Scenario, evaluation: Evaluation | None = None, *,
                      vocabulary: bool = True) -> list[Finding]:
    """Flags and feature tags against the engine's evaluation of the gold analysis.

    ``vocabulary=False`` skips the tag checks (generated suites carry their own tags).
    """
    ev = evaluation or evaluate_gold(scenario)
    meta, out = scenario.metadata, []
    contradiction = has_contradiction(ev)
    if meta.contradiction != contradiction:
        out.append(Finding(scenario.id, "metadata", "flag:contradiction",
                           f"contradiction flag is {meta.contradiction} but the gold analysis "
                           f"{'has' if contradiction else 'has no'} attack or complementary arguments"))
    if meta.priority != bool(scenario.gold.priorities):
        out.append(Finding(scenario.id, "metadata", "flag:priority",
                           f"priority flag is {meta.priority} but the gold analysis has "
                           f"{len(scenario.gold.priorities)} priorities"))
    if not vocabulary:
        return out
    tags = set(meta.tags)
    for unknown in sorted(tags - FEATURE_TAGS):
        out.append(Finding(scenario.id, "metadata", "tag:unknown", f"tag {unknown!r} is not in the vocabulary"))
    props = _tag_properties(scenario, ev)
    for tag, holds in props.items():
        if tag in tags and not holds:
            out.append(Finding(scenario.id, "metadata", f"tag:{tag}", f"tagged {tag} but the engine shows none"))
        elif tag in _EXACT and holds and tag not in tags:
            out.append(Finding(scenario.id, "metadata", f"tag:{tag}", f"not tagged {tag} but the engine shows it"))
    updates = {t for t in tags if t.startswith("update:")}
    if bool(updates) != (meta.role == "update"):
        out.append(Finding(scenario.id, "metadata", "tag:update",
                           "update:* tags belong exactly to scenarios with role update"))
    return out


def pair_findings(scenarios: Sequence[Scenario]) -> list[Finding]:
    """Update pairs: one base and one update with the same query, target and domain,
    and a package that differs as the update's tags say.
    """
    roles: dict[str, dict[str, list[Scenario]]] = defaultdict(lambda: defaultdict(list))
    for s in scenarios:
        if s.metadata.pair is not None:
            roles[s.metadata.pair][s.metadata.role].append(s)
    out = []
    for pair, by_role in sorted(roles.items()):
        if len(by_role["base"]) != 1 or len(by_role["update"]) != 1:
            found = ", ".join(f"{r}: {[s.id for s in ss]}" for r, ss in sorted(by_role.items()))
            out.append(Finding(pair, "metadata", "pair", f"needs exactly one base and one update ({found})"))
            continue
        base, update = by_role["base"][0], by_role["update"][0]
        if (base.query, base.target, base.metadata.domain) != (update.query, update.target, update.metadata.domain):
            out.append(Finding(pair, "metadata", "pair",
                               f"{base.id} and {update.id} differ in query, target or domain"))
        old = {f.id: f for f in base.evidence}
        new = {f.id: f for f in update.evidence}
        changed = {
            "update:add": set(new) - set(old),
            "update:remove": set(old) - set(new),
            "update:amend": {i for i in set(old) & set(new) if old[i] != new[i]},
        }
        tags = {t for t in update.metadata.tags if t.startswith("update:")}
        actual = {t for t, ids in changed.items() if ids}
        if tags != actual:
            out.append(Finding(pair, "metadata", "pair",
                               f"{update.id} is tagged {sorted(tags)} but its package shows {sorted(actual)}"))
    return out


def check_scenarios(scenarios: Sequence[Scenario], *, smells: bool = True, metadata: bool = True,
                    vocabulary: bool = True) -> list[Finding]:
    """Every finding for a suite, in case order: gold, then metadata and smells if asked."""
    out = []
    for s in scenarios:
        ev = evaluate_gold(s)
        out += gold_findings(s, ev)
        if metadata:
            out += metadata_findings(s, ev, vocabulary=vocabulary)
        if smells:
            out += smell_findings(s)
    if metadata:
        out += pair_findings(scenarios)
    return out
