"""``paratrace optimize`` and ``optimize ledger --transfer`` on a model behind the
user's own endpoint (the oracle on 127.0.0.1), as real processes: the manifest
records the endpoint and the key variable's name (never a key) and the true
number of LM calls (the held-out evaluations included, as the server counted
them); the transfer matrix calls the recorded endpoint, or the one given with
``--api-base``; a backbone that cannot answer (no key, nothing listening) stops
it with one line and exit 2, not an internal error."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PARATRACE = (sys.executable, "-c", "from optimize.console import main; main()")
KEY_VALUE = "sk-test-NEVER-IN-A-MANIFEST-0123456789"


def _env(home: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("MLFLOW_TRACKING", "PARATRACE_")) and k != "OPENAI_API_KEY"}
    env.update(MLFLOW_DISABLE_TELEMETRY="true", LITELLM_LOCAL_MODEL_COST_MAP="true", HOME=str(home), **extra)
    env.setdefault("PYTHONPATH", str(ROOT))
    return env


def _cli(cwd: Path, *args: str, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run([*PARATRACE, *args], cwd=cwd, env=_env(cwd, **env), capture_output=True, text=True,
                          timeout=900)


@pytest.fixture(scope="module")
def oracle():
    from assistant.oracle import OracleServer
    from experiments.suites.registry import load_suite

    with OracleServer(load_suite("normative-en")) as server:
        yield server


def _answered(server) -> int:
    return json.load(urllib.request.urlopen(server.base_url + "/oracle/ledger"))["answered"]


@pytest.fixture(scope="module")
def saved(oracle, tmp_path_factory) -> Path:
    work = tmp_path_factory.mktemp("optimize-endpoint")
    before = _answered(oracle)
    done = _cli(work, "optimize", "--config", "b1", "--select", "bank-", "--model", "openai/oracle-b1",
                "--api-base", oracle.base_url, "--api-key-env", "ORACLE_KEY", "--optimizer", "labeled",
                "--out", str(work / "runs" / "b1"), "--no-register", ORACLE_KEY=KEY_VALUE)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    manifest = json.loads((work / "runs" / "b1" / "manifest.json").read_text())
    assert manifest["lm_calls"] == _answered(oracle) - before  # what the server answered, every phase
    (work / "stderr.txt").write_text(done.stderr)
    return work


def test_the_command_shows_progress_without_verbose(saved):
    """Each held-out case and each phase is one line on stderr; DSPy's own output stays hidden."""
    lines = [line for line in (saved / "stderr.txt").read_text().splitlines() if line.startswith("optimize: ")]
    evaluation = json.loads((saved / "runs" / "b1" / "evaluation.json").read_text())
    n = len(evaluation["test"])
    before = [line for line in lines if line.startswith("optimize: before ")]
    after = [line for line in lines if line.startswith("optimize: after ")]
    assert len(before) == len(after) == n > 0
    total = len(before)
    assert before[0].startswith(f"optimize: before 1/{total} held-out cases (")
    assert after[-1].startswith(f"optimize: after {total}/{total} held-out cases (")
    assert any(line.startswith("optimize: compiling with labeled") for line in lines)
    assert lines.index(before[-1]) < next(i for i, l in enumerate(lines) if "compiling" in l) < lines.index(after[0])


def test_the_manifest_records_the_endpoint_and_every_lm_call(saved, oracle):
    text = (saved / "runs" / "b1" / "manifest.json").read_text()
    manifest = json.loads(text)
    assert manifest["api_base"] == oracle.base_url and manifest["api_key_env"] == "ORACLE_KEY"
    phases = manifest["lm_calls_by_phase"]
    assert phases["compile"] == 0 and phases["before"] > 0 and phases["after"] > 0  # labeled: no compile calls
    assert manifest["lm_calls"] == sum(phases.values())
    assert KEY_VALUE not in text


def test_transfer_calls_the_recorded_endpoint(saved, oracle):
    before = _answered(oracle)
    done = _cli(saved, "optimize", "ledger", "runs", "--transfer", ORACLE_KEY=KEY_VALUE)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert "| oracle-b1/labeled/s0 |" in done.stdout.replace("openai-", "")
    assert _answered(oracle) > before


