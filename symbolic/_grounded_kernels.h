/* The grounded labelling's kernels (docs/semantics.md section 6), plain C without Python: the
 * worklist on a CSR, the passes over an edge list, the rounds bucketed.  Included by _grounded.c,
 * which holds the module (buffers, arguments, errors) and documents the algorithm. */
#ifndef PARATRACE_GROUNDED_KERNELS_H
#define PARATRACE_GROUNDED_KERNELS_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#if defined(__GNUC__) || defined(__clang__)
#define INLINE inline __attribute__((always_inline))
#else
#define INLINE inline
#endif

/* The kernel's arrays and its place in the propagation, freed together. */
typedef struct {
    int64_t n;
    int8_t *state;
    int64_t *pending;   /* per argument, its attackers that are not OUT (span items, span >= n) */
    int64_t span;       /* the least power of two >= n */
    int64_t *queue;     /* the IN arguments in the order labelled; queue[head:tail] is IN round r */
    int64_t *round_of;  /* per argument, its round (-1: unlabelled) */
    int64_t *count, *order;   /* the rounds, bucketed */
    int64_t *beaten;    /* the new OUT arguments of a round (edge lists) */
    int64_t *indptr;    /* a CSR built here (edge lists) */
    void *indices;
    int64_t head, tail, r, rounds;
} work_t;

static void work_free(work_t *w) {
    free(w->pending); free(w->queue); free(w->round_of); free(w->count); free(w->order);
    free(w->beaten); free(w->indptr); free(w->indices);
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

static int allocate(int64_t n, int8_t *state, work_t *w) {
    w->n = n;
    w->state = state;
    for (w->span = 1; w->span < n && w->span < INT64_MAX / 2; w->span *= 2)
        ;
    if (w->span < n)
        return -1;
    w->pending = alloc(w->span, sizeof(int64_t), 1);
    w->queue = alloc(n, sizeof(int64_t), 0);
    w->round_of = alloc(n, sizeof(int64_t), 0);
    return w->pending && w->queue && w->round_of ? 0 : -1;
}

/* Round 0: IN every argument without attackers (pending counted). */
static void round_zero(work_t *w) {
    int64_t n = w->n, tail = 0;
    int8_t *restrict state = w->state;
    const int64_t *restrict pending = w->pending;
    int64_t *restrict queue = w->queue, *restrict round_of = w->round_of;
    for (int64_t i = 0; i < n; i++) {
        int in = pending[i] == 0;
        state[i] = (int8_t)in;
        round_of[i] = in - 1;
        queue[tail] = i;
        tail += in;
    }
    w->head = 0;
    w->tail = tail;
    w->r = 0;
    w->rounds = tail ? 1 : 0;
}

/* In a pass over an edge list, the arguments of the current round are tagged TAG_IN while IN, TAG_OUT while OUT. */
#define TAG_IN 2
#define TAG_OUT -2

#define KERNELS(S, T)                                                                                   \
/* Propagate on a CSR from IN round r = queue[head:tail] to the end: each new IN argument labels OUT \
 * the unlabelled arguments it attacks, each of which counts down the counters of the unlabelled     \
 * arguments it attacks; those at zero are IN two rounds later. */                                   \
static void propagate_##S(work_t *w, const int64_t *restrict indptr, const T *restrict indices) {      \
    int8_t *restrict state = w->state;                                                                  \
    int64_t *restrict pending = w->pending, *restrict queue = w->queue, *restrict round_of = w->round_of; \
    int64_t head = w->head, tail = w->tail, r = w->r, rounds = w->rounds;                               \
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
    w->head = head; w->tail = tail; w->r = r; w->rounds = rounds;                                       \
}                                                                                                       \
                                                                                                        \
/* The counters from CSR targets; -1 if one is outside 0 .. n-1.  Four at a time: when their bits    \
 * together stay below w->span (a power of two, the counters' length), each is in 0 .. span-1 and is \
 * counted without a branch; a count past n - 1 is found at the end. */                              \
