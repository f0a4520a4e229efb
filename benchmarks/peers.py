"""Peer grounded-labelling implementations for the benchmarks, on one shared graph.

Every peer takes the same integer framework (``n`` arguments, attack arrays
``src -> dst``) and returns the state per argument (1 IN, -1 OUT, 0 UNDEC):

- ``c_worklist``: a C worklist with attacker counters on the CSR
  out-adjacency, compiled with ``gcc -O2`` into a temporary shared library
  and called through :mod:`ctypes` (skipped when no C compiler is found);
- ``python_worklist``: the same algorithm in plain Python over lists;
- ``networkx``: a :class:`networkx.DiGraph` plus that worklist;
- ``clingo``: the positive (stratified) grounded encoding below, computed by
  clingo's grounder (skipped when ``clingo`` is not installed:
  ``pip install 'paratrace[bench]'``)::

      attacked(X) :- att(_, X).
      in(X) :- arg(X), not attacked(X).
      upto(X, Y) :- first(X, Y), out(Y).
      upto(X, Z) :- upto(X, Y), next(X, Y, Z), out(Z).
      in(X) :- last(X, Y), upto(X, Y).
      out(X) :- att(Y, X), in(Y).

  ``first/next/last`` enumerate the attackers of each argument in order, so
  "every attacker is OUT" needs no negation and the program stays linear in
  the attacks.
"""

from __future__ import annotations

import ctypes
import shutil
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

import numpy as np

__all__ = ["CLINGO_PROGRAM", "c_worklist", "clingo_grounded", "compare", "csr", "networkx_worklist", "python_worklist"]

C_SOURCE = r"""
#include <stdint.h>
#include <stdlib.h>
/* Grounded labelling: state 1 IN, -1 OUT, 0 UNDEC; returns the number of IN arguments. */
int64_t grounded(int64_t n, const int64_t *indptr, const int32_t *indices, int8_t *state) {
    int64_t *pending = calloc(n > 0 ? n : 1, sizeof(int64_t));
    int32_t *queue = malloc((n > 0 ? n : 1) * sizeof(int32_t));
    int64_t head = 0, tail = 0;
    for (int64_t e = 0; e < indptr[n]; e++) pending[indices[e]]++;
    for (int64_t i = 0; i < n; i++) { state[i] = 0; if (!pending[i]) { state[i] = 1; queue[tail++] = (int32_t)i; } }
    while (head < tail) {
        int32_t a = queue[head++];
        for (int64_t e = indptr[a]; e < indptr[a + 1]; e++) {
            int32_t b = indices[e];
            if (state[b] != 0) continue;
            state[b] = -1;
            for (int64_t f = indptr[b]; f < indptr[b + 1]; f++) {
                int32_t c = indices[f];
                if (state[c] == 0 && --pending[c] == 0) { state[c] = 1; queue[tail++] = c; }
            }
        }
    }
    free(pending); free(queue);
    return tail;
}
"""

CLINGO_PROGRAM = """
attacked(X) :- att(_, X).
in(X) :- arg(X), not attacked(X).
upto(X, Y) :- first(X, Y), out(Y).
upto(X, Z) :- upto(X, Y), next(X, Y, Z), out(Z).
in(X) :- last(X, Y), upto(X, Y).
out(X) :- att(Y, X), in(Y).
"""

_LIB = None


def csr(n: int, src: np.ndarray, dst: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """CSR out-adjacency (``indptr`` int64, ``indices`` int32) of the attacks ``src -> dst``."""
    order = np.argsort(src, kind="stable")
    indptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.bincount(src, minlength=n), out=indptr[1:])
    return indptr, np.ascontiguousarray(dst[order], dtype=np.int32)


