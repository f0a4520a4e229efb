"""A run stops on a dead endpoint (issue 32, item 6): after N consecutive
infrastructure errors on one backbone its remaining cases are not started, the
run says so in one line and exits 3; ``--resume`` continues once the endpoint
answers again, and the superseded ``infra_error`` lines are compacted away."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from experiments.runner.engine import CaseOutcome, Task, run_tasks
from experiments.runner.runlog import ResultLog
from experiments.runner.spec import RunKey
from experiments.runner.state import compact_superseded

ROOT = Path(__file__).resolve().parents[2]
SUITE = ROOT / "tests" / "symbolic" / "fixtures" / "penalty_suite.jsonl"


class _Endpoint(BaseHTTPRequestHandler):
    """Answers chat completions (a valid B1 answer) until ``server.alive`` is cleared, then 500s.

    ``server.answered`` counts the real calls; after ``server.die_after`` of them the endpoint dies.
    """

    def do_POST(self):  # noqa: N802 - http.server's naming
        request = json.loads(self.rfile.read(int(self.headers.get("content-length") or 0)) or b"{}")
        server = self.server
        probe = 1 in (request.get("max_tokens"), request.get("max_completion_tokens"))
        with server.lock:
            if not probe and server.alive and server.answered >= server.die_after:
                server.alive = False
            alive = server.alive
            if alive and not probe:
                server.answered += 1
        if not alive:
            body = json.dumps({"error": {"message": "upstream is down", "type": "server_error"}}).encode()
            self.send_response(500)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        content = "OK" if probe else json.dumps({"result": {"answer": "A penalty is due.", "cited": [],
                                                            "conflict": False, "priority_applied": False,
                                                            "status": "accepted"}})
        body = json.dumps({"id": "x", "object": "chat.completion", "created": 0, "model": request.get("model", ""),
                           "choices": [{"index": 0, "finish_reason": "length" if probe else "stop",
                                        "message": {"role": "assistant", "content": content}}],
                           "usage": {"prompt_tokens": 5, "completion_tokens": 1 if probe else 5,
                                     "total_tokens": 6 if probe else 10}}).encode()
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.fixture()
def endpoint():
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Endpoint)
    server.lock, server.alive, server.answered, server.die_after = threading.Lock(), True, 0, 2
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()
    thread.join()


def _run(args, cwd: Path) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("MLFLOW_TRACKING", "PARATRACE_"))}
    env.update(MLFLOW_DISABLE_TELEMETRY="true", LITELLM_LOCAL_MODEL_COST_MAP="true", HOME=str(cwd),
               PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
    return subprocess.run([sys.executable, "-c", "from optimize.console import main; main()", *map(str, args)],
                          cwd=cwd, env=env, capture_output=True, text=True, timeout=600)


def test_a_dead_endpoint_stops_its_cases_and_resume_finishes_them(tmp_path, endpoint):
    url = f"http://127.0.0.1:{endpoint.server_address[1]}/v1"
    spec = tmp_path / "dies.toml"
    spec.write_text(f'name = "dies"\nsuites = ["{SUITE}"]\nconfigurations = ["b1"]\nmax_retries = 1\n'
                    f'backoff_s = 0\nconcurrency = 1\n[[backbones]]\nmodel = "openai/stub"\napi_base = "{url}"\n',
                    encoding="utf-8")
    results = tmp_path / "runs" / "dies" / "results.jsonl"
    first = _run(["run", spec, "--workdir", tmp_path, "--no-track", "--no-cache", "--stop-after-errors", 2], tmp_path)
    assert first.returncode == 3, first.stdout + first.stderr
    errors = [line for line in first.stderr.splitlines() if line.startswith("paratrace: error:")]
    assert len(errors) == 1 and "stopped after 2 consecutive infrastructure errors" in errors[0], first.stderr
    assert "openai/stub" in errors[0] and "3 case(s) not run" in errors[0] and "--resume" in errors[0]
    assert "Traceback" not in first.stderr
    outcomes = [json.loads(x)["outcome"] for x in results.read_text().splitlines()]
    assert outcomes == ["scored", "scored", "infra_error", "infra_error"]

    with endpoint.lock:
        endpoint.alive, endpoint.die_after = True, 10 ** 6
    again = _run(["run", spec, "--workdir", tmp_path, "--no-track", "--no-cache", "--resume"], tmp_path)
    assert again.returncode == 0, again.stdout + again.stderr
    records = [json.loads(x) for x in results.read_text().splitlines()]
    assert [r["outcome"] for r in records] == ["scored"] * 7  # the two infra_error lines were superseded
    assert len({r["key"]["case"] for r in records}) == 7


def _tasks(backbones):
    return [Task(RunKey("s", f"c{i:02d}", "b1", backbone, "standard", 0)) for i in range(6)
            for backbone in backbones]


def _fail(task, exc):
    return CaseOutcome("infra_error", {"meta": {"failure_reason": f"{type(exc).__name__}: {exc}"}})


def test_the_breaker_counts_per_backbone_and_resets_on_an_answer(tmp_path):
    answered = []

    def solve(task):
        if task.key.backbone == "dead" or (task.key.backbone == "flaky" and task.key.case in ("c01", "c03")):
            raise ConnectionError("connection refused")
        answered.append(task.key)
        return CaseOutcome("scored", {})

    log = ResultLog(tmp_path / "results.jsonl")
    summary = run_tasks(_tasks(["dead", "flaky"]), solve, _fail, log, concurrency=1, max_retries=0,
                        sleep=lambda s: None, stop_after=2)
    assert summary.stopped_backbones == {"dead": "ConnectionError: connection refused"}
    assert summary.held == 4 and summary.pending == 4
    assert {k.case for k in answered} == {"c00", "c02", "c04", "c05"}  # flaky never failed twice in a row
    never = run_tasks(_tasks(["dead"]), solve, _fail, ResultLog(tmp_path / "other.jsonl"), concurrency=1,
                      max_retries=0, sleep=lambda s: None)
    assert never.stopped_backbones == {} and never.infra_errors == 6


def test_compaction_keeps_each_case_s_latest_record_and_other_lines(tmp_path):
    path = tmp_path / "results.jsonl"
    key = {"suite": "s", "case": "c1", "configuration": "b1", "backbone": "m", "variant": "standard", "repeat": 0}
    other = {**key, "case": "c2"}
    lines = [{"key": key, "outcome": "infra_error"}, {"key": other, "outcome": "infra_error"},
             {"key": key, "outcome": "infra_error"}, {"key": key, "outcome": "scored"}]
    path.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    assert compact_superseded(path) == 2
    assert [json.loads(x) for x in path.read_text().splitlines()] == lines[1:2] + lines[3:]
    assert compact_superseded(path) == 0
