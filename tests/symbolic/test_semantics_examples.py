"""Every worked example of docs/semantics.md section 8 (the paper's penalty example)."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import pytest

from symbolic.errors import PriorityCycleWarning
from symbolic.scenario.labels import Status
from symbolic.scenario.model import Analysis, Fact, Priority, Rule
from symbolic.engine.results import Label
from symbolic.engine.status import evaluate, evaluate_analysis

FACTS = {"f1": "Delay(x)", "f2": "ForceMajeure(x)", "f3": "GrossNegligence(x)"}
RULES = {
    "r1": "Delay(x) => Penalty(x)",
    "r2": "ForceMajeure(x) => ¬Penalty(x)",
    "r3": "GrossNegligence(x) => Penalty(x)",
}
PRIORITIES = ["r2>r1", "r3>r2"]
TARGET = "Penalty(x)"


def _status(theory, **overrides):
    kwargs = {"facts": FACTS, "rules": RULES, "priorities": PRIORITIES} | overrides
    return evaluate(theory(**kwargs), TARGET)


def test_as_given_is_accepted(theory):
    ev = _status(theory)
    assert ev.status is Status.ACCEPTED
    assert (ev.support, ev.against) == (True, False)
    by_rule = {a.top_rule: a.id for a in ev.arguments}
    assert ev.labelling.labels[by_rule["r1"]] is Label.IN
    assert ev.labelling.labels[by_rule["r3"]] is Label.IN
    assert ev.labelling.labels[by_rule["r2"]] is Label.OUT


def test_as_given_trace_records_the_defeating_priorities(theory):
    ev = _status(theory)
    by_rule = {a.top_rule: a.id for a in ev.arguments}
    states = {(a.attacker, a.target): a.defeated_by for a in ev.attacks}
    assert states == {
        # r2 attacks r1's argument: neutralized by the team reading (r3 >+ r2 concludes Penalty).
        (by_rule["r2"], by_rule["r1"]): ("r3", "r2"),
        (by_rule["r2"], by_rule["r3"]): ("r3", "r2"),
        (by_rule["r1"], by_rule["r2"]): ("r2", "r1"),
        (by_rule["r3"], by_rule["r2"]): None,
    }


def test_without_r3_over_r2_is_both(theory):
    assert _status(theory, priorities=["r2>r1"]).status is Status.BOTH


def test_ncr_of_first_row_is_one(theory):
    """Removing the single priority r3 > r2 flips the status (NCR = 1 under unit costs)."""
    base = _status(theory).status
    flipped = [p for p in PRIORITIES if _status(theory, priorities=[q for q in PRIORITIES if q != p]).status != base]
    assert flipped == ["r3>r2"]


def test_without_r3_is_rejected(theory):
    rules = {k: v for k, v in RULES.items() if k != "r3"}
    assert _status(theory, rules=rules, priorities=["r2>r1"]).status is Status.REJECTED


def test_no_priorities_is_both(theory):
    assert _status(theory, priorities=[]).status is Status.BOTH


def test_no_facts_is_undecidable(theory):
    ev = _status(theory, facts={})
    assert ev.status is Status.UNDECIDABLE
    assert ev.arguments == ()


def test_priority_cycle_is_both(theory):
    with pytest.warns(PriorityCycleWarning, match="r1"):
        ev = _status(theory, priorities=["r2>r1", "r3>r2", "r1>r3"])
    assert ev.status is Status.BOTH
    assert ev.priorities.unresolved == {"r1", "r2", "r3"}
    assert ev.priorities.closure == frozenset()
    assert all(a.defeated_by is None for a in ev.attacks)


def test_ungrounded_r3_is_rejected():
    """r3's only fragment id is missing: ``ground`` drops r3 and r3 > r2."""
    e = ["E-01"]
    analysis = Analysis(
        facts=[Fact(id=k, literal=v, evidence=e) for k, v in FACTS.items()],
        rules=[
            Rule(id="r1", antecedents=["Delay(x)"], consequent="Penalty(x)", evidence=e),
            Rule(id="r2", antecedents=["ForceMajeure(x)"], consequent="not Penalty(x)", evidence=e),
            Rule(id="r3", antecedents=["GrossNegligence(x)"], consequent="Penalty(x)", evidence=["E-03"]),
        ],
        priorities=[
            Priority(stronger="r2", weaker="r1", basis="exception", evidence=e),
            Priority(stronger="r3", weaker="r2", basis="exception", evidence=e),
        ],
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ev = evaluate_analysis(["E-01", "E-02"], analysis, "Penalty(x)")
    assert ev.status is Status.REJECTED
    assert {(d.kind, d.id) for d in ev.theory.dropped} == {("rule", "r3"), ("priority", "r3>r2")}
    assert all(a.top_rule != "r3" for a in ev.arguments)


def test_strict_contradiction_is_both_without_explosion(theory):
    ev = evaluate(theory(facts={"f1": "a"}, rules={"s1": "a -> p", "s2": "a -> ¬p"}), "p")
    assert ev.status is Status.BOTH
    assert list(ev.attacks) == []
    assert set(ev.labelling.labels.values()) == {Label.IN}


PEER_FILE = (Path(__file__).resolve().parents[2] / ".." / "shared" / "data" / "neuro_symbolic"
             / "controlled_benchmark_600.jsonl")
PROJECTION = {Status.ACCEPTED: "Positive", Status.REJECTED: "Negative", Status.BOTH: "Undetermined",
              Status.UNDECIDABLE: "Negative"}


@pytest.mark.skipif(not PEER_FILE.exists(), reason="peer corpus copy not present")
def test_sample_of_peer_records_projects_to_gold():
    """Every 20th peer record, mapped one to one (docs/semantics.md section 9), gives its gold label.

    The full 600-record conformance test lives with the peer importer; this one only checks the
    engine against an outside oracle, with its own minimal mapping.
    """
    lines = PEER_FILE.read_text(encoding="utf-8").splitlines()[::20]
    checked = 0
    for line in lines:
        record = json.loads(line)
        units = [u["source_unit_id"] for u in record["source_units"]]
        analysis = Analysis(
            facts=[Fact(id=f"f{i}", literal=lit, evidence=["FACTS"])
                   for i, (lit, value) in enumerate(record["facts"].items()) if value],
            rules=[Rule(id=r["id"], antecedents=r["antecedents"], consequent=r["consequent"], kind=r["type"],
                        evidence=[r["source"]]) for r in record["rules"]],
            priorities=[Priority(stronger=p["stronger"], weaker=p["weaker"], basis="hierarchy",
                                 evidence=[p.get("source") or units[0]]) for p in record["priorities"]],
        )
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", PriorityCycleWarning)
            ev = evaluate_analysis(units + ["FACTS"], analysis, record["target_literal"])
        assert PROJECTION[ev.status] == record["gold_label"], record["case_id"]
        checked += 1
    assert checked == 30


def test_self_loop_priority_is_a_cycle_of_length_one(theory):
    """``r1 > r1`` is kept by the validator and makes r1 unresolved: it loses ``r1 > r2`` too."""
    rules = {"r1": "Delay(x) => Penalty(x)", "r2": "ForceMajeure(x) => ¬Penalty(x)"}
    facts = {"f1": "Delay(x)", "f2": "ForceMajeure(x)"}
    assert evaluate(theory(facts=facts, rules=rules, priorities=["r1>r2"]), TARGET).status is Status.ACCEPTED
    looped = theory(facts=facts, rules=rules, priorities=["r1>r2", "r1>r1"])
    assert [p.id for p in looped.priorities] == ["r1>r2", "r1>r1"]
    assert not looped.dropped
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PriorityCycleWarning)
        ev = evaluate(looped, TARGET)
    assert ev.status is Status.BOTH
    assert ev.priorities.unresolved == frozenset({"r1"})
    assert ev.priorities.cycles == (("r1",),)


