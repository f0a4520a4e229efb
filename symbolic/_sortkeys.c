/* A stable sort of bounded non-negative integer keys (symbolic.sorted_keys.sort_order).
 *
 * An LSD radix sort: one read of the keys counts every digit, then one stable scatter per digit
 * (least significant first) moves (key, position) pairs between two buffers, the last one into
 * the outputs.  A digit whose value is the same for every key moves nothing and is skipped.
 * Digits are at most 8 bits wide, as few as the span needs (a span of 2^28: four of 7 bits): a
 * scatter then writes to few places at a time, which the cache keeps up with (wider digits,
 * fewer passes, measured slower on the trace's attack keys).  Keys below 2^32 (and fewer than 2^32 of them) move
 * as two uint32 between the passes, half the traffic of (uint64, int64) pairs.  Linear in the keys, no recursion,
 * the GIL released while it runs.  Called by symbolic.sorted_keys (order) and symbolic.trace_attacks (edge_keys),
 * which check the types and keep the numpy fallbacks.
 *
 *   order(key, span, order, ordered) -> int
 *       key: a contiguous buffer of n int32 or int64 values in [0, span); order, ordered:
 *       writable int64 buffers of n items, filled with the positions that sort key (equal keys
 *       in position order) and the sorted keys; ordered may be None (the sorted keys are then
 *       not written).  Returns the number of ties: the i >= 1 whose sorted key equals the one
 *       before.  A key outside [0, span) raises ValueError (the outputs are then unspecified);
 *       span must be at least 1 and below 2^63; a failed allocation raises MemoryError.
 *
 *   edge_keys(attacker, target, kind, arg_node, source_rank, kind_rank, n_nodes, key) -> None
 *       The sort keys of the trace's attack edges (symbolic.trace_attacks.attack_edges), in one
 *       pass: key[i] = (kind_rank[kind[i]] * n_nodes + source_rank[arg_node[attacker[i]]]) * n_nodes
 *       + arg_node[target[i]].  attacker, target: int32 buffers of n items (argument indices);
 *       kind: int8 of n; arg_node: int32 (each argument's node, in [0, n_nodes)); source_rank:
 *       int64 of n_nodes items in [0, n_nodes); kind_rank: int64; key: writable int32 or int64 of n
 *       items.  An index or rank out of range raises ValueError (key is then unspecified).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DIGITS 8
#define MAX_BITS 8

#include "_buffers.h"

/* The digits of keys below span: how many, and their width in bits. */
static void digits_of(uint64_t span, int *count, int *bits) {
    int need = 0;
    for (uint64_t top = span - 1; top; top >>= 1)
        need++;
    *count = (need + MAX_BITS - 1) / MAX_BITS;
    *bits = *count ? (need + *count - 1) / *count : 0;
}

/* Count every digit of every key (counts: digits << bits items, zeroed); -1 for a key outside [0, span). */
#define COUNT_KERNEL(NAME, TYPE)                                                                  \
    static int NAME(const TYPE *key, int64_t n, uint64_t span, int digits, int bits, int64_t *counts) { \
        uint64_t mask = ((uint64_t)1 << bits) - 1;                                              \
        for (int64_t i = 0; i < n; i++) {                                                       \
            if (key[i] < 0 || (uint64_t)key[i] >= span)                                         \
                return -1;                                                                      \
            uint64_t k = (uint64_t)key[i];                                                      \
            for (int d = 0; d < digits; d++)                                                    \
                counts[((int64_t)d << bits) + (int64_t)((k >> (d * bits)) & mask)]++;           \
        }                                                                                       \
        return 0;                                                                               \
    }
COUNT_KERNEL(count_32, int32_t)
COUNT_KERNEL(count_64, int64_t)

/* The first scatter, from the input keys and their positions. */
#define FIRST_KERNEL(NAME, TYPE)                                                                  \
    static void NAME(const TYPE *key, int64_t n, int shift, uint64_t mask, int64_t *start,       \
                     uint64_t *to_key, int64_t *to_pos) {                                        \
        for (int64_t i = 0; i < n; i++) {                                                       \
            uint64_t k = (uint64_t)key[i];                                                      \
            int64_t at = start[(k >> shift) & mask]++;                                          \
            to_key[at] = k;                                                                     \
            to_pos[at] = i;                                                                     \
        }                                                                                       \
    }
FIRST_KERNEL(first_32, int32_t)
FIRST_KERNEL(first_64, int64_t)

static void scatter(const uint64_t *key, const int64_t *pos, int64_t n, int shift, uint64_t mask, int64_t *start,
                    uint64_t *to_key, int64_t *to_pos) {
    for (int64_t i = 0; i < n; i++) {
        uint64_t k = key[i];
        int64_t at = start[(k >> shift) & mask]++;
        to_key[at] = k;
        to_pos[at] = pos[i];
    }
}

