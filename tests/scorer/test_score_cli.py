"""``paratrace score``: end to end, byte-identical reruns, one-line errors with exit 2."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from report_builders import write_inputs
from scorer.report import REPORT_FILES
from optimize.root import app

runner = CliRunner()


def _score(*args):
    return runner.invoke(app, ["score", *map(str, args)])


@pytest.fixture()
def inputs(tmp_path):
    return write_inputs(tmp_path)


def test_score_writes_report_and_reruns_identically(tmp_path, inputs):
    suite, engine, direct = inputs
    first = _score("--suite", suite, "--outputs", engine, "--outputs", direct, "--report", tmp_path / "r1",
                   "--resamples", 200)
    assert first.exit_code == 0, first.output
    assert "scored 24 outputs of 2 configuration(s) on 6 cases (2 hard failure(s))" in first.output
    again = _score("--suite", suite, "--outputs", engine, "--outputs", direct, "--report", tmp_path / "r2",
                   "--resamples", 200)
    assert again.exit_code == 0
    for name in REPORT_FILES:
        assert (tmp_path / "r1" / name).read_bytes() == (tmp_path / "r2" / name).read_bytes(), name
    other_seed = _score("--suite", suite, "--outputs", engine, "--report", tmp_path / "r3", "--resamples", 200,
                        "--seed", 9, "--no-audit", "--no-ncr")
    assert other_seed.exit_code == 0, other_seed.output
    assert "bootstrap seed 9" in (tmp_path / "r3" / "summary.md").read_text()


def _one_line_error(result):
    assert result.exit_code == 2, result.output
    lines = [x for x in result.output.splitlines() if x.strip()]
    assert len(lines) == 1 and lines[0].startswith("paratrace: error: ") and "Traceback" not in result.output
    return lines[0]


def test_missing_outputs_file(tmp_path, inputs):
    suite, _, _ = inputs
    line = _one_line_error(_score("--suite", suite, "--outputs", tmp_path / "nope.jsonl",
                                  "--report", tmp_path / "r"))
    assert "nope.jsonl: no such file" in line


def test_malformed_output_record_names_file_line_field(tmp_path, inputs):
    suite, engine, _ = inputs
    lines = open(engine, encoding="utf-8").read().splitlines()
    bad = json.loads(lines[2])
    bad["common"]["final_status"] = "sort of"
    lines[2] = json.dumps(bad)
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    line = _one_line_error(_score("--suite", suite, "--outputs", path, "--report", tmp_path / "r"))
    assert "bad.jsonl:3, field common.final_status" in line and "sort of" in line
    assert not (tmp_path / "r").exists()


def test_output_for_unknown_case(tmp_path, inputs):
    suite, _, _ = inputs
    path = tmp_path / "stray.jsonl"
    path.write_text(json.dumps({"case_id": "zzz", "configuration": "d", "model": "m",
                                "common": {"final_status": "both"}}) + "\n", encoding="utf-8")
    line = _one_line_error(_score("--suite", suite, "--outputs", path, "--report", tmp_path / "r"))
    assert "'zzz'" in line and "not in the suite" in line


def test_same_output_in_two_files(tmp_path, inputs):
    suite, engine, _ = inputs
    line = _one_line_error(_score("--suite", suite, "--outputs", engine, "--outputs", engine,
                                  "--report", tmp_path / "r"))
    assert "also in" in line


def test_bad_suite_and_bad_options(tmp_path, inputs):
    suite, engine, _ = inputs
    broken = tmp_path / "broken.jsonl"
    broken.write_text("{not json\n", encoding="utf-8")
    assert "broken.jsonl:1" in _one_line_error(_score("--suite", broken, "--outputs", engine,
                                                      "--report", tmp_path / "r"))
    assert "--alpha" in _one_line_error(_score("--suite", suite, "--outputs", engine, "--report",
                                               tmp_path / "r", "--alpha", 2))
    blocker = tmp_path / "blocker"
    blocker.write_text("x")
    assert "not a directory" in _one_line_error(_score("--suite", suite, "--outputs", engine,
                                                       "--report", blocker))


def test_raw_outputs_are_repaired_and_failures_scored_incorrect(tmp_path, inputs):
    suite, _, _ = inputs
    raw = tmp_path / "raw.jsonl"
    rows = [{"case_id": "p-gold", "configuration": "raw", "model": "m",
             "meta": {"raw_text": "Sure.\n```json\n{\"status\": \"Accepted\"}\n```"}},
            {"case_id": "p-nor3", "configuration": "raw", "model": "m",
             "meta": {"raw_text": "I cannot answer in JSON."}}]
    raw.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    result = _score("--suite", suite, "--outputs", raw, "--report", tmp_path / "r", "--no-audit")
    assert result.exit_code == 0, result.output
    cases = {c["case_id"]: c for c in map(json.loads, (tmp_path / "r" / "cases.jsonl").read_text().splitlines())}
    assert len(cases) == 6                                   # four suite cases without output: hard failures
    assert cases["p-gold"]["correct"] and cases["p-gold"]["output_meta"]["repair_log"]
    assert not cases["p-nor3"]["correct"] and cases["p-nor3"]["hard_failure"]
    assert cases["p-nor3"]["output_meta"]["raw_text"] == "I cannot answer in JSON."
    assert "| raw / m | 0 | 6 | 5 | 1 | 1/6 |" in (tmp_path / "r" / "summary.md").read_text()
