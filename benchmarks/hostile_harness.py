"""The harness of ``benchmarks/hostile_probe.py``: runs ``paratrace`` as a process and judges the outcome.

A check passes when the outcome is the documented one: an exit code among
those expected; for a refusal (exit 2) exactly one ``paratrace: error:`` line
holding the expected words, with no traceback, no ``internal error``, printable
UTF-8 with no raw control or bidi character; and no hang (a process still
running after :data:`SAFETY_NET_S` fails, its pipes opened for writing so it can
end).  :class:`Probe` counts the checks per class.
"""

from __future__ import annotations

import importlib.util
import os
import re
import socket
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

__all__ = ["BIDI", "EVIDENCE", "PARATRACE", "Probe", "ROOT", "SAFETY_NET_S", "SUITE", "free_port", "load",
           "paratrace_env"]

ROOT = Path(__file__).resolve().parents[1]
SUITE = ROOT / "tests" / "symbolic" / "fixtures" / "penalty_suite.jsonl"
PARATRACE = [sys.executable, "-c", "from optimize.console import main; main()"]
SAFETY_NET_S = 240
BIDI = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f"
_RAW_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f\x9b" + BIDI + "]")
EVIDENCE = [{"id": "E-01", "text": "The supplier pays a penalty for late delivery.", "source": "Contract"}]


def load(path: Path, name: str):
    """The module in file ``path``, registered as ``name`` (once per process).

    ``benchmarks/`` is not put on ``sys.path`` by the modules that load
    others (its ``assistant.py`` would hide the ``assistant`` package); run as
    a script, the probe's folder is ``sys.path[0]`` and its siblings import
    each other by name.
    """
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


def hostile_documents():
    """``tests/ingest/hostile_documents.py``, the document builders shared with the ingestion tests."""
    return load(ROOT / "tests" / "ingest" / "hostile_documents.py", "hostile_documents")


def paratrace_env(home: Path) -> dict:
    """The environment of a command: the checkout on ``PYTHONPATH``, ``HOME`` the scratch directory, offline."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("MLFLOW_TRACKING", "PARATRACE_"))}
    env.update(PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
               HOME=str(home), MLFLOW_DISABLE_TELEMETRY="true", LITELLM_LOCAL_MODEL_COST_MAP="true",
               OPENBLAS_NUM_THREADS="1")
    return env


class Probe:
    """Runs the checks and counts them per class.

    Parameters
    ----------
    work : Path
        The scratch directory (every command runs there).
    """

    def __init__(self, work: Path):
        self.work = work
        self.counts: dict[str, dict[str, int]] = defaultdict(lambda: {"pass": 0, "fail": 0})
        self.failures: list[dict] = []
        self.skipped: dict[str, str] = {}

    def record(self, cls: str, name: str, ok: bool, why: str = "") -> bool:
        """Count one check of class ``cls``."""
        self.counts[cls]["pass" if ok else "fail"] += 1
        if not ok:
            self.failures.append({"class": cls, "check": name, "why": why[:600]})
        print(f"{'pass' if ok else 'FAIL'} {cls}: {name}" + ("" if ok else f": {why[:300]}"), file=sys.stderr)
        return ok

    def skip(self, cls: str, why: str) -> None:
        """Say why class ``cls`` was not probed here (counted neither way)."""
        self.skipped[cls] = why
        print(f"skip {cls}: {why}", file=sys.stderr)

    def run(self, args, *, stdin: bytes | None = None, stdout=None, cwd: Path | None = None
            ) -> tuple[int | None, bytes, bytes]:
        """``paratrace ARGS`` in the scratch directory (or ``cwd``); ``None`` as the code when it hung (then
        unblocked).  ``stdout``: a file to write the output to instead of a pipe (its bytes then are empty)."""
        argv = [a if isinstance(a, bytes) else str(a) for a in args]
        child = subprocess.Popen([*PARATRACE, *argv], cwd=cwd or self.work, env=paratrace_env(self.work),
                                 stdout=stdout or subprocess.PIPE, stderr=subprocess.PIPE,
                                 stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL)
        try:
            out, err = child.communicate(stdin, timeout=SAFETY_NET_S)
            return child.returncode, out or b"", err
        except subprocess.TimeoutExpired:
            for fifo in self.work.rglob("*"):
                if fifo.is_fifo():
                    try:
                        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
                    except OSError:
                        pass
            child.kill()
            out, err = child.communicate()
            return None, out or b"", err

    def cli(self, cls: str, name: str, args, *, codes=(2,), says: tuple[str, ...] = (), stdin: bytes | None = None,
            quiet_out: bool = False, stdout=None, cwd: Path | None = None) -> bool:
        """A command's outcome: an exit code in ``codes``; a refusal is one clean line holding each of ``says``."""
        code, out, err = self.run(args, stdin=stdin, stdout=stdout, cwd=cwd)
        if code is None:
            return self.record(cls, name, False, "hung (killed after the safety net)")
        text = err.decode("utf-8", "replace")
        try:
            err.decode("utf-8")
        except UnicodeDecodeError:
            return self.record(cls, name, False, f"stderr is not UTF-8: {err[-200:]!r}")
        if code not in codes:
            return self.record(cls, name, False, f"exit {code} (expected {codes}): {text[-400:]}")
        if "Traceback" in text or "internal error" in text or "Exception ignored" in text:
            return self.record(cls, name, False, f"traceback or internal error: {text[-400:]}")
        if code == 2:
            lines = [line for line in text.splitlines() if line.strip() and not line.startswith("t ━")]
            if len(lines) != 1 or not lines[0].startswith("paratrace: error: "):
                return self.record(cls, name, False, f"not one error line: {lines[:5]}")
            if _RAW_CONTROL.search(lines[0]):
                return self.record(cls, name, False, f"raw control or bidi character in {lines[0]!r}")
            missing = [s for s in says if s not in lines[0]]
            if missing:
                return self.record(cls, name, False, f"{missing} not in {lines[0]!r}")
        elif says:
            missing = [s for s in says if s not in text + out.decode("utf-8", "replace")]
            if missing:
                return self.record(cls, name, False, f"{missing} not in the output")
        if quiet_out and _RAW_CONTROL.search(out.decode("utf-8", "replace").replace("\n", "").replace("\t", "")):
            return self.record(cls, name, False, "raw control or bidi character in stdout")
        return self.record(cls, name, True)

    def write(self, name: str | bytes, data: bytes | str) -> Path | bytes:
        """A file in the scratch directory (a bytes name for one that is not UTF-8)."""
        if isinstance(name, bytes):
            path = os.fsencode(self.work) + b"/" + name
            with open(path, "wb") as handle:
                handle.write(data.encode() if isinstance(data, str) else data)
            return path
        path = self.work / name
        path.write_bytes(data.encode() if isinstance(data, str) else data)
        return path


def free_port() -> int:
    """A free TCP port on 127.0.0.1."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]