def test_transfer_takes_api_base_and_names_a_dead_endpoint(saved):
    from assistant.scripted_http import dead_url

    url = dead_url()
    done = _cli(saved, "optimize", "ledger", "runs", "--transfer", "--api-base", url, ORACLE_KEY=KEY_VALUE)
    assert done.returncode == 2, done.stdout + done.stderr
    assert f"backbone openai/oracle-b1 at {url}: connection refused" in done.stderr
    assert "internal error" not in done.stderr and "Traceback" not in done.stderr


def test_transfer_without_an_endpoint_or_key_is_one_line(saved, tmp_path):
    old = saved / "runs" / "b1"
    copy = tmp_path / "runs" / "b1"
    copy.mkdir(parents=True)
    for name in ("program.json", "evaluation.json"):
        (copy / name).write_bytes((old / name).read_bytes())
    manifest = json.loads((old / "manifest.json").read_text())
    manifest.update(api_base="", api_key_env="")  # a program saved before endpoints were recorded
    (copy / "manifest.json").write_text(json.dumps(manifest))
    done = _cli(tmp_path, "optimize", "ledger", "runs", "--transfer")
    assert done.returncode == 2, done.stdout + done.stderr
    assert "backbone openai/oracle-b1" in done.stderr and "no API key" in done.stderr
    assert "internal error" not in done.stderr


def test_api_base_without_transfer_is_refused(saved):
    done = _cli(saved, "optimize", "ledger", "runs", "--api-base", "http://127.0.0.1:9/v1")
    assert done.returncode == 2 and "--transfer" in done.stderr


def test_the_registered_name_tells_endpoints_apart(saved, oracle, tmp_path, monkeypatch):
    from urllib.parse import urlsplit

    import mlflow

    from optimize.registry import log_program

    monkeypatch.chdir(tmp_path)
    previous = mlflow.get_tracking_uri(), mlflow.get_registry_uri()
    try:
        reg = log_program(saved / "runs" / "b1", tracking_uri=f"sqlite:///{tmp_path / 'mlflow.db'}")
    finally:
        mlflow.set_tracking_uri(previous[0])
        mlflow.set_registry_uri(previous[1])
    assert reg.name == f"paratrace-b1-openai-oracle-b1-at-127.0.0.1-{urlsplit(oracle.base_url).port}"


def test_the_reflection_model_has_its_own_endpoint_and_key_variable(oracle, tmp_path):
    done = _cli(tmp_path, "optimize", "--config", "b1", "--select", "bank-", "--model", "scripted/tutor-hint",
                "--optimizer", "labeled", "--reflection-model", "openai/oracle-reflect",
                "--reflection-api-base", oracle.base_url, "--reflection-api-key-env", "REFLECT_KEY",
                "--out", str(tmp_path / "runs" / "b1"), "--no-register", REFLECT_KEY=KEY_VALUE)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    text = (tmp_path / "runs" / "b1" / "manifest.json").read_text()
    manifest = json.loads(text)
    assert manifest["reflection_model"] == "openai/oracle-reflect"
    assert manifest["reflection_api_base"] == oracle.base_url and manifest["reflection_api_key_env"] == "REFLECT_KEY"
    assert KEY_VALUE not in text


def test_a_dead_reflection_endpoint_stops_the_run_before_it_starts(tmp_path):
    from assistant.scripted_http import dead_url

    url = dead_url()
    done = _cli(tmp_path, "optimize", "--select", "bank-", "--model", "scripted/tutor-hint", "--optimizer", "gepa",
                "--reflection-model", "openai/reflector", "--reflection-api-base", url,
                "--out", str(tmp_path / "out"), "--no-register", PARATRACE_API_KEY="unused")
    assert done.returncode == 2, done.stdout + done.stderr
    assert f"reflection model openai/reflector at {url}: connection refused" in done.stderr
    assert "Traceback" not in done.stderr and not (tmp_path / "out").exists()


def test_a_reflection_endpoint_without_a_reflection_model_is_refused(tmp_path):
    done = _cli(tmp_path, "optimize", "--select", "bank-", "--model", "scripted/tutor-hint",
                "--reflection-api-base", "http://127.0.0.1:9/v1", "--out", str(tmp_path / "out"), "--no-register")
    assert done.returncode == 2 and "--reflection-model" in done.stderr, done.stdout + done.stderr
    assert "Traceback" not in done.stderr
