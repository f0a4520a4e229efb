"""The ``paratrace`` console script as a real process, and the processes it leaves.

``PARATRACE`` runs the console entry point (:func:`optimize.console.main`) in
a fresh interpreter; :func:`descendants` and :func:`alive` read ``/proc``, so
a test can name every process a command started and check that none outlives
it.
"""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path

__all__ = ["PARATRACE", "ROOT", "alive", "cli_env", "default_signals", "descendants"]

ROOT = Path(__file__).resolve().parents[2]
PARATRACE = (sys.executable, "-c", "from optimize.console import main; main()")


def cli_env(home: Path, **extra: str) -> dict[str, str]:
    """The environment of a command: no tracking URI or paratrace settings of the caller, offline, ``HOME`` fresh."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("MLFLOW_TRACKING", "MLFLOW_REGISTRY",
                                                                     "PARATRACE_"))}
    env.update(MLFLOW_DISABLE_TELEMETRY="true", LITELLM_LOCAL_MODEL_COST_MAP="true", HOME=str(home),
               PYTHONUNBUFFERED="1", **extra)
    if "PYTHONPATH" not in env:
        env["PYTHONPATH"] = str(ROOT)
    return env


def _stat(pid: int) -> tuple[str, int] | None:
    """(state, parent pid) of ``pid`` from ``/proc``, or ``None`` when it is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2:].split()
    return fields[0], int(fields[1])


def descendants(pid: int) -> set[int]:
    """Every living process below ``pid`` (children, their children...)."""
    parents: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            stat = _stat(int(entry.name))
            if stat is not None and stat[0] != "Z":
                parents.setdefault(stat[1], []).append(int(entry.name))
    found, todo = set(), [pid]
    while todo:
        for child in parents.get(todo.pop(), ()):
            if child not in found:
                found.add(child)
                todo.append(child)
    return found


def alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie does not)."""
    stat = _stat(pid)
    return stat is not None and stat[0] != "Z"


def default_signals() -> None:
    """A ``preexec_fn``: the child starts with SIGINT, SIGTERM and SIGHUP at their defaults.

    As a command started from a terminal does, whatever the test process inherited
    (under ``nohup`` SIGHUP is ignored, and a background job ignores SIGINT: the child
    would inherit that and rightly keep it).
    """
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, signal.SIG_DFL)
