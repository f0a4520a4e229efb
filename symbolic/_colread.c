/* Columns of explicit attacks read and coded without a Python object per row
 * (docs/performance.md "Explicit attacks").  Called by symbolic._jsonrows and symbolic.explicit,
 * which check the arguments' meaning and fall back to the exact parser whenever these decline.
 *
 *   scan_rows(data, pos, pieces, sep) -> None | (end, n, [(codes, distinct), ...])
 *       Reads a JSON array of flat objects whose first row starts at data[pos] (its "{").  The row
 *       is pieces[0] value pieces[1] value ... pieces[k]: every row must repeat those bytes exactly,
 *       rows are separated by exactly sep, and after the last row come JSON whitespace and "]".
 *       A value is the contents of a string: any bytes but a quote, a backslash and a control
 *       character (below 0x20), valid UTF-8.  end is the position after the "]".  For each of the k
 *       values: codes (bytes, n native int32, the first-seen number of each row's string) and the
 *       distinct strings (str) in first-seen order.  None (decline) on anything else.
 *   scan_strings(data, pos) -> None | (end, values, codes, distinct)
 *       Reads a JSON array of such strings (JSON whitespace anywhere between tokens) whose "[" is
 *       at data[pos]; values is the tuple of the row strings (shared objects of distinct).
 *   take(values, codes) -> tuple
 *       (values[c] for c in codes), values a list, codes a buffer of native int32; IndexError
 *       for a code outside the list.
 *   codes(columns, known) -> (codes, distinct)
 *       The code of each value of the sequences in columns laid end to end, as
 *       symbolic.explicit._codes defines it: with known (a non-empty dict value -> int) every
 *       value's known[value] (distinct: None), or if a value is missing, or known is None or empty,
 *       the position of the value among the distinct values in first-seen order (distinct: their
 *       list).  Each object is looked up once (a table keyed by its address), so a column that
 *       repeats a few string objects costs a pointer hash per row.  A column that is not a tuple
 *       is copied into one first.
 *
 * Byte scanning runs with the GIL released (on the immutable bytes' buffer only); allocation
 * failures raise MemoryError.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "_colread_tables.h"

/* (codes bytes, distinct list) of a column; NULL with an exception set, or NULL with none set
 * when a distinct string is not valid UTF-8 (decline). */
static PyObject *column_result(intern_t *t) {
    PyObject *codes = PyBytes_FromStringAndSize((const char *)t->codes, t->rows * (Py_ssize_t)sizeof(int32_t));
    PyObject *distinct = PyList_New(t->count);
    if (!codes || !distinct) goto fail;
    for (Py_ssize_t d = 0; d < t->count; d++) {
        PyObject *s = PyUnicode_DecodeUTF8((const char *)t->arena + t->start[d], t->size[d], "strict");
        if (!s) {
            if (PyErr_ExceptionMatches(PyExc_UnicodeDecodeError)) PyErr_Clear();
            goto fail;
        }
        PyList_SET_ITEM(distinct, d, s);
    }
    PyObject *out = PyTuple_Pack(2, codes, distinct);
    Py_DECREF(codes); Py_DECREF(distinct);
    return out;
fail:
    Py_XDECREF(codes); Py_XDECREF(distinct);
    return NULL;
}

/* ---- scan_rows ---- */

static Py_ssize_t rows_kernel(const unsigned char *data, Py_ssize_t len, Py_ssize_t pos,
                              const unsigned char **piece, const Py_ssize_t *piece_len, Py_ssize_t k,
                              const unsigned char *sep, Py_ssize_t sep_len, intern_t *cols,
                              Py_ssize_t *rows) {
    Py_ssize_t i = pos, n = 0;
    for (;;) {
        for (Py_ssize_t j = 0; j <= k; j++) {
            if (len - i < piece_len[j] || !same_bytes(data + i, piece[j], piece_len[j])) return DECLINE;
            i += piece_len[j];
            if (j == k) break;
            int status = intern_value(&cols[j], data, len, &i);
            if (status) return status;
        }
        n++;
        if (len - i >= sep_len && same_bytes(data + i, sep, sep_len)) {
            i += sep_len;
            continue;
        }
        i = skip_ws(data, i, len);
        if (i >= len || data[i] != ']') return DECLINE;
        *rows = n;
        return i + 1;
    }
}

