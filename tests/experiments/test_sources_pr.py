"""The internal-policy and regulatory share of ``normative-en`` (``normative_en_pr``).

Every scenario must validate, be fully grounded, agree with the engine on its
gold status, carry truthful metadata and feature tags, and the share as a
whole must meet its distribution targets (experiments/suites/normative-en.md).
"""

from __future__ import annotations

import json
import re
import warnings
from collections import Counter, defaultdict
from functools import lru_cache

import pytest

from experiments.suites.sources.normative_en_pr import SCENARIOS
from symbolic.errors import PriorityCycleWarning
from symbolic.scenario.labels import AttackKind, RuleKind
from symbolic.scenario.literals import complement
from symbolic.scenario.model import Scenario
from symbolic.engine.status import evaluate_analysis

IDS = [d["id"] for d in SCENARIOS]
BY_ID = {d["id"]: d for d in SCENARIOS}
VOCABULARY = {
    "rebut", "undercut", "nested_exception", "undermine", "priority_cycle", "defeater",
    "multi_step", "distractor", "strict_conflict", "absence_of_proof", "appendix_b",
    "update:add", "update:remove", "update:amend",
}
STOP = {"with", "from", "than", "over", "under", "into", "that", "this"}


@lru_cache(maxsize=None)
def scenario(ident: str) -> Scenario:
    return Scenario.model_validate(BY_ID[ident])


@lru_cache(maxsize=None)
def evaluation(ident: str):
    s = scenario(ident)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PriorityCycleWarning)
        return evaluate_analysis(s.evidence_ids(), s.gold, s.target)


def tags(ident: str) -> set[str]:
    return set(BY_ID[ident]["metadata"]["tags"])


def content_words(literal: str) -> list[str]:
    predicate = literal.lstrip("\u00ac").split("(", 1)[0]
    parts = re.findall(r"[A-Z][a-z]+|[a-z]+|[0-9]+", predicate)
    return [p.lower()[:5] for p in parts if len(p) > 3 and p.lower() not in STOP]


def fragment_words(s: Scenario, ids) -> set[str]:
    text = " ".join(f.text for f in s.evidence if f.id in set(ids)).lower()
    return {w[:5] for w in re.findall(r"[a-z0-9]+", text)}


# ---------------------------------------------------------------- per-scenario checks


@pytest.mark.parametrize("ident", IDS)
def test_plain_json_and_valid_scenario(ident):
    raw = BY_ID[ident]
    assert json.loads(json.dumps(raw, ensure_ascii=False)) == raw
    assert "trace" not in raw["gold"]
    s = scenario(ident)
    assert re.fullmatch(r"(pol|reg)-\d{3}", s.id)
    expected = "internal_policies" if s.id.startswith("pol-") else "regulatory"
    assert s.metadata.domain.value == expected
    assert 3 <= len(s.evidence) <= 8
    numbers = [int(f.id[2:]) for f in s.evidence]
    assert numbers == sorted(numbers) and numbers[0] == 1
    if s.metadata.role != "update":
        assert numbers == list(range(1, len(numbers) + 1))
    assert all(f.text.strip() and f.source.strip() for f in s.evidence)
    assert tags(ident) <= VOCABULARY


@pytest.mark.parametrize("ident", IDS)
def test_gold_status_equals_engine(ident):
    assert evaluation(ident).status == scenario(ident).gold.status


@pytest.mark.parametrize("ident", IDS)
def test_fully_grounded_and_distractors_uncited(ident):
    s = scenario(ident)
    assert evaluation(ident).theory.dropped == ()
    cited = {e for obj in (*s.gold.facts, *s.gold.rules, *s.gold.priorities, *s.gold.attacks)
             for e in obj.evidence}
    for frag in s.evidence:
        assert ("distractor" in frag.tags) == (frag.id not in cited), frag.id
    assert ("distractor" in tags(ident)) == any("distractor" in f.tags for f in s.evidence)


@pytest.mark.parametrize("ident", IDS)
def test_ids_follow_the_format(ident):
    s = scenario(ident)
    assert [f.id for f in s.gold.facts] == [f"f{i}" for i in range(1, len(s.gold.facts) + 1)]
    assert [r.id for r in s.gold.rules] == [f"r{i}" for i in range(1, len(s.gold.rules) + 1)]


@pytest.mark.parametrize("ident", IDS)
def test_metadata_flags_are_truthful(ident):
    s, ev = scenario(ident), evaluation(ident)
    conclusions = {a.conclusion for a in ev.arguments}
    opposed = any(complement(c) in conclusions for c in conclusions)
    assert s.metadata.contradiction == (bool(ev.attacks) or opposed)
    assert s.metadata.priority == bool(s.gold.priorities)


@pytest.mark.parametrize("ident", IDS)
def test_fragments_mention_their_objects_terms(ident):
    s = scenario(ident)
    for fact in s.gold.facts:
        assert set(content_words(fact.literal)) & fragment_words(s, fact.evidence), fact.id
    for rule in s.gold.rules:
        literals = rule.antecedents if rule.excepts else (rule.consequent,)
        words = {w for lit in literals for w in content_words(lit)}
        assert words & fragment_words(s, rule.evidence), rule.id
    for fact in s.gold.facts:
        constant = fact.literal.split("(", 1)[1].rstrip(")")
        assert constant == s.target.split("(", 1)[1].rstrip(")"), fact.id