static int in_degree_##S(work_t *w, const T *restrict targets, int64_t m) {                             \
    int64_t *restrict pending = w->pending, e = 0;                                                      \
    uint64_t span = (uint64_t)w->span;                                                                  \
    for (; e + 4 <= m; e += 4) {                                                                        \
        uint64_t a = (uint64_t)(int64_t)targets[e], b = (uint64_t)(int64_t)targets[e + 1];              \
        uint64_t c = (uint64_t)(int64_t)targets[e + 2], d = (uint64_t)(int64_t)targets[e + 3];          \
        if ((a | b | c | d) >= span)                                                                    \
            return -1;                                                                                  \
        pending[a]++;                                                                                   \
        pending[b]++;                                                                                   \
        pending[c]++;                                                                                   \
        pending[d]++;                                                                                   \
    }                                                                                                   \
    for (; e < m; e++) {                                                                                \
        uint64_t a = (uint64_t)(int64_t)targets[e];                                                     \
        if (a >= span)                                                                                  \
            return -1;                                                                                  \
        pending[a]++;                                                                                   \
    }                                                                                                   \
    for (int64_t i = w->n; i < w->span; i++)                                                            \
        if (pending[i])                                                                                 \
            return -1;                                                                                  \
    return 0;                                                                                           \
}                                                                                                       \
                                                                                                        \
/* The counters from edge-list targets, a run of equal targets added at once (derived attacks come      \
 * grouped by target: one increment per edge would wait on the last); -1 if one is outside 0 .. n-1. */ \
static int in_degree_runs_##S(work_t *w, const T *restrict targets, int64_t m) {                        \
    int64_t *restrict pending = w->pending, run = 0;                                                    \
    uint64_t n = (uint64_t)w->n, last = 0;                                                              \
    int bad = 0;                                                                                        \
    for (int64_t e = 0; e < m; e++) {                                                                   \
        uint64_t c = (uint64_t)(int64_t)targets[e];                                                     \
        if (c == last) {                                                                                \
            run++;                                                                                      \
            continue;                                                                                   \
        }                                                                                               \
        if (c >= n) {                                                                                   \
            bad = 1;                                                                                    \
            continue;                                                                                   \
        }                                                                                               \
        pending[last] += run;                                                                           \
        last = c;                                                                                       \
        run = 1;                                                                                        \
    }                                                                                                   \
    if (run)                                                                                            \
        pending[last] += run;                                                                           \
    return bad ? -1 : 0;                                                                                \
}                                                                                                       \
                                                                                                        \
/* Whether the targets come grouped: at least a quarter of GROUP_SAMPLE targets in 16 runs spread   \
 * over the list repeat the one before (then in_degree_runs, else in_degree). */                     \
static int grouped_##S(const T *restrict targets, int64_t m) {                                          \
    int64_t repeats = 0, sampled = 0, step = m / 16, length = GROUP_SAMPLE / 16;                        \
    if (m < GROUP_SAMPLE)                                                                               \
        return 0;                                                                                       \
    for (int64_t start = 0; start + length <= m && sampled < GROUP_SAMPLE; start += step) {             \
        for (int64_t e = start + 1; e < start + length; e++)                                            \
            repeats += targets[e] == targets[e - 1];                                                    \
        sampled += length;                                                                              \
    }                                                                                                   \
    return 4 * repeats >= sampled;                                                                      \
}                                                                                                       \
                                                                                                        \
/* Whether every source is in 0 .. n-1 (0, else -1) and whether they are sorted. */                     \
static int check_sources_##S(int64_t n, const T *restrict src, int64_t m, int *sorted) {                \
    int bad = m > 0 && (uint64_t)(int64_t)src[0] >= (uint64_t)n, ascending = 1;                         \
    for (int64_t e = 1; e < m; e++) {  /* no branch: vectorized */                                      \
        bad |= (uint64_t)(int64_t)src[e] >= (uint64_t)n;                                                \
        ascending &= src[e] >= src[e - 1];                                                              \
    }                                                                                                   \
    *sorted = ascending;                                                                                \
    return bad ? -1 : 0;                                                                                \
}                                                                                                       \
                                                                                                        \
/* indptr of sources sorted ascending: for each argument, the end of its run, by galloping from the     \
 * previous one (local, O(n log(m / n)) reads). */                                                      \