static PyObject *scan_rows(PyObject *self, PyObject *args) {
    Py_buffer view;
    Py_ssize_t pos;
    PyObject *pieces;
    const char *sep;
    Py_ssize_t sep_len;
    if (!PyArg_ParseTuple(args, "y*nO!y#", &view, &pos, &PyTuple_Type, &pieces, &sep, &sep_len))
        return NULL;
    PyObject *out = NULL, *list = NULL;
    Py_ssize_t k = PyTuple_GET_SIZE(pieces) - 1, rows = 0, end = DECLINE;
    const unsigned char **piece = NULL;
    Py_ssize_t *piece_len = NULL;
    intern_t *cols = NULL;
    if (k < 1 || pos < 0 || pos > view.len || sep_len < 1) {
        PyErr_SetString(PyExc_ValueError, "scan_rows: pos out of range, fewer than 2 pieces or empty sep");
        goto done;
    }
    piece = calloc(k + 1, sizeof(*piece));
    piece_len = calloc(k + 1, sizeof(*piece_len));
    cols = calloc(k, sizeof(*cols));
    if (!piece || !piece_len || !cols) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t j = 0; j <= k; j++) {
        PyObject *p = PyTuple_GET_ITEM(pieces, j);
        if (!PyBytes_Check(p)) {
            PyErr_SetString(PyExc_TypeError, "scan_rows: pieces must be bytes");
            goto done;
        }
        piece[j] = (const unsigned char *)PyBytes_AS_STRING(p);
        piece_len[j] = PyBytes_GET_SIZE(p);
    }
    Py_ssize_t row_bytes = sep_len; /* the fewest bytes a row takes: the rows there can be */
    for (Py_ssize_t j = 0; j <= k; j++) row_bytes += piece_len[j];
    for (Py_ssize_t j = 0; j < k; j++)
        if (intern_init(&cols[j], (view.len - pos) / row_bytes + 1) < 0) {
            PyErr_NoMemory();
            goto done;
        }
    Py_BEGIN_ALLOW_THREADS
    end = rows_kernel(view.buf, view.len, pos, piece, piece_len, k, (const unsigned char *)sep, sep_len, cols,
                      &rows);
    Py_END_ALLOW_THREADS
    if (end == NOMEM) {
        PyErr_NoMemory();
        goto done;
    }
    if (end == DECLINE) {
        out = Py_NewRef(Py_None);
        goto done;
    }
    if (!(list = PyList_New(k))) goto done;
    for (Py_ssize_t j = 0; j < k; j++) {
        PyObject *column = column_result(&cols[j]);
        if (!column) {
            if (!PyErr_Occurred()) out = Py_NewRef(Py_None);
            goto done;
        }
        PyList_SET_ITEM(list, j, column);
    }
    out = Py_BuildValue("nnO", end, rows, list);
done:
    Py_XDECREF(list);
    if (cols)
        for (Py_ssize_t j = 0; j < k; j++) intern_free(&cols[j]);
    free(cols); free(piece); free(piece_len);
    PyBuffer_Release(&view);
    return out;
}

/* ---- scan_strings ---- */

static Py_ssize_t strings_kernel(const unsigned char *data, Py_ssize_t len, Py_ssize_t i, intern_t *t) {
    if (i >= len || data[i] != '[') return DECLINE;
    i = skip_ws(data, i + 1, len);
    if (i < len && data[i] == ']') return i + 1;
    for (;;) {
        if (i >= len || data[i] != '"') return DECLINE;
        i++;
        int status = intern_value(t, data, len, &i);
        if (status) return status;
        i = skip_ws(data, i + 1, len);
        if (i >= len) return DECLINE;
        if (data[i] == ']') return i + 1;
        if (data[i] != ',') return DECLINE;
        i = skip_ws(data, i + 1, len);
    }
}

/* The tuple of values[codes[i]].  A tuple of str holds no reference cycle: it is untracked by the
 * cyclic collector at once (CPython untracks such a tuple at its first collection, after traversing it;
 * for a million rows that traversal is the cost of a collection). */
