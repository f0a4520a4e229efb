"""``paratrace ask`` and ``paratrace local-llm`` through typer's runner."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from assistant_cases import ANSWER, THEORY


def _replay(tmp_path, *replies):
    path = tmp_path / "replies.jsonl"
    path.write_text("".join(json.dumps({"reply": r}) + "\n" for r in replies))
    return f"scripted/replay:{path}"


def test_ask_text_shows_status_trace_and_rejected(app, package, tmp_path):
    theory = {**THEORY, "rules": THEORY["rules"] + [{"id": "r9", "antecedents": [], "consequent": "¬Penalty(x)",
                                                         "evidence": []}]}
    result = CliRunner().invoke(app, ["ask", "--evidence", str(package), "--model",
                                      _replay(tmp_path, {"theory": theory})])
    assert result.exit_code == 0, result.output
    out = result.output
    assert "status: accepted" in out and "cited: E-01" in out
    assert "defeated by priority" in out and ": active" in out
    assert "rule r9: cites no evidence fragment" in out


def test_ask_json_and_dot(app, package, tmp_path):
    model = _replay(tmp_path, {"result": ANSWER})
    result = CliRunner().invoke(app, ["ask", "-e", str(package), "-m", model, "-c", "b1", "-f", "json"])
    assert result.exit_code == 0
    assert json.loads(result.output)["common"]["final_status"] == "accepted"
    result = CliRunner().invoke(app, ["ask", "-e", str(package), "-m", _replay(tmp_path, {"theory": THEORY}),
                                      "-f", "dot"])
    assert result.output.startswith("digraph") and "status:accepted" in result.output


def test_hard_failure_exits_1_with_the_raw_text(app, package, tmp_path):
    model = _replay(tmp_path, *["not json"] * 3)
    result = CliRunner().invoke(app, ["ask", "-e", str(package), "-m", model, "-c", "b1"])
    assert result.exit_code == 1
    assert "HARD FAILURE" in result.output and "not json" in result.output


def test_bad_inputs_raise_typed_errors(app, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"documents": []}')
    result = CliRunner().invoke(app, ["ask", "-e", str(bad), "-q", "Q?", "-m", "scripted/null"])
    assert result.exit_code != 0 and "expected a list of fragments" in str(result.exception)


def test_local_llm_status_when_nothing_runs(app, tmp_path, monkeypatch):
    monkeypatch.setenv("PARATRACE_CACHE_DIR", str(tmp_path))
    result = CliRunner().invoke(app, ["local-llm", "status"])
    assert result.exit_code == 3 and "not running" in result.output
    result = CliRunner().invoke(app, ["local-llm", "stop"])
    assert result.exit_code == 0 and "not running" in result.output