static void sorted_indptr_##S(int64_t n, const T *restrict src, int64_t m, int64_t *restrict indptr) {  \
    int64_t pos = 0;                                                                                    \
    indptr[0] = 0;                                                                                      \
    for (int64_t a = 0; a < n; a++) {                                                                   \
        /* the first position >= pos whose source exceeds a */                                         \
        int64_t low = pos, step = 1, high;                                                              \
        while (low + step <= m && low + step - 1 < m && (int64_t)src[low + step - 1] <= a) {            \
            low += step;                                                                                \
            step *= 2;                                                                                  \
        }                                                                                               \
        high = low + step - 1 < m ? low + step - 1 : m;  /* src[low - 1] <= a < src[high] or high = m */ \
        while (low < high) {                                                                            \
            int64_t mid = low + (high - low) / 2;                                                       \
            if ((int64_t)src[mid] <= a)                                                                 \
                low = mid + 1;                                                                          \
            else                                                                                        \
                high = mid;                                                                             \
        }                                                                                               \
        pos = low;                                                                                      \
        indptr[a + 1] = pos;                                                                            \
    }                                                                                                   \
}                                                                                                       \
                                                                                                        \
/* One pass over an edge list for the arguments tagged TAG_IN (the new IN round r): OUT, tagged TAG_OUT, \
 * every unlabelled argument they attack, listed in w->beaten (their count returned); *rest: whether    \
 * an unlabelled argument attacks.  With check, the first pass over the sources: -1 if one is outside  \
 * 0 .. n-1, and whether they are sorted. */                                                           \
static INLINE int64_t beat_##S(work_t *w, const T *restrict src, const T *restrict dst, int64_t m,            \
                        int check, int *rest, int *sorted) {                                           \
    int8_t *restrict state = w->state;                                                                  \
    int64_t *restrict round_of = w->round_of, *restrict beaten = w->beaten, k = 0, round = w->r + 1;   \
    uint64_t n = (uint64_t)w->n;                                                                        \
    int64_t previous = m ? (int64_t)src[0] : 0, unlabelled = 0;                                         \
    int ascending = 1;                                                                                  \
    for (int64_t e = 0; e < m; e++) {                                                                   \
        int64_t a = (int64_t)src[e];                                                                    \
        if (check) {                                                                                    \
            if ((uint64_t)a >= n)                                                                       \
                return -1;                                                                              \
            ascending &= a >= previous;                                                                 \
            previous = a;                                                                               \
        }                                                                                               \
        int8_t s = state[a];                                                                            \
        unlabelled += s == 0 || s == TAG_OUT;  /* TAG_OUT: unlabelled before this pass */           \
        if (s == TAG_IN) {                                                                              \
            int64_t b = (int64_t)dst[e];                                                                \
            if (!state[b]) {                                                                            \
                state[b] = TAG_OUT;                                                                     \
                round_of[b] = round;                                                                    \
                beaten[k++] = b;                                                                        \
            }                                                                                           \
        }                                                                                               \
    }                                                                                                   \
    *rest = unlabelled > 0;                                                                             \
    if (check)                                                                                          \
        *sorted = ascending;                                                                            \
    return k;                                                                                           \
}                                                                                                       \
                                                                                                        \
/* One pass over an edge list for the arguments tagged TAG_OUT: count down the counters of the          \
 * unlabelled arguments they attack; those at zero are IN in round r + 2, tagged TAG_IN, queued. */     \
static void release_##S(work_t *w, const T *restrict src, const T *restrict dst, int64_t m) {           \
    int8_t *restrict state = w->state;                                                                  \
    int64_t *restrict pending = w->pending, *restrict round_of = w->round_of, *restrict queue = w->queue; \
    int64_t tail = w->tail, round = w->r + 2;                                                           \
    for (int64_t e = 0; e < m; e++) {                                                                   \
        if (state[src[e]] == TAG_OUT) {                                                                 \
            int64_t c = (int64_t)dst[e];                                                                \
            if (!state[c] && !--pending[c]) {                                                           \
                state[c] = TAG_IN;                                                                      \
                round_of[c] = round;                                                                    \
                queue[tail++] = c;                                                                      \
            }                                                                                           \
        }                                                                                               \
    }                                                                                                   \
    w->tail = tail;                                                                                     \
}                                                                                                       \
                                                                                                        \
