"""The embedded local backbones: llama.cpp's OpenAI-compatible server serving
one of the models of :data:`assistant.local_models.LOCAL_MODELS` (the default is
Qwen2.5-Coder-0.5B-Instruct, with the ChatML chat template its GGUF carries).

``local/<alias>`` resolves to a DSPy LM whose engine
(:class:`assistant.llama_engine.LlamaServerEngine`) posts to the model's server on ``127.0.0.1``
with JSON-schema constrained decoding (llama.cpp's ``response_format``
``{"type": "json_object", "schema": ...}``).  :func:`ensure_server` reuses a
healthy server recorded in the model's state file, or starts one on a free port,
waits for its health check and stops it when the process exits.
``paratrace local-llm start|stop|status [--model M]`` manages a long-lived one.

Every call is bounded (:func:`local_bounds`): at most ``max_tokens`` tokens
(``PARATRACE_LOCAL_MAX_TOKENS``, default 2048) and a client timeout
(``PARATRACE_LOCAL_TIMEOUT_S``, default 300 s); a call that hits a bound raises
:class:`~assistant.errors.CallLimitError`.  An invalid reply is re-asked once
(``PARATRACE_LOCAL_REASKS``).  The server runs with an 8192-token
context, room for a re-ask that carries the first reply.  When the server dies (a crash, a signal such as SIGILL from a build
that used CPU features the OS does not grant), :func:`server_failure` says how
and shows the tail of its log.

Requires the optional extra ``local`` (``llama-cpp-python[server]`` and the
model packages; ``local-1.5b`` adds the 1.5B model).
"""

from __future__ import annotations

import atexit
import fcntl
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path

from .errors import LocalModelError
from .local_limits import check_cpu, local_bounds, local_reasks
from .local_models import DEFAULT_LOCAL_MODEL, LocalModel, assemble, local_model

