"""A registered program is deployable through MLflow alone, in a fresh process:
``mlflow.pyfunc.load_model("models:/NAME/VERSION").predict(request)`` and
``mlflow models serve -m models:/NAME/VERSION --env-manager local`` answer with
the output contract on a backbone chosen at load / serve time (an
OpenAI-compatible stub on 127.0.0.1), the request carrying the JSON-schema
``response_format``; ``mlflow.dspy.load_model`` still gives the DSPy module."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request

import pytest
from optimize_cases import REPO
from serve_cases import REQUEST

from assistant.scripted import Script
from assistant.scripted_http import ScriptedServer
from experiments.runner.ui import free_port
from scorer.contract import OutputRecord

KEY = "sk-stub-never-stored-5678"
PREDICT = """
import json, sys, mlflow.pyfunc
config = json.loads(sys.argv[2])
model = mlflow.pyfunc.load_model(sys.argv[1], model_config=config or None)
print(json.dumps(model.predict(json.loads(sys.argv[3]))))
"""
NATIVE = """
import sys, mlflow.dspy
module = mlflow.dspy.load_model(sys.argv[1])
print(type(module).__name__, sorted(name for name, _ in module.named_predictors()))
"""


@pytest.fixture(scope="module")
def registered(tmp_path_factory):
    import mlflow

    from assistant.configs import build
    from optimize.programs import Manifest, save_program
    from optimize.registry import log_program

    root = tmp_path_factory.mktemp("deploy")
    uri = f"sqlite:///{root / 'mlflow.db'}"
    program = save_program(build("b4"), root / "program", Manifest("b4", "scripted/null", "none", 5))
    previous, previous_registry = mlflow.get_tracking_uri(), mlflow.get_registry_uri()
    cwd = os.getcwd()
    os.chdir(root)
    try:
        reg = log_program(program, tracking_uri=uri)
    finally:
        os.chdir(cwd)
        mlflow.set_tracking_uri(previous)
        mlflow.set_registry_uri(previous_registry)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PARATRACE_", "OPENAI_"))}
    env.update(PYTHONPATH=str(REPO), MLFLOW_TRACKING_URI=uri, MLFLOW_REGISTRY_URI=uri,
               LITELLM_LOCAL_MODEL_COST_MAP="true", MLFLOW_DISABLE_TELEMETRY="true",
               # `mlflow models serve` execs `uvicorn` by name: the interpreter's own, activated or not
               PATH=os.pathsep.join([os.path.dirname(sys.executable), os.environ.get("PATH", "")]))
    return root, reg, env


def _stub():
    return ScriptedServer(Script(fallback="null")).start()


def _schema_requests(server) -> list[dict]:
    return [b for b in server.bodies if (b.get("response_format") or {}).get("type") == "json_schema"]


def test_pyfunc_predicts_in_a_fresh_process_on_a_backbone_from_the_model_config(registered, tmp_path):
    root, reg, env = registered
    env = {**env, "DSPY_CACHEDIR": str(tmp_path / "dspy-cache")}  # every request reaches the stub
    server = _stub()
    try:
        config = {"model": "openai/served-by-config", "api_base": server.base_url, "api_key_env": "STUB_KEY"}
        out = subprocess.run([sys.executable, "-c", PREDICT, reg.model_uri, json.dumps(config), json.dumps(REQUEST)],
                             cwd=root, env={**env, "STUB_KEY": KEY}, capture_output=True, text=True, timeout=300)
        assert out.returncode == 0, out.stderr[-3000:]
        record = OutputRecord.model_validate(json.loads(out.stdout.strip().splitlines()[-1]))
        assert record.configuration == "b4" and record.common is not None and not record.meta.hard_failure
        assert server.bodies and len(_schema_requests(server)) == len(server.bodies)
        assert {b["model"] for b in server.bodies} == {"served-by-config"}
    finally:
        server.stop()
    stored = "".join(p.read_text(errors="ignore") for p in root.rglob("*") if p.is_file() and p.suffix != ".db")
    assert KEY not in stored and "served-by-config" not in stored


def test_pyfunc_takes_the_backbone_from_the_environment_with_openai_api_base(registered, tmp_path):
    root, reg, env = registered
    env = {**env, "DSPY_CACHEDIR": str(tmp_path / "dspy-cache")}
    server = _stub()
    try:
        run_env = {**env, "PARATRACE_MODEL": "openai/served-by-env", "OPENAI_API_BASE": server.base_url,
                   "PARATRACE_API_KEY": KEY}
        out = subprocess.run([sys.executable, "-c", PREDICT, reg.model_uri, "{}", json.dumps(REQUEST)],
                             cwd=root, env=run_env, capture_output=True, text=True, timeout=300)
        assert out.returncode == 0, out.stderr[-3000:]
        OutputRecord.model_validate(json.loads(out.stdout.strip().splitlines()[-1]))
        assert server.bodies and len(_schema_requests(server)) == len(server.bodies)
        assert {b["model"] for b in server.bodies} == {"served-by-env"}
    finally:
        server.stop()


def test_the_dspy_flavor_loads_the_module_in_a_fresh_process(registered):
    root, reg, env = registered
    out = subprocess.run([sys.executable, "-c", NATIVE, reg.model_uri], cwd=root, env=env,
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-3000:]
    assert out.stdout.split()[0] == "B4"


def _wait(url: str, proc: subprocess.Popen, timeout_s: float = 240.0) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        assert proc.poll() is None, "mlflow models serve exited early"
        try:
            with urllib.request.urlopen(url + "/ping", timeout=2) as resp:
                if resp.status == 200:
                    return
        except (urllib.error.URLError, OSError):
            time.sleep(0.5)
    raise AssertionError(f"mlflow models serve did not answer at {url}")


def test_mlflow_models_serve_answers_with_the_output_contract(registered, tmp_path):
    root, reg, env = registered
    env = {**env, "DSPY_CACHEDIR": str(tmp_path / "dspy-cache")}
    server = _stub()
    port = free_port()
    serve_env = {**env, "PARATRACE_MODEL": "hosted_vllm/served-by-serve", "PARATRACE_API_BASE": server.base_url,
                 "PARATRACE_API_KEY": KEY}
    proc = subprocess.Popen([sys.executable, "-m", "mlflow", "models", "serve", "-m", reg.model_uri,
                             "--env-manager", "local", "--host", "127.0.0.1", "--port", str(port)],
                            cwd=root, env=serve_env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    try:
        _wait(url, proc)
        request = urllib.request.Request(url + "/invocations", data=json.dumps({"inputs": REQUEST}).encode(),
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=120) as resp:
            assert resp.status == 200
            body = json.loads(resp.read())
        record = OutputRecord.model_validate(body["predictions"])
        assert record.configuration == "b4" and not record.meta.hard_failure
        assert server.bodies and len(_schema_requests(server)) == len(server.bodies)
        assert {b["model"] for b in server.bodies} == {"served-by-serve"}
        bad = urllib.request.Request(url + "/invocations", data=json.dumps({"inputs": {"query": "q"}}).encode(),
                                     headers={"Content-Type": "application/json"})
        with pytest.raises(urllib.error.HTTPError) as err:
            urllib.request.urlopen(bad, timeout=60)
        assert err.value.code == 400 and "field evidence" in err.value.read().decode()
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
        server.stop()


def _refusing(messages, schema=None):
    """A backend that rejects the request, quoting the prompt (as context-length errors do)."""
    from assistant.errors import BackendError

    prompt = " ".join(str(m.get("content", "")) for m in messages)
    raise BackendError(f"this model refuses the request: prompt starts {prompt[-400:]!r}")


def test_mlflow_models_serve_names_the_backends_cause_without_the_evidence(registered, tmp_path):
    from serve_cases import SECRET_TEXT

    root, reg, env = registered
    server = ScriptedServer(Script(responder=_refusing)).start()
    port = free_port()
    serve_env = {**env, "DSPY_CACHEDIR": str(tmp_path / "dspy-cache"), "PARATRACE_MODEL": "hosted_vllm/refusing",
                 "PARATRACE_API_BASE": server.base_url}
    proc = subprocess.Popen([sys.executable, "-m", "mlflow", "models", "serve", "-m", reg.model_uri,
                             "--env-manager", "local", "--host", "127.0.0.1", "--port", str(port)],
                            cwd=root, env=serve_env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    try:
        _wait(url, proc)
        request = urllib.request.Request(url + "/invocations", data=json.dumps({"inputs": REQUEST}).encode(),
                                         headers={"Content-Type": "application/json"})
        with pytest.raises(urllib.error.HTTPError) as err:
            urllib.request.urlopen(request, timeout=120)
        body = err.value.read().decode()
        assert err.value.code == 503, body
        message = json.loads(body)["message"]
        assert message.startswith("request 0: the language model call failed")
        assert "this model refuses the request" in message and "HTTP 400" in message  # the backend's cause
        assert SECRET_TEXT not in body and REQUEST["query"] not in body and "Failed to predict data" not in body
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
        server.stop()
