"""The programs shipped for the default model (assistant.programs): what ships, when it runs, and
how ``ask``, ``serve`` and the runner behind ``demo`` pick it up."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from assistant import programs
from assistant.backends import DEFAULT_MODEL
from assistant.configs import build
from assistant.errors import ConfigurationError, ProgramLoadError
from assistant.programs import SHIPPED_DIR, load_program_directory, model_family, shipped_program

from assistant_cases import THEORY


def _shipped_dirs():
    return sorted(p for p in SHIPPED_DIR.iterdir() if p.is_dir()) if SHIPPED_DIR.is_dir() else []


def test_each_shipped_program_loads_and_was_optimized_for_the_default_model_on_normative_en():
    assert {p.name for p in _shipped_dirs()} == {f"{c}-{model_family(DEFAULT_MODEL)}" for c in ("b1", "b4")}
    for directory in _shipped_dirs():
        loaded = load_program_directory(directory)  # checks the digest against the manifest
        m = loaded.manifest
        assert directory.name == f"{loaded.config}-{model_family(m.model)}" and m.model == DEFAULT_MODEL
        assert m.optimizer != "none" and m.suite == "normative-en" and set(m.splits) == {"train", "val", "test"}
        assert {"ASA", "scored_rate", "tokens_per_case"} <= set(m.scores_before) & set(m.scores_after)
        assert sorted(n for n, _ in loaded.program.named_predictors()) == \
            sorted(n for n, _ in build(loaded.config).named_predictors())
        assert shipped_program(loaded.config, DEFAULT_MODEL).manifest == m


def _without_demos(state: dict) -> dict:
    return {name: {k: v for k, v in part.items() if k != "demos"} if isinstance(part, dict) else part
            for name, part in state.items() if name != "metadata"}


def test_a_shipped_program_has_the_prompts_of_the_configuration_as_it_stands():
    """labeled, bootstrap and random-search keep a configuration's instructions and fields; a shipped program
    whose prompts differ from its configuration's was optimized for prompts that have since changed, and must
    be optimized again (docs/optimize.md gives the command)."""
    for directory in _shipped_dirs():
        loaded = load_program_directory(directory)
        assert loaded.manifest.optimizer in ("labeled", "bootstrap", "random-search")
        assert _without_demos(loaded.program.dump_state()) == _without_demos(build(loaded.config).dump_state()), \
            f"{directory.name} was optimized for other prompts"


@pytest.fixture
def shipped(tmp_path, monkeypatch):
    """A B4 program with two gold demos, shipped for the default model in a directory of its own."""
    from dspy.teleprompt import LabeledFewShot

    from experiments.suites.registry import load_suite
    from optimize.data import to_examples
    from optimize.programs import Manifest, save_program

    train = [s for s in load_suite("normative-en") if s.id in ("bank-003", "cont-002")]
    program = LabeledFewShot(k=2).compile(build("b4"), trainset=to_examples(train, "b4"))
    directory = tmp_path / "shipped" / f"b4-{model_family(DEFAULT_MODEL)}"
    save_program(program, directory, Manifest("b4", DEFAULT_MODEL, "labeled", 0, budget="2", suite="normative-en",
                                              scores_before={"ASA": 0.25}, scores_after={"ASA": 0.5}))
    monkeypatch.setattr(programs, "SHIPPED_DIR", tmp_path / "shipped")
    return directory


def test_only_the_default_model_gets_a_shipped_program(shipped):
    assert shipped_program("b4", DEFAULT_MODEL).source == str(shipped)
    assert shipped_program("B4 ", DEFAULT_MODEL) is not None
    assert shipped_program("b1", DEFAULT_MODEL) is None  # none ships for b1 here
    assert shipped_program("b4", "local/gemma-3-270m") is None
    assert shipped_program("b4", "openai/gpt-4o-mini") is None


def test_the_default_model_gets_the_shipped_program_even_when_paratrace_model_names_another(shipped, monkeypatch):
    monkeypatch.setenv("PARATRACE_MODEL", "local/gemma-3-270m")
    assert shipped_program("b4") is None  # the default now answers with Gemma: nothing ships for it
    assert shipped_program("b4", DEFAULT_MODEL) is not None


def test_a_damaged_shipped_program_is_refused_with_the_file(shipped):
    state = shipped / "program.json"
    state.write_text(state.read_text().replace("{", "{ ", 1))
    with pytest.raises(ProgramLoadError, match="program.json: SHA-256 .* does not match the manifest"):
        shipped_program("b4", DEFAULT_MODEL)


def test_a_program_shipped_under_the_wrong_name_is_refused(shipped):
    shipped.rename(shipped.parent / f"b1-{model_family(DEFAULT_MODEL)}")
    with pytest.raises(ProgramLoadError, match="made for b4 on .* shipped for b1"):
        shipped_program("b1", DEFAULT_MODEL)


def test_ask_runs_a_saved_program_it_is_given_and_names_it(app, package, tmp_path, shipped):
    replies = tmp_path / "replies.jsonl"
    replies.write_text(json.dumps({"reply": {"theory": THEORY}}) + "\n")
    result = CliRunner().invoke(app, ["ask", "-e", str(package), "-m", f"scripted/replay:{replies}",
                                      "--program", str(shipped), "--no-cache"])
    assert result.exit_code == 0, result.output
    assert f"running the b4 program for {DEFAULT_MODEL} by labeled (budget 2, seed 0); held-out ASA 0.25 -> " \
           "0.50" in result.output
    assert "status: accepted" in result.output


def test_ask_refuses_a_program_of_another_configuration_or_with_a_variant(app, package, shipped):
    for extra, message in ((["-c", "b1"], "a b4 program, but --config is 'b1'"),
                           (["--variant", "compact"], "drop --variant 'compact'")):
        result = CliRunner().invoke(app, ["ask", "-e", str(package), "-m", "scripted/null", "--program",
                                          str(shipped), *extra])
        assert isinstance(result.exception, ConfigurationError) and message in str(result.exception)


def test_the_runner_runs_the_shipped_program_in_the_default_models_standard_cells_only(shipped):
    from assistant.backends import resolve
    from experiments.runner.solve import AssistantSolver, prompt_digest
    from experiments.runner.spec import Backbone, CellKey

    shipped = shipped_program("b4", DEFAULT_MODEL)
    assert shipped.program.extract_by_fragment.demos  # the fixture's program differs from the plain one
    backbone = Backbone(model=DEFAULT_MODEL)
    resolved = {backbone.name: resolve("scripted/null")}  # what is asked is not at stake here, only the prompts
    on = AssistantSolver(resolved=resolved, shipped_programs=True)
    off = AssistantSolver(resolved=resolved)
    cell = CellKey(suite="normative-en", configuration="b4", backbone=backbone.name, variant="standard", repeat=0)
    assert prompt_digest(on.assistant(cell, backbone).program) == prompt_digest(shipped.program)
    assert prompt_digest(off.assistant(cell, backbone).program) == prompt_digest(build("b4"))
    assert prompt_digest(shipped.program) != prompt_digest(build("b4"))
    b1 = CellKey(suite="normative-en", configuration="b1", backbone=backbone.name, variant="standard", repeat=0)
    assert prompt_digest(on.assistant(b1, backbone).program) == prompt_digest(build("b1"))  # none ships for b1
    compact = cell._replace(variant="compact")
    assert prompt_digest(on.assistant(compact, backbone).program) != prompt_digest(shipped.program)


def test_serve_runs_the_shipped_program_on_the_default_model_and_says_so_in_version(shipped):
    from optimize.serve.cli import build_factory

    shipped = shipped_program("b4", DEFAULT_MODEL)
    factory, configs, info = build_factory(program=None, configs=["b4", "b1"], model=DEFAULT_MODEL)
    assert configs == ["b4", "b1"] and list(info["shipped"]) == ["b4"]
    assert info["shipped"]["b4"]["program_sha256"] == shipped.manifest.program_sha256
    assert factory("b1").program.dump_state() == build("b1").dump_state()
    assert factory("b4").program.dump_state() == shipped.program.dump_state()
    factory, _, info = build_factory(program="none", configs=["b4"], model=DEFAULT_MODEL)
    assert info is None and factory("b4").program.dump_state() == build("b4").dump_state()
    factory, _, info = build_factory(program=None, configs=["b4"], model="scripted/null")
    assert info is None and factory("b4").program.dump_state() == build("b4").dump_state()