static PyObject *take_codes(PyObject *values, const int32_t *codes, Py_ssize_t n) {
    Py_ssize_t size = PyList_GET_SIZE(values);
    int atomic = 1;
    for (Py_ssize_t d = 0; d < size && atomic; d++)
        atomic = PyUnicode_CheckExact(PyList_GET_ITEM(values, d));
    PyObject *out = PyTuple_New(n);
    if (!out) return NULL;
    if (atomic && n && PyObject_GC_IsTracked(out))
        PyObject_GC_UnTrack(out);
    for (Py_ssize_t i = 0; i < n; i++) {
        int32_t c = codes[i];
        if (c < 0 || c >= size) {
            Py_DECREF(out);
            PyErr_SetString(PyExc_IndexError, "take: a code is outside the values");
            return NULL;
        }
        PyObject *v = PyList_GET_ITEM(values, c);
        PyTuple_SET_ITEM(out, i, Py_NewRef(v));
    }
    return out;
}

static PyObject *scan_strings(PyObject *self, PyObject *args) {
    Py_buffer view;
    Py_ssize_t pos, end;
    if (!PyArg_ParseTuple(args, "y*n", &view, &pos))
        return NULL;
    PyObject *out = NULL, *column = NULL, *values = NULL;
    intern_t t;
    if (intern_init(&t, (view.len - (pos < view.len ? pos : view.len)) / 4 + 1) < 0) {
        PyErr_NoMemory();
        goto done;
    }
    if (pos < 0 || pos > view.len) {
        PyErr_SetString(PyExc_ValueError, "scan_strings: pos out of range");
        goto done;
    }
    Py_BEGIN_ALLOW_THREADS
    end = strings_kernel(view.buf, view.len, pos, &t);
    Py_END_ALLOW_THREADS
    if (end == NOMEM) {
        PyErr_NoMemory();
        goto done;
    }
    if (end == DECLINE) {
        out = Py_NewRef(Py_None);
        goto done;
    }
    if (!(column = column_result(&t))) {
        if (!PyErr_Occurred()) out = Py_NewRef(Py_None);
        goto done;
    }
    if (!(values = take_codes(PyTuple_GET_ITEM(column, 1), t.codes, t.rows))) goto done;
    out = Py_BuildValue("nOOO", end, values, PyTuple_GET_ITEM(column, 0), PyTuple_GET_ITEM(column, 1));
done:
    Py_XDECREF(column); Py_XDECREF(values);
    intern_free(&t);
    PyBuffer_Release(&view);
    return out;
}

static PyObject *take(PyObject *self, PyObject *args) {
    PyObject *values;
    Py_buffer codes;
    if (!PyArg_ParseTuple(args, "O!y*", &PyList_Type, &values, &codes))
        return NULL;
    PyObject *out = NULL;
    if (codes.len % (Py_ssize_t)sizeof(int32_t))
        PyErr_SetString(PyExc_ValueError, "take: codes must be int32");
    else
        out = take_codes(values, codes.buf, codes.len / (Py_ssize_t)sizeof(int32_t));
    PyBuffer_Release(&codes);
    return out;
}

/* ---- codes ---- */

/* Codes every value of the fast sequences in seqs into out: 0 done, 1 a value is not in known
 * (only with known), -1 an error (set). */
static int code_values(PyObject **seqs, Py_ssize_t count, PyObject *known, PyObject *position,
                       int32_t *out) {
    ptrmap_t m;
    Py_ssize_t at = 0;
    int status = -1;
    if (ptrmap_init(&m, 1024) < 0) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t c = 0; c < count; c++) {
        Py_ssize_t n = PySequence_Fast_GET_SIZE(seqs[c]);
        PyObject **items = PySequence_Fast_ITEMS(seqs[c]);
        for (Py_ssize_t i = 0; i < n; i++) {
            PyObject *v = items[i];
            Py_ssize_t s = ptr_slot(&m, v);
            if (m.key[s]) {
                out[at++] = m.code[s];
                continue;
            }
            long code;
            if (known) {
                PyObject *found = PyDict_GetItemWithError(known, v);
                if (!found) {
                    status = PyErr_Occurred() ? -1 : 1;
                    goto done;
                }
                code = PyLong_AsLong(found);
                if (code == -1 && PyErr_Occurred()) goto done;
                if (code < INT32_MIN || code > INT32_MAX) {
                    PyErr_SetString(PyExc_OverflowError, "codes: a known code does not fit in int32");
                    goto done;
                }
            } else {
                PyObject *next = PyLong_FromSsize_t(PyDict_GET_SIZE(position));
                if (!next) goto done;
                PyObject *found = PyDict_SetDefault(position, v, next);
                Py_DECREF(next);
                if (!found) goto done;
                code = PyLong_AsLong(found);
                if (code > INT32_MAX) {
                    PyErr_SetString(PyExc_OverflowError, "codes: more than 2**31 distinct values");
                    goto done;
                }
            }
            if (ptrmap_put(&m, v, (int32_t)code) < 0) {
                PyErr_NoMemory();
                goto done;
            }
            out[at++] = (int32_t)code;
        }
    }
    status = 0;