/* Narrow passes, for keys below 2^32 and fewer than 2^32 of them: (key, position) pairs move as two
 * uint32, half the memory traffic of the wide passes; the last scatter widens them into the outputs. */
#define FIRST_NARROW_KERNEL(NAME, TYPE)                                                           \
    static void NAME(const TYPE *key, int64_t n, int shift, uint64_t mask, int64_t *start,       \
                     uint32_t *to_key, uint32_t *to_pos) {                                       \
        for (int64_t i = 0; i < n; i++) {                                                       \
            uint32_t k = (uint32_t)key[i];                                                      \
            int64_t at = start[(k >> shift) & mask]++;                                          \
            to_key[at] = k;                                                                     \
            to_pos[at] = (uint32_t)i;                                                           \
        }                                                                                       \
    }
FIRST_NARROW_KERNEL(first_narrow_32, int32_t)
FIRST_NARROW_KERNEL(first_narrow_64, int64_t)

/* One scatter of narrow (key, position) pairs into outputs of the given types: narrow between
 * passes (scatter_narrow), widened in the last (scatter_widen), or positions widened and keys kept
 * narrow when the sorted keys are not wanted, to count the ties (scatter_positions). */
#define SCATTER_NARROW_KERNEL(NAME, KEY_T, POS_T)                                                 \
    static void NAME(const uint32_t *key, const uint32_t *pos, int64_t n, int shift, uint64_t mask, \
                     int64_t *start, KEY_T *to_key, POS_T *to_pos) {                             \
        for (int64_t i = 0; i < n; i++) {                                                       \
            uint32_t k = key[i];                                                                \
            int64_t at = start[(k >> shift) & mask]++;                                          \
            to_key[at] = (KEY_T)k;                                                              \
            to_pos[at] = (POS_T)pos[i];                                                         \
        }                                                                                       \
    }
SCATTER_NARROW_KERNEL(scatter_narrow, uint32_t, uint32_t)
SCATTER_NARROW_KERNEL(scatter_widen, int64_t, int64_t)
SCATTER_NARROW_KERNEL(scatter_positions, uint32_t, int64_t)

/* How many sorted keys equal the one before. */
#define TIES_KERNEL(NAME, TYPE)                                                                   \
    static int64_t NAME(const TYPE *sorted, int64_t n) {                                         \
        int64_t ties = 0;                                                                       \
        for (int64_t i = 1; i < n; i++)                                                         \
            ties += sorted[i] == sorted[i - 1];                                                 \
        return ties;                                                                            \
    }
TIES_KERNEL(ties_32, uint32_t)
TIES_KERNEL(ties_64, uint64_t)

/* The moving digits (m of them, at least 2) in narrow passes: input -> a -> b -> ... -> outputs. */
static int sort_narrow(const void *key, int wide, int64_t n, int bits, const int *moving, int m, int64_t *counts,
                       int64_t *order, int64_t *ordered, int64_t *ties) {
    uint32_t *buf = malloc((size_t)(n ? n : 1) * 4 * sizeof(uint32_t));
    if (!buf)
        return -2;
    uint32_t *key_a = buf, *pos_a = buf + n, *key_b = buf + 2 * n, *pos_b = buf + 3 * n;
    uint64_t mask = ((uint64_t)1 << bits) - 1;
    int64_t *start = counts + ((int64_t)moving[0] << bits);
    if (wide)
        first_narrow_64(key, n, moving[0] * bits, mask, start, key_a, pos_a);
    else
        first_narrow_32(key, n, moving[0] * bits, mask, start, key_a, pos_a);
    for (int j = 1; j < m; j++) {
        start = counts + ((int64_t)moving[j] << bits);
        if (j == m - 1 && ordered) {
            scatter_widen(key_a, pos_a, n, moving[j] * bits, mask, start, ordered, order);
            *ties = ties_64((const uint64_t *)ordered, n);
        } else if (j == m - 1) {
            scatter_positions(key_a, pos_a, n, moving[j] * bits, mask, start, key_b, order);
            *ties = ties_32(key_b, n);
        } else {
            scatter_narrow(key_a, pos_a, n, moving[j] * bits, mask, start, key_b, pos_b);
            uint32_t *t = key_a; key_a = key_b; key_b = t;
            t = pos_a; pos_a = pos_b; pos_b = t;
        }
    }
    free(buf);
    return 0;
}

