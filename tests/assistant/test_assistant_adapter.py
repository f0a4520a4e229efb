"""InstructorAdapter: prompt construction, re-ask on an invalid reply, bounded
retries, usage and history recording, validators surviving optimizers."""

from __future__ import annotations

import json

import dspy
import pytest

from assistant.adapter import InstructorAdapter, compact_schema, recording
from assistant.errors import ValidationFailure
from assistant.evidence import EvidencePackage
from assistant.extraction import Extraction
from assistant.scripted import Script, scripted_lm
from assistant.signatures import AnswerWithCitations, ExtractTheory

from assistant_cases import ANSWER, FRAGMENTS, QUERY, THEORY


def _predict(signature, replies, *, max_retries=2, constrained=None, **inputs):
    script = Script(replies)
    lm = scripted_lm("scripted/test", script)
    adapter = InstructorAdapter(max_retries=max_retries, constrained=constrained)
    with recording() as log, dspy.context(lm=lm, adapter=adapter):
        pred = dspy.Predict(signature)(**inputs)
    return pred, script, log, lm


def test_valid_reply_is_parsed_into_pydantic_objects():
    pred, script, log, _ = _predict(AnswerWithCitations, [{"result": ANSWER}], query=QUERY,
                                    evidence=EvidencePackage(fragments=FRAGMENTS))
    assert pred.result.status.value == "accepted"
    assert pred.result.cited == ["E-01", "E-04", "E-06"]
    assert len(script.requests) == 1 and len(log.calls) == 1


def test_prompt_holds_instructions_evidence_and_schema_once():
    _, script, _, _ = _predict(AnswerWithCitations, [{"result": ANSWER}], query=QUERY, constrained=False,
                               evidence=EvidencePackage(fragments=FRAGMENTS))
    system, user = script.requests[0][0]["content"], script.requests[0][-1]["content"]
    assert "cite the ids of the fragments you rely on" in system
    assert system.count('"required"') >= 1 and system.count("It must validate against this JSON schema") == 1
    assert script.schemas[0] is None  # nothing constrains the decoder
    assert "[E-04] (Supply Agreement, 7.2) Clause 7.2: late delivery incurs a penalty." in user
    assert QUERY in user
    assert "Definition" not in system  # developer docstrings of enums stay out of the prompt


def test_constrained_call_sends_the_case_grammar_and_shows_an_example_instead_of_the_schema():
    _, script, _, _ = _predict(AnswerWithCitations, [{"result": ANSWER}], query=QUERY, constrained=True,
                               evidence=EvidencePackage(fragments=FRAGMENTS))
    system, user = script.requests[0][0]["content"], script.requests[0][-1]["content"]
    assert "It must validate against this JSON schema" not in system and '"required"' not in system
    assert 'For example' in system and '"cited":["<fragment id>"]' in system
    schema = script.schemas[0]
    cited = schema["$defs"]["cited"]
    assert cited["items"]["enum"] == sorted(f.id for f in FRAGMENTS) and cited["minItems"] == 1
    assert "[E-04] (Supply Agreement, 7.2) Clause 7.2: late delivery incurs a penalty." in user
    assert QUERY in user
    assert "Definition" not in system  # developer docstrings of enums stay out of the prompt


def test_invalid_first_reply_is_reasked_with_the_validation_error():
    bad = {"result": {**ANSWER, "cited": ["E-09"]}}
    pred, script, log, lm = _predict(AnswerWithCitations, [bad, {"result": ANSWER}], query=QUERY,
                                     evidence=EvidencePackage(fragments=FRAGMENTS))
    assert pred.result.cited == ["E-01", "E-04", "E-06"]
    assert len(script.requests) == 2
    reask = script.requests[1][-1]["content"]
    assert "E-09" in reask and "not in the evidence package" in reask
    assert script.requests[1][-2] == {"role": "assistant", "content": json.dumps(bad)}
    assert log.calls[0].error is not None and log.calls[1].error is None
    assert len(lm.history) == 2


def test_retries_are_bounded_and_exhaustion_keeps_the_raw_text():
    bad = json.dumps({"result": {**ANSWER, "status": "maybe"}})
    with pytest.raises(ValidationFailure) as info:
        _predict(AnswerWithCitations, [bad] * 5, max_retries=1, query=QUERY,
                 evidence=EvidencePackage(fragments=FRAGMENTS))
    assert info.value.raw_text == bad
    assert len(info.value.errors) == 2
    assert "maybe" in str(info.value)


def test_usage_is_recorded_per_call_and_summed():
    _, _, log, _ = _predict(AnswerWithCitations, [{"result": {**ANSWER, "cited": ["E-42"]}}, {"result": ANSWER}],
                            query=QUERY, evidence=EvidencePackage(fragments=FRAGMENTS))
    assert [c.prompt_tokens > 0 for c in log.calls] == [True, True]
    assert log.calls[1].prompt_tokens > log.calls[0].prompt_tokens  # the re-ask turn is in the prompt
    assert log.prompt_tokens == sum(c.prompt_tokens for c in log.calls)
    assert all(c.latency_ms >= 0 for c in log.calls)


def test_validators_survive_an_optimizer_replacing_the_signature():
    sig = ExtractTheory.with_instructions("OPTIMIZED INSTRUCTION: extract carefully.")
    bad = json.loads(json.dumps(THEORY))
    bad["priorities"][0]["stronger"] = "r7"
    pred, script, _, _ = _predict(sig, [{"theory": bad}, {"theory": THEORY}], query=QUERY,
                                  evidence=EvidencePackage(fragments=FRAGMENTS), target="Penalty(x)")
    assert isinstance(pred.theory, Extraction)
    assert "OPTIMIZED INSTRUCTION" in script.requests[0][0]["content"]
    assert "'r7' is not a rule id" in script.requests[1][-1]["content"]


def test_demos_are_rendered_as_turns():
    demo = dspy.Example(query="Q?", evidence=EvidencePackage(fragments=FRAGMENTS[:1]),
                        result=ANSWER | {"cited": ["E-01"]}).with_inputs("query", "evidence")
    predictor = dspy.Predict(AnswerWithCitations)
    predictor.demos = [demo]
    script = Script([{"result": ANSWER}])
    with dspy.context(lm=scripted_lm("scripted/test", script), adapter=InstructorAdapter()):
        predictor(query=QUERY, evidence=EvidencePackage(fragments=FRAGMENTS))
    roles = [m["role"] for m in script.requests[0]]
    assert roles == ["system", "user", "assistant", "user"]
    assert '"cited"' in script.requests[0][2]["content"]


def test_compact_schema_drops_titles():
    assert '"title"' not in compact_schema(Extraction)
