/* The class key of each defeated attack, read per engine pair in one pass over the attack table
 * (docs/performance.md "Defeat sets: the summarized TNF").  Called by
 * symbolic.attack_classes.by_engine_pair, which builds the arrays and reads the result.
 *
 *   pair_keys(defeat, shape, on, lic, target, on_class, offset, lic_span, attacked_span, fact_shape,
 *             key_of, row_of) -> bool
 *       defeat, on, lic, target: int32 columns of n attacks; shape: int8; on_class: int64; offset:
 *       3 int64 (per shape, where its "on" codes start in on_class); key_of, row_of: writable
 *       int64 of one item per engine pair, key_of filled with -1.  For every attack i with
 *       defeat[i] = p >= 0 its key is
 *           (on_class[offset[shape[i]] + on[i]] * lic_span + lic[i] + 1) * attacked_span
 *             + (shape[i] == fact_shape ? target[i] + 1 : 0)      (attacked_span > 1)
 *       or the same without the last factor and term (attacked_span == 1).  The first attack of p
 *       sets key_of[p] and row_of[p]; True when every later attack of p has the same key, False
 *       as soon as one differs (key_of and row_of are then partly filled).  An index out of range
 *       raises IndexError; the loop runs with the GIL released.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

#include "_buffers.h"

/* 0: done, every pair one key; 1: two keys for one pair; -1: an index out of range. */
static int kernel(int64_t n, const int32_t *defeat, const int8_t *shape, const int32_t *on, const int32_t *lic,
                  const int32_t *target, const int64_t *on_class, int64_t n_class, const int64_t *offset,
                  int64_t lic_span, int64_t attacked_span, int fact_shape, int64_t *key_of, int64_t *row_of,
                  int64_t n_pairs) {
    for (int64_t i = 0; i < n; i++) {
        int64_t p = defeat[i];
        if (p < 0)
            continue;
        int s = shape[i];
        if (p >= n_pairs || s < 0 || s > 2)
            return -1;
        int64_t at = offset[s] + on[i];
        if (at < 0 || at >= n_class)
            return -1;
        int64_t key = on_class[at] * lic_span + lic[i] + 1;
        if (attacked_span > 1)
            key = key * attacked_span + (s == fact_shape ? (int64_t)target[i] + 1 : 0);
        if (key_of[p] < 0) {
            key_of[p] = key;
            row_of[p] = i;
        } else if (key_of[p] != key) {
            return 1;
        }
    }
    return 0;
}

static PyObject *pair_keys(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *o_defeat, *o_shape, *o_on, *o_lic, *o_target, *o_class, *o_offset, *o_key, *o_row;
    long long lic_span, attacked_span;
    int fact_shape;
    buffer_t defeat = {0}, shape = {0}, on = {0}, lic = {0}, target = {0}, on_class = {0}, offset = {0},
             key_of = {0}, row_of = {0};
    PyObject *out = NULL;
    if (!PyArg_ParseTuple(args, "OOOOOOOLLiOO:pair_keys", &o_defeat, &o_shape, &o_on, &o_lic, &o_target,
                          &o_class, &o_offset, &lic_span, &attacked_span, &fact_shape, &o_key, &o_row))
        return NULL;
    if (acquire(o_defeat, &defeat, "defeat", 4, 0) < 0 || acquire(o_shape, &shape, "shape", 1, 0) < 0
        || acquire(o_on, &on, "on", 4, 0) < 0 || acquire(o_lic, &lic, "lic", 4, 0) < 0
        || acquire(o_target, &target, "target", 4, 0) < 0 || acquire(o_class, &on_class, "on_class", 8, 0) < 0
        || acquire(o_offset, &offset, "offset", 8, 0) < 0 || acquire(o_key, &key_of, "key_of", 8, 1) < 0
        || acquire(o_row, &row_of, "row_of", 8, 1) < 0)
        goto done;
    int64_t n = defeat.view.len / 4, n_pairs = key_of.view.len / 8;
    if (shape.view.len != n || on.view.len / 4 != n || lic.view.len / 4 != n || target.view.len / 4 != n
        || offset.view.len / 8 != 3 || row_of.view.len / 8 != n_pairs || lic_span < 1 || attacked_span < 1) {
        PyErr_SetString(PyExc_ValueError, "pair_keys: columns of unequal lengths, or a span below 1");
        goto done;
    }
    int status;
    Py_BEGIN_ALLOW_THREADS
    status = kernel(n, defeat.view.buf, shape.view.buf, on.view.buf, lic.view.buf, target.view.buf,
                    on_class.view.buf, on_class.view.len / 8, offset.view.buf, lic_span, attacked_span, fact_shape,
                    key_of.view.buf, row_of.view.buf, n_pairs);
    Py_END_ALLOW_THREADS
    if (status < 0)
        PyErr_SetString(PyExc_IndexError, "pair_keys: an engine pair, shape or class index out of range");
    else
        out = PyBool_FromLong(status == 0);
done:
    release(&defeat); release(&shape); release(&on); release(&lic); release(&target); release(&on_class);
    release(&offset); release(&key_of); release(&row_of);
    return out;
}

static PyMethodDef methods[] = {
    {"pair_keys", pair_keys, METH_VARARGS,
     "pair_keys(defeat, shape, on, lic, target, on_class, offset, lic_span, attacked_span, fact_shape, key_of, "
     "row_of) -> bool: each engine pair's class key, True when each pair has one."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_classkeys",
    "The class key of each engine pair's attacks in one pass in C (symbolic.attack_classes).", -1, methods,
};

PyMODINIT_FUNC PyInit__classkeys(void) {
    return PyModule_Create(&module);
}
