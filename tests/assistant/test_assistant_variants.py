"""Prompt variants: instructions per style, five-shot demos from a held-out pool only."""

from __future__ import annotations

import pytest

from assistant.configs import build
from assistant.errors import ConfigurationError
from assistant.variants import INSTRUCTIONS, Variant, apply_variant, demos_for
from symbolic.scenario.model import Metadata

from assistant_cases import QUERY, TARGET, THEORY


def _pool(scenario, n, prefix="held"):
    return [scenario.model_copy(update={"id": f"{prefix}-{i:02d}", "query": f"Held-out question {i}?",
                                        "metadata": Metadata(pair=f"p{i}", role="base")}) for i in range(n)]


@pytest.mark.parametrize("name, style, shots, contract", [
    ("standard", "standard", 0, "trace-v2"), ("compact", "compact", 0, "trace-v2"),
    ("zero-shot", "zero-shot", 0, "trace-v2"), ("five-shot", "standard", 5, "trace-v2"),
    ("compact+common-v1", "compact", 0, "common-v1"),
])
def test_parse(name, style, shots, contract):
    v = Variant.parse(name)
    assert (v.style, v.shots, v.contract, v.name) == (style, shots, contract, name)


@pytest.mark.parametrize("bad", ["ten-shot", "standard+trace-v9"])
def test_parse_rejects_unknown_names(bad):
    with pytest.raises(ConfigurationError):
        Variant.parse(bad)


@pytest.mark.parametrize("style", ["compact", "zero-shot"])
def test_style_sets_the_instruction(make, style):
    assistant, script = make("b4", [{"theory": THEORY}], variant=style)
    assistant.ask(QUERY, _fragments(), target=TARGET)
    # A scripted backbone decodes under the per-case grammar: B4 asks it for the by-fragment form.
    assert INSTRUCTIONS[style]["ExtractByFragment"] in script.requests[0][0]["content"]
    assert "Do not judge the question: a symbolic engine" not in script.requests[0][0]["content"]


def test_compact_prompt_is_shorter_than_standard(make):
    sizes = {}
    for style in ("standard", "compact"):
        assistant, script = make("b4", [{"theory": THEORY}], variant=style)
        assistant.ask(QUERY, _fragments(), target=TARGET)
        sizes[style] = len(script.prompts[0])
    assert sizes["compact"] < sizes["standard"]


def test_five_shot_demos_come_from_the_held_out_pool(make, scenario):
    module = build("b4")
    demos = demos_for(module, _pool(scenario, 8), [scenario], k=5, seed=42)
    assert len(demos["extract"]) == 5 and len(demos["extract_with_target"]) == 5
    assert demos == demos_for(build("b4"), _pool(scenario, 8), [scenario], k=5, seed=42)
    assistant, script = make("b4", [{"theory": THEORY}], variant="five-shot", demos=demos)
    assistant.run_scenario(scenario)
    messages = script.requests[0]
    assert [m["role"] for m in messages] == ["system"] + ["user", "assistant"] * 5 + ["user"]
    assert sum("Held-out question" in m["content"] for m in messages) == 5
    assert "Held-out question" not in messages[-1]["content"]


def test_demos_for_each_configuration(scenario):
    for config, name, field in (("b1", "answer", "result"), ("b2", "check", "check"), ("b3", "extract", "analysis")):
        demos = demos_for(build(config), _pool(scenario, 5), [scenario], k=5)
        assert len(demos[name]) == 5 and all(field in d for d in demos[name])


def test_evaluated_cases_and_their_pairs_never_become_demos(scenario):
    pool = _pool(scenario, 6)
    with pytest.raises(ConfigurationError, match="contains evaluated cases"):
        demos_for(build("b1"), pool, [pool[0]])
    evaluated = scenario.model_copy(update={"id": "update-03", "metadata": Metadata(pair="p3", role="update")})
    with pytest.raises(ConfigurationError, match="5 usable scenarios; 6 demos"):
        demos_for(build("b1"), pool, [evaluated], k=6)
    demos = demos_for(build("b1"), pool, [evaluated], k=5)
    assert all("question 3?" not in d.query for d in demos["answer"])


def test_five_shot_without_demos_is_refused():
    with pytest.raises(ConfigurationError, match="needs demos"):
        apply_variant(build("b1"), Variant.parse("five-shot"))


def _fragments():
    from assistant_cases import FRAGMENTS

    return FRAGMENTS


