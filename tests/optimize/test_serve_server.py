"""The real server on 127.0.0.1 (uvicorn in a thread, a free port) under a few
concurrent clients, and the ``paratrace serve`` command's refusals."""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor

import httpx
from typer.testing import CliRunner

from serve_cases import REQUEST, make_app


def test_real_server_answers_concurrent_clients_and_stops():
    from optimize.serve.server import BackgroundServer

    app, scripts = make_app([], workers=2)
    with BackgroundServer(app) as server, httpx.Client(base_url=server.url, timeout=60) as client:
        assert client.get("/health").json()["status"] == "ok"

        def ask(i):
            return client.post("/v1/ask", json=REQUEST, headers={"X-Request-ID": f"load-{i}"})

        with ThreadPoolExecutor(6) as pool:
            answers = list(pool.map(ask, range(12)))
        assert [a.status_code for a in answers] == [200] * 12
        assert sorted(a.headers["x-request-id"] for a in answers) == sorted(f"load-{i}" for i in range(12))
        assert {a.json()["common"]["final_status"] for a in answers} == {"undecidable"}
        oversized = client.post("/v1/ask", content=b"x" * 1_048_577, headers={"content-type": "application/json"})
        assert oversized.status_code == 413
        chunked = client.post("/v1/ask", content=iter([b"x" * 600_000] * 3),
                              headers={"content-type": "application/json"})
        assert chunked.status_code == 413 and chunked.json()["error"]["kind"] == "body_too_large"
        assert client.get("/health").status_code == 200  # still serving after the refusals
        url = server.url
    assert len(scripts["b4"].requests) == 12
    try:
        httpx.get(url + "/health", timeout=2)
    except httpx.TransportError:
        pass
    else:
        raise AssertionError("the server still answers after stop()")


def test_serve_command_refuses_bad_programs_and_options(tmp_path):
    from optimize.root import app

    runner = CliRunner()
    missing = runner.invoke(app, ["serve", "--program", str(tmp_path / "nope")])
    assert missing.exit_code == 2 and "no such directory" in missing.output
    assert "Traceback" not in missing.output
    (tmp_path / "manifest.json").write_text(json.dumps({"config": "b4"}), encoding="utf-8")
    broken = runner.invoke(app, ["serve", "--program", str(tmp_path)])
    assert broken.exit_code == 2 and "missing field 'model'" in broken.output
    bad_level = runner.invoke(app, ["serve", "--model", "scripted/null", "--log-level", "loud"])
    assert bad_level.exit_code == 2 and "--log-level" in bad_level.output


def test_listening_socket_is_tcp_and_a_taken_port_is_a_serve_error():
    import socket

    import pytest

    from optimize.serve.errors import ServeError
    from optimize.serve.server import _bind

    sock = _bind("127.0.0.1", 0)
    try:
        # asyncio sets TCP_NODELAY on accepted connections only when the socket says TCP
        assert sock.proto == socket.IPPROTO_TCP
        with pytest.raises(ServeError, match=f"cannot listen on 127.0.0.1:{sock.getsockname()[1]}"):
            _bind("127.0.0.1", sock.getsockname()[1])
    finally:
        sock.close()