/* The sort; -1 for a key out of range, -2 for a failed allocation. */
static int sort_kernel(const void *key, int wide, int64_t n, uint64_t span, int64_t *order, int64_t *ordered,
                       int64_t *ties) {
    int digits, bits;
    digits_of(span, &digits, &bits);
    int64_t size = (int64_t)1 << bits;
    int64_t *counts = calloc((size_t)(digits ? digits : 1) << bits, sizeof(int64_t));
    if (!counts)
        return -2;
    int failed = wide ? count_64(key, n, span, digits, bits, counts) : count_32(key, n, span, digits, bits, counts);
    if (failed) {
        free(counts);
        return -1;
    }
    int moving[MAX_DIGITS], m = 0;
    for (int d = 0; d < digits; d++) {
        int64_t *c = counts + ((int64_t)d << bits), total = 0;
        int constant = 0;
        for (int64_t v = 0; v < size; v++) {
            constant |= c[v] == n;
            int64_t here = c[v];
            c[v] = total;  /* the start of each digit value's run */
            total += here;
        }
        if (!constant)
            moving[m++] = d;
    }
    if (m > 1 && span <= ((uint64_t)1 << 32) && (uint64_t)n < ((uint64_t)1 << 32)) {
        int failed_narrow = sort_narrow(key, wide, n, bits, moving, m, counts, order, ordered, ties);
        free(counts);
        return failed_narrow;
    }
    uint64_t *out_key = (uint64_t *)ordered, *tmp_key = NULL, *own_key = NULL;
    int64_t *tmp_pos = NULL;
    if (!out_key) {  /* the sorted keys are not wanted: they go to a buffer of our own, to count ties */
        out_key = own_key = malloc((size_t)(n ? n : 1) * sizeof(uint64_t));
        if (!own_key) {
            free(counts);
            return -2;
        }
    }
    if (m > 1) {
        tmp_key = malloc((size_t)(n ? n : 1) * sizeof(uint64_t));
        tmp_pos = malloc((size_t)(n ? n : 1) * sizeof(int64_t));
        if (!tmp_key || !tmp_pos) {
            free(counts); free(tmp_key); free(tmp_pos); free(own_key);
            return -2;
        }
    }
    uint64_t mask = (uint64_t)size - 1;
    if (!m) {  /* already sorted: every key is equal */
        for (int64_t i = 0; i < n; i++) {
            out_key[i] = (uint64_t)(wide ? ((const int64_t *)key)[i] : ((const int32_t *)key)[i]);
            order[i] = i;
        }
    }
    for (int j = 0; j < m; j++) {  /* the last scatter writes the outputs */
        int into_out = (m - 1 - j) % 2 == 0;
        uint64_t *to_key = into_out ? out_key : tmp_key;
        int64_t *to_pos = into_out ? order : tmp_pos;
        int shift = moving[j] * bits;
        int64_t *start = counts + ((int64_t)moving[j] << bits);
        if (j == 0) {
            if (wide)
                first_64(key, n, shift, mask, start, to_key, to_pos);
            else
                first_32(key, n, shift, mask, start, to_key, to_pos);
        } else {
            scatter(into_out ? tmp_key : out_key, into_out ? tmp_pos : order, n, shift, mask, start, to_key, to_pos);
        }
    }
    *ties = ties_64(out_key, n);
    free(counts); free(tmp_key); free(tmp_pos); free(own_key);
    return 0;
}

static PyObject *order(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *o_key, *o_order, *o_ordered;
    long long span;
    buffer_t key = {0}, out_order = {0}, out_ordered = {0};
    PyObject *out = NULL;
    if (!PyArg_ParseTuple(args, "OLOO:order", &o_key, &span, &o_order, &o_ordered))
        return NULL;
    if (span < 1) {
        PyErr_Format(PyExc_ValueError, "span must be at least 1, got %lld", span);
        return NULL;
    }
    int keys_wanted = o_ordered != Py_None;
    if (acquire(o_key, &key, "key", 0, 0) < 0 || acquire(o_order, &out_order, "order", 8, 1) < 0
        || (keys_wanted && acquire(o_ordered, &out_ordered, "ordered", 8, 1) < 0))
        goto done;
    int64_t n = key.view.len / key.view.itemsize;
    if (out_order.view.len / 8 != n || (keys_wanted && out_ordered.view.len / 8 != n)) {
        PyErr_Format(PyExc_ValueError, "order and ordered must have len(key) = %lld items", (long long)n);
        goto done;
    }
    int failed;
    int64_t ties = 0;
    Py_BEGIN_ALLOW_THREADS
    failed = sort_kernel(key.view.buf, key.view.itemsize == 8, n, (uint64_t)span, out_order.view.buf,
                         keys_wanted ? out_ordered.view.buf : NULL, &ties);
    Py_END_ALLOW_THREADS
    if (failed == -1)
        PyErr_Format(PyExc_ValueError, "a key is outside [0, %lld)", span);
    else if (failed)
        PyErr_NoMemory();
    else
        out = PyLong_FromLongLong((long long)ties);
done:
    release(&key); release(&out_order); release(&out_ordered);
    return out;
}

