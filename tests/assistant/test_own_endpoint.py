"""Your own endpoint, against a real OpenAI-compatible HTTP server on 127.0.0.1
(:class:`assistant.scripted_http.ScriptedServer`): keyless servers need no dummy key,
the key variable is honoured, JSON-schema ``response_format`` reaches the
server, refused keys and dead endpoints are one typed line; the response cache
is keyed by endpoint and never stores failures; ``ask``'s input errors name
file and field."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from assistant.api import Assistant
from assistant.backends import probe, resolve
from assistant.probe import PROBE_MESSAGES
from assistant.cache import CACHE_DIRNAME, ResponseCache, use_cache
from assistant.errors import BackendError
from assistant.scripted import Script
from assistant.scripted_http import ScriptedServer, dead_url
from optimize.root import app

from assistant_cases import ANSWER, FRAGMENTS, QUERY, TARGET, THEORY

PARATRACE = str(Path(sys.executable).with_name("paratrace"))
KEY_VARS = ("OPENAI_API_KEY", "PARATRACE_API_KEY", "HOSTED_VLLM_API_KEY", "MY_ENDPOINT_KEY")


@pytest.fixture(autouse=True)
def no_keys(monkeypatch):
    for name in KEY_VARS:
        monkeypatch.delenv(name, raising=False)


@pytest.mark.parametrize("model", ["openai/my-model", "hosted_vllm/my-model"])
def test_keyless_openai_compatible_server_gets_the_json_schema(model):
    with ScriptedServer(Script([{"theory": THEORY}])) as server:
        rec = Assistant("b4", model, api_base=server.base_url, cache=False).ask(QUERY, FRAGMENTS, target=TARGET)
        body, headers = server.bodies[0], server.headers[0]
    assert rec.common.final_status.value == "accepted" and not rec.meta.hard_failure
    fmt = body["response_format"]
    assert fmt["type"] == "json_schema"
    assert "theory" in fmt["json_schema"]["schema"]["properties"]
    assert body["model"] == "my-model" and body["temperature"] == 0.0
    assert headers.get("authorization") == "Bearer EMPTY"  # no key set, none demanded


def test_key_variable_is_sent_and_a_refused_key_is_one_typed_line(monkeypatch):
    with ScriptedServer(Script([{"result": ANSWER}]), api_key="sk-right-123") as server:
        monkeypatch.setenv("MY_ENDPOINT_KEY", "sk-right-123")
        rec = Assistant("b1", "openai/m", api_base=server.base_url, api_key_env="MY_ENDPOINT_KEY",
                        cache=False).ask(QUERY, FRAGMENTS)
        assert rec.common.final_status.value == "accepted"
        assert server.headers[0]["authorization"] == "Bearer sk-right-123"
        monkeypatch.setenv("MY_ENDPOINT_KEY", "sk-wrong")
        wrong = Assistant("b1", "openai/m", api_base=server.base_url, api_key_env="MY_ENDPOINT_KEY", cache=False)
        with pytest.raises(BackendError, match=r"openai/m at http://127\.0\.0\.1:\d+/v1: .*HTTP 401") as err:
            wrong.ask(QUERY, FRAGMENTS)
        assert "sk-wrong" not in str(err.value)
        with pytest.raises(BackendError, match="HTTP 401"):
            probe(wrong.backbone)
    monkeypatch.delenv("MY_ENDPOINT_KEY")
    with pytest.raises(BackendError, match="MY_ENDPOINT_KEY is not set"):
        resolve("openai/m", api_base="http://127.0.0.1:9/v1", api_key_env="MY_ENDPOINT_KEY")


def test_a_dead_endpoint_fails_the_probe_naming_backbone_and_endpoint():
    url = dead_url()
    with pytest.raises(BackendError, match=rf"backbone openai/m at {url}: connection refused"):
        probe(resolve("openai/m", api_base=url, cache=False))


def test_cache_is_keyed_by_endpoint_and_never_stores_failures(tmp_path):
    invalid = {"result": {**ANSWER, "status": "maybe"}}
    with ScriptedServer(Script([invalid, {"result": ANSWER}, invalid])) as up, use_cache(tmp_path / "c") as cache:
        first = Assistant("b1", "openai/same", api_base=up.base_url).ask(QUERY, FRAGMENTS)
        assert first.common.final_status.value == "accepted" and len(up.bodies) == 2
        assert len(cache) == 1  # the re-asked, valid reply; the invalid one is not stored
        again = Assistant("b1", "openai/same", api_base=up.base_url).run(QUERY, FRAGMENTS)
        assert len(up.bodies) == 3  # the first (invalid) request is asked again ...
        assert [c.cache_hit for c in again.calls] == [False, True]  # ... the re-ask replays
        # Same model string, another endpoint that is down: no answer from the first one's cache.
        down = Assistant("b1", "openai/same", api_base=dead_url())
        with pytest.raises(BackendError, match="connection refused"):
            down.ask(QUERY, FRAGMENTS)
        assert len(cache) == 1
    with ScriptedServer(Script([{"result": ANSWER}])) as up, use_cache(tmp_path / "c"):
        Assistant("b1", "openai/same", api_base=up.base_url, cache=False).ask(QUERY, FRAGMENTS)
        assert len(up.bodies) == 1  # cache=False: asked again
    reopened = ResponseCache(tmp_path / "c")
    assert len(reopened) == 1 and reopened.clear() == 1
    reopened.close()


def _ask(args, **env):
    return CliRunner().invoke(app, ["ask", *args], env=env or None)


@pytest.fixture
def package(tmp_path):
    path = tmp_path / "package.json"
    path.write_text(json.dumps({"query": QUERY, "fragments": [f.model_dump(mode="json", exclude_none=True)
                                                               for f in FRAGMENTS]}))
    return path


@pytest.mark.parametrize("content, expected", [
    ("{not json", "malformed JSON"),
    (json.dumps({"fragments": [{"id": "E-01", "text": "A clause."}]}), "field fragments.0.source: Field required"),
    (json.dumps({"fragments": ["E-01"]}), "field fragments.0: expected an object"),
    (json.dumps({"query": 42, "fragments": [{"id": "E-01", "text": "x", "source": "s"}]}),
     "field query: expected a string, got int"),
    (json.dumps({"evidence": [{"id": "E-01", "text": "", "source": "s"}]}), "field evidence.0.text"),
])
def test_ask_input_errors_name_file_and_field(tmp_path, content, expected):
    path = tmp_path / "bad.json"
    path.write_text(content)
    result = _ask(["-e", str(path), "-q", "Q?", "-m", "scripted/null"])
    assert result.exit_code == 2, result.output
    assert expected in result.output and str(path) in result.output
    assert "internal error" not in result.output and "Traceback" not in result.output


def test_ask_missing_key_and_refused_key_exit_2(package, monkeypatch):
    missing = _ask(["-e", str(package), "-c", "b1", "-m", "openai/m", "--api-base", "http://127.0.0.1:9/v1",
                    "--api-key-env", "MY_ENDPOINT_KEY", "--no-cache"])
    assert missing.exit_code == 2 and "MY_ENDPOINT_KEY is not set" in missing.output
    hosted = _ask(["-e", str(package), "-c", "b1", "-m", "openai/gpt-4o-mini", "--no-cache"])
    assert hosted.exit_code == 2, hosted.output
    assert "backbone openai/gpt-4o-mini at provider-default:openai: no API key" in hosted.output
    assert "OPENAI_API_KEY" in hosted.output and "internal error" not in hosted.output
    with ScriptedServer(Script([]), api_key="sk-right") as server:
        monkeypatch.setenv("MY_ENDPOINT_KEY", "sk-wrong")
        refused = _ask(["-e", str(package), "-c", "b1", "-m", "openai/m", "--api-base", server.base_url,
                        "--api-key-env", "MY_ENDPOINT_KEY", "--no-cache"])
    assert refused.exit_code == 2, refused.output
    assert "backbone openai/m at" in refused.output and "HTTP 401" in refused.output
    assert "internal error" not in refused.output and "sk-wrong" not in refused.output
    assert len(refused.output.strip().splitlines()) == 1


def _probe_or_answer(messages, schema):
    """A server that honours the preflight's one-token bound and answers the case."""
    return "OK" if messages == [dict(m) for m in PROBE_MESSAGES] else json.dumps({"result": ANSWER})


