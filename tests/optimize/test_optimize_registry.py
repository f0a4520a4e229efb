"""MLflow: a run's program logged as a DSPy model, registered per configuration and family with the
held-out metrics, and loadable through models:/NAME/VERSION in a fresh process (one log per module)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from optimize_cases import PENALTY_SUITE, REPO, replay

from experiments.suites.registry import load_suite
from optimize.errors import ProgramLoadError
from optimize.programs import load_program
from optimize.registry import log_program, registered_name
from optimize.run import RunSpec, run_optimization


@pytest.fixture(scope="module")
def registered(tmp_path_factory):
    import mlflow

    root = tmp_path_factory.mktemp("registry")
    uri = f"sqlite:///{root / 'mlflow.db'}"
    previous, previous_registry = mlflow.get_tracking_uri(), mlflow.get_registry_uri()
    mlflow.set_tracking_uri(uri)
    suite = [s for s in load_suite("normative-en") if s.id.startswith("bank-")]
    outcome = run_optimization(RunSpec(optimizer="gepa", model="scripted/tutor-hint", suite="normative-en"),
                               suite, root / "run")
    cwd = os.getcwd()
    os.chdir(root)  # MLflow's default artifact root is relative to the working directory
    try:
        reg = log_program(outcome.directory, tracking_uri=uri)
        again = log_program(outcome.directory, tracking_uri=uri)
    finally:
        os.chdir(cwd)
    assert (reg.version, again.version, again.name) == ("1", "2", reg.name)  # one name, a version per run
    yield uri, root, outcome, reg
    mlflow.set_tracking_uri(previous)
    mlflow.set_registry_uri(previous_registry)


def test_registry_holds_name_version_and_held_out_metrics(registered):
    from mlflow import MlflowClient

    uri, _, outcome, reg = registered
    assert reg.name == registered_name("b4", "scripted/tutor-hint") == "paratrace-b4-scripted-tutor-hint"
    assert reg.version == "1" and reg.model_uri == f"models:/{reg.name}/1"
    mv = MlflowClient(tracking_uri=uri, registry_uri=uri).get_model_version(reg.name, reg.version)
    after, before = outcome.manifest.scores_after, outcome.manifest.scores_before
    assert float(mv.tags["heldout_after_objective"]) == pytest.approx(after["objective"], abs=1e-6)
    assert float(mv.tags["heldout_before_ASA"]) == pytest.approx(before["ASA"], abs=1e-6)
    assert mv.tags["optimizer"] == "gepa" and mv.tags["model"] == "scripted/tutor-hint"
    run = MlflowClient(tracking_uri=uri).get_run(reg.run_id)
    assert run.data.metrics["heldout_after_objective"] == pytest.approx(after["objective"])
    from mlflow.models import get_model_info  # the registered model shows its inputs (not "Inputs (0)")

    inputs = get_model_info(reg.model_uri).signature.inputs
    assert inputs.input_names() == ["query", "evidence", "documents", "budget", "target", "config"]
    assert inputs.required_input_names() == ["query"]
    assert run.data.params["split_test"] == outcome.manifest.splits["test"]


def test_loads_from_the_registry_with_the_manifest(registered):
    uri, _, outcome, reg = registered
    loaded = load_program(reg.model_uri, tracking_uri=uri)
    assert loaded.manifest == outcome.manifest
    assert loaded.program.dump_state() == load_program(outcome.directory).program.dump_state()
    with pytest.raises(ProgramLoadError, match="paratrace-b4-nobody"):
        load_program("models:/paratrace-b4-nobody/1", tracking_uri=uri)


def test_registered_program_answers_identically_in_a_fresh_process(registered):
    uri, root, outcome, reg = registered
    here = replay("b4", outcome.program)
    env = {**os.environ, "PYTHONPATH": str(REPO), "MLFLOW_TRACKING_URI": uri, "MLFLOW_REGISTRY_URI": uri}
    out = subprocess.run([sys.executable, str(REPO / "tests" / "optimize" / "optimize_cases.py"), reg.model_uri,
                          str(PENALTY_SUITE)], cwd=root, capture_output=True, text=True, env=env)
    assert out.returncode == 0, out.stderr[-2000:]
    assert json.loads(out.stdout.strip().splitlines()[-1]) == here


def test_native_mlflow_dspy_flavor_loads_the_module(registered):
    import mlflow.dspy

    uri, root, outcome, reg = registered
    module = mlflow.dspy.load_model(reg.model_uri)
    assert type(module).__name__ == "B4"
    assert module.extract.signature.instructions == outcome.program.extract.signature.instructions


def test_the_serving_model_logged_with_the_program_answers_with_the_output_contract(registered):
    import mlflow
    from mlflow import MlflowClient

    from scorer.contract import OutputRecord
    from symbolic.suites.io import load_suite as load_file

    uri, _, _, reg = registered
    mv = MlflowClient(tracking_uri=uri, registry_uri=uri).get_model_version(reg.name, reg.version)
    assert reg.serving_model_uri and mv.tags["serving_model_uri"] == reg.serving_model_uri
    scenario = load_file(PENALTY_SUITE)[0]
    request = {"query": scenario.query, "target": scenario.target,
               "evidence": [f.model_dump(mode="json") for f in scenario.evidence]}
    model = mlflow.pyfunc.load_model(reg.serving_model_uri)
    record = OutputRecord.model_validate(model.predict(request))
    assert record.configuration == "b4" and record.common is not None
