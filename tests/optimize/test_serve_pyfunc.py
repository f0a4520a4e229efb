"""The MLflow pyfunc model: MLflow's own scoring server answers the service's
request with the service's record; a saved program is served by both."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from serve_cases import REQUEST, SECRET_TEXT, failing_reply, scripted_assistant


@pytest.fixture(scope="module")
def program_dir(tmp_path_factory):
    from assistant.configs import build
    from optimize.programs import Manifest, save_program

    return save_program(build("b4"), tmp_path_factory.mktemp("program"),
                        Manifest("b4", "scripted/null", "none", 3))


@pytest.fixture(scope="module")
def scoring(program_dir, tmp_path_factory):
    import mlflow.pyfunc
    from mlflow.pyfunc import scoring_server

    from optimize.serve.pyfunc import save_assistant_model

    path = save_assistant_model(tmp_path_factory.mktemp("mlflow") / "model", str(program_dir))
    return TestClient(scoring_server.init(mlflow.pyfunc.load_model(str(path))))


def _without_latency(record):
    record = dict(record)
    record["meta"] = {k: v for k, v in record["meta"].items() if k != "latency_ms"}
    return record


def test_mlflow_scoring_server_and_the_service_answer_alike(scoring, program_dir):
    from optimize.serve.app import create_app
    from optimize.serve.cli import build_factory

    factory, configs, info = build_factory(program=str(program_dir), configs=[], model=None)
    service = TestClient(create_app(factory, config=configs[0], configs=tuple(configs), program=info))
    ours = service.post("/invocations", json={"inputs": REQUEST})
    theirs = scoring.post("/invocations", json={"inputs": REQUEST})
    assert ours.status_code == theirs.status_code == 200
    assert _without_latency(theirs.json()["predictions"]) == _without_latency(ours.json()["predictions"])
    assert _without_latency(service.post("/v1/ask", json=REQUEST).json()) == \
        _without_latency(ours.json()["predictions"])
    assert info["program_sha256"] and service.get("/version").json()["program"] == info


def test_mlflow_scoring_server_takes_a_list_and_rejects_bad_requests(scoring):
    many = scoring.post("/invocations", json={"inputs": [REQUEST, {**REQUEST, "config": "b4"}]})
    assert many.status_code == 200 and len(many.json()["predictions"]) == 2
    bad = scoring.post("/invocations", json={"inputs": {"query": "q"}})
    assert bad.status_code == 400 and "field evidence" in bad.json()["message"]
    other = scoring.post("/invocations", json={"inputs": {**REQUEST, "config": "b1"}})
    assert other.status_code == 400 and "field config" in other.json()["message"]


def test_an_lm_failure_in_predict_is_a_5xx_without_the_lm_text():
    from mlflow.exceptions import MlflowException

    from optimize.serve.pyfunc import AssistantModel

    model = AssistantModel()
    model.assistant, _ = scripted_assistant("b4", [failing_reply])
    with pytest.raises(MlflowException) as caught:
        model.predict(None, REQUEST)
    assert caught.value.get_http_status_code() == 503
    assert "ConnectionError" in caught.value.message and SECRET_TEXT not in caught.value.message


def test_a_program_config_mismatch_is_refused(program_dir):
    from optimize.serve.cli import build_factory
    from optimize.serve.errors import ServeError

    with pytest.raises(ServeError, match="does not match the program's configuration 'b4'"):
        build_factory(program=str(program_dir), configs=["b1"], model=None)


def test_serve_mlflow_command_writes_a_model_that_answers(tmp_path, program_dir):
    import mlflow.pyfunc
    from typer.testing import CliRunner

    from optimize.root import app

    out = tmp_path / "model"
    result = CliRunner().invoke(app, ["serve-mlflow", "--program", str(program_dir), "--output", str(out)])
    assert result.exit_code == 0, result.output
    assert str(out) in result.output and "mlflow models serve -m" in result.output
    record = mlflow.pyfunc.load_model(str(out)).predict(REQUEST)
    assert record["configuration"] == "b4" and record["common"]["final_status"] == "undecidable"
    again = CliRunner().invoke(app, ["serve-mlflow", "--program", str(program_dir), "--output", str(out)])
    assert again.exit_code == 2 and "not empty" in again.output
