"""NCR search (Algorithm 5) and the witness consistency check."""

from __future__ import annotations

import pytest

from metric_builders import fact, prio, rule, two_paths
from scorer.ncr import consistent_with_witness, ncr_witness
from scorer.subtheory import Universe
from symbolic.scenario.examples import penalty_analysis
from symbolic.scenario.labels import Status
from symbolic.scenario.model import Analysis

E = [f"E-{i:02d}" for i in range(1, 10)]
PEN = "Penalty(x)"


def test_penalty_case_has_ncr_one_and_removing_r3_over_r2_is_a_witness():
    w = ncr_witness(E, penalty_analysis(), PEN)
    assert w.cost == 1 and not w.censored
    assert w.witness == ("fact:f3",)  # canonical order: facts before priorities
    assert ("priority:r3>r2",) in w.alternatives
    assert w.status is Status.ACCEPTED and w.edit_set_size == 8


def test_removing_r3_over_r2_gives_both():
    u = Universe(E, penalty_analysis(), PEN)
    assert u.status(set(u.handles) - {"priority:r3>r2"}) is Status.BOTH


def test_two_independent_paths_need_two_deletions():
    w = ncr_witness(E, two_paths(), "p")
    assert w.cost == 2 and w.witness == ("fact:f1", "fact:f2")
    assert w.counterfactual is Status.UNDECIDABLE


def test_no_argument_either_way_is_censored_at_once():
    g = Analysis(facts=[fact(1, "a")], rules=[rule(1, ["b"], "p")])
    w = ncr_witness(E, g, "p")
    assert w.censored and w.cost == w.edit_set_size + 1 == 3 and w.searched == 0 and not w.cap_reached


def test_size_cap_stops_with_a_lower_bound_never_a_no_flip_claim():
    w = ncr_witness(E, two_paths(), "p", max_size=1)
    # every single deletion was tried (none flips) and the verified two-object edit meets that bound: exact
    assert not w.censored and not w.stopped and w.cost == 2 and len(w.witness) == 2


def test_a_stopped_search_has_no_witness_to_follow():
    w = ncr_witness(E, two_paths(), "p", max_candidates=2)
    assert w.stopped and not w.censored and w.cap_reached and w.lower_bound == w.cost == 1
    assert w.witness == () and len(w.upper_bound) == 2
    u = Universe(E, two_paths(), "p")
    assert consistent_with_witness(w, u, u)[0] is None


def test_candidate_cap_stops():
    w = ncr_witness(E, two_paths(), "p", max_candidates=3)
    assert w.stopped and w.cap_reached and w.stopped_by == "max_candidates" and w.lower_bound == 1


def test_irrelevant_objects_count_in_the_edit_set_but_are_never_tried():
    g = Analysis(facts=[*two_paths().facts, fact(9, "z")], rules=two_paths().rules)
    w = ncr_witness(E, g, "p")
    assert w.edit_set_size == 5 and w.cost == 2
    assert all("f9" not in h for alt in w.alternatives for h in alt)


def test_cascaded_deletions_are_memoized():
    # Deleting r3 also removes r3 > r2, so {r3, r3>r2} has the signature of {r3}.
    u = Universe(E, penalty_analysis(), PEN)
    assert u.effective(set(u.handles) - {"rule:r3"}) == u.effective(set(u.handles) - {"rule:r3", "priority:r3>r2"})
    before = u.evaluations
    u.status(set(u.handles) - {"rule:r3"})
    u.status(set(u.handles) - {"rule:r3", "priority:r3>r2"})
    assert u.evaluations == before + 1


def test_witness_is_deterministic():
    assert ncr_witness(E, penalty_analysis(), PEN) == ncr_witness(E, penalty_analysis(), PEN)


@pytest.mark.parametrize("variant, expected", [("gold", True), ("no-r2", False), ("unsupported", True)])
def test_consistency_with_the_witness(variant, expected):
    # The witness deletes GrossNegligence(x); r9 also needs it, so "unsupported" follows the flip.
    gold = Universe(E, penalty_analysis(), PEN)
    w = ncr_witness(E, penalty_analysis(), PEN, universe=gold)
    out = Universe(E, penalty_analysis(variant), PEN)
    consistent, why = consistent_with_witness(w, gold, out)
    assert consistent is expected and why


def test_censored_witness_has_no_consistency():
    g = Analysis(facts=[fact(1, "a")], rules=[rule(1, ["b"], "p")])
    u = Universe(E, g, "p")
    assert consistent_with_witness(ncr_witness(E, g, "p", universe=u), u, u)[0] is None


