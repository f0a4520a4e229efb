"""Benchmark of ``paratrace serve`` under a loopback load; prints JSON.

Usage::

    nice python benchmarks/serve.py                         # concurrency 1,4,16,32; 64 requests each
    nice python benchmarks/serve.py --requests 32 --lm-ms 200 --levels 1,8,32

The server runs in a child process (this script with ``--child``) on
127.0.0.1 and a free port, B4 over a scripted backbone that answers the
minimal valid reply after ``--lm-ms`` milliseconds (0: the assistant's own CPU
cost only, the hardest case for the overhead ratio).  The load generator is
bounded: a fixed number of requests per concurrency level, a per-request
timeout and an overall deadline; it only talks to 127.0.0.1 and stops by
itself, then stops the server with SIGTERM (graceful shutdown).

Per concurrency level: throughput, client-side p50/p99 latency, errors, and
the server's own overhead per request, read from its JSON request log:
``latency_ms - assistant_ms - queue_ms`` (parsing, validation, the thread
hand-off, serialization, middleware), against ``assistant_ms`` (the
:meth:`assistant.api.Assistant.run` call).  At concurrency 1 the client-side
p50 is also compared with a direct in-process call measured in the same run.
A second server with a stub assistant (a precomputed record, no LM, no
engine) gives the server's floor: its whole latency per request at
concurrency 1, the cost of the HTTP path itself.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "true")
os.environ.setdefault("MLFLOW_DISABLE_TELEMETRY", "true")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

REQUEST = {"query": "Is the supplier liable for the late-delivery penalty?", "target": "Penalty(x)", "evidence": [
    {"id": "E-01", "text": "The delivery was made 12 days after the agreed date.", "source": "Delivery log"},
    {"id": "E-02", "text": "A storm closed the port for 9 days; force majeure was declared.", "source": "Port notice"},
    {"id": "E-03", "text": "Clause 7.2: late delivery incurs a penalty.", "source": "Supply Agreement",
     "clause": "7.2"},
    {"id": "E-04", "text": "Clause 9.1: no penalty is due for delays caused by force majeure.",
     "source": "Supply Agreement", "clause": "9.1"}]}


class _Delayed:
    """A DSPy lm15 engine that waits ``delay_s`` (outside any lock), then answers like ``scripted/null``."""

    def __init__(self, delay_s: float):
        from assistant.scripted import Script, ScriptedEngine

        self.inner = ScriptedEngine(Script(fallback="null"))
        self.delay_s = delay_s

    def complete(self, request):
        if self.delay_s:
            time.sleep(self.delay_s)
        return self.inner.complete(request)

    def stream(self, request):
        from dspy.lm15 import response_to_events

        return response_to_events(self.complete(request))

    def close(self):
        pass


def _assistant(config: str, lm_ms: float):
    import dspy

    from assistant.api import Assistant
    from assistant.backends import Backbone

    lm = dspy.LM("scripted/null", engine=_Delayed(lm_ms / 1000.0), cache=False)
    return Assistant(config, backbone=Backbone("scripted/null", lm, "scripted", json_schema=True))


def _stub(config: str):
    """An assistant that answers at once with a precomputed record: the server's own cost alone."""
    from assistant.api import RunResult

    real = _assistant(config, 0.0)
    record = real.run(REQUEST["query"], REQUEST["evidence"], target=REQUEST["target"]).record

    class Stub:
        def __init__(self):
            self.config, self.limits, self.backbone = real.config, real.limits, real.backbone

        def run(self, query, evidence, *, target=None):
            return RunResult(record, (), 0.0, 0.0)

    return Stub()


def child(args) -> None:
    """Serve until SIGTERM (the benchmark's server process)."""
    from optimize.serve.app import create_app
    from optimize.serve.server import run

    factory = _stub if args.stub else (lambda c: _assistant(c, args.lm_ms))
    app = create_app(factory, workers=args.workers, queue=args.queue, timeout_s=120.0)
    run(app, host="127.0.0.1", port=args.port, grace_s=10.0, limit_concurrency=None, log_level="info")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def _load(url: str, level: int, count: int, deadline: float) -> dict:
    import httpx

    latencies, statuses = [], []
    gate = asyncio.Semaphore(level)
    limits = httpx.Limits(max_connections=level, max_keepalive_connections=level)
    # TCP_NODELAY: httpx writes headers and body separately; without it Nagle plus the server's
    # delayed ACK add ~40 ms to every request on loopback (a client artefact, not the server's)
    transport = httpx.AsyncHTTPTransport(limits=limits, socket_options=[(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)])
    async with httpx.AsyncClient(base_url=url, timeout=60.0, transport=transport) as client:
        async def one(i: int):
            async with gate:
                if time.monotonic() > deadline:
                    statuses.append("deadline")
                    return
                started = time.perf_counter()
                try:
                    r = await client.post("/v1/ask", json=REQUEST, headers={"X-Request-ID": f"c{level}-{i}"})
                    statuses.append(r.status_code)
                except httpx.HTTPError as exc:
                    statuses.append(type(exc).__name__)
                latencies.append((time.perf_counter() - started) * 1000.0)

        await one(-1)  # one warm request per level, not counted
        latencies.clear(), statuses.clear()
        started = time.perf_counter()
        await asyncio.gather(*(one(i) for i in range(count)))
        wall = time.perf_counter() - started
    latencies.sort()
    return {"concurrency": level, "requests": count, "wall_s": round(wall, 3),
            "throughput_rps": round(count / wall, 2),
            "p50_ms": round(statistics.median(latencies), 2),
            "p99_ms": round(latencies[min(len(latencies) - 1, int(0.99 * len(latencies)))], 2),
            "errors": sum(1 for s in statuses if s != 200)}


