"""The HTTP service in-process (FastAPI's TestClient): valid requests, every
rejection with its status, field and request id, a backbone that hangs or
fails, the bounded pool, the logs, /health, /version and the OpenAPI document."""

from __future__ import annotations

import json
import logging

import pytest
from fastapi.testclient import TestClient

from optimize.serve.errors import ServeError
from optimize.serve.logs import LOGGER_NAME, JsonFormatter
from scorer.contract import OutputRecord
from serve_cases import EVIDENCE, QUERY, REQUEST, SECRET_TEXT, TARGET, Gate, failing_reply, make_app, theory_reply


@pytest.fixture(scope="module", autouse=True)
def warm():
    """Pay the one-off import cost of the first assistant call before any timed request."""
    from assistant.api import Assistant

    for config in ("b4", "b1"):
        Assistant(config, "scripted/null").run(QUERY, EVIDENCE, target=TARGET)


@pytest.fixture
def client():
    app, _ = make_app([theory_reply])
    with TestClient(app) as c:
        yield c


def _error(response, status, kind):
    assert response.status_code == status, response.text
    body = response.json()["error"]
    assert body["status"] == status and body["kind"] == kind
    assert body["request_id"] == response.headers["x-request-id"]
    return body


def test_valid_request_answers_the_output_contract(client):
    r = client.post("/v1/ask", json=REQUEST)
    assert r.status_code == 200
    record = OutputRecord.model_validate_json(r.content)
    assert record.common.final_status.value == "accepted"
    assert record.configuration == "b4" and record.model == "scripted/test"
    assert set(record.common.evidence_ids) == {"E-01", "E-02"}
    assert len(r.headers["x-request-id"]) == 32


def test_request_id_is_echoed_and_a_bad_one_replaced(client):
    assert client.get("/health", headers={"X-Request-ID": "client-42"}).headers["x-request-id"] == "client-42"
    replaced = client.get("/health", headers={"X-Request-ID": "bad id\twith spaces"}).headers["x-request-id"]
    assert replaced != "bad id\twith spaces" and len(replaced) == 32


def test_mlflow_envelope_gives_the_same_record(client):
    direct = client.post("/v1/ask", json=REQUEST).json()
    app, _ = make_app([theory_reply])
    wrapped = TestClient(app).post("/invocations", json={"inputs": REQUEST}).json()["predictions"]
    for record in (direct, wrapped):
        record["meta"].pop("latency_ms")
    assert wrapped == direct


def test_oversized_body_is_413_before_the_assistant_runs():
    app, scripts = make_app([theory_reply], max_body_bytes=2_000)
    client = TestClient(app)
    big = {**REQUEST, "evidence": [{**EVIDENCE[0], "text": "x" * 5_000}]}
    body = _error(client.post("/v1/ask", json=big), 413, "body_too_large")
    assert "2000" in body["reason"]
    chunks = (b"x" * 700 for _ in range(5))  # no Content-Length: counted as it arrives
    _error(client.post("/v1/ask", content=chunks, headers={"content-type": "application/json"}), 413,
           "body_too_large")
    assert scripts["b4"].requests == []


@pytest.mark.parametrize("payload, status, kind, field, value", [
    ({"query": QUERY}, 422, "invalid_request", "evidence", None),
    ({**REQUEST, "evidence": [{**EVIDENCE[0], "text": ""}]}, 422, "invalid_request", "evidence.0.text", ""),
    ({**REQUEST, "query": 7}, 422, "invalid_request", "query", 7),
    ({**REQUEST, "evidence": [{**EVIDENCE[0], "id": " "}]}, 422, "invalid_request", "evidence.0.id", " "),
    ({**REQUEST, "temperature": 2}, 422, "invalid_request", "temperature", 2),
    ({**REQUEST, "config": "b9"}, 400, "unknown_config", "config", "b9"),
    ({**REQUEST, "query": "   "}, 422, "input_limit", "query", None),
])
def test_invalid_requests_name_the_field_and_value(client, payload, status, kind, field, value):
    body = _error(client.post("/v1/ask", json=payload), status, kind)
    assert body.get("field") == field
    assert body.get("value") == value


