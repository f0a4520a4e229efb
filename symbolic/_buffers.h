/* Integer buffers taken from Python objects through the buffer protocol, shared by the C kernels
 * (symbolic/_grounded.c, symbolic/_sortkeys.c).  Include after Python.h. */
#ifndef PARATRACE_BUFFERS_H
#define PARATRACE_BUFFERS_H

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
    if (*f == '=' || *f == '@')  /* native order ('<' or '>' would not be known to be) */
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

#endif