def _server_lines(log_path: Path) -> dict[str, dict]:
    lines = {}
    for raw in log_path.read_text(encoding="utf-8").splitlines():
        try:
            line = json.loads(raw)
        except ValueError:
            continue
        if line.get("event") == "request" and "assistant_ms" in line:
            lines[line["request_id"]] = line
    return lines


def _direct_ms(config: str, lm_ms: float, count: int) -> float:
    assistant = _assistant(config, lm_ms)
    assistant.run(REQUEST["query"], REQUEST["evidence"], target=REQUEST["target"])
    times = []
    for _ in range(count):
        started = time.perf_counter()
        assistant.run(REQUEST["query"], REQUEST["evidence"], target=REQUEST["target"])
        times.append((time.perf_counter() - started) * 1000.0)
    return statistics.median(times)


def _start(args, queue: int, *, stub: bool):
    port = _free_port()
    log = Path(tempfile.mkdtemp(prefix="paratrace-serve-bench-")) / "server.log"
    command = [sys.executable, __file__, "--child", "--port", str(port), "--lm-ms", str(args.lm_ms),
               "--workers", str(args.workers), "--queue", str(queue)] + (["--stub"] if stub else [])
    with open(log, "w", encoding="utf-8") as sink:
        proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=sink, cwd=str(ROOT))
    import httpx

    deadline = time.monotonic() + 120
    while True:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/health", timeout=2).status_code == 200:
                return proc, port, log
        except httpx.TransportError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            _stop(proc, log)
            raise SystemExit(f"the server did not start (see {log})")
        time.sleep(0.2)


def _stop(proc, log: Path) -> str:
    """SIGTERM, then report whether uvicorn finished its graceful shutdown."""
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()
        return "killed"
    return "graceful" if "Finished server process" in log.read_text(encoding="utf-8") else f"exit {proc.returncode}"


def _levels(args, queue: int, levels: list[int], *, stub: bool) -> tuple[list[dict], str]:
    proc, port, log = _start(args, queue, stub=stub)
    try:
        stop_at = time.monotonic() + args.deadline_s
        results = [asyncio.run(_load(f"http://127.0.0.1:{port}", level, args.requests, stop_at)) for level in levels]
    finally:
        shutdown = _stop(proc, log)
    served = _server_lines(log)
    for result in results:
        prefix = f"c{result['concurrency']}-"
        mine = [v for k, v in served.items() if k.startswith(prefix) and k != prefix + "-1"]
        overhead = [v["latency_ms"] - v["assistant_ms"] - v["queue_ms"] for v in mine]
        assistant_ms = [v["assistant_ms"] for v in mine]
        result.update(server_latency_ms_median=round(statistics.median(v["latency_ms"] for v in mine), 3),
                      server_overhead_ms_median=round(statistics.median(overhead), 3),
                      assistant_ms_median=round(statistics.median(assistant_ms), 3),
                      overhead_share=round(sum(overhead) / sum(assistant_ms), 4) if sum(assistant_ms) else None,
                      queue_ms_median=round(statistics.median(v["queue_ms"] for v in mine), 3),
                      handoff_ms_median=round(statistics.median(v.get("handoff_ms", 0.0) for v in mine), 3))
    return results, shutdown


def main(args) -> dict:
    levels = [int(x) for x in args.levels.split(",")]
    if not levels or min(levels) < 1 or max(levels) > 32:
        raise SystemExit("--levels: concurrency levels between 1 and 32")
    queue = max(levels) if args.queue is None else args.queue
    results, shutdown = _levels(args, queue, levels, stub=False)
    floor, _ = _levels(args, queue, [1], stub=True)
    direct = _direct_ms("b4", args.lm_ms, min(args.requests, 32))
    first = results[0]
    floor_ms = floor[0]["server_latency_ms_median"]
    return {"benchmark": "serve", "config": "b4", "backbone": f"scripted/null + {args.lm_ms:g} ms",
            "workers": args.workers, "queue": queue, "cpu_cores": os.cpu_count(),
            "levels": results,
            "direct_call_ms_median": round(direct, 3),
            "client_p50_over_direct_at_c1": round(first["p50_ms"] / direct, 4) if first["concurrency"] == 1 else None,
            "server_floor_ms": floor_ms, "server_floor_client_p50_ms": floor[0]["p50_ms"],
            "server_floor_share_of_direct_call": round(floor_ms / direct, 4),
            "shutdown": shutdown, "total_errors": sum(r["errors"] for r in results) + floor[0]["errors"]}


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levels", default="1,4,16,32", help="Concurrency levels (max 32 by default).")
    parser.add_argument("--requests", type=int, default=64, help="Requests per level.")
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--queue", type=int, default=None, help="Default: the highest level (no 503 by design).")
    parser.add_argument("--lm-ms", type=float, default=0.0, help="Simulated LM latency per call.")
    parser.add_argument("--deadline-s", type=float, default=600.0, help="Stop sending after this long.")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--stub", action="store_true", help=argparse.SUPPRESS)
    arguments = parser.parse_args()
    if arguments.child:
        child(arguments)
    else:
        print(json.dumps(main(arguments), indent=2))