def test_malformed_json_and_wrong_media_type(client):
    body = _error(client.post("/v1/ask", content=b'{"query": ', headers={"content-type": "application/json"}),
                  400, "invalid_json")
    assert "offset" in body["reason"]
    _error(client.post("/v1/ask", content=json.dumps(REQUEST), headers={"content-type": "text/plain"}), 415,
           "unsupported_media_type")
    _error(client.get("/v1/ask"), 405, "method_not_allowed")
    _error(client.get("/v2/ask"), 404, "not_found")


def test_input_limits_of_the_assistant_apply():
    from assistant.evidence import Limits
    from optimize.serve.app import create_app
    from serve_cases import scripted_assistant

    app = create_app(lambda c: scripted_assistant(c, [], limits=Limits(max_fragments=1))[0])
    body = _error(TestClient(app).post("/v1/ask", json=REQUEST), 422, "input_limit")
    assert body["field"] == "evidence" and "the limit is 1" in body["reason"]


def test_a_hanging_lm_gets_504_and_the_service_keeps_answering():
    gate = Gate()
    app, scripts = make_app({"b4": [gate]}, configs=("b4", "b1"), workers=2, timeout_s=1.5)
    service = app.state.service
    with TestClient(app) as client:
        timed_out = client.post("/v1/ask", json=REQUEST, headers={"X-Request-ID": "slow-1"})
        body = _error(timed_out, 504, "timeout")
        assert body["request_id"] == "slow-1"
        assert gate.entered.is_set() and not gate.finished.is_set()
        assert service.in_flight == 1  # the hung call keeps its slot; the pool does not grow
        # the other worker answers (b1 has its own scripted backend; one script runs one reply at a time)
        assert client.post("/v1/ask", json={**REQUEST, "config": "b1"}).status_code == 200
        gate.open()
        assert gate.finished.wait(30)
        _wait_idle(service)
        assert client.post("/v1/ask", json=REQUEST).status_code == 200  # and b4 again, once released
    assert len(scripts["b4"].requests) == 2 and len(scripts["b1"].requests) == 1


def test_a_full_pool_answers_503_at_once_and_health_says_saturated():
    gate = Gate()
    app, _ = make_app([gate], workers=1, queue=0, timeout_s=0.5)
    with TestClient(app) as client:
        _error(client.post("/v1/ask", json=REQUEST), 504, "timeout")
        busy = client.post("/v1/ask", json=REQUEST)
        _error(busy, 503, "busy")
        assert busy.headers["retry-after"] == "1"
        health = client.get("/health")
        assert health.status_code == 503 and health.json()["status"] == "saturated"
        gate.open()
        _wait_idle(app.state.service)
        assert client.get("/health").json() == {"status": "ok", "workers": 1, "capacity": 1, "in_flight": 0,
                                                  "abandoned": 0}


def _wait_idle(service):
    import time

    for _ in range(3000):  # liveness: the released call frees its slot
        if service.in_flight == 0:
            return
        time.sleep(0.01)
    raise AssertionError(f"{service.in_flight} calls still hold a slot")


def test_lm_failure_is_502_with_request_id_and_logs_no_evidence(caplog):
    app, _ = make_app([failing_reply])
    with caplog.at_level(logging.INFO, logger=LOGGER_NAME), TestClient(app) as client:
        body = _error(client.post("/v1/ask", json=REQUEST, headers={"X-Request-ID": "f-1"}), 502, "lm_failure")
        assert SECRET_TEXT not in json.dumps(body)
        assert client.post("/v1/ask", json=REQUEST).status_code == 200  # next call: minimal reply
    lines = [JsonFormatter().format(r) for r in caplog.records if r.name == LOGGER_NAME]
    assert len(lines) == 2
    first = json.loads(lines[0])
    assert first["request_id"] == "f-1" and first["status"] == 502 and first["error"] == "lm_failure"
    assert first["config"] == "b4" and first["model"] == "scripted/test" and first["latency_ms"] > 0
    assert all(SECRET_TEXT not in line and QUERY not in line for line in lines)


def test_one_log_line_per_request_with_the_timings(client, caplog):
    with caplog.at_level(logging.INFO, logger=LOGGER_NAME):
        client.post("/v1/ask", json=REQUEST)
        client.post("/v1/ask", content=b"{", headers={"content-type": "application/json"})
    lines = [json.loads(JsonFormatter().format(r)) for r in caplog.records if r.name == LOGGER_NAME]
    assert [line["status"] for line in lines] == [200, 400]
    assert {"assistant_ms", "queue_ms", "latency_ms", "config", "model"} <= set(lines[0])
    assert lines[0]["assistant_ms"] <= lines[0]["latency_ms"]
    assert lines[1]["error"] == "invalid_json" and "assistant_ms" not in lines[1]