def _cases(server) -> list[dict]:
    return [b for b in server.bodies if b["messages"] != [dict(m) for m in PROBE_MESSAGES]]


def test_ask_cli_as_a_subprocess_against_the_server_then_cache_clear(package, tmp_path):
    with ScriptedServer(Script(responder=_probe_or_answer)) as server:
        cmd = [PARATRACE, "ask", "-e", str(package), "-c", "b1",
               "-m", "openai/m", "--api-base", server.base_url, "--format", "json"]
        done = subprocess.run(cmd, cwd=tmp_path, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr
        assert json.loads(done.stdout)["common"]["final_status"] == "accepted"
        probe_body = server.bodies[0]  # the preflight first, sent as the case is sent
        assert probe_body["max_completion_tokens"] == 1 and probe_body["response_format"]["type"] == "json_schema"
        replay = subprocess.run(cmd, cwd=tmp_path, capture_output=True, text=True, timeout=300)
        assert replay.returncode == 0 and len(_cases(server)) == 1  # the case from ./.paratrace-cache
    assert (tmp_path / CACHE_DIRNAME).is_dir()
    cleared = subprocess.run([PARATRACE, "cache", "clear"], cwd=tmp_path,
                             capture_output=True, text=True, timeout=300)
    assert cleared.returncode == 0 and "removed 1 cached replies" in cleared.stdout


def test_ask_refuses_a_server_that_cannot_take_what_the_case_sends_exit_2(package, tmp_path):
    """The preflight, as `run` does it: a server that ignores the token bound is named before the case."""
    with ScriptedServer(Script(responder=lambda m, s: json.dumps({"result": ANSWER}))) as server:
        done = subprocess.run([PARATRACE, "ask", "-e", str(package), "-c", "b1", "-m", "openai/m",
                               "--api-base", server.base_url, "--no-cache"], cwd=tmp_path, capture_output=True,
                              text=True, timeout=300)
        assert len(server.bodies) == 1  # the probe only: no case was sent
    assert done.returncode == 2, done.stdout + done.stderr
    assert "backbone openai/m at" in done.stderr and "ignored the token bound" in done.stderr
    assert "Traceback" not in done.stderr and done.stdout == ""


def test_ask_names_a_dead_endpoint_exit_2(package, tmp_path):
    url = dead_url()
    done = subprocess.run([PARATRACE, "ask", "-e", str(package), "-c", "b1", "-m", "openai/m", "--api-base", url,
                           "--no-cache"], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert done.returncode == 2, done.stdout + done.stderr
    assert f"backbone openai/m at {url}: connection refused" in done.stderr and "Traceback" not in done.stderr
