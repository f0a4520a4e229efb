"""The contracts / banking-guarantees / compliance share of ``normative-en``
(``normative_en_cbc``): validity, the suite checks, the share's targets, and
the two Appendix B walkthroughs it carries.
"""

from __future__ import annotations

import json
import re
from collections import Counter, defaultdict
from functools import lru_cache

import pytest

from experiments.suites.checks import check_scenarios, evaluate_gold
from experiments.suites.sources.normative_en_cbc import SCENARIOS
from symbolic.scenario.model import Analysis, Scenario

BY_ID = {d["id"]: d for d in SCENARIOS}
IDS = sorted(BY_ID)


@lru_cache(maxsize=None)
def scenario(ident: str) -> Scenario:
    return Scenario.model_validate(BY_ID[ident])


def status(s: Scenario, analysis: Analysis, evidence=None) -> str:
    if evidence is not None:
        s = s.model_copy(update={"evidence": tuple(f for f in s.evidence if f.id in evidence)})
    return evaluate_gold(s, analysis).status.value


@pytest.mark.parametrize("ident", IDS)
def test_record_is_plain_json_in_the_authoring_format(ident):
    raw = BY_ID[ident]
    assert json.loads(json.dumps(raw, ensure_ascii=False)) == raw
    assert "trace" not in raw["gold"]
    s = scenario(ident)
    prefix = {"contracts": "cont", "banking_guarantees": "bank", "compliance": "comp"}[s.metadata.domain.value]
    assert re.fullmatch(rf"{prefix}-\d{{3}}", s.id)
    assert 3 <= len(s.evidence) <= 8
    numbers = [int(f.id[2:]) for f in s.evidence]
    assert numbers == sorted(numbers) and len(set(f.text for f in s.evidence)) == len(s.evidence)
    if s.metadata.role != "update":
        assert numbers == list(range(1, len(numbers) + 1))


def test_the_suite_checks_find_nothing():
    findings = check_scenarios([scenario(i) for i in IDS])
    assert [str(f) for f in findings] == []


def test_share_targets():
    domains = Counter(d["metadata"]["domain"] for d in SCENARIOS)
    assert domains["contracts"] >= 11 and domains["banking_guarantees"] >= 11 and domains["compliance"] >= 10
    statuses = Counter(d["gold"]["status"] for d in SCENARIOS)
    assert all(statuses[s] >= 5 for s in ("accepted", "rejected", "both", "undecidable")), statuses
    n = len(SCENARIOS)
    assert n >= 32
    assert sum(d["metadata"]["contradiction"] for d in SCENARIOS) >= 0.62 * n
    assert sum(d["metadata"]["priority"] for d in SCENARIOS) >= 0.38 * n
    pairs = defaultdict(dict)
    for d in SCENARIOS:
        if d["metadata"]["pair"]:
            assert d["metadata"]["pair"].startswith("cbc-p")
            pairs[d["metadata"]["pair"]][d["metadata"]["role"]] = d["gold"]["status"]
    assert len(pairs) >= 8 and all(set(r) == {"base", "update"} for r in pairs.values())
    assert sum(r["base"] != r["update"] for r in pairs.values()) >= 6


def test_every_feature_is_exercised():
    used = Counter(t for d in SCENARIOS for t in d["metadata"]["tags"])
    for feature in ("nested_exception", "undercut", "undermine", "priority_cycle", "defeater", "multi_step",
                    "distractor", "strict_conflict", "absence_of_proof", "rebut", "appendix_b",
                    "update:add", "update:amend", "update:remove"):
        assert used[feature] >= 1, feature
    bases = {p["basis"] for d in SCENARIOS for p in d["gold"]["priorities"]}
    assert bases == {"exception", "hierarchy", "specificity", "temporal", "authority"}


def test_penalty_walkthrough_reproduces_the_semantics_table():
    """cont-001 is the paper's penalty / force majeure example (docs/semantics.md section 8)."""
    s = scenario("cont-001")
    gold = Analysis(facts=s.gold.facts, rules=s.gold.rules, priorities=s.gold.priorities)
    assert status(s, gold) == "accepted"
    no_r3_r2 = gold.model_copy(update={"priorities": [p for p in gold.priorities if p.stronger != "r3"]})
    assert status(s, no_r3_r2) == "both"
    no_r3 = no_r3_r2.model_copy(update={"rules": [r for r in gold.rules if r.id != "r3"]})
    assert status(s, no_r3) == "rejected"
    assert status(s, gold.model_copy(update={"priorities": ()})) == "both"
    assert status(s, gold.model_copy(update={"facts": ()})) == "undecidable"
    cycle = gold.priorities + (gold.priorities[0].model_copy(update={"stronger": "r1", "weaker": "r3"}),)
    assert status(s, gold.model_copy(update={"priorities": cycle})) == "both"
    r3_fragment = next(r.evidence for r in gold.rules if r.id == "r3")
    package = {f.id for f in s.evidence} - set(r3_fragment)
    assert status(s, gold, evidence=package) == "rejected"
    # The update withdraws the gross-negligence finding: the force majeure relief stands.
    assert scenario("cont-002").gold.status.value == "rejected"


def test_amended_deadline_walkthrough():
    """bank-001/002: a demand after the original expiry but before the amended one."""
    base, update = scenario("bank-001"), scenario("bank-002")
    assert (base.gold.status.value, update.gold.status.value) == ("accepted", "rejected")
    assert any(p.basis.value == "temporal" for p in base.gold.priorities)
    # Without the later-in-time priority the two deadline rules stay in conflict.
    assert status(base, base.gold.model_copy(update={"priorities": ()})) == "both"
    amended = {f.id: f for f in update.evidence}["E-02"]
    assert "distractor" in amended.tags and "not issued" in amended.text.lower()