__all__ = [
    "LOCAL_N_CTX",
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
LOCAL_N_CTX = 8192
_PROCS: dict[int, tuple[subprocess.Popen, "ServerInfo"]] = {}
_SIGILL_HINT = (" (llama-cpp-python was built for CPU instructions this machine does not allow; rebuild it "
                "portably: pip cache remove llama_cpp_python, then the README's install command with its "
                "CMAKE_ARGS)")


def cache_dir() -> Path:
    """``$PARATRACE_CACHE_DIR`` or ``~/.cache/paratrace``."""
    base = os.environ.get("PARATRACE_CACHE_DIR")
    return Path(base) if base else Path.home() / ".cache" / "paratrace"


def _state_file(model: str = DEFAULT_LOCAL_MODEL) -> Path:
    return cache_dir() / "local-llm" / f"{local_model(model).alias}.json"


def _state_files() -> list[Path]:
    return sorted((cache_dir() / "local-llm").glob("*.json"))


def model_path(model: str = DEFAULT_LOCAL_MODEL) -> Path:
    """The model's GGUF file, assembled from its packages' chunks once, verified by SHA-256 and cached.

    Raises
    ------
    LocalModelError
        If the model is unknown, its packages are not installed, or the
        assembled file does not match its registered SHA-256.
    """
    try:
        return assemble(local_model(model), cache_dir() / "models")
    except OSError as exc:
        raise LocalModelError(f"cannot assemble {model} into {cache_dir() / 'models'}: {exc}") from None


@dataclass(frozen=True, slots=True)
class ServerInfo:
    """A running llama.cpp server."""

    pid: int
    port: int
    model: str
    log: str
    alias: str = ""

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:PORT/v1``."""
        return f"http://127.0.0.1:{self.port}/v1"


_MAX_STATE_BYTES = 64 * 1024


def _read_state(path: Path) -> ServerInfo:
    """The server recorded in ``path``, read by :func:`symbolic.support.fsio.read_bytes` (bounded, never blocking).

    Raises
    ------
    FileNotFoundError
        When there is no record.
    ValueError
        When the record is damaged (truncated, not JSON, fields missing or of the wrong type): a stale record.
    LocalModelError
        When the path is not a regular file (a named pipe, a directory...), naming it.
    """
    from symbolic.support.fsio import input_problem, read_bytes

    if input_problem(path) == "no such file":
        raise FileNotFoundError(path)
    data = read_bytes(path, max_bytes=_MAX_STATE_BYTES, error=LocalModelError)
    try:
        record = json.loads(data.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise ValueError(f"{path}: not UTF-8") from exc
    types = {"pid": int, "port": int, "model": str, "log": str, "alias": str}
    if (not isinstance(record, dict) or set(record) - set(types) or not {"pid", "port", "model", "log"} <= set(record)
            or not all(isinstance(record[k], types[k]) and not isinstance(record[k], bool) for k in record)):
        raise ValueError(f"{path}: not a server record")
    return ServerInfo(**record)


def _write_state(path: Path, info: ServerInfo) -> None:
    """Record ``info`` in ``path`` through a temporary file and a rename (a full disk leaves no half record)."""
    from symbolic.support.fsio import write_atomic

    write_atomic(path, json.dumps(asdict(info)), error=LocalModelError)


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


def _listening(port: int, timeout: float = 2.0) -> bool:
    """Whether a server accepts connections on ``port``.

    A server busy with a completion holds the model's lock, and llama-cpp-python
    answers even ``/v1/models`` only after it; it still accepts the connection.
    """
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout):
            return True
    except OSError:
        return False


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def stale_reason(model: str = DEFAULT_LOCAL_MODEL) -> str | None:
    """Why the model's recorded server is gone (its pid and log tail), or ``None`` if none is recorded or it lives."""
    try:
        info = _read_state(_state_file(model))
    except (OSError, ValueError, LocalModelError):
        return None
    if _alive(info.pid) and _listening(info.port):
        return None
    state = "is no longer running" if not _alive(info.pid) else "does not accept connections"
    return f"the recorded server (pid {info.pid}, port {info.port}) {state}; {_log_tail(info.log)}"


def status(model: str = DEFAULT_LOCAL_MODEL) -> ServerInfo | None:
    """The model's recorded server if it is alive and listening, else ``None`` (a stale record is removed).

    A server busy with another caller's completion counts as running: callers
    queue on it rather than start a second copy of the model.
    """
    path = _state_file(model)
    try:
        info = _read_state(path)
    except FileNotFoundError:
        return None
    except ValueError:
        path.unlink(missing_ok=True)
        return None
    if _alive(info.pid) and _listening(info.port):
        return info
    if not _alive(info.pid):
        path.unlink(missing_ok=True)
    return None


def _require_model(model: str) -> Path:
    try:
        import llama_cpp.server  # noqa: F401
    except ImportError:
        raise LocalModelError("the local model needs the optional extra: pip install 'paratrace[local]'") from None
    return model_path(model)


def server_command(gguf: Path, port: int, *, n_ctx: int, threads: int, alias: str) -> list[str]:
    """The command line of the embedded server (:mod:`assistant.llama_server`).

    No ``--chat_format``: llama-cpp-python then formats messages with the chat
    template the GGUF carries (ChatML for the Qwen models).
    """
    # faulthandler: a fatal signal (SIGILL, SIGSEGV) leaves a traceback in the log.
    return [sys.executable, "-X", "faulthandler", "-u", "-m", "assistant.llama_server", "--model", str(gguf),
            "--model_alias", alias,
            "--host", "127.0.0.1", "--port", str(port), "--n_ctx", str(n_ctx), "--n_threads", str(threads),
            # The server's default logits_all=true keeps n_ctx x vocabulary float logits (Gemma: 262,144,
            # 4 GiB at 4096 tokens) and computes them for every prompt token; sampling needs only the last row.
            "--logits_all", "false", "--verbose", "false"]


def start_server(port: int | None = None, *, model: str = DEFAULT_LOCAL_MODEL, n_ctx: int = LOCAL_N_CTX,
                 threads: int | None = None, timeout: float = _HEALTH_TIMEOUT_S) -> ServerInfo:
    """Start the model's llama.cpp server on ``127.0.0.1`` and wait until it answers.

    Parameters
    ----------
    port : int, optional
        A free port is chosen when ``None``.
    model : str, optional
        A ``local/...`` name of :data:`assistant.local_models.LOCAL_MODELS`.
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

    Notes
    -----
    A ``SIGINT``, ``SIGTERM`` or ``SIGHUP`` while the server starts stops the
    server before the exception (``KeyboardInterrupt``, ``SystemExit``) goes on:
    it runs in its own session, so nothing else would.
    """
    spec = local_model(model)
    running = status(spec.name)
    if running is not None:
        return running
    with _start_lock(spec.alias):  # a second starter waits here, then finds the first one's server
        running = status(spec.name)
        if running is not None:
            return running
        return _start(spec, port, n_ctx=n_ctx, threads=threads, timeout=timeout)


@contextmanager
def _start_lock(alias: str):
    """An exclusive ``flock`` on ``<cache>/local-llm/<alias>.lock`` while one process starts the server.

    The kernel releases it when its holder ends however it ends, so a killed
    starter leaves no stale lock; a waiting starter blocks until it is free.
    """
    path = cache_dir() / "local-llm" / f"{alias}.lock"
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing the descriptor releases the lock


def _start(spec, port: int | None, *, n_ctx: int, threads: int | None, timeout: float) -> ServerInfo:
    """Launch the server of ``spec`` and record it once healthy (under :func:`_start_lock`)."""
    check_cpu()
    gguf = _require_model(spec.name)
    port = port or _free_port()
    state = _state_file(spec.name)
    state.parent.mkdir(parents=True, exist_ok=True)
    log_path = state.parent / f"{spec.alias}.log"
    threads = (threads or int(os.environ.get("PARATRACE_LOCAL_THREADS") or 0)
               or max(1, min(4, (os.cpu_count() or 2) // 2)))
    cmd = server_command(gguf, port, n_ctx=n_ctx, threads=threads, alias=spec.alias)
    # Few malloc arenas: the server's per-token buffers otherwise fragment into gigabytes.
    env = {**os.environ, "MALLOC_ARENA_MAX": os.environ.get("MALLOC_ARENA_MAX", "2")}
    with open(log_path, "ab") as log:
        proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                start_new_session=True, env=env)
    info = ServerInfo(pid=proc.pid, port=port, model=str(gguf), log=str(log_path), alias=spec.alias)
    _PROCS[proc.pid] = (proc, info)
    try:
        with _signals_end_the_wait():
            if _wait_healthy(proc, port, timeout, log_path):
                _write_state(state, info)
                return info
    except BaseException:  # a signal (KeyboardInterrupt, SystemExit) or a failure while waiting
        _terminate(proc.pid)  # in its own session: nothing else would stop it
        _PROCS.pop(proc.pid, None)
        raise
    _terminate(proc.pid)
    raise LocalModelError(f"the llama.cpp server did not answer on port {port} within {timeout:.0f} s; "
                          f"see {log_path}")


def _wait_healthy(proc: subprocess.Popen, port: int, timeout: float, log_path: Path) -> bool:
    """Poll the server's health until it answers (``True``) or ``timeout`` passes (``False``).

    Raises
    ------
    LocalModelError
        If the server exits first (naming its exit code or signal and its log's tail).
    """
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            hint = _SIGILL_HINT if proc.returncode == -signal.SIGILL else ""
            raise LocalModelError(f"the llama.cpp server {_ended(proc.returncode)}{hint}; {_log_tail(log_path)}")
        if _healthy(port):
            return True
        time.sleep(0.5)
    return False


@contextmanager
def _signals_end_the_wait():
    """``SIGTERM`` and ``SIGHUP`` raise :class:`SystemExit` (``128 + signal``) while the server starts.

    The server runs in its own session, so a signal that kills this process by
    its default action would leave it running; with these handlers the caller's
    clean-up stops it.  Handlers a program installed are kept, a signal it
    ignores (``nohup``) stays ignored, and outside the main thread nothing
    changes (``SIGINT`` already raises :class:`KeyboardInterrupt`).
    """
    previous = {}
    if threading.current_thread() is threading.main_thread():
        for sig in (signal.SIGTERM, signal.SIGHUP):
            if signal.getsignal(sig) is signal.SIG_DFL:
                previous[sig] = signal.signal(sig, _exit_on_signal)
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def _exit_on_signal(signum: int, _frame) -> None:
    raise SystemExit(128 + signum)


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


def stop_server(model: str = DEFAULT_LOCAL_MODEL) -> bool:
    """Stop the model's recorded server; ``False`` when none was running."""
    path = _state_file(model)
    try:
        info = _read_state(path)
    except FileNotFoundError:
        return False
    except ValueError:
        path.unlink(missing_ok=True)
        return False
    running = _alive(info.pid)
    if running:
        _terminate(info.pid)
    path.unlink(missing_ok=True)
    return running


_OWNED: list[tuple[str, int]] = []


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
    from symbolic.support.fsio import PathError, read_tail

    try:  # the path comes from the server's record: bounded and never blocking (a pipe, /dev/zero)
        text = read_tail(path).decode("utf-8", "replace").strip().splitlines()
    except (OSError, PathError):
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
    for path in _state_files():
        try:
            info = _read_state(path)
        except (OSError, ValueError, LocalModelError):
            continue
        if info.base_url == base_url.rstrip("/") and not _alive(info.pid):
            return f"the embedded llama.cpp server (pid {info.pid}) is no longer running; {_log_tail(info.log)}"
    return None


def _stop_owned() -> None:
    for model, pid in _OWNED:
        try:
            info = status(model)
        except LocalModelError:  # its state file was replaced by something else: stop the process itself
            info = None
        if info is not None and info.pid == pid:
            stop_server(model)
        elif _alive(pid):
            _terminate(pid)


def ensure_server(model: str = DEFAULT_LOCAL_MODEL) -> str:
    """The base URL of a healthy server of ``model``, starting one (stopped at exit) if needed."""
    info = status(model)
    if info is None:
        info = start_server(model=model)
        if not _OWNED:
            atexit.register(_stop_owned)
        _OWNED.append((model, info.pid))
    return info.base_url
