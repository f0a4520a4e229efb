/* The hash tables of symbolic/_colread.c (included there once, after Python.h).
 *
 * intern_t: the distinct byte strings of one column, numbered in first-seen order, with the code of
 * each row; the strings are copied into a compact arena, and a table entry carries the high half of
 * its hash, so a look-up stays in cache.  intern_value reads the contents of a JSON string (no
 * backslash, no control character) into it, trying the previous row's value first.
 * ptrmap_t: object address -> int32 code (keys borrowed: the caller keeps the objects alive).
 * Functions returning int give 0, or -1 (NOMEM) on a failed allocation, or DECLINE.
 */
#ifndef PARATRACE_COLREAD_TABLES_H
#define PARATRACE_COLREAD_TABLES_H

/* ---- distinct byte strings of one column, numbered in first-seen order ---- */

typedef struct {
    unsigned char *arena; /* the distinct strings' bytes end to end (compact: the lookups stay in cache) */
    Py_ssize_t arena_len, arena_cap;
    Py_ssize_t *start; /* offset of each distinct string in the arena */
    Py_ssize_t *size;
    uint64_t *hash;
    uint64_t *slot;    /* open addressing table: the hash's high half, then the distinct index; EMPTY */
    int32_t *codes;    /* one per row */
    Py_ssize_t count, cap, mask, rows, rows_cap;
    int32_t last;      /* the previous row's code (rows often repeat it) */
} intern_t;

/* Whether a[:n] == b[:n]: word compares (the pieces and values compared are a few bytes long, where a
 * call to memcmp costs more than the comparison). */
static inline int same_bytes(const unsigned char *a, const unsigned char *b, Py_ssize_t n) {
    while (n >= 8) {
        uint64_t x, y;
        memcpy(&x, a, 8); memcpy(&y, b, 8);
        if (x != y) return 0;
        a += 8; b += 8; n -= 8;
    }
    while (n--)
        if (*a++ != *b++) return 0;
    return 1;
}

#define EMPTY UINT64_MAX

/* A table entry: the high half of the hash (most mismatches fail there, in the entry's cache line) and the
 * distinct index (below 2**31, so an entry is never EMPTY). */
static inline uint64_t entry(uint64_t hash, Py_ssize_t d) {
    return (hash & 0xffffffff00000000ULL) | (uint32_t)d;
}

#define FNV_OFFSET 1469598103934665603ULL
#define FNV_PRIME 1099511628211ULL

/* FNV-1a's low bits mix poorly: a 64-bit finalizer before the table takes them. */
static inline uint64_t finish_hash(uint64_t h) {
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ULL;
    return h ^ (h >> 33);
}

/* rows: the expected number of rows (the codes array is grown past it if need be). */
static int intern_init(intern_t *t, Py_ssize_t rows) {
    memset(t, 0, sizeof(*t));
    t->cap = 64;
    t->mask = 127;
    t->rows_cap = rows < 1024 ? 1024 : rows > ((Py_ssize_t)1 << 24) ? ((Py_ssize_t)1 << 24) : rows;
    t->arena_cap = 1024;
    t->last = -1;
    t->arena = malloc(t->arena_cap);
    t->start = malloc(t->cap * sizeof(Py_ssize_t));
    t->size = malloc(t->cap * sizeof(Py_ssize_t));
    t->hash = malloc(t->cap * sizeof(uint64_t));
    t->slot = malloc((t->mask + 1) * sizeof(uint64_t));
    t->codes = malloc(t->rows_cap * sizeof(int32_t));
    if (!t->arena || !t->start || !t->size || !t->hash || !t->slot || !t->codes)
        return -1;
    memset(t->slot, 0xff, (t->mask + 1) * sizeof(uint64_t));
    return 0;
}

static void intern_free(intern_t *t) {
    free(t->arena); free(t->start); free(t->size); free(t->hash); free(t->slot); free(t->codes);
    memset(t, 0, sizeof(*t));
}

static int intern_grow(intern_t *t) {
    Py_ssize_t cap = t->cap * 2, mask = t->mask * 2 + 1;
    Py_ssize_t *start = realloc(t->start, cap * sizeof(Py_ssize_t));
    if (!start) return -1;
    t->start = start;
    Py_ssize_t *size = realloc(t->size, cap * sizeof(Py_ssize_t));
    if (!size) return -1;
    t->size = size;
    uint64_t *hash = realloc(t->hash, cap * sizeof(uint64_t));
    if (!hash) return -1;
    t->hash = hash;
    uint64_t *slot = malloc((mask + 1) * sizeof(uint64_t));
    if (!slot) return -1;
    memset(slot, 0xff, (mask + 1) * sizeof(uint64_t));
    for (Py_ssize_t d = 0; d < t->count; d++) {
        Py_ssize_t s = (Py_ssize_t)(t->hash[d] & (uint64_t)mask);
        while (slot[s] != EMPTY) s = (s + 1) & mask;
        slot[s] = entry(t->hash[d], d);
    }
    free(t->slot);
    t->slot = slot;
    t->cap = cap;
    t->mask = mask;
    return 0;
}

enum { DECLINE = -2, NOMEM = -1 };

static int grow_codes(intern_t *t) {
    if (t->rows_cap > PY_SSIZE_T_MAX / 2 / (Py_ssize_t)sizeof(int32_t)) return -1;
    int32_t *codes = realloc(t->codes, 2 * t->rows_cap * sizeof(int32_t));
    if (!codes) return -1;
    t->codes = codes;
    t->rows_cap *= 2;
    return 0;
}