def _library():
    global _LIB
    if _LIB is None:
        compiler = shutil.which("gcc") or shutil.which("cc")
        if compiler is None:
            return None
        where = Path(tempfile.mkdtemp(prefix="paratrace-bench-"))
        (where / "grounded.c").write_text(C_SOURCE)
        subprocess.run([compiler, "-O2", "-shared", "-fPIC", "-o", str(where / "grounded.so"),
                        str(where / "grounded.c")], check=True)
        lib = ctypes.CDLL(str(where / "grounded.so"))
        lib.grounded.restype = ctypes.c_int64
        lib.grounded.argtypes = [ctypes.c_int64, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p]
        _LIB = lib
    return _LIB


def c_worklist(n: int, indptr: np.ndarray, indices: np.ndarray) -> np.ndarray | None:
    """The C worklist on a CSR (``None`` without a C compiler)."""
    lib = _library()
    if lib is None:
        return None
    state = np.zeros(n, dtype=np.int8)
    lib.grounded(n, indptr.ctypes.data, indices.ctypes.data, state.ctypes.data)
    return state


def _worklist(n: int, out: list, pending: list[int]) -> list[int]:
    state = [0] * n
    queue = [i for i in range(n) if not pending[i]]
    for i in queue:
        state[i] = 1
    head = 0
    while head < len(queue):
        a = queue[head]
        head += 1
        for b in out[a]:
            if state[b]:
                continue
            state[b] = -1
            for c in out[b]:
                if not state[c]:
                    pending[c] -= 1
                    if not pending[c]:
                        state[c] = 1
                        queue.append(c)
    return state


def python_worklist(n: int, src: list[int], dst: list[int]) -> list[int]:
    """Plain-Python worklist over edge lists (adjacency built inside)."""
    out: list[list[int]] = [[] for _ in range(n)]
    pending = [0] * n
    for a, b in zip(src, dst):
        out[a].append(b)
        pending[b] += 1
    return _worklist(n, out, pending)


def networkx_worklist(n: int, src: list[int], dst: list[int]) -> list[int]:
    """A networkx ``DiGraph`` (multi-edges collapse, as a set of attacks) plus the worklist."""
    import networkx as nx

    graph = nx.DiGraph()
    graph.add_nodes_from(range(n))
    graph.add_edges_from(zip(src, dst))
    out = [list(graph.successors(i)) for i in range(n)]
    pending = [graph.in_degree(i) for i in range(n)]
    return _worklist(n, out, pending)


def clingo_grounded(n: int, src: np.ndarray, dst: np.ndarray) -> tuple[np.ndarray | None, dict]:
    """The grounded labelling by clingo's grounder; ``(state, {"facts_ms", "solve_ms"})``.

    ``facts_ms`` is the time to write the facts (in Python), ``solve_ms``
    clingo's parse, ground and solve.  ``state`` is ``None`` when clingo is
    not installed.
    """
    try:
        import clingo
    except ImportError:
        return None, {"skipped": "clingo not installed (pip install 'paratrace[bench]')"}
    t0 = time.perf_counter()
    pairs = sorted(set(zip(dst.tolist(), src.tolist())))  # attackers of each target, in order
    lines = [f"arg({i})." for i in range(n)]
    lines += [f"att({a},{b})." for b, a in pairs]
    previous = None
    for b, a in pairs:
        if previous is None or previous[0] != b:
            if previous is not None:
                lines.append(f"last({previous[0]},{previous[1]}).")
            lines.append(f"first({b},{a}).")
        else:
            lines.append(f"next({b},{previous[1]},{a}).")
        previous = (b, a)
    if previous is not None:
        lines.append(f"last({previous[0]},{previous[1]}).")
    text = "\n".join(lines) + CLINGO_PROGRAM + "#show in/1. #show out/1.\n"
    t1 = time.perf_counter()
    control = clingo.Control(["--warn=none"])
    control.add("base", [], text)
    control.ground([("base", [])])
    state = np.zeros(n, dtype=np.int8)
    with control.solve(yield_=True) as handle:
        for model in handle:
            for symbol in model.symbols(shown=True):
                state[symbol.arguments[0].number] = 1 if symbol.name == "in" else -1
    t2 = time.perf_counter()
    return state, {"facts_ms": round((t1 - t0) * 1e3, 1), "solve_ms": round((t2 - t1) * 1e3, 1)}


