"""``paratrace optimize`` and ``paratrace optimize ledger`` on the offline tutor families."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from optimize.root import app

runner = CliRunner()
BASE = ["optimize", "--select", "bank-", "--no-register"]


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    root = tmp_path_factory.mktemp("runs")
    for model, optimizer in (("scripted/tutor-hint", "gepa"), ("scripted/tutor-demos", "labeled")):
        result = runner.invoke(app, [*BASE, "--model", model, "--optimizer", optimizer,
                                     "--out", str(root / f"{optimizer}-{model.rsplit('/', 1)[1]}")])
        assert result.exit_code == 0, result.output
    return root, result.output


def test_run_reports_the_held_out_split(runs):
    root, output = runs
    assert "held-out split: 4 cases (train 4, val 4)" in output
    assert "objective 0.844 -> 1.000" in output
    manifest = json.loads((root / "labeled-tutor-demos" / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["suite"] == "normative-en" and manifest["optimizer"] == "labeled"
    assert sorted(manifest["splits"]) == ["test", "train", "val"]


def test_ledger_pairs_before_and_after_with_mcnemar(runs):
    root, _ = runs
    result = runner.invoke(app, ["optimize", "ledger", str(root), "--json"])
    assert result.exit_code == 0, result.output
    rows = {r["optimizer"]: r for r in json.loads(result.output)["rows"]}
    assert rows["gepa"]["family"] == "scripted-tutor-hint"
    assert (rows["gepa"]["b"], rows["gepa"]["c"], rows["gepa"]["n"]) == (0, 1, 4)
    assert rows["gepa"]["pvalue"] == 1.0 and rows["gepa"]["accuracy_after"] == 1.0


def test_transfer_matrix_crosses_families(runs):
    root, _ = runs
    result = runner.invoke(app, ["optimize", "ledger", str(root), "--transfer"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    header = next(line for line in lines if line.startswith("| program"))
    assert header == "| program \\ evaluated on | scripted/tutor-demos | scripted/tutor-hint |"
    # demos help only the family that learns from demos, the hint only the family that reads instructions
    assert "| scripted-tutor-demos/labeled/s0 | 1.000 | 0.844 |" in lines
    assert "| scripted-tutor-hint/gepa/s0 | 0.844 | 1.000 |" in lines
    assert "| (unoptimized) | 0.844 | 0.844 |" in lines


@pytest.mark.parametrize("args, message", [
    (["--model", "scripted/tutor", "--optimizer", "copro"], "unknown optimizer 'copro'"),
    (["--model", "scripted/tutor", "--weights", "ASA"], "'ASA' is not NAME=NUMBER"),
    (["--model", "scripted/tutor", "--budget", "lots"], "budget 'lots' is not valid for optimizer 'gepa'"),
    (["--optimizer", "labeled"], "--model is required"),
    (["--model", "scripted/tutor", "--select", "zzz-"], "keeps no scenario"),
    (["--model", "scripted/tutor", "--config", "b9"], "unknown configuration 'b9'"),
])
def test_bad_input_exits_2_with_one_line(tmp_path, args, message):
    result = runner.invoke(app, [*BASE, *args, "--out", str(tmp_path / "x")])
    assert result.exit_code == 2
    assert message in result.output and "Traceback" not in result.output


def test_existing_program_is_never_overwritten_silently(runs):
    root, _ = runs
    before = (root / "gepa-tutor-hint" / "program.json").read_bytes()
    result = runner.invoke(app, [*BASE, "--model", "scripted/tutor", "--optimizer", "labeled",
                                 "--out", str(root / "gepa-tutor-hint")])
    assert result.exit_code == 2 and "--force" in result.output
    assert (root / "gepa-tutor-hint" / "program.json").read_bytes() == before


def test_ledger_of_an_empty_directory(tmp_path):
    result = runner.invoke(app, ["optimize", "ledger", str(tmp_path)])
    assert result.exit_code == 2 and "holds no saved run" in result.output
