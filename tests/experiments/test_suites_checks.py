"""Each suite check fires on the fault it names, and only then."""

from __future__ import annotations

import pytest

from experiments.suites.checks import (
    check_scenarios,
    content_words,
    gold_findings,
    gold_trace,
    metadata_findings,
    pair_findings,
    smell_findings,
)
from symbolic.scenario.model import EvidenceFragment, Fact, Gold, Metadata, Priority, Rule, Scenario

E = ["E-01"]


def penalty(**changes) -> Scenario:
    """A small clean scenario: delay -> penalty, force majeure -> no penalty, r2 > r1."""
    evidence = [
        EvidenceFragment(id="E-01", text="Clause 9: a delay in delivery gives rise to a penalty.", source="Contract"),
        EvidenceFragment(id="E-02", text="Clause 10: a force majeure event excludes any penalty; "
                         "clause 10 prevails over clause 9.", source="Contract"),
        EvidenceFragment(id="E-03", text="Log: delivery delay of 12 days. Storm: force majeure event declared.",
                         source="Log"),
    ]
    gold = Gold(status="rejected",
                facts=[Fact(id="f1", literal="Delay(x)", evidence=["E-03"]),
                       Fact(id="f2", literal="ForceMajeure(x)", evidence=["E-03"])],
                rules=[Rule(id="r1", antecedents=["Delay(x)"], consequent="Penalty(x)", evidence=["E-01"]),
                       Rule(id="r2", antecedents=["ForceMajeure(x)"], consequent="¬Penalty(x)", evidence=["E-02"])],
                priorities=[Priority(stronger="r2", weaker="r1", basis="exception", evidence=["E-02"])])
    base = dict(id="cont-900", query="Is the penalty due?", target="Penalty(x)", evidence=evidence, gold=gold,
                metadata=Metadata(domain="contracts", contradiction=True, priority=True, tags=("rebut",)))
    base.update(changes)
    return Scenario(**base)


def remake(s: Scenario, **fields) -> Scenario:
    """A validated copy of ``s`` (``gold`` and ``metadata`` given as partial dicts)."""
    data = s.model_dump()
    for key, value in fields.items():
        data[key] = {**data[key], **value} if key in ("gold", "metadata") else value
    return Scenario.model_validate(data)


def checks(s: Scenario) -> list[str]:
    return [f.check for f in check_scenarios([s])]


def test_a_clean_scenario_has_no_findings():
    assert checks(penalty()) == []


def test_wrong_status_is_reported():
    s = penalty()
    [finding] = gold_findings(remake(s, gold={"status": "both"}))
    assert finding.check == "status" and "engine computes rejected" in finding.message


def test_ungrounded_gold_object_is_reported():
    s = penalty()
    rules = s.gold.rules + (Rule(id="r3", antecedents=["Delay(x)"], consequent="Late(x)", evidence=["E-09"]),)
    bad = s.model_copy(update={"gold": s.gold.model_copy(update={"rules": rules})})
    assert [f.check for f in gold_findings(bad)] == ["grounding"]


def test_stored_trace_must_match_the_recomputed_one():
    s = penalty()
    good = s.model_copy(update={"gold": s.gold.model_copy(update={"trace": gold_trace(s)})})
    assert gold_findings(good) == []
    other = penalty(target="¬Penalty(x)")
    stale = s.model_copy(update={"gold": s.gold.model_copy(update={"trace": gold_trace(other)})})
    assert [f.check for f in gold_findings(stale)] == ["trace"]


def test_flags_must_be_truthful():
    s = penalty(metadata=Metadata(domain="contracts", contradiction=False, priority=False, tags=("rebut",)))
    assert sorted(f.check for f in metadata_findings(s)) == ["flag:contradiction", "flag:priority"]


def test_strict_conflict_counts_as_a_contradiction():
    s = penalty()
    strict = [{**r.model_dump(), "kind": "strict"} for r in s.gold.rules]
    flagged = remake(s, gold={"rules": strict, "priorities": [], "status": "both"},
                     metadata={"priority": False, "tags": ["strict_conflict"]})
    assert checks(flagged) == []
    assert checks(remake(flagged, metadata={"contradiction": False})) == ["flag:contradiction"]


