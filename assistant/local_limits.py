"""The embedded models' bounds (token, time and re-ask limits per
call) and the CPU check that precedes a start; see :mod:`assistant.local_llm`."""

from __future__ import annotations

import os
from pathlib import Path

from .errors import LocalModelError

__all__ = ["LOCAL_MAX_TOKENS", "LOCAL_REASKS", "LOCAL_TIMEOUT_S", "check_cpu", "local_bounds",
           "local_reasks"]

LOCAL_MAX_TOKENS = 2048
LOCAL_TIMEOUT_S = 300.0
LOCAL_REASKS = 1


def local_bounds(max_tokens: int | None = None) -> tuple[int, float]:
    """The token and time bound of one call to the embedded model.

    ``max_tokens`` (the run's decoding setting) is capped at
    ``$PARATRACE_LOCAL_MAX_TOKENS`` (default 2048: a by-fragment extraction
    grows with the fragments, 30 to 80 tokens each): a small model that loops
    would otherwise run on until the context is full.

    Returns
    -------
    (int, float)
        Tokens and seconds per call.

    Raises
    ------
    LocalModelError
        If an environment override is not a positive number.

    Examples
    --------
    >>> local_bounds(4096)[0] <= 4096 and local_bounds(100)[0] <= 100
    True
    """
    def number(name: str, default: float) -> float:
        raw = os.environ.get(name)
        if raw in (None, ""):
            return default
        try:
            value = float(raw)
        except ValueError:
            value = -1.0
        if value <= 0:
            raise LocalModelError(f"{name}={raw!r}: expected a positive number")
        return value

    cap = int(number("PARATRACE_LOCAL_MAX_TOKENS", LOCAL_MAX_TOKENS))
    return (min(max_tokens, cap) if max_tokens else cap), number("PARATRACE_LOCAL_TIMEOUT_S", LOCAL_TIMEOUT_S)


def local_reasks() -> int:
    """Re-asks after an invalid reply of the embedded model: ``$PARATRACE_LOCAL_REASKS``, default 1.

    Raises
    ------
    LocalModelError
        If the variable is not a whole number >= 0.

    >>> local_reasks() >= 0
    True
    """
    raw = os.environ.get("PARATRACE_LOCAL_REASKS", "")
    if raw == "":
        return LOCAL_REASKS
    if not raw.isdigit():
        raise LocalModelError(f"PARATRACE_LOCAL_REASKS={raw!r}: expected a whole number >= 0")
    return int(raw)


def check_cpu(cpuinfo: str | Path = "/proc/cpuinfo") -> None:
    r"""Refuse a CPU without AVX2, which the documented portable build needs.

    Only checked on x86-64 Linux (elsewhere there is no ``/proc/cpuinfo`` to read).

    Raises
    ------
    LocalModelError
        Naming the missing feature and the way out.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> f = pathlib.Path(tempfile.mkdtemp()) / "cpuinfo"
    >>> _ = f.write_text("flags\t\t: fpu sse2 avx\n")
    >>> check_cpu(f)
    Traceback (most recent call last):
    ...
    assistant.errors.LocalModelError: this CPU has no AVX2 ...
    """
    import platform

    path = Path(cpuinfo)
    if str(cpuinfo) == "/proc/cpuinfo" and (platform.machine() not in ("x86_64", "AMD64") or not path.exists()):
        return
    try:
        text = path.read_text(errors="replace")
    except OSError:
        return
    flags = set()
    for line in text.splitlines():
        if line.startswith("flags"):
            flags.update(line.partition(":")[2].split())
    if flags and "avx2" not in flags:
        raise LocalModelError(
            "this CPU has no AVX2 (flags in /proc/cpuinfo), which the embedded llama.cpp build needs; "
            "rebuild it with CMAKE_ARGS=\"-DGGML_NATIVE=OFF -DGGML_AVX2=OFF -DGGML_FMA=OFF -DGGML_F16C=OFF\" "
            "pip install --force-reinstall --no-cache-dir 'llama-cpp-python[server]==0.3.36', "
            "or use your own model (--model ... --api-base ...)")
