"""``paratrace suite``: list, show, stats, check and build through the root CLI."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from experiments.suites.registry import get_suite, load_suite
from optimize.root import app


def run(*args):
    return CliRunner().invoke(app, ["suite", *args])


def test_list_names_every_suite_with_its_size():
    result = run("list")
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert lines[0].startswith("controlled-140") and "140 cases" in lines[0]
    assert any(line.startswith("normative-en") and f"{len(load_suite('normative-en'))} cases" in line
               for line in lines)
    assert any(line.startswith("peer") and "not shipped" in line for line in lines)


def test_show_without_case_lists_ids_statuses_and_targets():
    result = run("show", "normative-en")
    assert result.exit_code == 0
    first = result.output.splitlines()[0].split()
    scenario = load_suite("normative-en")[0]
    assert first[:2] == [scenario.id, scenario.gold.status.value] and first[-1] == scenario.target


def test_show_case_renders_fragments_gold_trace_and_status():
    result = CliRunner().invoke(app, ["suite", "show", "normative-en", "--case", "cont-001"],
                                env={"COLUMNS": "160"})
    assert result.exit_code == 0, result.output
    out = result.output
    for needle in ("Evidence package", "E-07", "distractor", "Gold analysis", "rule r3", "r3 > r2",
                   "Grounded labelling", "defeated by r3 > r2", "status accepted", "gold status: accepted",
                   "Gold trace (TNF):", "attack 4"):
        assert needle in out, needle


def test_show_controlled_case_names_the_defect():
    case = next(s for s in load_suite("controlled-140") if s.metadata.defect_class.value == "priority_inversion")
    result = CliRunner().invoke(app, ["suite", "show", "controlled-140", "--case", case.id], env={"COLUMNS": "160"})
    assert result.exit_code == 0
    assert f"defect: priority_inversion at {case.metadata.defect_location}" in result.output


def test_stats_counts_categories_statuses_flags_and_pairs():
    result = run("stats", "normative-en", "--json")
    assert result.exit_code == 0
    data = json.loads(result.output)
    scenarios = load_suite("normative-en")
    assert data["total"] == len(scenarios)
    assert sum(data["domains"].values()) == sum(data["statuses"].values()) == len(scenarios)
    assert data["pairs"] >= 15 and data["pairs_changed"] >= 10
    text = run("stats", "normative-en").output
    assert "by category:" in text and "update pairs:" in text and "corpus targets: all met" in text
    controlled = json.loads(run("stats", "controlled-140", "--json").output)
    assert controlled["defects"] == {d: 20 for d in ("attack_deletion", "extraction_error", "incomplete_coverage",
                                                     "invalid_proof_node", "missing_evidence", "none",
                                                     "priority_inversion")}


@pytest.mark.parametrize("name", ["normative-en", "controlled-140"])
def test_check_passes_on_shipped_suites(name):
    result = run("check", name)
    assert result.exit_code == 0, result.output
    assert "no findings" in result.output


def test_check_fails_with_exit_2_on_a_broken_file(tmp_path):
    lines = get_suite("normative-en").metadata["path"].read_text(encoding="utf-8").splitlines()
    record = json.loads(lines[0])
    record["gold"]["status"] = {"accepted": "rejected"}.get(record["gold"]["status"], "accepted")
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps(record) + "\n", encoding="utf-8")
    result = run("check", "normative-en", "--file", str(bad))
    assert result.exit_code == 2
    assert "gold/status" in result.output


@pytest.mark.parametrize("args, message", [
    (("show", "nope"), "unknown suite 'nope'"),
    (("show", "normative-en", "--case", "cont-999"), "has no case 'cont-999'"),
    (("show", "peer"), "is not shipped"),
    (("build", "peer"), "--from PATH"),
    (("stats", "normative-en", "--file", "/nonexistent/x.jsonl"), "no such file"),
])
def test_bad_input_exits_2_with_one_line(args, message):
    result = run(*args)
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output


def test_build_writes_elsewhere_when_asked(tmp_path):
    out = tmp_path / "n.jsonl"
    card_before = get_suite("normative-en").metadata["card"].read_bytes()
    result = run("build", "normative-en", "--output", str(out))
    assert result.exit_code == 0, result.output
    assert out.read_bytes() == get_suite("normative-en").metadata["path"].read_bytes()
    assert get_suite("normative-en").metadata["card"].read_bytes() == card_before