@pytest.mark.parametrize("tag", ["undercut", "undermine", "priority_cycle", "defeater", "nested_exception",
                                 "multi_step", "strict_conflict", "absence_of_proof", "distractor"])
def test_a_feature_tag_the_engine_does_not_show_is_reported(tag):
    s = penalty()
    tagged = s.model_copy(update={"metadata": s.metadata.model_copy(update={"tags": ("rebut", tag)})})
    assert checks(tagged) == [f"tag:{tag}"]


def test_a_missing_exact_tag_and_an_unknown_tag_are_reported():
    s = penalty()
    untagged = s.model_copy(update={"metadata": s.metadata.model_copy(update={"tags": ("rebutting",)})})
    assert sorted(checks(untagged)) == ["tag:rebut", "tag:unknown"]


def test_undercut_tag_follows_an_exception_rule():
    s = penalty()
    rules = (s.gold.rules[0], s.gold.rules[1].model_copy(update={"consequent": "¬applicable(r1)"}))
    gold = s.gold.model_copy(update={"rules": rules, "priorities": ()})
    cut = s.model_copy(update={"gold": gold, "metadata": Metadata(
        domain="contracts", contradiction=True, tags=("undercut",))})
    assert checks(cut) == []


def test_terms_smell_names_the_object_and_words():
    s = penalty()
    facts = (Fact(id="f1", literal="Insolvency(x)", evidence=["E-03"]), s.gold.facts[1])
    rules = (Rule(id="r1", antecedents=["Insolvency(x)"], consequent="Penalty(x)", evidence=["E-01"]),
             s.gold.rules[1])
    bad = s.model_copy(update={"gold": s.gold.model_copy(update={"facts": facts, "rules": rules})})
    [finding] = smell_findings(bad)
    assert finding.check == "terms" and "f1" in finding.message and "insol" in finding.message


def test_unused_and_cited_distractor_fragments_are_smells():
    s = penalty()
    extra = EvidenceFragment(id="E-04", text="Clause 30: governing law.", source="Contract")
    unused = s.model_copy(update={"evidence": s.evidence + (extra,)})
    assert [f.check for f in smell_findings(unused)] == ["unused-fragment"]
    tagged = s.model_copy(update={"evidence": s.evidence + (extra.model_copy(update={"tags": ("distractor",)}),),
                                  "metadata": s.metadata.model_copy(update={"tags": ("distractor", "rebut")})})
    assert checks(tagged) == []
    cited = s.model_copy(update={"evidence": (s.evidence[0].model_copy(update={"tags": ("distractor",)}),)
                                 + s.evidence[1:]})
    assert "cited-distractor" in [f.check for f in smell_findings(cited)]


def test_content_words_split_camel_case_and_acronyms():
    assert content_words("SARDeadlineBreached(x)") == ("sar", "deadl", "breac")
    assert content_words("¬applicable(r1)") == ()


def test_pairs_need_one_base_and_one_truthfully_tagged_update():
    base = penalty(metadata=Metadata(domain="contracts", contradiction=True, priority=True, pair="cbc-p90",
                                     role="base", tags=("rebut",)))
    added = EvidenceFragment(id="E-04", text="Addendum: clause 10 is deleted.", source="Addendum")
    update = base.model_copy(update={
        "id": "cont-901", "evidence": base.evidence + (added,),
        "metadata": base.metadata.model_copy(update={"role": "update", "tags": ("rebut", "update:add")})})
    assert pair_findings([base, update]) == []
    mislabelled = update.model_copy(update={"metadata": update.metadata.model_copy(
        update={"tags": ("rebut", "update:remove")})})
    [finding] = pair_findings([base, mislabelled])
    assert "update:remove" in finding.message and "update:add" in finding.message
    assert [f.check for f in pair_findings([base])] == ["pair"]
    other_target = update.model_copy(update={"target": "¬Penalty(x)"})
    assert [f.check for f in pair_findings([base, other_target])] == ["pair"]
