"""The embedded demo, measured: ``paratrace demo`` as a user runs it, on the
embedded default model (llama.cpp server + Qwen2.5-Coder-0.5B-Instruct).

Runs the real CLI in a fresh work directory, samples the resident memory of
the demo process, its children and the embedded server every half second,
and prints JSON: wall time, exit code, peak RSS (demo and server together,
and each), the run's outcome counts, and what the model answered per case.

Usage::

    python benchmarks/local_demo.py [--cases 4] [--workdir DIR] [--timeout 1800]

Needs the optional extra ``local``.  Not a test: nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

# Run as a script, benchmarks/ is first on sys.path and benchmarks/assistant.py would shadow the package.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

__all__ = ["main", "measure"]


def _rss_mb(pid: int) -> float:
    try:
        with open(f"/proc/{pid}/status") as fh:
            for line in fh:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024.0
    except OSError:
        pass
    return 0.0


def _children(pid: int) -> list[int]:
    out = []
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/children") as fh:
                out.extend(int(c) for c in fh.read().split())
    except OSError:
        pass
    return out


def _tree(pid: int) -> list[int]:
    seen, todo = [], [pid]
    while todo:
        p = todo.pop()
        if p not in seen:
            seen.append(p)
            todo.extend(_children(p))
    return seen


def _server_pid() -> int | None:
    from assistant.local_llm import status

    info = status()
    return info.pid if info else None


def measure(cases: int, workdir: Path, timeout: float) -> dict:
    """Run the demo once and measure it (see the module docstring)."""
    exe = Path(sys.executable).with_name("paratrace")
    cmd = [str(exe) if exe.exists() else "paratrace", "demo", "--cases", str(cases), "--workdir", str(workdir)]
    preexisting = _server_pid()
    peak = {"total": 0.0, "server": 0.0, "demo": 0.0}
    stop = threading.Event()
    started = time.monotonic()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            env={**os.environ, "COLUMNS": "200"})

    def sample():
        while not stop.is_set():
            pids = _tree(proc.pid)
            server = preexisting or _server_pid()
            if server and server not in pids:
                pids.append(server)
            sizes = {p: _rss_mb(p) for p in pids}
            server_mb = sizes.get(server, 0.0) if server else 0.0
            peak["total"] = max(peak["total"], sum(sizes.values()))
            peak["server"] = max(peak["server"], server_mb)
            peak["demo"] = max(peak["demo"], sum(sizes.values()) - server_mb)
            stop.wait(0.5)

    thread = threading.Thread(target=sample, daemon=True)
    thread.start()
    try:
        output, _ = proc.communicate(timeout=timeout)
        timed_out = False
    except subprocess.TimeoutExpired:
        proc.kill()
        output, _ = proc.communicate()
        timed_out = True
    wall = time.monotonic() - started
    stop.set()
    thread.join()
    return {"wall_s": round(wall, 1), "exit_code": proc.returncode, "timed_out": timed_out,
            "server_was_running": preexisting is not None,
            "peak_rss_mb": {k: round(v) for k, v in peak.items()},
            **_answers(workdir), "output_tail": output.strip().splitlines()[-12:]}


def _answers(workdir: Path) -> dict:
    logs = list((workdir / "runs").glob("*/results.jsonl"))
    if not logs:
        return {"outcomes": {}, "cases": []}
    records = {}
    for line in logs[0].read_text(encoding="utf-8").splitlines():
        r = json.loads(line)
        records[tuple(r["key"].values())] = r  # the latest record of a key
    outcomes, cases = {}, []
    for r in records.values():
        outcomes[r["outcome"]] = outcomes.get(r["outcome"], 0) + 1
        out = r["output"]
        common = out.get("common") or {}
        meta = out.get("meta") or {}
        cases.append({"case": r["key"]["case"], "configuration": r["key"]["configuration"],
                      "outcome": r["outcome"], "status": common.get("final_status"),
                      "citations": len(common.get("evidence_ids") or []), "calls": r.get("calls"),
                      "tokens": r.get("tokens"), "latency_s": round((meta.get("latency_ms") or 0) / 1000, 1),
                      "failure": (meta.get("failure_reason") or "")[:160] or None})
    return {"outcomes": outcomes, "cases": sorted(cases, key=lambda c: (c["configuration"], c["case"]))}


def main(argv: list[str] | None = None) -> int:
    """Parse arguments, run :func:`measure`, print JSON."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=4)
    parser.add_argument("--workdir", type=Path, default=None, help="Default: a fresh temporary directory.")
    parser.add_argument("--timeout", type=float, default=1800.0)
    args = parser.parse_args(argv)
    workdir = args.workdir or Path(tempfile.mkdtemp(prefix="paratrace-demo-"))
    try:
        result = measure(args.cases, workdir, args.timeout)
    finally:
        if args.workdir is None:
            shutil.rmtree(workdir, ignore_errors=True)
    print(json.dumps({"benchmark": "local_demo", "cases": args.cases, "cpus": os.cpu_count(), **result}, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
