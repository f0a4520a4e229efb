/* Text rows and decimal columns of a streamed output, written without a Python object per row
 * (docs/performance.md "Streaming").  Called by symbolic.byte_rows, which builds the tables
 * and checks the columns' lengths; its docstrings give the meaning.
 *
 *   rows(columns, start, stop) -> bytes
 *       columns: a sequence of (data, ends, index) triples: data a bytes-like object holding a table's
 *       pieces end to end, ends a buffer of native int64 offsets (piece k is data[ends[k]:ends[k + 1]]),
 *       index a buffer of integers (signed or unsigned, 1 to 8 bytes, or bool) with at least stop
 *       items, or None for piece 0 in every row.  Returns, for start <= i < stop, the pieces index[i] of every column, column after
 *       column, row after row.  An index outside 0 .. len(ends) - 2 raises IndexError; offsets that
 *       are not inside data or decrease raise ValueError.
 *   decimals(values, start, stop) -> bytes
 *       values[start:stop] (a buffer of integers as for index) as ASCII decimals joined by commas.
 *
 * rows runs in two passes (the exact length, then the bytes), decimals in one into room for the
 * widest values, both with the GIL released; a failed allocation raises MemoryError.
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

/* How an integer item is read: its size in bytes, negative for unsigned (and bool). */
static int integer_kind(const Py_buffer *view) {
    const char *f = view->format ? view->format : "B";
    if (*f == '=' || *f == '@')  /* native order */
        f++;
    if (f[0] == '\0' || f[1] != '\0')
        return 0;
    Py_ssize_t size = view->itemsize;
    if (size != 1 && size != 2 && size != 4 && size != 8)
        return 0;
    if (strchr("bhilqn", f[0]))
        return (int)size;
    if (strchr("BHILQN?", f[0]))
        return -(int)size;
    return 0;
}

/* A C-contiguous buffer; kind (if not NULL) receives the integer kind, a TypeError when it has none. */
static int acquire(PyObject *obj, buffer_t *b, const char *name, int *kind) {
    int flags = PyBUF_C_CONTIGUOUS | (kind ? PyBUF_FORMAT : 0);
    if (PyObject_GetBuffer(obj, &b->view, flags) < 0)
        return -1;
    b->held = 1;
    if (kind && !(*kind = integer_kind(&b->view))) {
        PyErr_Format(PyExc_TypeError, "%s: expected a contiguous buffer of integers, got format '%s' of %zd bytes",
                     name, b->view.format ? b->view.format : "B", b->view.itemsize);
        release(b);
        return -1;
    }
    return 0;
}

static inline int64_t item(const void *buf, int kind, Py_ssize_t i) {
    switch (kind) {
    case 1: return ((const int8_t *)buf)[i];
    case 2: return ((const int16_t *)buf)[i];
    case 4: return ((const int32_t *)buf)[i];
    case 8: return ((const int64_t *)buf)[i];
    case -1: return ((const uint8_t *)buf)[i];
    case -2: return ((const uint16_t *)buf)[i];
    case -4: return ((const uint32_t *)buf)[i];
    default: {
        uint64_t v = ((const uint64_t *)buf)[i];
        return v > (uint64_t)INT64_MAX ? -1 : (int64_t)v;  /* out of any table */
    }
    }
}

/* ---- rows ---- */

typedef struct {
    buffer_t data, ends, index;
    int kind;          /* 0: no index, piece 0 in every row */
    Py_ssize_t count;  /* pieces in the table */
} column_t;

/* Pass 1: each cell's piece start and length (cell i * width + j), and the total length.
 * Returns 0, -1 (an index out of range) or -2 (a bad offset). */
static int measure(const column_t *cols, Py_ssize_t width, Py_ssize_t start, Py_ssize_t n,
                   int64_t *at, int64_t *size, int64_t *total) {
    int64_t sum = 0;
    for (Py_ssize_t j = 0; j < width; j++) {
        const column_t *c = &cols[j];
        const int64_t *ends = c->ends.view.buf;
        int64_t limit = (int64_t)c->data.view.len;
        for (Py_ssize_t i = 0; i < n; i++) {
            int64_t k = c->kind ? item(c->index.view.buf, c->kind, start + i) : 0;
            if (k < 0 || k >= c->count)
                return -1;
            int64_t a = ends[k], b = ends[k + 1];
            if (a < 0 || b < a || b > limit)
                return -2;
            at[i * width + j] = a;
            size[i * width + j] = b - a;
            sum += b - a;
        }
    }
    *total = sum;
    return 0;
}