def _shape(analysis: Analysis) -> tuple:
    """The penalty objects without their evidence ids."""
    return (sorted((f.id, f.literal) for f in analysis.facts),
            sorted((r.id, tuple(r.antecedents), r.consequent, r.kind.value) for r in analysis.rules),
            sorted((p.stronger, p.weaker, p.basis.value) for p in analysis.priorities))


def test_the_one_penalty_definition_states_the_section_8_theory_in_both_numberings():
    from symbolic.scenario.examples import penalty_analysis

    expected = (sorted(FACTS.items()),
                sorted((rid, tuple(text.split(" => ")[0].split(" & ")), text.split(" => ")[1], "defeasible")
                       for rid, text in RULES.items()),
                [("r2", "r1", "exception"), ("r3", "r2", "exception")])
    norms_first, facts_first = penalty_analysis(), penalty_analysis(facts_first=True)
    assert _shape(norms_first) == _shape(facts_first) == expected
    assert [f.evidence for f in norms_first.facts] == [("E-04",), ("E-05",), ("E-06",)]
    assert [f.evidence for f in facts_first.facts] == [("E-01",), ("E-02",), ("E-03",)]
    # each priority cites the clause of its stronger rule, in either numbering
    for analysis in (norms_first, facts_first):
        clause = {r.id: r.evidence for r in analysis.rules}
        assert all(p.evidence == clause[p.stronger] for p in analysis.priorities)


def test_the_penalty_suite_fixture_is_written_from_the_one_definition(tmp_path):
    from penalty_cases import SUITE, write_suite

    write_suite(tmp_path / "penalty_suite.jsonl")
    assert (tmp_path / "penalty_suite.jsonl").read_bytes() == SUITE.read_bytes(), (
        "tests/symbolic/fixtures/penalty_suite.jsonl is stale: run `python tests/symbolic/penalty_cases.py`")


def test_the_metrics_examples_are_the_same_case_numbered_facts_first():
    from scorer.metrics._examples import penalty_scenario as scored_case
    from symbolic.scenario.examples import PENALTY_FRAGMENTS, UNRELATED_FRAGMENT, penalty_scenario

    scored, given = scored_case(), penalty_scenario()
    assert (scored.query, scored.target) == (given.query, given.target)
    assert sorted(f.text for f in scored.evidence) == sorted(f.text for f in PENALTY_FRAGMENTS + (UNRELATED_FRAGMENT,))
    assert _shape(scored.gold) == _shape(given.gold)
