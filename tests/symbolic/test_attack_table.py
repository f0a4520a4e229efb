"""The columnar ``attack_table`` block: the same content as a list of ``attacks``."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import warnings
from pathlib import Path

import pytest
from pydantic import ValidationError

from symbolic.errors import ScenarioError
from symbolic.engine.grounding import ground
from symbolic.suites.io import load_scenario_text
from symbolic.scenario.model import Analysis, AttackColumns, AttackEdge
from symbolic.engine.status import evaluate_analysis
from symbolic.traces.tnf import normal_form, tnf_json

ROOT = Path(__file__).resolve().parents[2]
E = ["E-01"]


def random_case(seed: int) -> dict:
    """Random facts, rules, priorities and explicit edges of every shape (rule, fact or literal targets)."""
    rng = random.Random(seed)
    lit = lambda: rng.choice(["", "¬"]) + rng.choice("abcpq")  # noqa: E731
    facts = [{"id": f"f{i}", "literal": lit(), "evidence": E} for i in range(rng.randint(1, 4))]
    rules = [{"id": f"r{i}", "antecedents": [lit() for _ in range(rng.randint(0, 2))],
              "consequent": lit() if rng.random() < 0.8 else f"¬applicable(r{rng.randrange(5)})",
              "kind": rng.choice(["strict", "defeasible", "defeasible", "defeater"]), "evidence": E}
             for i in range(rng.randint(2, 5))]
    rule_ids = [r["id"] for r in rules]
    ids = [f["id"] for f in facts] + rule_ids
    priorities = [{"stronger": s, "weaker": w, "basis": "hierarchy", "evidence": E}
                  for s, w in {tuple(rng.sample(rule_ids, 2)) for _ in range(rng.randint(0, 3))}]
    attacks = [{"source": rng.choice(ids), "target": rng.choice(ids + [lit()]),
                "kind": rng.choice(["rebut", "undercut", "undermine"]), "evidence": E,
                **({"lic": rng.choice(rule_ids)} if rng.random() < 0.3 else {})}
               for _ in range(rng.randint(1, 6))]
    return {"facts": facts, "rules": rules, "priorities": priorities, "attacks": attacks}


def as_table(case: dict) -> dict:
    attacks = case["attacks"]
    table = {"source": [a["source"] for a in attacks], "target": [a["target"] for a in attacks],
             "kind": [a["kind"] for a in attacks], "lic": [a.get("lic") for a in attacks], "evidence": E}
    return {**{k: v for k, v in case.items() if k != "attacks"}, "attack_table": table}


def _outcome(analysis: Analysis):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ev = evaluate_analysis(E, analysis, "p")
        trace = tnf_json(normal_form(E, analysis, "p").trace)
    return str(ev.status), tuple(ev.attacks), dict(ev.labelling.labels), trace


@pytest.mark.parametrize("seed", range(150))
def test_table_and_list_give_the_same_attacks_labels_and_tnf(seed):
    case = random_case(seed)
    assert _outcome(Analysis.model_validate(as_table(case))) == _outcome(Analysis.model_validate(case))


def test_one_kind_for_all_rows_and_default_lic():
    table = AttackColumns(source=["r1", "r1"], target=["p", "q"], kind="rebut", evidence=E)
    assert table.kinds() == (table.kind, table.kind) and table.lics() == (None, None)
    assert [e.target for e in table.rows()] == ["p", "q"] and all(isinstance(e, AttackEdge) for e in table.rows())


@pytest.mark.parametrize("bad, words", [
    ({"source": ["r1"], "target": ["p", "q"], "kind": "rebut"}, "attack_table.target has 2 rows but source has 1"),
    ({"source": ["r 1"], "target": ["p"], "kind": "rebut"}, "attack_table.source.0"),
    ({"source": ["r1"], "target": [""], "kind": "rebut"}, "attack_table.target.0"),
    ({"source": ["r1"], "target": ["p"], "kind": ["rebut", "undercut"]}, "attack_table.kind has 2 rows"),
    ({"source": ["r1"], "target": ["p"], "kind": "smash"}, "kind"),
])
def test_bad_tables_are_rejected_with_the_field(bad, words):
    with pytest.raises(ValidationError, match=words.replace(".", r"\.")):
        AttackColumns(**bad)


def test_a_bad_table_in_a_scenario_file_is_a_scenario_error():
    record = json.loads((ROOT / "tests" / "symbolic" / "fixtures" / "penalty_suite.jsonl").read_text(
        encoding="utf-8").splitlines()[0])
    record["gold"]["attack_table"] = {"source": ["r2"], "target": ["r1", "r3"], "kind": "undercut", "evidence": E}
    with pytest.raises(ScenarioError, match="attack_table"):
        load_scenario_text(json.dumps(record), file="x.json")


def test_grounding_drops_an_ungrounded_table_and_bad_rows():
    analysis = Analysis.model_validate({
        "facts": [{"id": "f1", "literal": "a", "evidence": E}],
        "rules": [{"id": "r1", "antecedents": ["a"], "consequent": "p", "evidence": E}],
        "attack_table": {"source": ["f1", "ghost", "f1"], "target": ["r1", "r1", "¬"],
                         "kind": "undercut", "evidence": E}})
    theory = ground(E, analysis)
    assert theory.attack_table.source == ("f1",)
    reasons = sorted(d.reason for d in theory.dropped)
    assert reasons[0].startswith("refers to unknown ghost") and "neither an object id nor a literal" in reasons[1]
    unknown = ground(["E-02"], analysis.model_copy(update={"attack_table": analysis.attack_table.model_copy(
        update={"evidence": ("E-09",)})}))
    assert unknown.attack_table is None
    assert [(d.id, d.reason) for d in unknown.dropped if d.kind == "attack"] == [
        ("attack_table (3 rows)", "cites unknown evidence E-09")]


def test_cli_status_reads_a_columnar_framework(tmp_path):
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        import theories
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    columnar, listed = tmp_path / "col.json", tmp_path / "list.json"
    columnar.write_text(json.dumps(theories.explicit(args=40, attacks=120, acyclic=True, columnar=True)))
    listed.write_text(json.dumps(theories.explicit(args=40, attacks=120, acyclic=True)))
    out = [subprocess.run([sys.executable, "-c", "from optimize.root import main; main()", "status", str(p),
                           "-f", "json"], capture_output=True, text=True) for p in (columnar, listed)]
    assert out[0].returncode == out[1].returncode == 0, out[0].stderr + out[1].stderr
    assert out[0].stdout == out[1].stdout
    assert json.loads(out[0].stdout)["tnf"]["edges"]
