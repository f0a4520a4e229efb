/* Grounded labelling (Algorithm 1, docs/semantics.md section 6) of an integer framework.
 *
 * Arguments are 0 .. n-1; pending[c] counts the attackers of c that are not OUT.  Round 0 labels IN
 * the unattacked arguments; the new IN arguments of round r label OUT every unlabelled argument they
 * attack (round r + 1), and each of those counts down the counters of the unlabelled arguments it
 * attacks: one whose counter reaches zero has only OUT attackers and is IN in round r + 2.  Each
 * labelled argument records its round; one stable bucket pass over the arguments then lists every
 * round in ascending order.  Linear in arguments plus attacks, no recursion, the GIL released
 * while it runs.  Called by symbolic.labelling, which checks the types and formats the errors.
 *
 *   csr_rounds(n, indptr, indices, state) -> rounds
 *       indptr: n + 1 int64 offsets; indices: int32 or int64 targets (the arguments attacked by a
 *       are indices[indptr[a]:indptr[a + 1]]).
 *   edge_rounds(n, src, dst, state) -> rounds
 *       src, dst: int32 or int64 (both alike), attack k is src[k] -> dst[k].  Runs on the edge
 *       list while the rounds are few (a pass over the sources per round), reads sorted sources as
 *       a CSR, and builds the CSR of the edges still needed (a counting sort) when the rounds go on.
 *
 * The kernels are in _grounded_kernels.h.
 *
 * state: a writable int8 buffer of n items, filled with 1 IN, -1 OUT, 0 UNDEC.  rounds: a list of
 * lists of int.  An index outside 0 .. n-1 raises IndexError("attacker") or IndexError("target")
 * (the caller reports the range); a malformed indptr raises ValueError; a failed allocation
 * MemoryError.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "_buffers.h"

#include "_grounded_kernels.h"

/* The rounds as a list of lists of int (with the GIL). */
static PyObject *rounds_list(const work_t *w) {
    PyObject *out = PyList_New((Py_ssize_t)w->rounds);
    if (!out)
        return NULL;
    for (int64_t k = 0; k < w->rounds; k++) {
        int64_t start = w->count[k], stop = w->count[k + 1];
        PyObject *round = PyList_New((Py_ssize_t)(stop - start));
        if (!round) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, (Py_ssize_t)k, round);
        for (int64_t j = start; j < stop; j++) {
            PyObject *item = PyLong_FromLongLong(w->order[j]);
            if (!item) {
                Py_DECREF(out);
                return NULL;
            }
            PyList_SET_ITEM(round, (Py_ssize_t)(j - start), item);
        }
    }
    return out;
}

static int check_n(long long n) {
    if (n < 0) {
        PyErr_Format(PyExc_ValueError, "the number of arguments must be at least 0, got %lld", n);
        return -1;
    }
    return 0;
}

static PyObject *csr_rounds(PyObject *self, PyObject *args) {
    (void)self;
    long long n;
    PyObject *o_indptr, *o_indices, *o_state;
    buffer_t indptr = {0}, indices = {0}, state = {0};
    work_t w = {0};
    PyObject *out = NULL;
    if (!PyArg_ParseTuple(args, "LOOO:csr_rounds", &n, &o_indptr, &o_indices, &o_state) || check_n(n) < 0)
        return NULL;
    if (acquire(o_indptr, &indptr, "indptr", 8, 0) < 0 || acquire(o_indices, &indices, "indices", 0, 0) < 0
        || acquire(o_state, &state, "state", 1, 1) < 0)
        goto done;
    int64_t m = indices.view.len / indices.view.itemsize;
    const int64_t *ptr = indptr.view.buf;
    if (indptr.view.len / 8 != n + 1 || state.view.len != n) {
        PyErr_Format(PyExc_ValueError, "indptr must have n + 1 = %lld items and state n, got %zd and %zd",
                     n + 1, indptr.view.len / 8, state.view.len);
        goto done;
    }
    int bad = ptr[0] != 0 || ptr[n] != m;
    for (int64_t i = 0; i < n && !bad; i++)
        bad = ptr[i + 1] < ptr[i];
    if (bad) {
        PyErr_Format(PyExc_ValueError, "indptr must rise from 0 to len(indices) = %lld", (long long)m);
        goto done;
    }
    if (allocate(n, state.view.buf, &w) < 0) {
        PyErr_NoMemory();
        goto done;
    }
    int wide = indices.view.itemsize == 8, failed;
    Py_BEGIN_ALLOW_THREADS
    failed = wide ? in_degree_64(&w, indices.view.buf, m) : in_degree_32(&w, indices.view.buf, m);
    if (!failed) {
        round_zero(&w);
        if (wide)
            propagate_64(&w, ptr, indices.view.buf);
        else
            propagate_32(&w, ptr, indices.view.buf);
        failed = bucket(&w) < 0 ? -3 : 0;
    }
    Py_END_ALLOW_THREADS
    if (failed == -1)
        PyErr_SetString(PyExc_IndexError, "target");
    else if (failed)
        PyErr_NoMemory();
    else
        out = rounds_list(&w);
done:
    work_free(&w);
    release(&indptr); release(&indices); release(&state);
    return out;
}

static PyObject *edge_rounds(PyObject *self, PyObject *args) {
    (void)self;
    long long n;
    PyObject *o_src, *o_dst, *o_state;
    buffer_t src = {0}, dst = {0}, state = {0};
    work_t w = {0};
    PyObject *out = NULL;
    if (!PyArg_ParseTuple(args, "LOOO:edge_rounds", &n, &o_src, &o_dst, &o_state) || check_n(n) < 0)
        return NULL;
    if (acquire(o_src, &src, "src", 0, 0) < 0 || acquire(o_dst, &dst, "dst", 0, 0) < 0
        || acquire(o_state, &state, "state", 1, 1) < 0)
        goto done;
    int64_t m = src.view.len / src.view.itemsize;
    if (dst.view.itemsize != src.view.itemsize || dst.view.len != src.view.len || state.view.len != n) {
        PyErr_Format(PyExc_ValueError, "src and dst must have the same length and item size, state n = %lld items", n);
        goto done;
    }
    if (allocate(n, state.view.buf, &w) < 0 || !(w.beaten = alloc(n, sizeof(int64_t), 0))) {
        PyErr_NoMemory();
        goto done;
    }
    int failed;
    Py_BEGIN_ALLOW_THREADS
    failed = src.view.itemsize == 8 ? edges_64(&w, src.view.buf, dst.view.buf, m)
                                    : edges_32(&w, src.view.buf, dst.view.buf, m);
    if (!failed)
        failed = bucket(&w) < 0 ? -3 : 0;
    Py_END_ALLOW_THREADS
    if (failed == -1 || failed == -2)
        PyErr_SetString(PyExc_IndexError, failed == -1 ? "attacker" : "target");
    else if (failed)
        PyErr_NoMemory();
    else
        out = rounds_list(&w);
done:
    work_free(&w);
    release(&src); release(&dst); release(&state);
    return out;
}

static PyMethodDef methods[] = {
    {"csr_rounds", csr_rounds, METH_VARARGS,
     "csr_rounds(n, indptr, indices, state) -> rounds: the grounded labelling of a CSR out-adjacency."},
    {"edge_rounds", edge_rounds, METH_VARARGS,
     "edge_rounds(n, src, dst, state) -> rounds: the grounded labelling of an edge list src -> dst."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_grounded",
    "Grounded labelling of an integer framework in C (docs/semantics.md section 6).", -1, methods,
};

PyMODINIT_FUNC PyInit__grounded(void) {
    return PyModule_Create(&module);
}
