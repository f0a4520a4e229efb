"""Backbone resolution, decoding defaults, the scripted backend over both
transports (lm15 engine and the OpenAI-compatible HTTP server, through DSPy's
native engine and through litellm), and the local llama.cpp engine's wire format."""

from __future__ import annotations

import json
import os

import dspy
import pytest

from assistant.adapter import InstructorAdapter, recording
from assistant.api import Assistant
from assistant.backends import Backbone, Decoding, apply_env_defaults, resolve
from assistant.errors import BackendError, ConfigurationError, ScriptExhaustedError
from assistant.llama_engine import LlamaServerEngine
from assistant.scripted import Script, load_replies, scripted_lm
from assistant.scripted_http import ScriptedServer

from assistant_cases import ANSWER, FRAGMENTS, QUERY, TARGET, THEORY


def test_paper_decoding_defaults_and_seed_support():
    d = Decoding()
    assert d.kwargs_for("openai") == {"temperature": 0.0, "top_p": 1.0, "max_tokens": 4096, "seed": 42}
    assert d.kwargs_for("anthropic") == {"temperature": 0.0, "max_tokens": 4096}
    assert d.with_overrides(top_p=0.9).kwargs_for("anthropic")["top_p"] == 0.9
    assert d.with_overrides(seed=7, max_tokens=512).kwargs_for("ollama_chat")["seed"] == 7


@pytest.mark.parametrize("bad", ["api_key", "api_base", "OPENAI_API_KEY"])
def test_decoding_overrides_cannot_carry_connection_settings(bad):
    with pytest.raises(ConfigurationError):
        Decoding().with_overrides(**{bad: "x"})


def test_env_defaults_do_not_override_the_user(monkeypatch):
    monkeypatch.setenv("MLFLOW_DISABLE_TELEMETRY", "false")
    monkeypatch.delenv("LITELLM_LOCAL_MODEL_COST_MAP", raising=False)
    values = apply_env_defaults()
    assert values == {"LITELLM_LOCAL_MODEL_COST_MAP": "true", "MLFLOW_DISABLE_TELEMETRY": "false"}
    assert os.environ["LITELLM_LOCAL_MODEL_COST_MAP"] == "true"


@pytest.mark.parametrize("model", ["gpt-4o", "openai/", "local/llama-70b", "scripted/whatever", "openai/o3-mini"])
def test_bad_model_strings_are_refused(model):
    with pytest.raises(BackendError):
        resolve(model)


def test_remote_model_keeps_keys_out_of_the_lm(monkeypatch):
    monkeypatch.setenv("PARATRACE_API_KEY", "sk-secret-123")
    b = resolve("openai/gpt-4o-mini", api_base="http://127.0.0.1:9/v1", cache=False)
    assert b.kind == "remote" and b.json_schema
    assert "sk-secret-123" not in json.dumps(b.lm.dump_state(), default=str)
    assert b.lm.kwargs["temperature"] == 0.0 and b.lm.kwargs.get("seed") == 42


def test_scripted_exhaustion_and_replay_file(tmp_path):
    script = Script(["{}"])
    script.next([], None)
    with pytest.raises(ScriptExhaustedError):
        script.next([], None)
    path = tmp_path / "replies.jsonl"
    path.write_text(json.dumps({"reply": {"result": ANSWER}}) + "\n\n" + json.dumps({"reply": "raw"}) + "\n")
    assert load_replies(path) == [json.dumps({"result": ANSWER}), "raw"]
    (tmp_path / "bad.jsonl").write_text('{"no": 1}\n')
    with pytest.raises(BackendError, match="bad.jsonl:1"):
        load_replies(tmp_path / "bad.jsonl")
    rec = Assistant("b1", f"scripted/replay:{path}").ask(QUERY, FRAGMENTS)
    assert rec.common.final_status.value == "accepted" and rec.model == f"scripted/replay:{path}"


def test_null_backend_gives_minimal_valid_answers_for_every_configuration():
    for config in ("b1", "b2", "b3", "b4"):
        rec = Assistant(config, "scripted/null").ask(QUERY, FRAGMENTS, target=TARGET)
        assert rec.common.final_status.value == "undecidable", config


@pytest.mark.parametrize("engine", ["auto", "litellm"])
def test_http_path_with_reask(engine):
    bad = {"theory": {**THEORY, "facts": [{"id": "f1", "literal": "Delay(x)", "evidence": ["E-31"]}]}}
    with ScriptedServer(Script([bad, {"theory": THEORY}])) as server:
        lm = dspy.LM("openai/scripted", api_base=server.base_url, api_key="sk-test", engine=engine, cache=False,
                     **Decoding().kwargs_for("openai"))
        assistant = Assistant("b4", backbone=Backbone("openai/scripted", lm, "remote", json_schema=True))
        rec = assistant.ask(QUERY, FRAGMENTS, target=TARGET)
        bodies = server.bodies
    assert rec.common.final_status.value == "accepted" and rec.meta.calls == 2
    assert len(bodies) == 2
    assert bodies[0]["temperature"] == 0.0 and bodies[0]["seed"] == 42
    assert bodies[0]["response_format"]["type"] == "json_schema"
    assert "E-31" in bodies[1]["messages"][-1]["content"]
    assert rec.meta.prompt_tokens > 0


def test_unconstrained_backends_get_no_response_format():
    with ScriptedServer(Script([{"result": ANSWER}])) as server:
        lm = dspy.LM("openai/scripted", api_base=server.base_url, api_key="sk-test", cache=False)
        with recording(), dspy.context(lm=lm, adapter=InstructorAdapter(constrained=False)):
            from assistant.evidence import EvidencePackage
            from assistant.signatures import AnswerWithCitations

            dspy.Predict(AnswerWithCitations)(query=QUERY, evidence=EvidencePackage(fragments=FRAGMENTS))
        assert "response_format" not in server.bodies[0]


def test_llama_engine_speaks_llama_cpp_constrained_decoding():
    with ScriptedServer(Script([{"result": ANSWER}])) as server:
        engine = LlamaServerEngine(server.base_url, model="local/gemma-3-270m")
        lm = dspy.LM("local/gemma-3-270m", engine=engine, cache=False, **Decoding().kwargs_for("local"))
        assistant = Assistant("b1", backbone=Backbone("local/gemma-3-270m", lm, "local", json_schema=True))
        rec = assistant.ask(QUERY, FRAGMENTS)
        body = server.bodies[0]
    assert rec.common.final_status.value == "accepted"
    assert body["response_format"]["type"] == "json_object"
    assert body["response_format"]["schema"]["required"] == ["result"]
    assert body["max_tokens"] == 4096 and body["seed"] == 42 and body["model"] == "gemma-3-270m"