def _timed(fn, repeat: int) -> tuple[dict, object]:
    """Wall and CPU time (of this process: less disturbed by other work on a shared machine), first and median."""
    times, cpu, out = [], [], None
    for _ in range(repeat):
        start, start_cpu = time.perf_counter(), time.process_time()
        out = fn()
        times.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    return {"first_ms": round(times[0] * 1e3, 3), "median_ms": round(statistics.median(times) * 1e3, 3),
            "first_cpu_ms": round(cpu[0] * 1e3, 3), "median_cpu_ms": round(statistics.median(cpu) * 1e3, 3)}, out


def _ratio(a: float, b: float | None) -> float | None:
    return None if not b else round(a / max(b, 1e-3), 2)


def compare(n: int, src: np.ndarray, dst: np.ndarray, repeat: int = 5, slow_peers: bool = True) -> dict:
    """Our grounded labelling against every peer on the framework ``src -> dst``; all checked to agree.

    ``ours`` is :func:`symbolic.engine.labelling.grounded_state` on the edge list as
    given (the engine's path: the attack table's int32 columns).  First run and
    median of ``repeat`` runs for ours and the C worklist on the CSR (whose
    library is compiled and called once before), one run each for the Python
    and networkx worklists and clingo's parse, ground and solve
    (``slow_peers=False`` leaves those out).  Ratios of the medians (first runs:
    ``..._first``; of CPU time: ``..._cpu``): ``ours_over_c_worklist`` (how many
    times slower than C) and ``<peer>_over_ours`` for the others (how many times
    faster we are).
    """
    from symbolic.engine.labelling import grounded_state

    src, dst = np.asarray(src), np.asarray(dst)  # as given: the engine's int32 columns
    indptr, indices = csr(n, src, dst)
    out: dict = {"arguments": n, "active_attacks": int(len(src))}
    row, (state, _) = _timed(lambda: grounded_state(n, src, dst), repeat)
    reference = np.asarray(state, dtype=np.int8)
    out["ours"] = row
    peers: dict = {}
    if c_worklist(n, indptr, indices) is not None:  # compiles the library outside the timing
        row, c_state = _timed(lambda: c_worklist(n, indptr, indices), repeat)
        peers["c_worklist"] = {**row, "agrees": bool(np.array_equal(c_state, reference))}
    if slow_peers:
        src_l, dst_l = src.tolist(), dst.tolist()
        row, py_state = _timed(lambda: python_worklist(n, src_l, dst_l), 1)
        peers["python_worklist"] = {**row, "agrees": py_state == reference.tolist()}
        row, nx_state = _timed(lambda: networkx_worklist(n, src_l, dst_l), 1)
        peers["networkx"] = {**row, "agrees": nx_state == reference.tolist()}
        clingo_state, clingo_ms = clingo_grounded(n, src, dst)
        peers["clingo"] = clingo_ms
        if clingo_state is not None:
            peers["clingo"]["agrees"] = bool(np.array_equal(clingo_state, reference))
            peers["clingo"]["median_ms"] = peers["clingo"]["first_ms"] = clingo_ms["solve_ms"]
    out.update(peers)
    for peer, row in peers.items():  # ours / C (slower), peer / ours (faster) for the rest
        if "median_ms" not in row:
            continue
        if peer == "c_worklist":
            out["ours_over_c_worklist"] = _ratio(out["ours"]["median_ms"], row["median_ms"])
            out["ours_over_c_worklist_first"] = _ratio(out["ours"]["first_ms"], row["first_ms"])
            out["ours_over_c_worklist_cpu"] = _ratio(out["ours"]["median_cpu_ms"], row["median_cpu_ms"])
        else:
            out[f"{peer}_over_ours"] = _ratio(row["median_ms"], out["ours"]["median_ms"])
            out[f"{peer}_over_ours_first"] = _ratio(row["first_ms"], out["ours"]["first_ms"])
    return out