@pytest.mark.parametrize("ident", IDS)
def test_feature_tags_match_the_engine(ident):
    s, ev, t = scenario(ident), evaluation(ident), tags(ident)
    kinds = {a.kind for a in ev.attacks}
    args = {a.id: a for a in ev.arguments}
    rule_rebut = any(a.kind is AttackKind.REBUT and args[a.attacker].top_rule is not None
                     for a in ev.attacks)
    rules = {r.id: r for r in s.gold.rules}
    exceptions = [r for r in s.gold.rules if r.excepts]
    assert ("rebut" in t) == rule_rebut
    assert ("undercut" in t) == (AttackKind.UNDERCUT in kinds)
    assert ("undermine" in t) == (AttackKind.UNDERMINE in kinds)
    assert ("priority_cycle" in t) == bool(ev.priorities.cycles)
    assert ("defeater" in t) == any(r.kind is RuleKind.DEFEATER for r in s.gold.rules)
    nested = any(
        r.excepts in rules
        and (rules[r.excepts].excepts
             or rules[r.excepts].consequent in {complement(f.literal) for f in s.gold.facts})
        for r in exceptions
    )
    assert ("nested_exception" in t) == nested
    sides = {s.target, complement(s.target)}
    multi = any(a.conclusion in sides and len(a.rules) >= 2 for a in ev.arguments)
    assert ("multi_step" in t) == multi
    strict_both = (ev.status.value == "both"
                   and any(a.conclusion == s.target and a.strict for a in ev.arguments)
                   and any(a.conclusion == complement(s.target) and a.strict for a in ev.arguments))
    assert ("strict_conflict" in t) == strict_both
    assert ("absence_of_proof" in t) == (ev.status.value == "undecidable")


# ---------------------------------------------------------------- update pairs


def pairs() -> dict[str, dict[str, str]]:
    out: dict[str, dict[str, str]] = defaultdict(dict)
    for d in SCENARIOS:
        meta = d["metadata"]
        if meta["pair"] is not None:
            assert meta["role"] not in out[meta["pair"]], (meta["pair"], meta["role"])
            out[meta["pair"]][meta["role"]] = d["id"]
    return dict(out)


def test_pairs_are_complete_and_consistent():
    for pair, roles in pairs().items():
        assert re.fullmatch(r"pr-p\d{2}", pair)
        assert set(roles) == {"base", "update"}, pair
        base, update = scenario(roles["base"]), scenario(roles["update"])
        assert (base.query, base.target, base.metadata.domain) == (
            update.query, update.target, update.metadata.domain)
        changes = {x for x in tags(roles["update"]) if x.startswith("update:")}
        assert changes, pair
        assert not {x for x in tags(roles["base"]) if x.startswith("update:")}
        old = {f.id: (f.text, f.source) for f in base.evidence}
        new = {f.id: (f.text, f.source) for f in update.evidence}
        added, removed = set(new) - set(old), set(old) - set(new)
        amended = {i for i in set(old) & set(new) if old[i] != new[i]}
        assert ("update:add" in changes) == bool(added), pair
        assert ("update:remove" in changes) == bool(removed), pair
        assert ("update:amend" in changes) == bool(amended), pair
        assert all(int(i[2:]) > max(int(j[2:]) for j in old) for i in added), pair
        kept = set(old) & set(new) - amended
        assert len(kept) >= 2, f"{pair}: the update must keep most of the base package"


# ---------------------------------------------------------------- distribution targets


def test_distribution_targets():
    domains = Counter(d["metadata"]["domain"] for d in SCENARIOS)
    assert domains["internal_policies"] >= 15 and domains["regulatory"] >= 15
    statuses = Counter(d["gold"]["status"] for d in SCENARIOS)
    assert all(statuses[s] >= 5 for s in ("accepted", "rejected", "both", "undecidable")), statuses
    n = len(SCENARIOS)
    assert n >= 30
    assert sum(d["metadata"]["contradiction"] for d in SCENARIOS) >= 0.62 * n
    assert sum(d["metadata"]["priority"] for d in SCENARIOS) >= 0.38 * n
    all_pairs = pairs()
    assert len(all_pairs) >= 7
    flips = [p for p, r in all_pairs.items()
             if BY_ID[r["base"]]["gold"]["status"] != BY_ID[r["update"]]["gold"]["status"]]
    assert len(flips) >= 5
    assert len(IDS) == len(set(IDS))


def test_features_are_all_exercised():
    used = Counter(t for d in SCENARIOS for t in d["metadata"]["tags"])
    for feature in ("nested_exception", "undercut", "undermine", "priority_cycle", "defeater",
                    "multi_step", "distractor", "strict_conflict", "absence_of_proof", "rebut"):
        assert used[feature] >= 1, feature
    bases = {p["basis"] for d in SCENARIOS for p in d["gold"]["priorities"]}
    assert bases == {"exception", "hierarchy", "specificity", "temporal", "authority"}


def test_appendix_b_emergency_access_walkthrough():
    walk = [d["id"] for d in SCENARIOS if "appendix_b" in d["metadata"]["tags"]]
    assert walk
    statuses = {BY_ID[i]["metadata"]["role"]: evaluation(i).status.value for i in walk}
    # Without the system owner's retrospective approval the emergency exception never applies
    # and the violation stands; with it, the exception undercuts the prior-approval rule.
    assert statuses == {"base": "accepted", "update": "rejected"}
    text = " ".join(f["text"] for i in walk for f in BY_ID[i]["evidence"]).lower()
    assert "emergency" in text and "prior approval" in text and "retrospective approval" in text


def test_the_suite_checks_find_nothing():
    from experiments.suites.checks import check_scenarios

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PriorityCycleWarning)
        findings = check_scenarios([scenario(i) for i in IDS])
    assert [str(f) for f in findings] == []
