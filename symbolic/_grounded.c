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
 *       src, dst: int32 or int64, attack k is src[k] -> dst[k]; the CSR is built here by a
 *       counting sort by attacker.
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

typedef struct {
    Py_buffer view;
    int held;
} buffer_t;

static void release(buffer_t *b) {
    if (b->held) {
        PyBuffer_Release(&b->view);
        b->held = 0;
    }
}

/* A C-contiguous buffer of signed integers of itemsize bytes (0: 4 or 8), read-only unless writable. */
static int acquire(PyObject *obj, buffer_t *b, const char *name, Py_ssize_t itemsize, int writable) {
    int flags = PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | (writable ? PyBUF_WRITABLE : 0);
    if (PyObject_GetBuffer(obj, &b->view, flags) < 0)
        return -1;
    b->held = 1;
    const char *f = b->view.format ? b->view.format : "B";
    if (*f == '<' || *f == '=' || *f == '@')
        f++;
    Py_ssize_t size = b->view.itemsize;
    int ok = f[0] != '\0' && f[1] == '\0' && strchr("bhilq", f[0]) != NULL
             && (itemsize ? size == itemsize : (size == 4 || size == 8));
    if (!ok) {
        PyErr_Format(PyExc_TypeError, "%s: expected a contiguous buffer of signed %s integers, got format '%s' of %zd bytes",
                     name, itemsize == 1 ? "1-byte" : itemsize == 8 ? "8-byte" : "4- or 8-byte",
                     b->view.format ? b->view.format : "B", size);
        release(b);
        return -1;
    }
    return 0;
}

/* The kernel's arrays, freed together. */
typedef struct {
    int64_t *pending, *queue, *round_of, *count, *order;
    int64_t *indptr;  /* only when built here */
    void *indices;    /* only when built here */
} work_t;

static void work_free(work_t *w) {
    free(w->pending); free(w->queue); free(w->round_of); free(w->count); free(w->order);
    free(w->indptr); free(w->indices);
    memset(w, 0, sizeof *w);
}

/* calloc/malloc of at least one item, so that n = 0 is not a failure. */
static void *alloc(int64_t items, size_t size, int zero) {
    if (items < 1)
        items = 1;
    if ((uint64_t)items > SIZE_MAX / size)
        return NULL;
    return zero ? calloc((size_t)items, size) : malloc((size_t)items * size);
}

/* The propagation on a CSR whose targets are of type T: fills state and round_of, returns the number of rounds. */
#define PROPAGATE(NAME, T)                                                                              \
static int64_t NAME(int64_t n, const int64_t *restrict indptr, const T *restrict indices,              \
                    int8_t *restrict state, work_t *w) {                                                \
    int64_t *restrict pending = w->pending, *restrict queue = w->queue, *restrict round_of = w->round_of; \
    int64_t tail = 0, head = 0, r = 0, rounds = 0;                                                      \
    for (int64_t i = 0; i < n; i++) {                                                                   \
        int in = pending[i] == 0;                                                                       \
        state[i] = (int8_t)in;                                                                          \
        round_of[i] = in - 1;                                                                           \
        queue[tail] = i;                                                                                \
        tail += in;                                                                                     \
    }                                                                                                   \
    if (tail)                                                                                           \
        rounds = 1;                                                                                     \
    while (head < tail) {                                                                               \
        int64_t end = tail, beaten = 0;                                                                 \
        for (; head < end; head++) {                                                                    \
            int64_t a = queue[head], e_end = indptr[a + 1];                                             \
            for (int64_t e = indptr[a]; e < e_end; e++) {                                               \
                int64_t b = (int64_t)indices[e];                                                        \
                if (state[b])                                                                           \
                    continue;                                                                           \
                state[b] = -1;                                                                          \
                round_of[b] = r + 1;                                                                    \
                beaten = 1;                                                                             \
                int64_t f_end = indptr[b + 1];                                                          \
                for (int64_t f = indptr[b]; f < f_end; f++) {                                           \
                    int64_t c = (int64_t)indices[f];                                                    \
                    if (!state[c] && !--pending[c]) {                                                   \
                        state[c] = 1;                                                                   \
                        round_of[c] = r + 2;                                                            \
                        queue[tail++] = c;                                                              \
                    }                                                                                   \
                }                                                                                       \
            }                                                                                           \
        }                                                                                               \
        if (!beaten)                                                                                    \
            break;                                                                                      \
        rounds = tail > end ? r + 3 : r + 2;                                                            \
        r += 2;                                                                                         \
    }                                                                                                   \
    return rounds;                                                                                      \
}
PROPAGATE(propagate32, int32_t)
PROPAGATE(propagate64, int64_t)

