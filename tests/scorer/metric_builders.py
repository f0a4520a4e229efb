"""Builders shared by the scorer metric tests: scenarios by hand, outputs from analyses,
random small theories (hypothesis)."""

from __future__ import annotations

from hypothesis import strategies as st

from scorer.contract import CommonV1, OutputRecord, TraceV2
from symbolic.scenario.model import Analysis, EvidenceFragment, Fact, Gold, Metadata, Priority, Rule, Scenario


def frag(n: int) -> EvidenceFragment:
    return EvidenceFragment(id=f"E-{n:02d}", text=f"Fragment {n}.", source="Test document")


def make_scenario(case_id: str, analysis: Analysis, status: str, *, target: str = "p", n_evidence: int = 9,
                  **metadata) -> Scenario:
    return Scenario(id=case_id, query=f"Does {target} hold?", target=target,
                    evidence=[frag(i) for i in range(1, n_evidence + 1)],
                    gold=Gold(**analysis.model_dump(), status=status), metadata=Metadata(**metadata))


def make_output(case_id: str, status: str, analysis: Analysis | None = None, *, configuration="cfg",
                model="m", repeat=0, variant=None, **common) -> OutputRecord:
    trace = None
    if analysis is not None:
        trace = TraceV2(facts=analysis.facts, rules=analysis.rules, attacks=analysis.attacks,
                        priorities=analysis.priorities)
    return OutputRecord(case_id=case_id, configuration=configuration, model=model, repeat=repeat,
                        variant=variant, common=CommonV1(final_status=status, **common), trace=trace)


def failure(case_id: str, *, configuration="cfg", model="m", repeat=0) -> OutputRecord:
    return OutputRecord.failure(case_id=case_id, configuration=configuration, model=model, repeat=repeat,
                                raw_text="{\"final_status\": ", reason="truncated JSON")


def fact(i, literal, e=1):
    return Fact(id=f"f{i}", literal=literal, evidence=[f"E-{e:02d}"])


def rule(i, ants, cons, e=1, kind="defeasible"):
    return Rule(id=f"r{i}", antecedents=ants, consequent=cons, evidence=[f"E-{e:02d}"], kind=kind)


def prio(s, w, e=1):
    return Priority(stronger=s, weaker=w, basis="specificity", evidence=[f"E-{e:02d}"])


def two_paths() -> Analysis:
    """p from a via r1 and from b via r2: two independent unchallenged paths."""
    return Analysis(facts=[fact(1, "a"), fact(2, "b")],
                    rules=[rule(1, ["a"], "p", 2), rule(2, ["b"], "p", 3)])


LITS = ["p", "¬p", "q", "¬q", "¬applicable(r1)"]


@st.composite
def small_theories(draw):
    facts = [fact(i, lit) for i, lit in enumerate(draw(st.lists(st.sampled_from(["a", "b", "c", "¬a"]),
                                                                 min_size=0, max_size=3, unique=True)), 1)]
    n_rules = draw(st.integers(1, 4))
    rules = []
    for i in range(1, n_rules + 1):
        ants = draw(st.lists(st.sampled_from(["a", "b", "c", "q"]), min_size=0, max_size=2, unique=True))
        kind = draw(st.sampled_from(["defeasible", "defeasible", "strict", "defeater"]))
        rules.append(rule(i, ants, draw(st.sampled_from(LITS)), kind=kind))
    ids = [r.id for r in rules]
    pairs = draw(st.lists(st.tuples(st.sampled_from(ids), st.sampled_from(ids)), max_size=3, unique=True))
    pris = [Priority(stronger=s, weaker=w, basis="specificity", evidence=["E-01"]) for s, w in pairs if s != w]
    return Analysis(facts=facts, rules=rules, priorities=pris)