/* On a CSR: count down the counters of what the new OUT w->beaten[0:k] attack; those at zero are IN in \
 * round r + 2, labelled 1, queued. */                                                                \
static void release_csr_##S(work_t *w, const int64_t *restrict indptr, const T *restrict indices, int64_t k) { \
    int8_t *restrict state = w->state;                                                                  \
    int64_t *restrict pending = w->pending, *restrict round_of = w->round_of, *restrict queue = w->queue; \
    int64_t tail = w->tail, round = w->r + 2;                                                           \
    for (int64_t j = 0; j < k; j++) {                                                                   \
        int64_t b = w->beaten[j], f_end = indptr[b + 1];                                                \
        for (int64_t f = indptr[b]; f < f_end; f++) {                                                   \
            int64_t c = (int64_t)indices[f];                                                            \
            if (!state[c] && !--pending[c]) {                                                           \
                state[c] = 1;                                                                           \
                round_of[c] = round;                                                                    \
                queue[tail++] = c;                                                                      \
            }                                                                                           \
        }                                                                                               \
    }                                                                                                   \
    w->tail = tail;                                                                                     \
}                                                                                                       \
                                                                                                        \
/* The CSR of the edges whose source is unlabelled or IN in the current round (the only ones the        \
 * rounds still read), by a counting sort; -1 when out of memory. */                                    \
static int live_csr_##S(work_t *w, const T *restrict src, const T *restrict dst, int64_t m) {           \
    int64_t n = w->n, live = 0;                                                                         \
    const int8_t *restrict state = w->state;                                                            \
    int64_t *restrict indptr = w->indptr = alloc(n + 1, sizeof(int64_t), 1);                           \
    if (!indptr)                                                                                        \
        return -1;                                                                                      \
    for (int64_t e = 0; e < m; e++) {                                                                   \
        int8_t s = state[src[e]];                                                                       \
        if (s == 0 || s == TAG_IN)                                                                      \
            indptr[src[e] + 1]++;                                                                       \
    }                                                                                                   \
    for (int64_t a = 0; a < n; a++)                                                                     \
        indptr[a + 1] += indptr[a];                                                                     \
    live = indptr[n];                                                                                   \
    T *restrict indices = w->indices = alloc(live, sizeof(T), 0);                                       \
    int64_t *restrict next = w->beaten;  /* spent: the write position of each source */                 \
    if (!indices)                                                                                       \
        return -1;                                                                                      \
    memcpy(next, indptr, (size_t)n * sizeof(int64_t));                                                  \
    for (int64_t e = 0; e < m; e++) {                                                                   \
        int8_t s = state[src[e]];                                                                       \
        if (s == 0 || s == TAG_IN)                                                                      \
            indices[next[src[e]]++] = dst[e];                                                           \
    }                                                                                                   \
    return 0;                                                                                           \
}                                                                                                       \
                                                                                                        \
/* The rounds of an edge list: the counters (one pass over the targets), then passes over the edges    \
 * while they are few (the first also checks the sources), else the CSR of the edges still needed: at \
 * once when the sources are sorted (the edge list is its own CSR), else by a counting sort.  -1: a    \
 * source out of range, -2: a target, -3: out of memory. */                                            \
