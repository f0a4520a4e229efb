"""Trace alignment (Algorithm 4): admissible gold classes and edge alignment."""

from __future__ import annotations

from scorer.align import align_edges, gold_classes, trace_edges
from symbolic.scenario.examples import penalty_analysis
from symbolic.scenario.labels import Status
from symbolic.scenario.model import Analysis, AttackEdge

from metric_builders import fact, prio, rule, two_paths

E = [f"E-{i:02d}" for i in range(1, 10)]
PEN = "Penalty(x)"


def pen_classes():
    return gold_classes(E, penalty_analysis("gold"), PEN, Status.ACCEPTED, query="q")


def test_penalty_has_one_class_without_the_optional_priority():
    gc = pen_classes()
    assert not gc.fallback and not gc.capped
    assert [h for h, _ in gc.classes] == [("fact:f1", "fact:f2", "fact:f3", "rule:r1", "rule:r2", "rule:r3",
                                           "priority:r3>r2")]


def test_gold_trace_as_output_is_fully_matched():
    gc = pen_classes()
    rec = align_edges(gc, trace_edges(E, penalty_analysis("gold"), PEN, "q"))
    assert rec.coverage == 1.0 and rec.missing == () and rec.unsupported == ()


def test_omitting_the_optional_priority_costs_nothing():
    rec = align_edges(pen_classes(), trace_edges(E, penalty_analysis("no-r3>r2"), PEN, "q"))
    assert rec.coverage < 1.0  # r3 > r2 is mandatory
    no_r2r1 = Analysis(facts=penalty_analysis().facts, rules=penalty_analysis().rules,
                       priorities=[p for p in penalty_analysis().priorities if p.id == "r3>r2"])
    rec = align_edges(pen_classes(), trace_edges(E, no_r2r1, PEN, "q"))
    assert rec.coverage == 1.0 and rec.unsupported == ()


def test_renamed_objects_align_identically():
    a = penalty_analysis()
    renamed = Analysis(
        facts=[f.model_copy(update={"id": "fact_" + f.id}) for f in a.facts],
        rules=[r.model_copy(update={"id": "rule_" + r.id}) for r in a.rules],
        priorities=[p.model_copy(update={"stronger": "rule_" + p.stronger, "weaker": "rule_" + p.weaker})
                    for p in a.priorities])
    assert align_edges(pen_classes(), trace_edges(E, renamed, PEN, "q")).coverage == 1.0


def test_unsupported_rule_gives_unsupported_edges_and_missing_gold_edges():
    rec = align_edges(pen_classes(), trace_edges(E, penalty_analysis("unsupported"), PEN, "q"))
    assert rec.missing and rec.unsupported
    assert any("GrossNegligence(x)&Delay(x)" in e or "Delay(x)&GrossNegligence(x)" in e
               for e in rec.unsupported)


def test_two_independent_paths_give_two_classes_and_the_closest_is_chosen():
    gc = gold_classes(E, two_paths(), "p", Status.ACCEPTED)
    assert [h for h, _ in gc.classes] == [("fact:f1", "rule:r1"), ("fact:f2", "rule:r2")]
    only_b = Analysis(facts=[two_paths().facts[1]], rules=[two_paths().rules[1]])
    rec = align_edges(gc, trace_edges(E, only_b, "p"))
    assert rec.coverage == 1.0 and rec.metadata["class_index"] == 1 and rec.metadata["n_classes"] == 2


def test_ties_go_to_the_smallest_edge_ids():
    gc = gold_classes(E, two_paths(), "p", Status.ACCEPTED)
    rec = align_edges(gc, {})
    assert rec.metadata["class_index"] == 0 and rec.matched == ()


def test_undecidable_gold_needs_only_the_status_edges():
    g = Analysis(facts=[fact(1, "a")], rules=[rule(1, ["b"], "p")])
    gc = gold_classes(E, g, "p", Status.UNDECIDABLE)
    assert [h for h, _ in gc.classes] == [()]
    edges = gc.classes[0][1]
    assert all(e.startswith("status:") for e in edges)
    rec = align_edges(gc, trace_edges(E, Analysis(), "p"))
    assert rec.coverage == 1.0


def test_attack_closure_pulls_in_the_attacker_and_its_defeater():
    # r1: a => p, undercut by exception r2 (¬applicable(r1)), which r3 rebuts on applicable(r1).
    g = Analysis(facts=[fact(1, "a"), fact(2, "b"), fact(3, "c")],
                 rules=[rule(1, ["a"], "p"), rule(2, ["b"], "¬applicable(r1)"),
                        rule(3, ["c"], "applicable(r1)")],
                 priorities=[prio("r3", "r2")])
    gc = gold_classes(E, g, "p", Status.ACCEPTED)
    assert [h for h, _ in gc.classes] == [("fact:f1", "fact:f2", "fact:f3", "rule:r1", "rule:r3",
                                           "exception:r2", "priority:r3>r2")]