/* The attack edge keys; -1 for an index or rank out of range. */
#define EDGE_KEYS_KERNEL(NAME, TYPE)                                                              \
    static int NAME(const int32_t *attacker, const int32_t *target, const int8_t *kind, int64_t n,   \
                    const int32_t *arg_node, int64_t n_args, const int64_t *source_rank,            \
                    const int64_t *kind_rank, int64_t n_kinds, int64_t n_nodes, TYPE *key) {        \
        for (int64_t i = 0; i < n; i++) {                                                       \
            int64_t a = attacker[i], t = target[i], k = kind[i];                                \
            if (a < 0 || a >= n_args || t < 0 || t >= n_args || k < 0 || k >= n_kinds)          \
                return -1;                                                                      \
            int64_t s = arg_node[a], d = arg_node[t];                                           \
            if (s < 0 || s >= n_nodes || d < 0 || d >= n_nodes)                                 \
                return -1;                                                                      \
            int64_t r = source_rank[s], kr = kind_rank[k];                                      \
            if (r < 0 || r >= n_nodes || kr < 0 || kr >= n_kinds)                               \
                return -1;                                                                      \
            key[i] = (TYPE)((kr * n_nodes + r) * n_nodes + d);                                  \
        }                                                                                       \
        return 0;                                                                               \
    }
EDGE_KEYS_KERNEL(edge_keys_32, int32_t)
EDGE_KEYS_KERNEL(edge_keys_64, int64_t)

static PyObject *edge_keys(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *o_att, *o_tgt, *o_kind, *o_node, *o_rank, *o_kinds, *o_key;
    long long n_nodes;
    buffer_t att = {0}, tgt = {0}, kind = {0}, node = {0}, rank = {0}, kinds = {0}, key = {0};
    PyObject *out = NULL;
    if (!PyArg_ParseTuple(args, "OOOOOOLO:edge_keys", &o_att, &o_tgt, &o_kind, &o_node, &o_rank, &o_kinds,
                          &n_nodes, &o_key))
        return NULL;
    if (acquire(o_att, &att, "attacker", 4, 0) < 0 || acquire(o_tgt, &tgt, "target", 4, 0) < 0
        || acquire(o_kind, &kind, "kind", 1, 0) < 0 || acquire(o_node, &node, "arg_node", 4, 0) < 0
        || acquire(o_rank, &rank, "source_rank", 8, 0) < 0 || acquire(o_kinds, &kinds, "kind_rank", 8, 0) < 0
        || acquire(o_key, &key, "key", 0, 1) < 0)
        goto done;
    int64_t n = att.view.len / 4, n_kinds = kinds.view.len / 8;
    if (tgt.view.len / 4 != n || kind.view.len != n || key.view.len / key.view.itemsize != n
        || rank.view.len / 8 != n_nodes) {
        PyErr_Format(PyExc_ValueError, "target, kind and key must have len(attacker) = %lld items, "
                     "source_rank n_nodes = %lld", (long long)n, n_nodes);
        goto done;
    }
    int failed;
    Py_BEGIN_ALLOW_THREADS
    if (key.view.itemsize == 8)
        failed = edge_keys_64(att.view.buf, tgt.view.buf, kind.view.buf, n, node.view.buf, node.view.len / 4,
                              rank.view.buf, kinds.view.buf, n_kinds, n_nodes, key.view.buf);
    else
        failed = edge_keys_32(att.view.buf, tgt.view.buf, kind.view.buf, n, node.view.buf, node.view.len / 4,
                              rank.view.buf, kinds.view.buf, n_kinds, n_nodes, key.view.buf);
    Py_END_ALLOW_THREADS
    if (failed)
        PyErr_SetString(PyExc_ValueError, "an argument index, node or rank is out of range");
    else
        out = Py_NewRef(Py_None);
done:
    release(&att); release(&tgt); release(&kind); release(&node); release(&rank); release(&kinds); release(&key);
    return out;
}

static PyMethodDef methods[] = {
    {"order", order, METH_VARARGS,
     "order(key, span, order, ordered) -> int: a stable radix sort of keys in [0, span); returns the ties."},
    {"edge_keys", edge_keys, METH_VARARGS,
     "edge_keys(attacker, target, kind, arg_node, source_rank, kind_rank, n_nodes, key) -> None: "
     "the trace's attack edge sort keys."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_sortkeys",
    "A stable radix sort of bounded non-negative integer keys in C (symbolic.sorted_keys).", -1, methods,
};

PyMODINIT_FUNC PyInit__sortkeys(void) {
    return PyModule_Create(&module);
}
