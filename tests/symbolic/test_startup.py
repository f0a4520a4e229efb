"""The ``paratrace status`` path imports no statistics, MLflow or LM library."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

SUITE = Path(__file__).parent / "fixtures" / "penalty_suite.jsonl"
HEAVY = ("statsmodels", "scipy", "pandas", "mlflow", "dspy", "litellm", "instructor", "openai", "sklearn", "torch")

PROBE = """
import contextlib, io, json, sys
from optimize.root import app
out = io.StringIO()
with contextlib.redirect_stdout(out):
    try:
        app(["status", sys.argv[1], "--format", sys.argv[2]], prog_name="paratrace")
    except SystemExit as exc:
        code = exc.code
    else:
        code = 0
print(json.dumps({"code": code, "bytes": len(out.getvalue()),
                  "heavy": sorted({m.split(".")[0] for m in sys.modules} & set(sys.argv[3].split(",")))}))
"""


@pytest.mark.parametrize("fmt", ["text", "json", "dot"])
def test_status_path_leaves_heavy_modules_unimported(fmt):
    done = subprocess.run([sys.executable, "-c", PROBE, str(SUITE), fmt, ",".join(HEAVY)],
                          capture_output=True, text=True, check=True)
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["code"] in (0, None)
    assert report["bytes"] > 0
    assert report["heavy"] == []


def test_validate_path_leaves_heavy_modules_unimported():
    probe = PROBE.replace('["status", sys.argv[1], "--format", sys.argv[2]]', '["validate", sys.argv[1], "--check-gold"]')
    done = subprocess.run([sys.executable, "-c", probe, str(SUITE), "-", ",".join(HEAVY)],
                          capture_output=True, text=True, check=True)
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["code"] in (0, None)
    assert report["heavy"] == []


def test_status_on_one_case_leaves_networkx_unimported():
    """The engine's graph algorithms are plain Python (symbolic.engine.priorities); networkx loads only to build a graph."""
    suite_case = [str(SUITE), "text", "networkx"]
    probe = PROBE.replace('["status", sys.argv[1], "--format", sys.argv[2]]',
                          '["status", sys.argv[1], "--format", sys.argv[2], "--case", "penalty-as-given"]')
    done = subprocess.run([sys.executable, "-c", probe, *suite_case], capture_output=True, text=True, check=True)
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["code"] in (0, None)
    assert report["bytes"] > 0
    assert report["heavy"] == []


CONSOLE = """
import json, os, sys
from optimize.console import main
numpy_before = "numpy" in sys.modules
sys.argv = ["paratrace", "status", sys.argv[1], "--format", "json"]
real, sys.stdout = sys.stdout, open(os.devnull, "w")
try:
    main()
except SystemExit as exc:
    code = exc.code
else:
    code = 0
sys.stdout = real
tasks = len(os.listdir("/proc/self/task")) if os.path.isdir("/proc/self/task") else None
print(json.dumps({"code": code, "numpy_before": numpy_before, "numpy_after": "numpy" in sys.modules,
                  "blas": os.environ.get("OPENBLAS_NUM_THREADS"), "tasks": tasks}))
"""


def _console(env_extra: dict) -> dict:
    import os

    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"} | env_extra
    done = subprocess.run([sys.executable, "-c", CONSOLE, str(SUITE)], capture_output=True, text=True, check=True,
                          env=env)
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_console_script_is_the_thread_setting_entry_point():
    from importlib.metadata import entry_points

    scripts = {e.name: e.value for e in entry_points(group="console_scripts") if e.name == "paratrace"}
    assert scripts == {"paratrace": "optimize.console:main"}


def test_console_runs_numpy_without_blas_worker_threads():
    report = _console({})
    assert report["code"] in (0, None)
    assert report["numpy_before"] is False and report["numpy_after"] is True
    assert report["blas"] == "1"
    if report["tasks"] is not None:  # Linux: the process is one thread, no OpenBLAS worker spinning
        assert report["tasks"] == 1


def test_console_keeps_the_users_blas_threads():
    report = _console({"OPENBLAS_NUM_THREADS": "2"})
    assert report["code"] in (0, None)
    assert report["blas"] == "2"