static int edges_##S(work_t *w, const T *src, const T *dst, int64_t m) {                                \
    int sorted = 0, rest = 1;                                                                           \
    int8_t *state = w->state;                                                                           \
    int64_t *queue = w->queue;                                                                          \
    if ((grouped_##S(dst, m) ? in_degree_runs_##S(w, dst, m) : in_degree_##S(w, dst, m)) < 0)          \
        return check_sources_##S(w->n, src, m, &sorted) < 0 ? -1 : -2;                                  \
    round_zero(w);                                                                                      \
    if (w->head == w->tail)                                                                             \
        return check_sources_##S(w->n, src, m, &sorted);                                                \
    for (int passes = 0;; passes += 2) {  /* IN round r is queue[head:tail], labelled 1 */              \
        int64_t head = w->head, tail = w->tail, k;                                                      \
        if (passes >= EDGE_PASSES) {                                                                    \
            for (int64_t q = head; q < tail; q++)                                                       \
                state[queue[q]] = TAG_IN;                                                               \
            if (live_csr_##S(w, src, dst, m) < 0)                                                       \
                return -3;                                                                              \
            for (int64_t q = head; q < tail; q++)                                                       \
                state[queue[q]] = 1;                                                                    \
            propagate_##S(w, w->indptr, (const T *)w->indices);                                         \
            return 0;                                                                                   \
        }                                                                                               \
        for (int64_t q = head; q < tail; q++)                                                           \
            state[queue[q]] = TAG_IN;                                                                   \
        k = passes ? beat_##S(w, src, dst, m, 0, &rest, &sorted)  /* two copies: the check compiled out */ \
                   : beat_##S(w, src, dst, m, 1, &rest, &sorted);                                    \
        if (k < 0)                                                                                      \
            return -1;                                                                                  \
        for (int64_t q = head; q < tail; q++)                                                           \
            state[queue[q]] = 1;                                                                        \
        w->head = tail;                                                                                 \
        if (!k)                                                                                         \
            return 0;  /* no OUT round */                                                               \
        w->rounds = w->r + 2;                                                                           \
        if (sorted) {  /* the edge list is a CSR: its offsets, then the worklist */                     \
            for (int64_t j = 0; j < k; j++)                                                             \
                state[w->beaten[j]] = -1;                                                               \
            if (!(w->indptr = alloc(w->n + 1, sizeof(int64_t), 0)))                                     \
                return -3;                                                                              \
            sorted_indptr_##S(w->n, src, m, w->indptr);                                                 \
            release_csr_##S(w, w->indptr, dst, k);                                                      \
            if (w->tail > tail) {                                                                       \
                w->rounds = w->r + 3;                                                                   \
                w->r += 2;                                                                              \
                propagate_##S(w, w->indptr, dst);                                                       \
            }                                                                                           \
            return 0;                                                                                   \
        }                                                                                               \
        if (rest)  /* the new OUT ones were unlabelled: if no unlabelled one attacks, they attack nothing */ \
            release_##S(w, src, dst, m);                                                                \
        for (int64_t j = 0; j < k; j++)                                                                 \
            state[w->beaten[j]] = -1;                                                                   \
        for (int64_t q = tail; q < w->tail; q++)                                                        \
            state[queue[q]] = 1;                                                                        \
        if (w->tail == tail)                                                                            \
            return 0;  /* no IN round r + 2 */                                                          \
        w->rounds = w->r + 3;                                                                           \
        w->r += 2;                                                                                      \
    }                                                                                                   \
}

#define EDGE_PASSES 4  /* passes over an edge list before its CSR is built */
#define GROUP_SAMPLE 4096  /* targets sampled by grouped_* */

KERNELS(32, int32_t)
KERNELS(64, int64_t)

/* Round k lists the arguments with round_of == k, ascending: count, prefix sums, a stable pass. */
static int bucket(work_t *w) {
    int64_t n = w->n, rounds = w->rounds;
    w->count = alloc(rounds + 1, sizeof(int64_t), 1);
    w->order = alloc(n, sizeof(int64_t), 0);
    if (!w->count || !w->order)
        return -1;
    const int64_t *restrict round_of = w->round_of;
    int64_t *restrict count = w->count, *restrict order = w->order;
    for (int64_t i = 0; i < n; i++)
        if (round_of[i] >= 0)
            count[round_of[i] + 1]++;
    for (int64_t k = 0; k < rounds; k++)
        count[k + 1] += count[k];
    int64_t *restrict next = w->queue;  /* the queue is spent: it becomes the write position of each round */
    memcpy(next, count, (size_t)rounds * sizeof(int64_t));
    for (int64_t i = 0; i < n; i++)
        if (round_of[i] >= 0)
            order[next[round_of[i]]++] = i;
    return 0;
}

#endif