def test_explicit_attack_edges_come_with_their_endpoints():
    g = Analysis(facts=[fact(1, "a"), fact(2, "b")],
                 rules=[rule(1, ["a"], "p"), rule(2, ["b"], "q")],
                 attacks=[AttackEdge(source="r2", target="r1", kind="undercut", evidence=["E-01"])])
    gc = gold_classes(E, g, "p", Status.REJECTED)
    assert len(gc.classes) == 1
    assert "attack:r2-undercut->r1" in gc.classes[0][0]


def test_gold_label_disagreeing_with_the_engine_falls_back_to_the_relevant_objects():
    gc = gold_classes(E, two_paths(), "p", Status.REJECTED)
    assert gc.fallback and len(gc.classes) == 1
    assert set(gc.classes[0][0]) == {"fact:f1", "fact:f2", "rule:r1", "rule:r2"}


def test_attack_state_mismatch_is_missing_not_matched():
    # Output has the conflict but not r3 > r2: the rebut of r2 on r1/r3 stays active.
    rec = align_edges(pen_classes(), trace_edges(E, penalty_analysis("no-r3>r2"), PEN, "q"))
    assert rec.metadata["attribute_mismatch"]
    assert set(rec.metadata["attribute_mismatch"]) <= set(rec.missing)


def test_evaluation_edges_equal_the_tnf_of_the_same_objects():
    from scorer.align import evaluation_edges
    from scorer.subtheory import Universe

    for variant in ("gold", "no-r2", "inverted", "unsupported", "no-facts"):
        a = penalty_analysis(variant)
        u = Universe(E, a, PEN)
        assert evaluation_edges(u.everything(), "q") == trace_edges(E, a, PEN, "q"), variant


# -- properties on random small theories ---------------------------------------------------------

import warnings  # noqa: E402

from hypothesis import given, settings  # noqa: E402
from metric_builders import make_scenario, small_theories  # noqa: E402
from scorer.defects import gold_output, inject, localize, localize_case  # noqa: E402
from symbolic.scenario.model import DEFECT_CLASSES  # noqa: E402
from scorer.score import score_case  # noqa: E402
from symbolic.errors import PriorityCycleWarning  # noqa: E402
from symbolic.scenario.model import DefectClass  # noqa: E402
from symbolic.engine.status import evaluate_analysis  # noqa: E402


@settings(max_examples=25, deadline=None, derandomize=True)
@given(small_theories())
def test_classes_preserve_status_and_gold_output_is_perfect(analysis):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PriorityCycleWarning)
        status = evaluate_analysis(E, analysis, "p").status
        gc = gold_classes(E, analysis, "p", status)
        assert not gc.fallback
        from scorer.subtheory import Universe

        u = Universe(E, analysis, "p")
        for handles, _ in gc.classes:
            assert evaluate_analysis(E, u.analysis_of(handles), "p").status is status
        sc = make_scenario("h", analysis, status.value)
        res = score_case(sc, gold_output(sc))
        assert res.correct and res.metrics["TGC"].value in (1.0, None) and res.alignment.missing == ()
        assert localize_case(sc, gold_output(sc)).defect_class is DefectClass.NONE
        for cls in DEFECT_CLASSES:
            inj = inject(sc, cls)
            if inj is not None:
                diag = localize(inj.output, evidence_ids=inj.evidence_ids, target=sc.target, query=sc.query)
                assert (diag.defect_class, diag.location) == (cls, inj.location)


def _chain_with_idle_priorities(n: int) -> Analysis:
    """a => b1 => ... => p against c: a => ~p, and r_i > r_{i+1} along the chain.

    The chain's priorities decide no conflict, so the status (``both``) holds
    without any of them and no non-empty priority subset is minimal.
    """
    chain = [rule(i, ["a" if i == 1 else f"b{i - 1}"], "p" if i == n else f"b{i}") for i in range(1, n + 1)]
    return Analysis(facts=[fact(1, "a")], rules=[*chain, rule(n + 1, ["a"], "~p")],
                    priorities=[prio(f"r{i}", f"r{i + 1}") for i in range(1, n)])


def test_priority_subsets_that_include_a_found_set_do_not_run_the_search_on(monkeypatch):
    # With the empty subset status-preserving, every larger subset includes it: the search
    # stops after the singletons instead of walking all 2^19 subsets (and never hits the cap).
    import itertools

    import scorer.align as align

    looked = []

    def counting(items, size):
        for subset in itertools.combinations(items, size):
            looked.append(subset)
            yield subset

    monkeypatch.setattr(align, "combinations", counting)
    gold = _chain_with_idle_priorities(20)
    gc = gold_classes(E, gold, "p", Status.BOTH)
    assert not gc.capped and not gc.fallback
    assert [h for h, _ in gc.classes] and all(not any(x.startswith("priority:") for x in h) for h, _ in gc.classes)
    assert len(looked) <= 64 * (1 + 19)  # per seed: the empty set, then the 19 singletons


def test_priority_subset_cap_counts_every_subset_looked_at():
    # The cap bounds the walk itself, so a search that finds nothing to evaluate still ends.
    gc = gold_classes(E, _chain_with_idle_priorities(20), "p", Status.BOTH, max_priority_subsets=5)
    assert gc.capped
