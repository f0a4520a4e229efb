"""One redaction layer: a provider stub on 127.0.0.1 that echoes the API key in its
error ("Incorrect API key provided: sk-...") must not get the key into the
console, the logs, results.jsonl, reports, MLflow params, tags, artifacts or
trace spans (``exception.message``, tracebacks)."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from symbolic.support.redact import install_log_redaction, redact, redact_text, register_secret

ROOT = Path(__file__).resolve().parents[2]
SUITE = ROOT / "tests" / "symbolic" / "fixtures" / "penalty_suite.jsonl"
KEY = "sk-proj-STUBKEY0123456789abcdefDONOTLEAK"
SHAPED = "sk-ant-api03-OTHERKEY9876543210zyxw"  # key-shaped, in no environment variable


class _EchoKey(BaseHTTPRequestHandler):
    """An OpenAI-compatible endpoint that answers the runner's one-token probe, then
    refuses the key of every real call, quoting it back (a key revoked mid-run)."""

    def do_POST(self):  # noqa: N802 - http.server's naming
        request = json.loads(self.rfile.read(int(self.headers.get("content-length") or 0)) or b"{}")
        if 1 in (request.get("max_tokens"), request.get("max_completion_tokens")):
            return self._send(200, {"id": "probe", "object": "chat.completion", "created": 0,
                                    "model": request.get("model", ""),
                                    "choices": [{"index": 0, "finish_reason": "length",
                                                 "message": {"role": "assistant", "content": "OK"}}],
                                    "usage": {"prompt_tokens": 3, "completion_tokens": 1, "total_tokens": 4}})
        sent = self.headers.get("authorization", "").removeprefix("Bearer ")
        self._send(401, {"error": {"message": f"Incorrect API key provided: {sent}. Also seen: {SHAPED}",
                                   "type": "invalid_request_error", "code": "invalid_api_key"}})

    def _send(self, status, payload):
        body = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.fixture()
def provider():
    server = ThreadingHTTPServer(("127.0.0.1", 0), _EchoKey)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/v1"
    server.shutdown()
    server.server_close()
    thread.join()


def _env(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("MLFLOW_TRACKING", "PARATRACE_"))}
    env.update(OPENAI_API_KEY=KEY, MLFLOW_DISABLE_TELEMETRY="true", LITELLM_LOCAL_MODEL_COST_MAP="true",
               HOME=str(tmp_path))
    return env


def _cli(args, tmp_path, **kw):
    return subprocess.run([sys.executable, "-c", "from optimize.root import main; main()", *map(str, args)],
                          cwd=tmp_path, env=_env(tmp_path), capture_output=True, text=True, timeout=240, **kw)


def _leaks(root: Path) -> list[str]:
    """Files under ``root`` holding either key, in any byte form."""
    found = []
    for path in root.rglob("*"):
        if path.is_file() and not path.is_symlink():
            data = path.read_bytes()
            if KEY.encode() in data or SHAPED.encode() in data:
                found.append(str(path.relative_to(root)))
    return found


def test_ask_prints_no_key_when_the_provider_echoes_it(tmp_path, provider):
    package = tmp_path / "pkg.json"
    package.write_text(json.dumps({"query": "Is a penalty due?", "target": "Penalty(supplier)", "evidence": [
        {"id": "E-01", "text": "The supplier pays a penalty for late delivery.", "source": "Contract"}]}))
    done = _cli(["ask", "-e", package, "--config", "b1", "--model", "openai/gpt-4o-mini", "--api-base", provider,
                 "--max-retries", "0"], tmp_path)
    out = done.stdout + done.stderr
    assert "Incorrect API key" in out or "401" in out or "Authentication" in out, out
    assert KEY not in out and SHAPED not in out and "Traceback" not in out
    assert _leaks(tmp_path) == []


def test_a_tracked_run_stores_no_key_in_results_reports_or_mlflow(tmp_path, provider):
    spec = tmp_path / "leak.toml"
    spec.write_text(f'name = "leak"\nsuites = ["{SUITE}"]\nconfigurations = ["b1"]\nlimit = 2\nmax_retries = 0\n'
                    f'concurrency = 1\n[[backbones]]\nmodel = "openai/gpt-4o-mini"\napi_base = "{provider}"\n',
                    encoding="utf-8")
    done = _cli(["run", spec, "--workdir", tmp_path], tmp_path)
    out = done.stdout + done.stderr
    assert KEY not in out and SHAPED not in out and "Traceback" not in out, out
    assert (tmp_path / "mlflow.db").exists(), out
    # The failure reached the store: the case spans name the refusal, never the key.
    import sqlite3

    with sqlite3.connect(tmp_path / "mlflow.db") as db:
        spans = [row[0] for row in db.execute("select content from spans")]
    assert spans and any("refused the API key (HTTP 401)" in s for s in spans), spans[:1]
    assert not any(KEY in s or SHAPED in s for s in spans)
    assert _leaks(tmp_path) == []


def test_redaction_masks_configured_values_and_key_shapes(monkeypatch):
    monkeypatch.setenv("ACME_LLM_TOKEN", "acme-secret-value-42")
    assert redact_text("x acme-secret-value-42 y") == "x *** y"
    assert redact_text("uses sk-learn-style names") == "uses sk-learn-style names"
    for shaped in ("sk-abcdefghijkl0123456789", "AKIAABCDEFGHIJKLMNOP", "ghp_" + "a" * 36, "hf_" + "b" * 30,
                   "AIza" + "c" * 35, "xoxb-1234567890-abc", "gsk_" + "d" * 40):
        assert redact_text(f"key {shaped} end") == "key *** end", shaped
    assert redact_text("Authorization: Bearer abcdef123456") == "Authorization: Bearer ***"
    assert redact_text("max_tokens 4096, prompt_tokens 12") == "max_tokens 4096, prompt_tokens 12"
    assert redact({"api_key": "x", "max_tokens": 9, "n": [f"{KEY}"]}) == {"max_tokens": 9, "n": ["***"]}
    register_secret("registered-bearer-token-1")
    assert redact_text("got registered-bearer-token-1") == "got ***"


def test_log_records_are_masked_with_their_arguments_and_tracebacks(caplog):
    install_log_redaction()
    logger = logging.getLogger("paratrace.test.redact")
    with caplog.at_level(logging.WARNING, logger="paratrace.test.redact"):
        logger.warning("provider said %s", f"Incorrect API key provided: {KEY}")
        try:
            raise RuntimeError(f"auth failed for {KEY}")
        except RuntimeError:
            logger.exception("call failed")
    text = caplog.text + "".join(r.exc_text or "" for r in caplog.records)
    assert "Incorrect API key provided: ***" in text and "auth failed for ***" in text and KEY not in text