/* Appends the code of data[at:at + n] (hash h) to t->codes; -1 on a failed allocation or too many rows. */
static int intern_add(intern_t *t, const unsigned char *data, Py_ssize_t at, Py_ssize_t n, uint64_t h) {
    int32_t code;
    Py_ssize_t s = (Py_ssize_t)(h & (uint64_t)t->mask);
    for (;;) {
        uint64_t e = t->slot[s];
        int32_t d;
        if (e == EMPTY) {
            if (t->count >= INT32_MAX) return -1;
            if (t->count == t->cap) {
                if (intern_grow(t) < 0) return -1;
                s = (Py_ssize_t)(h & (uint64_t)t->mask);
                while (t->slot[s] != EMPTY) s = (s + 1) & t->mask;
            }
            if (t->arena_len + n > t->arena_cap) {
                Py_ssize_t cap = t->arena_cap;
                while (t->arena_len + n > cap) {
                    if (cap > PY_SSIZE_T_MAX / 2) return -1;
                    cap *= 2;
                }
                unsigned char *arena = realloc(t->arena, cap);
                if (!arena) return -1;
                t->arena = arena;
                t->arena_cap = cap;
            }
            memcpy(t->arena + t->arena_len, data + at, n);
            d = (int32_t)t->count++;
            t->start[d] = t->arena_len; t->size[d] = n; t->hash[d] = h;
            t->arena_len += n;
            t->slot[s] = entry(h, d);
            code = d;
            break;
        }
        d = (int32_t)(uint32_t)e;
        if ((e >> 32) == (h >> 32) && t->size[d] == n && same_bytes(t->arena + t->start[d], data + at, n)) {
            code = d;
            break;
        }
        s = (s + 1) & t->mask;
    }
    t->last = code;
    if (t->rows == t->rows_cap && grow_codes(t) < 0) return -1;
    t->codes[t->rows++] = code;
    return 0;
}

/* 1: a quote, 2: a backslash or a control character, 0 any other byte (filled by the module's init). */
static unsigned char stops[256];

/* Reads the contents of the string that starts at data[*at] (after its opening quote) into t: *at becomes
 * the position of the closing quote.  0, DECLINE (a backslash or a control character comes first, or the
 * data ends) or NOMEM.  The previous row's value is tried first, without hashing. */
static inline int intern_value(intern_t *t, const unsigned char *data, Py_ssize_t len, Py_ssize_t *at) {
    Py_ssize_t i = *at;
    int32_t last = t->last;
    if (last >= 0) {
        Py_ssize_t n = t->size[last];
        if (len - i > n && data[i + n] == '"' && same_bytes(t->arena + t->start[last], data + i, n)) {
            if (t->rows == t->rows_cap && grow_codes(t) < 0) return NOMEM;
            t->codes[t->rows++] = last;
            *at = i + n;
            return 0;
        }
    }
    uint64_t h = FNV_OFFSET;
    Py_ssize_t j = i;
    while (j < len && !stops[data[j]]) {
        h = (h ^ data[j]) * FNV_PRIME;
        j++;
    }
    if (j >= len || stops[data[j]] != 1) return DECLINE;
    if (intern_add(t, data, i, j - i, finish_hash(h)) < 0) return NOMEM;
    *at = j;
    return 0;
}

static int is_ws(unsigned char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static Py_ssize_t skip_ws(const unsigned char *data, Py_ssize_t i, Py_ssize_t len) {
    while (i < len && is_ws(data[i])) i++;
    return i;
}

typedef struct {
    PyObject **key; /* object addresses, NULL empty (borrowed: the columns keep them alive) */
    int32_t *code;
    Py_ssize_t mask, used;
} ptrmap_t;

static int ptrmap_init(ptrmap_t *m, Py_ssize_t hint) {
    Py_ssize_t size = 64;
    while (size < 2 * hint && size < ((Py_ssize_t)1 << 40)) size *= 2;
    m->mask = size - 1;
    m->used = 0;
    m->key = calloc(size, sizeof(PyObject *));
    m->code = malloc(size * sizeof(int32_t));
    return m->key && m->code ? 0 : -1;
}

static void ptrmap_free(ptrmap_t *m) {
    free(m->key); free(m->code);
    m->key = NULL; m->code = NULL;
}

static Py_ssize_t ptr_slot(const ptrmap_t *m, PyObject *key) {
    uint64_t h = (uint64_t)(uintptr_t)key * 0x9E3779B97F4A7C15ULL;
    Py_ssize_t s = (Py_ssize_t)((h >> 20) & (uint64_t)m->mask);
    while (m->key[s] && m->key[s] != key) s = (s + 1) & m->mask;
    return s;
}

static int ptrmap_put(ptrmap_t *m, PyObject *key, int32_t code) {
    if (2 * (m->used + 1) > m->mask + 1) {
        ptrmap_t bigger;
        if (ptrmap_init(&bigger, m->mask + 1) < 0) {
            ptrmap_free(&bigger);
            return -1;
        }
        for (Py_ssize_t s = 0; s <= m->mask; s++)
            if (m->key[s]) {
                Py_ssize_t t = ptr_slot(&bigger, m->key[s]);
                bigger.key[t] = m->key[s];
                bigger.code[t] = m->code[s];
            }
        bigger.used = m->used;
        ptrmap_free(m);
        *m = bigger;
    }
    Py_ssize_t s = ptr_slot(m, key);
    m->key[s] = key;
    m->code[s] = code;
    m->used++;
    return 0;
}

#endif
