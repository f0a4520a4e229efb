"""Running a ``paratrace`` command as a process for :mod:`benchmarks.paths`: wall and CPU time, peak
RSS and output size (:func:`run_cli`), and the command's CPU time after one case in a process of its own
with the engine core timed right after it there (:func:`run_cli_warm`)."""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

__all__ = ["run_cli", "run_cli_warm", "summary"]

ROOT = Path(__file__).resolve().parents[1]


def summary(times: list[float], cpu: list[float]) -> dict:
    """The first run and the median of wall times, and the median CPU time, in milliseconds."""
    return {"first_ms": round(times[0] * 1e3, 1), "median_ms": round(statistics.median(times) * 1e3, 1),
            "cpu_ms": round(statistics.median(cpu) * 1e3, 1)}


def _paratrace() -> list[str]:
    script = shutil.which("paratrace", path=str(Path(sys.executable).parent)) or shutil.which("paratrace")
    return [script] if script else [sys.executable, "-c", "from optimize.console import main; main()"]


_RSS = """
import resource, subprocess, sys
child = subprocess.Popen(sys.argv[1:], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
size = 0
while True:
    chunk = child.stdout.read(1 << 20)
    if not chunk:
        break
    size += len(chunk)
code = child.wait()
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
print(code, usage.ru_maxrss, size, usage.ru_utime + usage.ru_stime)
"""


def _child_env() -> dict:
    """The environment of the timed commands: this one without ``PYTHONDONTWRITEBYTECODE``.

    With it set, every ``paratrace`` process compiles each module it imports
    again (about 0.25 s of start-up here); an installed package has its
    bytecode cached, so the timings are of that case (``machine`` reports
    whether the variable was set).
    """
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def run_cli(args: list[str], repeat: int) -> dict:
    """Run ``paratrace args`` ``repeat`` times, reading its output from a pipe; wall times, peak RSS, bytes."""
    times, cpu, rss, code, size = [], [], 0, None, 0
    env = _child_env()
    for _ in range(repeat):
        start = time.perf_counter()
        done = subprocess.run([sys.executable, "-c", _RSS, *_paratrace(), *args], capture_output=True, text=True,
                              env=env)
        times.append(time.perf_counter() - start)
        code, peak, size, used = done.stdout.split()
        code, size, rss = int(code), int(size), max(rss, int(peak) // 1024)
        cpu.append(float(used))
    return {**summary(times, cpu), "rss_mb": rss, "exit": code, "output_bytes": size}


_WARM = """
import os, statistics, sys, time, warnings
from optimize.console import main  # the console script's entry point: its thread defaults, then the app


def run(entry, args):
    sys.argv = ["paratrace", *args]
    real, sys.stdout = sys.stdout, open(os.devnull, "w")
    try:
        entry()
    except SystemExit:
        pass
    finally:
        sys.stdout.close()
        sys.stdout = real


first, second = (i for i, arg in enumerate(sys.argv) if arg == "::")
tiny, args, source = sys.argv[1:first], sys.argv[first + 1:second], sys.argv[second + 1]
run(main, tiny)
import typer
from optimize.root import app
command = typer.main.get_command(app)  # built once per process, as in a process of its own
start = time.process_time()
run(lambda: command.main(args=args, prog_name="paratrace"), args)
used = time.process_time() - start
# The engine core on the same input, in this process right after: the machine's drift cancels out.
warnings.simplefilter("ignore")
from symbolic.engine.grounding import ground
from symbolic.suites.io import load_suite
from symbolic.engine.status import evaluate
scenario = load_suite(source)[0]
theory = ground(scenario.evidence_ids(), scenario.gold)
engine = []
for _ in range(3):
    start = time.process_time()
    evaluate(theory, scenario.target)
    engine.append(time.process_time() - start)
print(used, statistics.median(engine))
"""


def run_cli_warm(args: list[str], tiny: list[str], source: Path, repeat: int) -> dict:
    """CPU time of ``paratrace args`` in a process that has run the one-case command ``tiny`` first,
    and of the engine core on ``source`` right after it in the same process.

    What the command costs beyond start-up -- the imports, what the same
    command builds on first use for one case, and the command group that
    typer makes once per process -- measured in one process, so without the
    noise of subtracting two processes' times.  What only a large input
    builds on first use (a validator of columns, say) is counted.  The
    engine (``engine_cpu_ms``, median of 3) runs moments later in the same
    process, so that the ratio of the two does not carry the machine's drift.
    """
    cpu, engine = [], []
    for _ in range(repeat):
        done = subprocess.run([sys.executable, "-c", _WARM, *tiny, "::", *args, "::", str(source)],
                              capture_output=True, text=True, env=_child_env(), cwd=str(ROOT))
        used, core = done.stdout.split()[-2:]
        cpu.append(float(used))
        engine.append(float(core))
    return {"cpu_ms": round(statistics.median(cpu) * 1e3, 1), "first_cpu_ms": round(cpu[0] * 1e3, 1),
            "engine_cpu_ms": round(statistics.median(engine) * 1e3, 1)}