static void copy_rows(const column_t *cols, Py_ssize_t width, Py_ssize_t n, const int64_t *at,
                      const int64_t *size, char *out) {
    for (Py_ssize_t i = 0; i < n; i++) {
        for (Py_ssize_t j = 0; j < width; j++) {
            int64_t len = size[i * width + j];
            memcpy(out, (const char *)cols[j].data.view.buf + at[i * width + j], (size_t)len);
            out += len;
        }
    }
}

static PyObject *rows(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *o_columns, *seq = NULL, *out = NULL;
    Py_ssize_t start, stop, width = 0;
    column_t *cols = NULL;
    int64_t *at = NULL, *size = NULL;
    if (!PyArg_ParseTuple(args, "Onn:rows", &o_columns, &start, &stop))
        return NULL;
    if (!(seq = PySequence_Fast(o_columns, "columns must be a sequence")))
        return NULL;
    width = PySequence_Fast_GET_SIZE(seq);
    if (start < 0 || stop < start) {
        PyErr_Format(PyExc_ValueError, "rows %zd .. %zd: not a range", start, stop);
        goto done;
    }
    if (!(cols = PyMem_Calloc(width ? width : 1, sizeof(column_t)))) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t j = 0; j < width; j++) {
        PyObject *triple = PySequence_Fast_GET_ITEM(seq, j);
        PyObject *o_data, *o_ends, *o_index;
        column_t *c = &cols[j];
        if (!PyTuple_Check(triple) || !PyArg_ParseTuple(triple, "OOO:column", &o_data, &o_ends, &o_index)) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_TypeError, "a column is a (data, ends, index) tuple");
            goto done;
        }
        int ends_kind;
        if (acquire(o_data, &c->data, "data", NULL) < 0)
            goto done;
        if (acquire(o_ends, &c->ends, "ends", &ends_kind) < 0)
            goto done;
        if (o_index != Py_None && acquire(o_index, &c->index, "index", &c->kind) < 0)
            goto done;
        if (ends_kind != 8) {
            PyErr_SetString(PyExc_TypeError, "ends: expected native int64 offsets");
            goto done;
        }
        c->count = c->ends.view.len / 8 - 1;
        if (c->kind && c->index.view.len / c->index.view.itemsize < stop) {
            PyErr_Format(PyExc_ValueError, "column %zd: %zd indices, rows up to %zd", j,
                         c->index.view.len / c->index.view.itemsize, stop);
            goto done;
        }
    }
    Py_ssize_t n = stop - start, cells = n * width;
    at = PyMem_Malloc((cells ? cells : 1) * sizeof(int64_t));
    size = PyMem_Malloc((cells ? cells : 1) * sizeof(int64_t));
    if (!at || !size) {
        PyErr_NoMemory();
        goto done;
    }
    int64_t total = 0;
    int status;
    Py_BEGIN_ALLOW_THREADS
    status = measure(cols, width, start, n, at, size, &total);
    Py_END_ALLOW_THREADS
    if (status) {
        PyErr_SetString(status == -1 ? PyExc_IndexError : PyExc_ValueError,
                        status == -1 ? "piece index out of range" : "piece offsets outside the data");
        goto done;
    }
    if (!(out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)total)))
        goto done;
    char *dest = PyBytes_AS_STRING(out);
    Py_BEGIN_ALLOW_THREADS
    copy_rows(cols, width, n, at, size, dest);
    Py_END_ALLOW_THREADS
done:
    PyMem_Free(at);
    PyMem_Free(size);
    for (Py_ssize_t j = 0; cols && j < width; j++) {  /* calloc'd: a buffer not acquired is not held */
        release(&cols[j].data); release(&cols[j].ends); release(&cols[j].index);
    }
    PyMem_Free(cols);
    Py_DECREF(seq);
    return out;
}

/* ---- decimals ---- */

static const char pairs[201] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

/* The decimals of every m below 10000, left-aligned in 4 bytes, and their lengths (filled at import). */
static char small[10000][4];
static unsigned char small_len[10000];

static void fill_small(void) {
    for (int m = 0; m < 10000; m++) {
        int len = m >= 1000 ? 4 : m >= 100 ? 3 : m >= 10 ? 2 : 1;
        for (int d = len - 1, r = m; d >= 0; d--, r /= 10)
            small[m][d] = (char)('0' + r % 10);
        small_len[m] = (unsigned char)len;
    }
}

/* The decimals of m, ending just before end; returns where they start. */
static inline char *digits_before(char *end, uint64_t m) {
    while (m >= 100) {
        unsigned r = (unsigned)(m % 100);
        m /= 100;
        end -= 2;
        memcpy(end, pairs + 2 * r, 2);
    }
    if (m >= 10) {
        end -= 2;
        memcpy(end, pairs + 2 * m, 2);
    } else {
        *--end = (char)('0' + m);
    }
    return end;
}

