"""The service's guards on the real server (uvicorn on 127.0.0.1): non-finite JSON
numbers, slow or idle clients (slowloris), partial bodies, the bearer token,
and the refusal to listen beyond loopback without one."""

from __future__ import annotations

import json
import logging
import socket
import time

import httpx
import pytest
from typer.testing import CliRunner

from serve_cases import REQUEST, make_app

TOKEN = "test-token-0123456789abcdef"
GIVE_UP_S = 30.0  # a liveness bound for the slow-client tests, far above the configured timeouts


@pytest.fixture()
def server():
    from optimize.serve.server import BackgroundServer

    app, _ = make_app([], workers=2, body_timeout_s=1.0)
    with BackgroundServer(app, header_timeout_s=1.0, keep_alive_s=1.0) as srv:
        yield srv


@pytest.mark.parametrize("number", ["NaN", "Infinity", "-Infinity", "1e999", "-2E+400"])
@pytest.mark.parametrize("where", ["query", "evidence", "extra"])
def test_non_finite_numbers_anywhere_in_a_body_are_400(server, number, where):
    body = json.dumps(REQUEST)
    if where == "query":
        body = body.replace(f'"query": {json.dumps(REQUEST["query"])}', f'"query": {number}')
    elif where == "evidence":
        body = body.replace('"source": "Delivery log"', f'"source": "Delivery log", "offset": [{number}]')
    else:
        body = body[:-1] + f', "x": {{"deep": [1, {number}]}}}}'
    for path, payload in (("/v1/ask", body), ("/invocations", '{"inputs": ' + body + "}")):
        answer = httpx.post(server.url + path, content=payload, headers={"content-type": "application/json"})
        assert answer.status_code == 400, answer.text
        error = answer.json()["error"]
        assert error["kind"] == "invalid_json" and number.lstrip("-") in error["reason"]
    fine = dict(REQUEST, query="Is NaN or Infinity a penalty? 1e999")  # inside strings: fine
    assert httpx.post(server.url + "/v1/ask", json=fine, timeout=60).status_code == 200


def _trickle_head(sock: socket.socket) -> bytes:
    """Send a request head one byte at a time until the server closes; return what it answered."""
    head = b"POST /v1/ask HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n" + b"X-Pad: " + b"a" * 10_000
    sock.settimeout(0.2)
    deadline = time.monotonic() + GIVE_UP_S
    received = b""
    for byte in head:
        if time.monotonic() > deadline:
            raise AssertionError("the server kept a slow request head open")
        try:
            sock.sendall(bytes([byte]))
        except (BrokenPipeError, ConnectionResetError):
            return received
        try:
            chunk = sock.recv(4096)
        except socket.timeout:
            continue
        except ConnectionResetError:
            return received
        if not chunk:
            return received
        received += chunk
    raise AssertionError("the server read the whole slow head without closing")


def test_slow_request_heads_are_timed_out_and_the_server_keeps_serving(server):
    port = int(server.url.rsplit(":", 1)[1])
    socks = [socket.create_connection(("127.0.0.1", port)) for _ in range(12)]
    try:
        answers = [_trickle_head(s) for s in socks]  # each runs until the server closes it
    finally:
        for s in socks:
            s.close()
    assert all(a == b"" or a.startswith(b"HTTP/1.1 408") for a in answers), answers
    assert httpx.get(server.url + "/health").status_code == 200


def test_an_idle_connection_is_closed(server):
    port = int(server.url.rsplit(":", 1)[1])
    with socket.create_connection(("127.0.0.1", port)) as sock:
        sock.settimeout(GIVE_UP_S)
        data = sock.recv(4096)
        assert data == b"" or data.startswith(b"HTTP/1.1 408")


def test_a_partial_body_gets_408_and_the_connection_closes(server):
    port = int(server.url.rsplit(":", 1)[1])
    with socket.create_connection(("127.0.0.1", port)) as sock:
        sock.settimeout(GIVE_UP_S)
        sock.sendall(b"POST /v1/ask HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                     b"Content-Length: 500\r\n\r\n{\"query\": ")
        answer = b""
        while True:
            chunk = sock.recv(4096)
            if not chunk:
                break
            answer += chunk
    assert answer.startswith(b"HTTP/1.1 408"), answer
    assert b'"kind": "request_timeout"' in answer


def test_a_bearer_token_guards_every_path_but_health(caplog):
    from optimize.serve.server import BackgroundServer

    app, _ = make_app([], workers=1, token=TOKEN)
    with caplog.at_level(logging.DEBUG), BackgroundServer(app) as srv, \
            httpx.Client(base_url=srv.url, timeout=60) as client:
        assert client.get("/health").status_code == 200
        for headers in ({}, {"Authorization": "Bearer wrong"}, {"Authorization": TOKEN},
                        {"Authorization": f"Basic {TOKEN}"}, {"Authorization": f"Bearer {TOKEN}x"}):
            for method, path in (("POST", "/v1/ask"), ("GET", "/version"), ("GET", "/openapi.json")):
                answer = client.request(method, path, json=REQUEST if method == "POST" else None, headers=headers)
                assert answer.status_code == 401, (headers, path)
                assert answer.json()["error"]["kind"] == "unauthorized"
                assert answer.headers["www-authenticate"].startswith("Bearer")
        good = {"Authorization": f"Bearer {TOKEN}"}
        assert client.get("/version", headers=good).status_code == 200
        assert client.post("/v1/ask", json=REQUEST, headers=good).status_code == 200
    assert TOKEN not in caplog.text


def test_serve_refuses_to_listen_beyond_loopback_without_a_token(monkeypatch):
    from optimize.root import app

    runner = CliRunner()
    monkeypatch.delenv("PARATRACE_SERVE_TOKEN", raising=False)
    for host in ("0.0.0.0", "::", "192.0.2.7"):
        result = runner.invoke(app, ["serve", "--model", "scripted/null", "--host", host])
        assert result.exit_code == 2, result.output
        assert "without authentication" in result.stderr and "PARATRACE_SERVE_TOKEN" in result.stderr
    monkeypatch.setenv("PARATRACE_SERVE_TOKEN", "short")
    result = runner.invoke(app, ["serve", "--model", "scripted/null"])
    assert result.exit_code == 2 and "16 or more" in result.stderr and "short" not in result.stderr
