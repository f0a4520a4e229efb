"""The oracle backbones: prompt matching, gold replies, seeded noise, the HTTP
server and ``paratrace oracle serve`` as a subprocess."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from assistant.api import Assistant
from assistant.errors import BackendError
from assistant.oracle import CORRUPTIONS, Oracle, OracleServer, corrupt, gold_reply
from symbolic.suites.io import load_suite

SUITES = Path(__file__).resolve().parents[2] / "experiments" / "suites"


@pytest.fixture(scope="module")
def normative():
    return sorted(load_suite(SUITES / "normative-en.jsonl"), key=lambda s: s.id)


@pytest.fixture
def api_key(monkeypatch):
    monkeypatch.setenv("PARATRACE_API_KEY", "not-a-real-key")


def test_every_configuration_gets_the_gold_answer_over_http(normative, api_key):
    case = next(s for s in normative if s.gold.priorities)
    with OracleServer(normative) as srv:
        for config in ("b1", "b2", "b3", "b4"):
            rec = Assistant(config, f"openai/oracle-test-{config}", api_base=srv.base_url,
                            cache=False).run_scenario(case).record
            assert not rec.meta.hard_failure and rec.status is case.gold.status, config
        assert srv.oracle.ledger()["answered"] == 5  # b2 asks twice
        assert all(b["model"].startswith("oracle-test-") for b in srv.bodies)  # the litellm/DSPy path


def test_a_prompt_about_no_case_is_a_clear_error(normative, api_key):
    other = normative[0].model_copy(update={"query": "A question the suite does not hold?"})
    with OracleServer(normative[1:3]) as srv:
        assistant = Assistant("b1", "openai/oracle-miss", api_base=srv.base_url, max_retries=0, cache=False)
        with pytest.raises(Exception, match="no case of the oracle's suite has this query"):
            assistant.run_scenario(other)  # a 400 from the server, through litellm/DSPy


def test_gold_reply_is_the_demo_encoding(normative):
    from assistant.variants import demo_fields

    case = normative[0]
    assert gold_reply(case, "extract") == {"theory": demo_fields(case)["extract"]["theory"].model_dump(mode="json")}


def test_noise_is_seeded_by_case_and_predictor_not_by_order(normative):
    reply = gold_reply(normative[5], "extract")
    runs = [corrupt(reply, normative[5], "extract", 1.0, seed=9) for _ in range(3)]
    assert runs[0] == runs[1] == runs[2] and runs[0][1].kind in CORRUPTIONS
    assert corrupt(reply, normative[5], "extract", 0.0, seed=9) == (reply, None)
    kinds = {corrupt(gold_reply(s, "answer"), s, "answer", 1.0, seed=1)[1].kind for s in normative}
    assert kinds == {"old_clause_id", "wrong_status"}
    with pytest.raises(BackendError, match="rate in"):
        Oracle(normative, noise=1.5)


def test_corruptions_change_what_they_say(normative):
    with_exception = next(s for s in normative if any(r.excepts for r in s.gold.rules))
    for seed in range(40):
        reply, c = corrupt(gold_reply(with_exception, "extract"), with_exception, "extract", 1.0, seed=seed)
        theory, gold = reply["theory"], gold_reply(with_exception, "extract")["theory"]
        if c.kind == "missing_exception":
            assert len(theory["rules"]) == len(gold["rules"]) - 1
        elif c.kind == "dropped_priority":
            assert len(theory["priorities"]) == len(gold["priorities"]) - 1
        else:
            assert c.kind == "old_clause_id" and theory != gold


def test_cli_serves_until_interrupted(normative, tmp_path, api_key):
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    exe = Path(sys.executable).with_name("paratrace")
    proc = subprocess.Popen([str(exe), "oracle", "serve", "--suite", "normative-en"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env)
    try:
        first = proc.stdout.readline()
        assert first.startswith("oracle for 85 cases"), first + proc.stderr.read()
        base = first.rsplit(" at ", 1)[1].strip()
        assert proc.stdout.readline().startswith("use: --model openai/oracle-normative-en-0-0")
        rec = Assistant("b1", "openai/oracle-cli", api_base=base, cache=False).run_scenario(normative[0]).record
        assert rec.status is normative[0].gold.status
        ledger = json.load(urllib.request.urlopen(base + "/oracle/ledger"))
        assert ledger["answered"] == 1 and ledger["noise"] == 0.0
    finally:
        proc.send_signal(signal.SIGINT)
        try:  # communicate drains both pipes, so a chatty child cannot block on a full one
            _, err = proc.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
            _, err = proc.communicate()
            pytest.fail(f"paratrace oracle serve did not stop within 60 s of SIGINT; its stderr:\n{err[-4000:]}")
    assert proc.returncode == 0, err[-4000:]


def test_paratrace_run_against_the_oracle_as_a_subprocess(normative, tmp_path, api_key):
    from experiments.runner.plan import load_suites

    scenarios, _ = load_suites(["controlled-140"])
    with OracleServer(scenarios["controlled-140"]) as srv:
        spec = tmp_path / "oracle.toml"
        spec.write_text('name = "oracle-check"\nsuites = ["controlled-140"]\nconfigurations = ["b4"]\n'
                        'limit = 7\n[[backbones]]\nmodel = "openai/oracle-cli-run"\n'
                        f'api_base = "{srv.base_url}"\n', encoding="utf-8")
        exe = Path(sys.executable).with_name("paratrace")
        done = subprocess.run([str(exe), "run", str(spec), "--no-track", "--workdir", str(tmp_path)],
                              capture_output=True, text=True, timeout=600, env={**os.environ})
    assert done.returncode == 0, done.stdout + done.stderr
    reports = tmp_path / "runs" / "oracle-check" / "reports" / "controlled-140"
    accuracy = (reports / "summary_accuracy.csv").read_text(encoding="utf-8").splitlines()
    assert len(accuracy) == 2 and ",7,0," in accuracy[1]  # 7 cases, no hard failure
    assert "1.000000" in accuracy[1].split(",")[7]  # accuracy estimate
    assert len((reports / "audit.csv").read_text(encoding="utf-8").splitlines()) > 1


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_cli_stops_on_a_signal_even_when_started_with_sigint_ignored(sig):
    # A job started in the background of a script inherits SIGINT as ignored.
    exe = Path(sys.executable).with_name("paratrace")
    proc = subprocess.Popen([str(exe), "oracle", "serve", "--suite", "normative-en"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"},
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN))
    try:
        assert proc.stdout.readline().startswith("oracle for 85 cases")
        assert proc.stdout.readline().startswith("use: --model")
        proc.send_signal(sig)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 0, err[-4000:]