def test_bad_caps_raise():
    with pytest.raises(ValueError, match="must be positive"):
        ncr_witness(E, two_paths(), "p", max_size=0)


def test_priority_chain_through_an_unrelated_rule_is_relevant():
    # r1 > r9 > r2 where r9 concludes something unrelated: deleting r9 breaks r1 >+ r2.
    g = Analysis(facts=[fact(1, "a"), fact(2, "b")],
                 rules=[rule(1, ["a"], "p"), rule(2, ["b"], "¬p"), rule(9, ["zz"], "q")],
                 priorities=[prio("r1", "r9"), prio("r9", "r2")])
    u = Universe(E, g, "p")
    assert "rule:r9" in u.relevant
    assert u.status(u.handles) is Status.ACCEPTED
    assert u.status(set(u.handles) - {"rule:r9"}) is Status.BOTH


# -- property: the search finds the true minimum (brute force, independent evaluation) ----------

from itertools import combinations  # noqa: E402

from hypothesis import given, settings  # noqa: E402

from metric_builders import small_theories  # noqa: E402
from symbolic.engine.status import evaluate_analysis  # noqa: E402

def _without(a: Analysis, drop: set[str]) -> Analysis:
    from scorer.handles import handle_of

    keep = lambda xs: [x for x in xs if handle_of(x) not in drop]  # noqa: E731
    return Analysis(facts=keep(a.facts), rules=keep(a.rules), priorities=keep(a.priorities))


@settings(max_examples=40, deadline=None, derandomize=True)
@given(small_theories())
def test_ncr_cost_is_the_brute_force_minimum(analysis):
    import warnings

    from symbolic.errors import PriorityCycleWarning

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PriorityCycleWarning)
        w = ncr_witness(E, analysis, "p")
        u = Universe(E, analysis, "p")
        analysis = u.analysis_of(u.handles)  # edits are over TNF-normalized objects (aliases collapsed)
        before = evaluate_analysis(E, analysis, "p").status
        assert w.status is before
        best = None
        for k in range(1, len(u.handles) + 1):
            for combo in combinations(u.handles, k):
                if evaluate_analysis(E, _without(analysis, set(combo)), "p").status is not before:
                    best = k
                    break
            if best:
                break
        if best is None:
            assert w.censored and w.cost == len(u.handles) + 1
        else:
            assert not w.censored and w.cost == best
            after = evaluate_analysis(E, _without(analysis, set(w.witness)), "p").status
            assert after is not before and after is w.counterfactual


def test_evaluation_cap_stops():
    w = ncr_witness(E, two_paths(), "p", max_evaluations=2)
    assert w.stopped and not w.censored and w.cap_reached and w.evaluations <= 3


def _undercut_case(columnar: bool) -> Analysis:
    """p from f1 by r1; two explicit undercuts of r1 (from f2 and f3), so the status flips once both go."""
    from symbolic.scenario.model import AttackColumns, AttackEdge

    facts = [fact(1, "a"), fact(2, "b"), fact(3, "c")]
    rules = [rule(1, ["a"], "p"), rule(2, ["b"], "q")]
    edges = [AttackEdge(source=s, target="r1", kind="undercut", evidence=[E[0]]) for s in ("f2", "f3")]
    if not columnar:
        return Analysis(facts=facts, rules=rules, attacks=edges)
    table = AttackColumns(source=["f2", "f3"], target=["r1", "r1"], kind="undercut", evidence=[E[0]])
    return Analysis(facts=facts, rules=rules, attacks=edges[:1], attack_table=table)


def test_attack_table_rows_are_edges_that_ncr_deletes():
    listed, columnar = ncr_witness(E, _undercut_case(False), "p"), ncr_witness(E, _undercut_case(True), "p")
    u, plain = Universe(E, _undercut_case(True), "p"), Universe(E, _undercut_case(False), "p")
    assert u.handles == plain.handles and {"attack:f2-undercut->r1", "attack:f3-undercut->r1"} <= set(u.handles)
    assert u.status(u.handles) is plain.status(plain.handles) is Status.REJECTED
    for gone in ({"attack:f2-undercut->r1"}, {"attack:f2-undercut->r1", "attack:f3-undercut->r1"}):
        assert u.status(set(u.handles) - gone) is plain.status(set(plain.handles) - gone)
    assert u.status(set(u.handles) - {"attack:f2-undercut->r1", "attack:f3-undercut->r1"}) is Status.ACCEPTED
    assert (listed.cost, listed.witness, listed.status) == (columnar.cost, columnar.witness, columnar.status)
    assert columnar.cost == 1 and columnar.witness == ("fact:f1",)
