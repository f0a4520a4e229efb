"""Saved programs: identical answers after a reload in a fresh process, manifest checks, typed errors."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from optimize_cases import PENALTY_SUITE, REPO, replay

from assistant.configs import build
from assistant.variants import demos_for
from optimize.errors import ProgramLoadError
from optimize.programs import Manifest, load_program, program_assistant, save_program

INSTRUCTION = "Ground every priority in a fragment."


def _compiled(suite):
    program = build("b4")
    demos = demos_for(program, suite[3:], suite[:1], k=2, seed=1)
    for name, predictor in program.named_predictors():
        predictor.demos = demos.get(name, [])
        predictor.signature = predictor.signature.with_instructions(INSTRUCTION)
    return program


@pytest.fixture()
def saved(tmp_path, penalty_suite):
    program = _compiled(penalty_suite)
    manifest = Manifest("b4", "scripted/t", "labeled", 3, budget="2", splits={"train": "ab"},
                        scores_after={"status_accuracy": 1.0})
    return program, save_program(program, tmp_path / "prog", manifest)


def test_reload_in_fresh_process_answers_identically(saved):
    program, directory = saved
    here = replay("b4", program)
    out = subprocess.run([sys.executable, str(REPO / "tests" / "optimize" / "optimize_cases.py"),
                          str(directory), str(PENALTY_SUITE)], cwd=REPO, capture_output=True, text=True,
                         env={**os.environ, "PYTHONPATH": str(REPO)})
    assert out.returncode == 0, out.stderr[-2000:]
    fresh = json.loads(out.stdout.strip().splitlines()[-1])
    assert fresh == here
    assert INSTRUCTION in fresh["prompt"][0]["content"]
    assert sum(m["role"] == "assistant" for m in fresh["prompt"]) == 2  # the two demos


def test_manifest_round_trip_and_digest(saved):
    _, directory = saved
    loaded = load_program(directory)
    assert loaded.manifest.optimizer == "labeled" and loaded.manifest.budget == "2"
    assert loaded.manifest.family == "scripted-t" and len(loaded.manifest.program_sha256) == 64
    assert [len(p.demos) for _, p in loaded.program.named_predictors()] == [2, 2, 2, 2]  # B4: four predictors
    assert loaded.program.extract.signature.instructions == INSTRUCTION


def test_saving_twice_is_byte_identical(tmp_path, penalty_suite):
    manifest = Manifest("b4", "scripted/t", "labeled", 3)
    a = save_program(_compiled(penalty_suite), tmp_path / "a", manifest)
    b = save_program(_compiled(penalty_suite), tmp_path / "b", manifest)
    for name in ("program.json", "manifest.json"):
        assert (a / name).read_bytes() == (b / name).read_bytes()


def test_tampered_state_is_rejected(saved):
    _, directory = saved
    path = directory / "program.json"
    path.write_text(path.read_text(encoding="utf-8").replace(INSTRUCTION, "Say yes."), encoding="utf-8")
    with pytest.raises(ProgramLoadError, match="does not match the manifest"):
        load_program(directory)


@pytest.mark.parametrize("patch, message", [
    ({"config": "b9"}, "field 'config'"),
    ({"seed": "x"}, "field 'seed'"),
    ({"colour": 1}, "unknown field 'colour'"),
    ({"version": 99}, "version 99"),
])
def test_bad_manifest_names_the_field(saved, patch, message):
    _, directory = saved
    path = directory / "manifest.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    data.update(patch)
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(ProgramLoadError, match=message):
        load_program(directory)


def test_missing_directory_and_mismatched_program(tmp_path):
    with pytest.raises(ProgramLoadError, match="no such directory"):
        load_program(tmp_path / "nope")
    (tmp_path / "empty").mkdir()
    with pytest.raises(ProgramLoadError, match="no manifest.json"):
        load_program(tmp_path / "empty")
    with pytest.raises(ProgramLoadError, match="do not match configuration 'b4'"):
        save_program(build("b1"), tmp_path / "x", Manifest("b4", "scripted/t", "none", 0))


def test_loaded_program_runs_as_an_assistant_on_a_tutor_family(tmp_path, penalty_suite):
    directory = save_program(_compiled(penalty_suite), tmp_path / "p", Manifest("b4", "scripted/tutor", "labeled", 0))
    assistant = program_assistant(load_program(directory))
    record = assistant.ask("Is a penalty due?", [{"id": "E-01", "text": "A penalty is due.", "source": "C"}],
                           target="Penalty(x)")
    assert assistant.backbone.model == "scripted/tutor" and record.common.final_status.value == "undecidable"