/* In-degrees of targets of type T into pending; 0 when every target is in 0 .. n-1, else -1. */
#define IN_DEGREE(NAME, T)                                                                              \
static int NAME(int64_t n, const T *targets, int64_t m, int64_t *pending) {                            \
    for (int64_t e = 0; e < m; e++) {                                                                   \
        uint64_t c = (uint64_t)(int64_t)targets[e];                                                     \
        if (c >= (uint64_t)n)                                                                           \
            return -1;                                                                                  \
        pending[c]++;                                                                                   \
    }                                                                                                   \
    return 0;                                                                                           \
}
IN_DEGREE(in_degree32, int32_t)
IN_DEGREE(in_degree64, int64_t)

static int in_degree(int64_t n, const Py_buffer *targets, int64_t *pending) {
    int64_t m = targets->len / targets->itemsize;
    return targets->itemsize == 4 ? in_degree32(n, targets->buf, m, pending)
                                  : in_degree64(n, targets->buf, m, pending);
}

/* Round k lists the arguments with round_of == k, ascending: count, prefix sums, a stable pass. */
static int bucket(int64_t n, int64_t rounds, work_t *w) {
    w->count = alloc(rounds + 1, sizeof(int64_t), 1);
    w->order = alloc(n, sizeof(int64_t), 0);
    if (!w->count || !w->order)
        return -1;
    for (int64_t i = 0; i < n; i++)
        if (w->round_of[i] >= 0)
            w->count[w->round_of[i] + 1]++;
    for (int64_t k = 0; k < rounds; k++)
        w->count[k + 1] += w->count[k];
    int64_t *next = w->queue;  /* the queue is spent: it becomes the write position of each round */
    memcpy(next, w->count, (size_t)rounds * sizeof(int64_t));
    for (int64_t i = 0; i < n; i++)
        if (w->round_of[i] >= 0)
            w->order[next[w->round_of[i]]++] = i;
    return 0;
}

