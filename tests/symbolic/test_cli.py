"""The ``paratrace`` CLI: outputs, exit codes 0/1/2, one-line errors, no tracebacks."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

import optimize.root as root
import optimize.symbolic_cli as cli
from symbolic.suites.io import load_suite, scenario_json_schema, scenario_line
from symbolic.scenario.labels import Status
from symbolic.traces.tnf import tnf

from penalty_cases import write_case_json

FIXTURES = Path(__file__).resolve().parent / "fixtures"
SUITE = FIXTURES / "penalty_suite.jsonl"
ROOT = Path(__file__).resolve().parents[2]
PEER_FILE = ROOT / ".." / "shared" / "data" / "neuro_symbolic" / "controlled_benchmark_600.jsonl"

runner = CliRunner()


def run(*args, **kwargs):
    return runner.invoke(root.app, [str(a) for a in args], **kwargs)


def assert_input_error(result, *words):
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("paratrace: error: "), result.stderr
    for word in words:
        assert word in lines[0]


# --- status ----------------------------------------------------------------

def test_status_text_explains_every_case():
    result = run("status", SUITE)
    assert result.exit_code == 0, result.output
    for scenario in load_suite(SUITE):
        assert scenario.id in result.stdout
    assert "DISAGREES" not in result.stdout


def test_status_text_shows_defeats_cycles_and_dropped():
    given = run("status", SUITE, "--case", "penalty-as-given").stdout
    assert "status accepted" in given and "s(p)=1 a(p)=0" in given
    assert "defeated by r2 > r1" in given and "defeated by r3 > r2" in given
    assert "Unresolved priorities (cycles): none" in given
    cycle = run("status", SUITE, "-c", "penalty-priority-cycle").stdout
    assert "status both" in cycle and "{r1, r2, r3}" in cycle and "UNDEC" in cycle
    dropped = run("status", SUITE, "-c", "penalty-r3-ungrounded").stdout
    assert "status rejected" in dropped and "cites unknown evidence E-09" in dropped


def test_status_json_is_the_tnf_and_deterministic():
    first = run("status", SUITE, "--format", "json")
    second = run("status", SUITE, "--format", "json")
    assert first.exit_code == 0 and first.stdout == second.stdout
    records = [json.loads(line) for line in first.stdout.splitlines()]
    scenarios = load_suite(SUITE)
    assert [r["case"] for r in records] == [s.id for s in scenarios]
    assert [r["status"] for r in records] == [r["gold_status"] for r in records]
    assert records[0]["tnf"]["schema_version"] == "tnf-v1"
    expected = tnf(scenarios[0].evidence_ids(), scenarios[0].gold, scenarios[0].target,
                   query=scenarios[0].query)
    assert len(records[0]["tnf"]["edges"]) == len(expected.edges)
    assert records[6]["dropped"][0]["reason"] == "cites unknown evidence E-09"


def test_status_dot_and_single_json_file(tmp_path):
    result = run("status", write_case_json(tmp_path), "-f", "dot")
    assert result.exit_code == 0
    assert result.stdout.startswith('digraph "penalty-as-given" {') and result.stdout.endswith("}\n")


def test_status_unknown_case_and_missing_candidate():
    assert_input_error(run("status", SUITE, "--case", "nope"), "no case 'nope'", "penalty-as-given")
    assert_input_error(run("status", SUITE, "--analysis", "candidate"), "has no candidate analysis")


# --- bad inputs: exit 2, one line, no traceback ----------------------------

def _bad_inputs(tmp_path):
    good = json.loads(SUITE.read_text(encoding="utf-8").splitlines()[0])
    wrong_type = dict(good, gold=dict(good["gold"], status=3))
    unknown = dict(good, colour="red")
    huge = tmp_path / "huge.jsonl"
    with open(huge, "wb") as handle:
        handle.truncate(513 * 1024 * 1024)
    files = {
        "malformed": ("{\"id\": ", ["malformed JSON", ":1:"]),
        "wrong-type": (json.dumps(wrong_type), ["field gold.status", "3"]),
        "unknown-field": (json.dumps(unknown), ["field colour", "unknown field 'colour'", "red"]),
        "empty": ("", ["no scenarios"]),
        "duplicate": (json.dumps(good) + "\n" + json.dumps(good), [":2, field id", "duplicate case id"]),
    }
    cases = {}
    for name, (text, words) in files.items():
        path = tmp_path / f"{name}.jsonl"
        path.write_text(text, encoding="utf-8")
        cases[name] = (path, words)
    latin = tmp_path / "latin.jsonl"
    latin.write_bytes(b'{"id": "caf\xe9"}\n')
    cases["non-utf8"] = (latin, ["not valid UTF-8"])
    cases["huge"] = (huge, ["over the limit"])
    cases["missing"] = (tmp_path / "missing.jsonl", ["no such file"])
    cases["directory"] = (tmp_path, ["is a directory"])
    return cases


@pytest.mark.parametrize("command", ["status", "validate"])
def test_every_bad_input_exits_2_with_one_line(tmp_path, command):
    for name, (path, words) in _bad_inputs(tmp_path).items():
        result = run(command, path)
        assert_input_error(result, str(path), *words)


def test_validate_reports_every_problem_and_every_file(tmp_path):
    good = SUITE.read_text(encoding="utf-8").splitlines()
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join([good[0], "{oops", good[1].replace('"query"', '"qery"')]) + "\n", encoding="utf-8")
    result = run("validate", SUITE, bad, tmp_path / "missing.jsonl")
    assert result.exit_code == 2
    assert result.stdout.strip() == f"{SUITE}: 7 scenarios valid"
    errors = result.stderr.strip().splitlines()
    assert len(errors) == 3 and all(e.startswith("paratrace: error: ") for e in errors)
    assert f"{bad}:2: malformed JSON" in errors[0] and f"{bad}:3, field" in errors[1]
    assert "missing.jsonl: no such file" in errors[2]


def test_validate_check_gold(tmp_path):
    ok = run("validate", SUITE, "--check-gold")
    assert ok.exit_code == 0 and "gold agrees with the engine" in ok.stdout
    scenarios = load_suite(SUITE)
    wrong = scenarios[1].model_copy(update={"gold": scenarios[1].gold.model_copy(update={"status": Status.ACCEPTED})})
    path = tmp_path / "wrong.jsonl"
    path.write_text(scenario_line(scenarios[0]) + "\n" + scenario_line(wrong) + "\n", encoding="utf-8")
    result = run("validate", path, "--check-gold")
    assert result.exit_code == 2
    assert result.stderr.strip() == (f"paratrace: error: {path}:2: case 'penalty-no-r3-over-r2': gold status "
                                     "is accepted but the engine computes both")
    assert run("validate", path).exit_code == 0  # structurally valid


def test_validate_check_gold_compares_traces(tmp_path):
    s = load_suite(SUITE)[0]
    trace = tnf(s.evidence_ids(), s.gold, s.target, query=s.query)
    good = s.model_copy(update={"gold": s.gold.model_copy(update={"trace": trace})})
    cut = trace.model_copy(update={"edges": trace.edges[1:]})
    bad = s.model_copy(update={"id": "cut", "gold": s.gold.model_copy(update={"trace": cut})})
    path = tmp_path / "traces.jsonl"
    path.write_text(scenario_line(good) + "\n" + scenario_line(bad) + "\n", encoding="utf-8")
    result = run("validate", path, "--check-gold")
    assert result.exit_code == 2
    (line,) = result.stderr.strip().splitlines()
    assert f"{path}:2: case 'cut': gold trace is not TNF-equivalent" in line and "gold lacks edge" in line


# --- schema, import-peer ---------------------------------------------------

def test_schema_scenario_stdout_and_file(tmp_path):
    result = run("schema", "scenario")
    assert result.exit_code == 0 and json.loads(result.stdout) == scenario_json_schema()
    out = tmp_path / "scenario.schema.json"
    assert run("schema", "scenario", "-o", out).exit_code == 0
    assert out.read_text(encoding="utf-8") == result.stdout
    assert_input_error(run("schema", "nonsense"), "unknown schema 'nonsense'", "scenario")


def test_schema_contract_names():
    contract = pytest.importorskip("scorer.contract")
    for name in ("common-v1", "trace-v2"):
        result = run("schema", name)
        assert result.exit_code == 0 and json.loads(result.stdout) == contract.json_schemas()[name]


PEER_RECORD = {"case_id": "P1", "query": "Penalty?", "target_literal": "Penalty(x)",
               "source_units": [{"source_unit_id": "SU1", "doc_id": "D", "text": "clause"}],
               "facts": {"Delay(x)": True},
               "rules": [{"id": "r1", "antecedents": ["Delay(x)"], "consequent": "Penalty(x)",
                          "type": "defeasible", "source": "SU1"}],
               "priorities": [], "gold_label": "Positive"}


def test_import_peer(tmp_path):
    peer, out = tmp_path / "peer.jsonl", tmp_path / "out.jsonl"
    peer.write_text(json.dumps(PEER_RECORD) + "\n", encoding="utf-8")
    result = run("import-peer", peer, "-o", out)
    assert result.exit_code == 0 and "wrote 1 scenarios" in result.stdout
    assert [s.id for s in load_suite(out)] == ["P1"]
    peer.write_text(json.dumps(dict(PEER_RECORD, gold_label="Negative")) + "\n", encoding="utf-8")
    assert_input_error(run("import-peer", peer, "-o", tmp_path / "never.jsonl"),
                       "peer record 'P1'", "engine computes accepted")
    assert not (tmp_path / "never.jsonl").exists()


@pytest.mark.skipif(not PEER_FILE.is_file(), reason="peer corpus copy not available")
def test_import_peer_corpus_is_byte_identical_across_runs(tmp_path):
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    assert run("import-peer", PEER_FILE, "-o", first).exit_code == 0
    assert run("import-peer", PEER_FILE, "-o", second).exit_code == 0
    assert first.read_bytes() == second.read_bytes()
    assert run("validate", first, "--check-gold").exit_code == 0


# --- internal errors, plugins, the console script --------------------------

def test_internal_error_exits_1_without_traceback(monkeypatch):
    def boom(*args, **kwargs):
        raise RuntimeError("kaput")

    monkeypatch.setattr(cli, "_evaluate", boom)
    monkeypatch.delenv("PARATRACE_DEBUG", raising=False)
    result = run("status", SUITE)
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert result.stderr.strip() == ("paratrace: internal error: RuntimeError: kaput "
                                     "(set PARATRACE_DEBUG=1 for a traceback)")
    monkeypatch.setenv("PARATRACE_DEBUG", "1")
    assert isinstance(run("status", SUITE).exception, RuntimeError)


def test_the_root_mounts_every_package_and_the_symbolic_group_alone_has_its_own():
    names = [info.name or info.callback.__name__.replace("_", "-") for info in root.app.registered_commands]
    groups = [info.name for info in root.app.registered_groups]
    assert names[:4] == ["status", "validate", "schema", "import-peer"]
    for command in ("score", "ask", "ingest", "run", "compare", "serve", "serve-mlflow"):
        assert command in names
    for group in ("suite", "optimize", "oracle", "local-llm"):
        assert group in groups
    assert [info.callback.__name__ for info in cli.app.registered_commands] == [
        "status", "validate", "schema", "import_peer"]
    assert cli.app.registered_groups == []


@pytest.mark.parametrize("module", ["scorer.cli", "experiments.runner.cli", "optimize.serve.cli"])
def test_a_package_whose_commands_fail_to_import_fails_the_start_up(module):
    code = f"import sys; sys.modules[{module!r}] = None; from optimize.root import main; main()"
    proc = subprocess.run([sys.executable, "-c", code, "status", str(SUITE)], capture_output=True, text=True,
                          cwd=ROOT, env={"PATH": "/usr/bin:/bin", "PYTHONDONTWRITEBYTECODE": "1"})
    assert proc.returncode != 0 and proc.stdout == ""
    assert f"import of {module} halted" in proc.stderr


def test_console_entry_point_in_a_subprocess(tmp_path):
    code = "from optimize.root import main; main()"
    bad = tmp_path / "bad.jsonl"
    bad.write_text("[1]\n", encoding="utf-8")
    proc = subprocess.run([sys.executable, "-c", code, "validate", str(bad)], capture_output=True,
                          text=True, cwd=ROOT, env={"PATH": "/usr/bin:/bin", "PYTHONDONTWRITEBYTECODE": "1"})
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert proc.stderr.strip().splitlines()[-1] == (f"paratrace: error: {bad}:1: expected a JSON object "
                                                    "(one scenario), got array [1]")
    proc = subprocess.run([sys.executable, "-c", code, "validate", str(SUITE)], capture_output=True,
                          text=True, cwd=ROOT, env={"PATH": "/usr/bin:/bin", "PYTHONDONTWRITEBYTECODE": "1"})
    assert proc.returncode == 0 and proc.stdout.strip() == f"{SUITE}: 7 scenarios valid"


def test_check_gold_engine_errors_are_reported_per_case(monkeypatch, tmp_path):
    from symbolic.engine.arguments import ArgumentLimitError

    def too_many(scenario, analysis):
        raise ArgumentLimitError(f"theory yields more than 10 arguments ({scenario.id})")

    monkeypatch.setattr(cli, "_evaluate", too_many)
    result = run("validate", SUITE, write_case_json(tmp_path), "--check-gold")
    assert result.exit_code == 2 and "Traceback" not in result.output
    errors = result.stderr.strip().splitlines()
    assert len(errors) == 8  # 7 cases of the suite, then the single-scenario file
    assert errors[0] == (f"paratrace: error: {SUITE}:1: case 'penalty-as-given': theory yields more than "
                         "10 arguments (penalty-as-given)")


@pytest.mark.parametrize("args, words", [
    (["status", SUITE, "--format", "xml"], ["'xml' is not one of", "paratrace status --help"]),
    (["status"], ["Missing argument", "paratrace status --help"]),
    (["no-such-command"], ["No such command 'no-such-command'"]),
    (["import-peer", SUITE], ["Missing option '--output'"]),
])
def test_usage_errors_are_one_line(args, words):
    assert_input_error(run(*args), *words)


def test_main_quiets_the_lm_libraries_loggers(monkeypatch):
    import logging

    monkeypatch.delenv("PARATRACE_DEBUG", raising=False)
    monkeypatch.setattr(root, "app", lambda prog_name: None)
    logger = logging.getLogger("instructor")
    before = logger.level
    try:
        root.main()
        assert logger.level > logging.CRITICAL
    finally:
        logger.setLevel(before)