done:
    ptrmap_free(&m);
    return status;
}

static PyObject *codes(PyObject *self, PyObject *args) {
    PyObject *columns, *known;
    if (!PyArg_ParseTuple(args, "OO", &columns, &known))
        return NULL;
    if (known != Py_None && !PyDict_CheckExact(known)) {
        PyErr_SetString(PyExc_TypeError, "codes: known must be a dict or None");
        return NULL;
    }
    PyObject *outer = PySequence_Fast(columns, "codes: columns must be a sequence");
    if (!outer) return NULL;
    Py_ssize_t count = PySequence_Fast_GET_SIZE(outer), total = 0, done_seqs = 0;
    PyObject **seqs = calloc(count ? count : 1, sizeof(PyObject *));
    PyObject *out = NULL, *position = NULL, *buffer = NULL;
    if (!seqs) {
        PyErr_NoMemory();
        goto done;
    }
    for (; done_seqs < count; done_seqs++) {
        /* tuples: a value's __eq__ run by a look-up cannot resize them under the loop */
        seqs[done_seqs] = PySequence_Tuple(PySequence_Fast_GET_ITEM(outer, done_seqs));
        if (!seqs[done_seqs]) goto done;
        total += PySequence_Fast_GET_SIZE(seqs[done_seqs]);
    }
    if (total > PY_SSIZE_T_MAX / (Py_ssize_t)sizeof(int32_t)) {
        PyErr_NoMemory();
        goto done;
    }
    if (!(buffer = PyBytes_FromStringAndSize(NULL, total * (Py_ssize_t)sizeof(int32_t)))) goto done;
    int32_t *into = (int32_t *)PyBytes_AS_STRING(buffer);
    int status = 1;
    if (known != Py_None && PyDict_GET_SIZE(known))
        status = code_values(seqs, count, known, NULL, into);
    if (status < 0) goto done;
    if (status == 0) {
        out = PyTuple_Pack(2, buffer, Py_None);
        goto done;
    }
    if (!(position = PyDict_New())) goto done;
    if (code_values(seqs, count, NULL, position, into) < 0) goto done;
    PyObject *distinct = PyDict_Keys(position);
    if (!distinct) goto done;
    out = PyTuple_Pack(2, buffer, distinct);
    Py_DECREF(distinct);
done:
    if (seqs)
        for (Py_ssize_t c = 0; c < done_seqs; c++) Py_XDECREF(seqs[c]);
    free(seqs);
    Py_XDECREF(buffer); Py_XDECREF(position);
    Py_DECREF(outer);
    return out;
}

static PyMethodDef methods[] = {
    {"scan_rows", scan_rows, METH_VARARGS,
     "scan_rows(data, pos, pieces, sep) -> None | (end, n, [(codes, distinct), ...]): an array of flat rows."},
    {"scan_strings", scan_strings, METH_VARARGS,
     "scan_strings(data, pos) -> None | (end, values, codes, distinct): an array of plain strings."},
    {"take", take, METH_VARARGS, "take(values, codes) -> tuple: values[c] for each int32 code c."},
    {"codes", codes, METH_VARARGS,
     "codes(columns, known) -> (codes, distinct): int32 codes of the values of columns laid end to end."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_colread",
    "Columns of explicit attacks read from JSON bytes and coded in C (docs/performance.md).", -1, methods,
};

PyMODINIT_FUNC PyInit__colread(void) {
    for (int c = 0; c < 0x20; c++) stops[c] = 2;
    stops['\\'] = 2;
    stops['"'] = 1;
    return PyModule_Create(&module);
}
