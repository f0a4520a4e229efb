"""A backbone served by two replicas (two OpenAI-compatible servers on
127.0.0.1), as ``paratrace run`` processes: litellm's Router spreads the calls
over both, and when one replica dies mid-run every case is still answered by
the other; at the start each replica must answer the preflight, and a dead one
is named."""

from __future__ import annotations

import json
import subprocess
import threading
from pathlib import Path

from cli_process import PARATRACE, ROOT, cli_env

from assistant.backends import PROBE_MESSAGES
from assistant.scripted import Script, minimal_instance
from assistant.scripted_http import ScriptedServer, dead_url

SUITE = ROOT / "tests" / "symbolic" / "fixtures" / "penalty_suite.jsonl"


def _answer(messages, schema):
    return "OK" if messages[-1]["content"] == PROBE_MESSAGES[-1]["content"] else json.dumps(minimal_instance(schema))


def _spec(tmp_path: Path, name: str, bases: list[str]) -> Path:
    spec = tmp_path / f"{name}.toml"
    spec.write_text(f'name = "{name}"\nsuites = ["{SUITE}"]\nconfigurations = ["b1"]\nconcurrency = 1\n'
                    f'[[backbones]]\nmodel = "hosted_vllm/replicated"\napi_base = {json.dumps(bases)}\n')
    return spec


def _run(tmp_path: Path, spec: Path) -> subprocess.CompletedProcess:
    return subprocess.run([*PARATRACE, "run", str(spec), "--no-track", "--no-cache", "--workdir", str(tmp_path)],
                          cwd=tmp_path, env=cli_env(tmp_path), capture_output=True, text=True, timeout=900)


def test_a_replica_that_dies_mid_run_costs_no_case(tmp_path):
    cases = {"answered": 0, "survivor": 0}
    lock = threading.Lock()

    def replica(name):
        def answer(messages, schema):
            text = _answer(messages, schema)
            if text != "OK":
                with lock:
                    cases["answered"] += 1
                    cases[name] = cases.get(name, 0) + 1
                    if cases["answered"] == 3:  # the third case answered, the doomed replica goes away
                        threading.Thread(target=doomed.stop, daemon=True).start()
            return text
        return answer

    survivor = ScriptedServer(Script(responder=replica("survivor"))).start()
    doomed = ScriptedServer(Script(responder=replica("doomed"))).start()
    try:
        done = _run(tmp_path, _spec(tmp_path, "replicas", [doomed.base_url, survivor.base_url]))
        assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
        assert "7 scored" in done.stdout and "0 infrastructure errors" in done.stdout
        records = [json.loads(x) for x in (tmp_path / "runs" / "replicas" / "results.jsonl").read_text().splitlines()]
        assert len(records) == 7 and {r["outcome"] for r in records} == {"scored"}
        assert cases["answered"] == 7 and cases["survivor"] >= 4  # after the death, the survivor answered the rest
        assert doomed._server is None  # it did go away mid-run
    finally:
        survivor.stop()
        if doomed._server is not None:
            doomed.stop()


def test_a_dead_replica_is_named_before_the_run(tmp_path):
    with ScriptedServer(Script(responder=_answer)) as alive:
        dead = dead_url()
        done = _run(tmp_path, _spec(tmp_path, "dead", [alive.base_url, dead]))
    assert done.returncode == 2, done.stdout + done.stderr
    assert f"at {dead}: connection refused" in done.stderr and "every replica in api_base must answer" in done.stderr
    assert not (tmp_path / "runs" / "dead").exists()
