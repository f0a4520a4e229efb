"""The four-valued status (Definition 5, docs/semantics.md section 7) and the engine entry points."""

from __future__ import annotations

import pytest

from symbolic.scenario.labels import Status
from symbolic.engine.results import Argument, Label, Labelling
from symbolic.engine.status import evaluate, evaluate_analysis, four_valued, support_against


def _arg(ident, conclusion, defeater=False):
    return Argument(ident, conclusion, "r" + ident, None, (), frozenset({"r" + ident}), frozenset(),
                    defeater=defeater)


@pytest.mark.parametrize(("pro", "con", "expected"), [
    ([], [], Status.UNDECIDABLE),
    ([Label.IN], [], Status.ACCEPTED),
    ([Label.IN], [Label.OUT], Status.ACCEPTED),
    ([Label.IN, Label.OUT], [Label.OUT], Status.ACCEPTED),   # one path defeated, another stands
    ([Label.IN, Label.UNDEC], [], Status.ACCEPTED),
    ([Label.UNDEC], [], Status.BOTH),                        # the only path is contested
    ([Label.UNDEC], [Label.UNDEC], Status.BOTH),
    ([Label.IN], [Label.IN], Status.BOTH),                   # two strict arguments, kept
    ([Label.IN], [Label.UNDEC], Status.BOTH),
    ([Label.OUT], [], Status.REJECTED),                      # every path to p is defeated
    ([Label.OUT], [Label.IN], Status.REJECTED),
    ([], [Label.IN], Status.REJECTED),
    ([], [Label.UNDEC], Status.REJECTED),
    ([], [Label.OUT], Status.UNDECIDABLE),
])
def test_definition_5_table(pro, con, expected):
    args = [_arg(f"P{i}", "Penalty(x)") for i in range(len(pro))]
    args += [_arg(f"C{i}", "¬Penalty(x)") for i in range(len(con))]
    labelling = Labelling(dict(zip([a.id for a in args], pro + con)))
    assert four_valued("Penalty(x)", args, labelling) is expected


def test_defeater_for_p_is_not_support_but_a_defeater_against_p_counts():
    pro_defeater = [_arg("D", "p", defeater=True)]
    assert support_against("p", pro_defeater, Labelling({"D": Label.IN})) == (False, False)
    con_defeater = [_arg("D", "¬p", defeater=True)]
    assert support_against("p", con_defeater, Labelling({"D": Label.UNDEC})) == (False, True)


def test_target_is_normalized(theory):
    t = theory(facts={"f1": "a"}, rules={"r1": "a => ¬p"})
    ev = evaluate(t, "not p")
    assert ev.target == "¬p" and ev.status is Status.ACCEPTED
    assert evaluate(t, "~~p").status is Status.REJECTED


def test_bad_target_is_a_value_error(theory):
    with pytest.raises(ValueError, match="empty literal"):
        evaluate(theory(), "¬")


def test_second_path_keeps_the_status(theory):
    """One support path undercut, another grounded path remains: still accepted."""
    t = theory(facts={"f1": "a", "f2": "b", "f3": "e"},
               rules={"r1": "a => p", "r2": "b => p", "x": "e => ¬applicable(r1)"})
    ev = evaluate(t, "p")
    assert ev.status is Status.ACCEPTED


def test_evaluation_carries_every_stage(theory):
    t = theory(facts={"f1": "a", "f2": "b"}, rules={"r1": "a => p", "r2": "b => ¬p"}, priorities=["r1>r2"])
    ev = evaluate(t, "p")
    assert ev.theory is t
    assert [a.id for a in ev.arguments] == list(ev.labelling.labels)
    assert ev.priorities.closure == {("r1", "r2")}
    assert sorted((a.attacker, a.target, a.active) for a in ev.attacks) == [("A3", "A4", True), ("A4", "A3", False)]
    assert ev.labelling.rounds == (("A1", "A2", "A3"), ("A4",))
    assert (ev.status, ev.support, ev.against) == (Status.ACCEPTED, True, False)


def test_evaluate_analysis_grounds_first(spec):
    analysis = spec(facts={"f1": "a"}, rules={"r1": "a => p"})
    assert evaluate_analysis(["E-01"], analysis, "p").status is Status.ACCEPTED
    ev = evaluate_analysis(["E-02"], analysis, "p")
    assert ev.status is Status.UNDECIDABLE
    assert {d.id for d in ev.theory.dropped} == {"f1", "r1"}


_DIGEST_SCRIPT = r"""
import hashlib, random, warnings
from symbolic.engine.grounding import ground
from symbolic.scenario.model import Analysis, AttackEdge, Fact, Priority, Rule
from symbolic.engine.status import evaluate
warnings.simplefilter("ignore")
rng, digest, e = random.Random(11), hashlib.sha256(), ["E-01"]
lits = ["a", "b", "c", "¬a", "¬b", "¬c"]
for _ in range(60):
    n = rng.randint(1, 6)
    rules = [Rule(id=f"r{i}", antecedents=rng.sample(lits, rng.randint(0, 2)), evidence=e,
                  consequent=rng.choice(lits + [f"¬applicable(r{rng.randrange(n)})"]),
                  kind=rng.choice(["strict", "defeasible", "defeater"])) for i in range(n)]
    facts = [Fact(id=f"f{i}", literal=rng.choice(lits), evidence=e) for i in range(rng.randint(1, 4))]
    pairs = {(f"r{rng.randrange(n)}", f"r{rng.randrange(n)}") for _ in range(3)}
    prios = [Priority(stronger=s, weaker=w, basis="hierarchy", evidence=e) for s, w in sorted(pairs) if s != w]
    edges = [AttackEdge(source="r0", target=rng.choice(lits), kind="rebut", evidence=e)]
    ev = evaluate(ground(e, Analysis(facts=facts, rules=rules, priorities=prios, attacks=edges)), "a")
    args = [(a.id, a.conclusion, a.top_rule, a.subs, sorted(a.rules), sorted(a.premises)) for a in ev.arguments]
    digest.update(repr((args, list(ev.attacks), list(ev.labelling.labels.items()),
                        ev.labelling.rounds, ev.status)).encode())
print(digest.hexdigest())
"""


def test_output_does_not_depend_on_the_hash_seed():
    """Arguments, attacks (in order), labels, rounds and status are identical across processes."""
    import os
    import subprocess
    import sys

    digests = set()
    for seed in ("1", "2"):
        env = dict(os.environ, PYTHONHASHSEED=seed)
        out = subprocess.run([sys.executable, "-c", _DIGEST_SCRIPT], env=env, capture_output=True,
                             text=True, check=True)
        digests.add(out.stdout.strip())
    assert len(digests) == 1
