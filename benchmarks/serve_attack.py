"""The 12-request document attack against ``paratrace serve`` (issue 32, item 2).

Starts ``paratrace serve --model scripted/null --workers 4`` (``--workers``) on a free port
of 127.0.0.1, sends 12 concurrent ``POST /v1/ask`` each carrying the 57 KB
DOCX of 61,680 one-character paragraphs, and while they run asks ``/health``
and sends one valid plain request (evidence, no documents) every half second.
Prints one JSON object: a warm-up request's seconds (imports and first call,
before the attack), the attack requests' statuses and seconds, the valid
requests' statuses and seconds, the ``/health`` answers seen (time, status,
calls in flight, seconds), the seconds until every slot was free again, and
the server's peak RSS (``VmHWM``).

Run: ``python benchmarks/serve_attack.py [--requests 12] [--timeout 120]``.
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from hostile_harness import free_port, hostile_documents  # noqa: E402  (benchmarks/ is sys.path[0])

__all__ = ["attack_docx", "main"]

ROOT = Path(__file__).resolve().parents[1]
VALID = {"query": "Is a penalty due?", "target": "Penalty(supplier)",
         "evidence": [{"id": "E-01", "text": "The supplier pays a penalty for late delivery.", "source": "Contract"}]}


def attack_docx(paragraphs: int = 61_680) -> bytes:
    """A DOCX of ``paragraphs`` one-character paragraphs (deflated: 6.5 KB for 61,680)."""
    h = hostile_documents()
    return h.docx(h.one_char_xml(paragraphs))


def _hwm_mb(pid: int) -> float | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return round(int(line.split()[1]) / 1024, 1)
    except OSError:
        return None
    return None


def main(argv=None) -> dict:
    """Run the attack; print and return the report."""
    import httpx

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=12)
    parser.add_argument("--timeout", type=float, default=120.0, help="The service's --timeout.")
    parser.add_argument("--workers", type=int, default=4, help="The service's --workers.")
    args = parser.parse_args(argv)
    port = free_port()
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
           "LITELLM_LOCAL_MODEL_COST_MAP": "true", "MLFLOW_DISABLE_TELEMETRY": "true"}
    server = subprocess.Popen([sys.executable, "-c", "from optimize.console import main; main()", "serve", "--model",
                               "scripted/null", "--workers", str(args.workers), "--port", str(port), "--timeout", str(args.timeout),
                               "--log-level", "warning"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    report: dict = {"requests": args.requests, "timeout_s": args.timeout, "workers": args.workers}
    try:
        for _ in range(600):
            try:
                if httpx.get(url + "/health", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                time.sleep(0.2)
        t0 = time.monotonic()
        warm = httpx.post(url + "/v1/ask", json=VALID, timeout=args.timeout)  # imports and first call, before
        report["warm_up"] = {"status": warm.status_code, "seconds": round(time.monotonic() - t0, 2)}
        report["rss_before_mb"] = _hwm_mb(server.pid)
        body = {"query": "Is a penalty due?", "documents": [
            {"name": "attack.docx", "content_base64": base64.b64encode(attack_docx()).decode()}]}
        report["attack_body_bytes"] = len(json.dumps(body))
        started = time.monotonic()
        done = threading.Event()
        valid, health = [], []

        def watch():
            with httpx.Client(base_url=url, timeout=args.timeout + 30) as client:
                while not done.is_set():
                    t0 = time.monotonic()
                    try:
                        h = client.get("/health")
                        health.append((round(t0 - started, 1), h.status_code, h.json().get("in_flight"),
                                       round(time.monotonic() - t0, 2)))
                    except httpx.HTTPError as exc:  # no answer at all is what this measures too
                        health.append((round(t0 - started, 1), type(exc).__name__, None,
                                       round(time.monotonic() - t0, 2)))
                    t1 = time.monotonic()
                    try:
                        answer = client.post("/v1/ask", json=VALID)
                        valid.append((round(t1 - started, 1), answer.status_code, round(time.monotonic() - t1, 2)))
                    except httpx.HTTPError as exc:
                        valid.append((round(t1 - started, 1), type(exc).__name__, round(time.monotonic() - t1, 2)))
                    time.sleep(0.5)

        def attack(i):
            with httpx.Client(base_url=url, timeout=args.timeout + 60) as client:
                t0 = time.monotonic()
                answer = client.post("/v1/ask", json=body)
                kind = answer.json().get("error", {}).get("kind") if answer.status_code != 200 else "answered"
                return answer.status_code, kind, round(time.monotonic() - t0, 2)

        watcher = threading.Thread(target=watch, daemon=True)
        watcher.start()
        with ThreadPoolExecutor(args.requests) as pool:
            attacks = list(pool.map(attack, range(args.requests)))
        report["attack_seconds"] = round(time.monotonic() - started, 1)
        with httpx.Client(base_url=url, timeout=30) as client:
            for _ in range(3000):
                if client.get("/health").json().get("in_flight") == 0:
                    break
                time.sleep(0.1)
            report["all_slots_free_after_s"] = round(time.monotonic() - started, 1)
            report["health_after"] = client.get("/health").json()
        done.set()
        watcher.join()
        report.update(attacks=[{"status": s, "kind": k, "seconds": t} for s, k, t in attacks],
                      valid_requests={"sent": len(valid), "status_counts": {str(c): sum(1 for v in valid if v[1] == c)
                                                                            for c in sorted({v[1] for v in valid},
                                                                                            key=str)},
                                      "max_seconds": max((v[2] for v in valid), default=None),
                                      "samples": valid[:40]},
                      health={"status_counts": {str(c): sum(1 for h in health if h[1] == c)
                                                for c in sorted({h[1] for h in health}, key=str)},
                              "max_seconds": max((h[3] for h in health), default=None), "samples": health[:40]},
                      server_peak_rss_mb=_hwm_mb(server.pid))
    finally:
        server.terminate()
        server.wait(timeout=60)
    print(json.dumps(report, indent=2))
    return report


if __name__ == "__main__":
    main()