/* values[start:stop] of one kind into out (room for every value at its widest); returns the length. */
#define WRITE_DECIMALS(NAME, TYPE, SIGNED)                                                          \
    static Py_ssize_t NAME(const TYPE *v, Py_ssize_t start, Py_ssize_t stop, char *out) {         \
        char *o = out, digit[24];                                                                   \
        for (Py_ssize_t i = start; i < stop; i++) {                                                \
            if (i > start)                                                                          \
                *o++ = ',';                                                                         \
            TYPE x = v[i];                                                                          \
            uint64_t m = (uint64_t)x;                                                               \
            if (SIGNED && x < 0) {                                                                  \
                *o++ = '-';                                                                         \
                m = (uint64_t)0 - (uint64_t)x;                                                      \
            }                                                                                       \
            if (m < 10000) { /* 4 bytes written, the room of the widest value */                    \
                memcpy(o, small[m], 4);                                                             \
                o += small_len[m];                                                                  \
                continue;                                                                           \
            }                                                                                       \
            char *first = digits_before(digit + sizeof digit, m);                                   \
            size_t len = (size_t)(digit + sizeof digit - first);                                    \
            memcpy(o, first, len);                                                                  \
            o += len;                                                                               \
        }                                                                                           \
        return o - out;                                                                             \
    }

WRITE_DECIMALS(write_i8, int8_t, 1)
WRITE_DECIMALS(write_i16, int16_t, 1)
WRITE_DECIMALS(write_i32, int32_t, 1)
WRITE_DECIMALS(write_i64, int64_t, 1)
WRITE_DECIMALS(write_u8, uint8_t, 0)
WRITE_DECIMALS(write_u16, uint16_t, 0)
WRITE_DECIMALS(write_u32, uint32_t, 0)
WRITE_DECIMALS(write_u64, uint64_t, 0)

static Py_ssize_t write_decimals(const void *buf, int kind, Py_ssize_t start, Py_ssize_t stop, char *out) {
    switch (kind) {
    case 1: return write_i8(buf, start, stop, out);
    case 2: return write_i16(buf, start, stop, out);
    case 4: return write_i32(buf, start, stop, out);
    case 8: return write_i64(buf, start, stop, out);
    case -1: return write_u8(buf, start, stop, out);
    case -2: return write_u16(buf, start, stop, out);
    case -4: return write_u32(buf, start, stop, out);
    default: return write_u64(buf, start, stop, out);
    }
}

static PyObject *decimals(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *o_values, *out = NULL;
    Py_ssize_t start, stop;
    buffer_t values = {0};
    char *text = NULL;
    int kind;
    if (!PyArg_ParseTuple(args, "Onn:decimals", &o_values, &start, &stop))
        return NULL;
    if (acquire(o_values, &values, "values", &kind) < 0)
        return NULL;
    if (start < 0 || stop < start || values.view.len / values.view.itemsize < stop) {
        PyErr_Format(PyExc_ValueError, "values %zd .. %zd: not a range of the %zd values", start, stop,
                     values.view.len / values.view.itemsize);
        goto done;
    }
    /* the widest value of an item size, its sign and its comma: 4, 6, 11 or 20 digits */
    Py_ssize_t itemsize = values.view.itemsize, widest = itemsize == 1 ? 5 : itemsize == 2 ? 7 : itemsize == 4 ? 12 : 22;
    if (stop - start > PY_SSIZE_T_MAX / widest - 1 || !(text = PyMem_Malloc((stop - start) * widest + 1))) {
        PyErr_NoMemory();
        goto done;
    }
    Py_ssize_t length;
    Py_BEGIN_ALLOW_THREADS
    length = write_decimals(values.view.buf, kind, start, stop, text);
    Py_END_ALLOW_THREADS
    out = PyBytes_FromStringAndSize(text, length);
done:
    PyMem_Free(text);
    release(&values);
    return out;
}

static PyMethodDef methods[] = {
    {"rows", rows, METH_VARARGS,
     "rows(columns, start, stop) -> bytes: rows start .. stop - 1 of (data, ends, index) columns."},
    {"decimals", decimals, METH_VARARGS,
     "decimals(values, start, stop) -> bytes: values[start:stop] as decimals joined by commas."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_byterows",
    "Text rows and decimal columns of a streamed output in C (symbolic.byte_rows).", -1, methods,
};

PyMODINIT_FUNC PyInit__byterows(void) {
    fill_small();
    return PyModule_Create(&module);
}