/* The rounds as a list of lists of int (with the GIL). */
static PyObject *rounds_list(int64_t rounds, const work_t *w) {
    PyObject *out = PyList_New((Py_ssize_t)rounds);
    if (!out)
        return NULL;
    for (int64_t k = 0; k < rounds; k++) {
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

static int check_n(int64_t n) {
    if (n < 0) {
        PyErr_Format(PyExc_ValueError, "the number of arguments must be at least 0, got %lld", (long long)n);
        return -1;
    }
    return 0;
}

static int allocate(int64_t n, work_t *w) {
    w->pending = alloc(n, sizeof(int64_t), 1);
    w->queue = alloc(n, sizeof(int64_t), 0);
    w->round_of = alloc(n, sizeof(int64_t), 0);
    return w->pending && w->queue && w->round_of ? 0 : -1;
}

/* Propagate, bucket and build the result; frees w. */
static PyObject *finish(int64_t n, const int64_t *indptr, const void *indices, int wide, int8_t *state, work_t *w) {
    int64_t rounds;
    int failed;
    Py_BEGIN_ALLOW_THREADS
    rounds = wide ? propagate64(n, indptr, indices, state, w) : propagate32(n, indptr, indices, state, w);
    failed = bucket(n, rounds, w);
    Py_END_ALLOW_THREADS
    PyObject *out = failed ? PyErr_NoMemory() : rounds_list(rounds, w);
    work_free(w);
    return out;
}

static PyObject *csr_rounds(PyObject *self, PyObject *args) {
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
    if (allocate(n, &w) < 0) {
        PyErr_NoMemory();
        goto done;
    }
    int range;
    Py_BEGIN_ALLOW_THREADS
    range = in_degree(n, &indices.view, w.pending);
    Py_END_ALLOW_THREADS
    if (range < 0) {
        PyErr_SetString(PyExc_IndexError, "target");
        goto done;
    }
    out = finish(n, ptr, indices.view.buf, indices.view.itemsize == 8, state.view.buf, &w);
done:
    work_free(&w);
    release(&indptr); release(&indices); release(&state);
    return out;
}

/* Out-degrees of sources of type T into indptr[1..n]; 0 when every source is in 0 .. n-1, else -1. */
#define OUT_DEGREE(NAME, T)                                                                             \
static int NAME(int64_t n, const T *sources, int64_t m, int64_t *indptr) {                             \
    for (int64_t e = 0; e < m; e++) {                                                                   \
        uint64_t a = (uint64_t)(int64_t)sources[e];                                                     \
        if (a >= (uint64_t)n)                                                                           \
            return -1;                                                                                  \
        indptr[a + 1]++;                                                                                \
    }                                                                                                   \
    return 0;                                                                                           \
}
OUT_DEGREE(out_degree32, int32_t)
OUT_DEGREE(out_degree64, int64_t)

/* The targets of type D in the order of their sources of type S, stable, as type T. */
#define SCATTER(NAME, S, D, T)                                                                          \
static void NAME(const S *restrict sources, const D *restrict targets, int64_t m, int64_t *restrict next,    \
                 T *restrict indices) {                                                                            \
    for (int64_t e = 0; e < m; e++)                                                                     \
        indices[next[sources[e]]++] = (T)targets[e];                                                    \
}
SCATTER(scatter_32_32_32, int32_t, int32_t, int32_t)
SCATTER(scatter_32_64_32, int32_t, int64_t, int32_t)
SCATTER(scatter_64_32_32, int64_t, int32_t, int32_t)
SCATTER(scatter_64_64_32, int64_t, int64_t, int32_t)
SCATTER(scatter_32_32_64, int32_t, int32_t, int64_t)
SCATTER(scatter_32_64_64, int32_t, int64_t, int64_t)
SCATTER(scatter_64_32_64, int64_t, int32_t, int64_t)
SCATTER(scatter_64_64_64, int64_t, int64_t, int64_t)

static void scatter(const Py_buffer *src, const Py_buffer *dst, int64_t m, int64_t *next, void *indices, int wide) {
    int s = src->itemsize == 8, d = dst->itemsize == 8;
    const void *a = src->buf, *b = dst->buf;
    if (wide) {
        if (s && d) scatter_64_64_64(a, b, m, next, indices);
        else if (s) scatter_64_32_64(a, b, m, next, indices);
        else if (d) scatter_32_64_64(a, b, m, next, indices);
        else scatter_32_32_64(a, b, m, next, indices);
    } else {
        if (s && d) scatter_64_64_32(a, b, m, next, indices);
        else if (s) scatter_64_32_32(a, b, m, next, indices);
        else if (d) scatter_32_64_32(a, b, m, next, indices);
        else scatter_32_32_32(a, b, m, next, indices);
    }
}

static PyObject *edge_rounds(PyObject *self, PyObject *args) {
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
    if (dst.view.len / dst.view.itemsize != m || state.view.len != n) {
        PyErr_Format(PyExc_ValueError, "src and dst must have the same length and state n = %lld items", n);
        goto done;
    }
    int wide = n > INT32_MAX;
    size_t size = wide ? sizeof(int64_t) : sizeof(int32_t);
    w.indptr = alloc(n + 1, sizeof(int64_t), 1);
    w.indices = alloc(m, size, 0);
    if (!w.indptr || !w.indices || allocate(n, &w) < 0) {
        PyErr_NoMemory();
        goto done;
    }
    int range;
    Py_BEGIN_ALLOW_THREADS
    range = src.view.itemsize == 4 ? out_degree32(n, src.view.buf, m, w.indptr)
                                   : out_degree64(n, src.view.buf, m, w.indptr);
    if (range == 0) {
        range = in_degree(n, &dst.view, w.pending) < 0 ? -2 : 0;
    }
    if (range == 0) {
        for (int64_t a = 0; a < n; a++)
            w.indptr[a + 1] += w.indptr[a];
        memcpy(w.queue, w.indptr, (size_t)n * sizeof(int64_t));  /* the write position of each source */
        scatter(&src.view, &dst.view, m, w.queue, w.indices, wide);
    }
    Py_END_ALLOW_THREADS
    if (range < 0) {
        PyErr_SetString(PyExc_IndexError, range == -1 ? "attacker" : "target");
        goto done;
    }
    out = finish(n, w.indptr, w.indices, wide, state.view.buf, &w);  /* frees w, the CSR included */
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