def test_several_configurations_and_the_version_endpoint():
    app, _ = make_app([], configs=("b4", "b1"), program={"program_sha256": "ab" * 32})
    client = TestClient(app)
    assert client.post("/v1/ask", json={**REQUEST, "config": "B1"}).json()["configuration"] == "b1"
    assert client.post("/v1/ask", json=REQUEST).json()["configuration"] == "b4"
    info = client.get("/version").json()
    assert info["config"] == "b4" and info["configs"] == ["b4", "b1"] and info["model"] == "scripted/test"
    assert info["contract"] == "output-record-v1" and info["program"] == {"program_sha256": "ab" * 32}
    assert {"dspy", "fastapi", "uvicorn", "pydantic"} <= set(info["packages"])
    assert info["limits"]["max_body_bytes"] == 1_048_576


def test_openapi_describes_the_endpoint(client):
    doc = client.get("/openapi.json").json()
    ask = doc["paths"]["/v1/ask"]["post"]
    assert ask["requestBody"]["content"]["application/json"]["schema"]["$ref"].endswith("/AskRequest")
    assert {"200", "413", "422", "502", "503", "504"} <= set(ask["responses"])
    assert ask["responses"]["200"]["content"]["application/json"]["schema"]["$ref"].endswith("/OutputRecord")
    assert {"/health", "/version", "/invocations"} <= set(doc["paths"])
    assert set(doc["components"]["schemas"]["AskRequest"]["required"]) == {"query", "evidence"}


@pytest.mark.parametrize("kwargs, message", [
    ({"workers": 0}, "workers"), ({"timeout_s": 0}, "timeout"), ({"queue": -1}, "queue"),
    ({"max_body_bytes": 0}, "max_body_bytes"), ({"config": "b4", "configs": ("b1",)}, "default configuration"),
])
def test_bad_settings_are_refused(kwargs, message):
    with pytest.raises(ServeError, match=message):
        make_app([], **kwargs)


def test_an_lm_timeout_is_504():
    def times_out(_messages):
        raise TimeoutError("read timed out")

    app, _ = make_app([times_out])
    body = _error(TestClient(app).post("/v1/ask", json=REQUEST), 504, "timeout")
    assert "TimeoutError" in body["reason"]


def test_configured_logs_are_json_lines_without_evidence_or_lm_text():
    import io

    from optimize.serve.logs import configure_logging

    stream = io.StringIO()
    restore = configure_logging("info", stream)
    try:
        app, _ = make_app([failing_reply, theory_reply])
        with TestClient(app) as client:
            client.post("/v1/ask", json=REQUEST)
            client.post("/v1/ask", json=REQUEST)
        logging.getLogger("instructor").error("quoting %s", SECRET_TEXT)
    finally:
        restore()
    lines = [json.loads(line) for line in stream.getvalue().splitlines()]
    requests = [line for line in lines if line["event"] == "request"]
    assert [line["status"] for line in requests] == [502, 200]
    assert SECRET_TEXT not in stream.getvalue() and QUERY not in stream.getvalue()
    assert logging.getLogger("instructor").level != logging.CRITICAL + 1  # restored


def test_mlflow_envelope_takes_a_bounded_list_and_names_the_bad_item():
    app, _ = make_app([])
    client = TestClient(app)
    many = client.post("/invocations", json={"inputs": [REQUEST, {**REQUEST, "target": "¬Penalty(x)"}]})
    assert many.status_code == 200
    assert [p["common"]["final_status"] for p in many.json()["predictions"]] == ["undecidable", "undecidable"]
    body = _error(client.post("/invocations", json={"inputs": [REQUEST, {"query": QUERY}]}), 422, "invalid_request")
    assert body["field"] == "inputs.1.evidence"
    body = _error(client.post("/invocations", json={"inputs": {"query": QUERY}}), 422, "invalid_request")
    assert body["field"] == "inputs.evidence"
    body = _error(client.post("/invocations", json={"inputs": [REQUEST] * 33}), 422, "invalid_request")
    assert "1 to 32" in body["reason"]
