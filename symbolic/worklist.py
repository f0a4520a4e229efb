"""Round-by-round propagation of the grounded labelling (Algorithm 1) with numpy.

An integer framework has arguments ``0 .. n-1``; ``pending[c]`` counts the
attackers of ``c`` that are not OUT.  Round 0 labels IN the unattacked
arguments; after an IN round, every unlabelled argument the new IN arguments
attack is labelled OUT; after an OUT round, every unlabelled argument whose
attackers are now all OUT is labelled IN (docs/semantics.md section 6).

Each step picks the cheapest of equivalent strategies, all giving the same
rounds (tested against a naive recomputation of the rounds with each one
forced, ``tests/symbolic/test_labelling.py``):

- *marks before counts*: round 0 needs only whether an argument is attacked
  (:func:`mark`, one store per edge); the counters are counted at the first
  OUT round, from the edges of the still unlabelled arguments when fewer;
- *counts first*: when a sample of the edges (:func:`counts_first`) suggests a
  wide round 0 that leaves most edges to the rounds after it, whose counters
  would cost a second pass, round 0 is read off the counters instead;
- *python*: at most ``_SMALL`` edges, a plain loop over the CSR;
- *frontier*: the edges of the new arguments, gathered from the CSR by offsets
  or, past ``1/_MASK`` of the edges, by one masked pass over all of them;
- *rest*: when the still unlabelled arguments have fewer edges than the
  frontier, recount from those: for an unlabelled ``c`` the counter is the
  number of its unlabelled attackers (no IN argument attacks it), so a new IN
  argument attacks ``c`` iff ``pending[c]`` exceeds the attackers left in the
  rest, and after an OUT round ``pending[c]`` *is* that count;
- *edges*: :func:`edge_rounds` runs the first rounds on the edge list, one
  pass each, and builds the CSR only if the rounds go on.

Few targets (``_SORT * len(targets) < n``) are sorted (:func:`numpy.unique`),
many are marked or counted over all arguments.
"""

from __future__ import annotations

import numpy as np

__all__ = ["Worklist", "counts_first", "csr", "edge_rounds", "in_degree", "label_edges", "mark"]

_SMALL = 256  # a step over at most this many edges runs in plain Python
_SORT = 8  # fewer than n / _SORT targets are sorted rather than counted over all n
_REST = 1.0  # recount from the rest when its edges times _REST are fewer than the frontier's
_MASK = 6  # a frontier with more than 1/_MASK of the edges is gathered by one masked pass over all of them
_EDGE_MIN = 1024  # an edge list with more edges starts on the edge list (edge_rounds), without the CSR
_EDGE_PASSES = 4  # edge-list rounds until their passes add up to this many times the edges
_DROP = 2  # drop the dead edges once the unlabelled arguments are fewer than 1/_DROP of those at the last drop
_CHUNK = 1 << 16  # int32 targets are counted in chunks of this many (cast to intp in cache)
_PROBE_MIN = 1 << 18  # with fewer edges round 0 always marks (counts_first is not asked)
_PROBE_RUNS, _PROBE_SHARE = 64, 128  # counts_first samples 1/_PROBE_SHARE of the edges in this many runs, evenly spaced
_WIDE = 2  # ... and counts first when the targets no sampled edge attacks are at least 1/_WIDE of the arguments
_HALF = 2  # ... and hold at most 1/_HALF of the edges


def in_degree(n: int, targets: np.ndarray) -> np.ndarray:
    """How many times each of ``0 .. n-1`` occurs in ``targets`` (int64)."""
    if targets.dtype == np.intp or len(targets) <= 2 * _CHUNK:
        return np.bincount(targets, minlength=n).astype(np.int64, copy=False)
    counts = np.bincount(targets[:_CHUNK], minlength=n)
    for start in range(_CHUNK, len(targets), _CHUNK):
        counts += np.bincount(targets[start:start + _CHUNK], minlength=n)
    return counts.astype(np.int64, copy=False)


def csr(n: int, src: np.ndarray, dst: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Out-adjacency ``(indptr int64, indices)``: a stable sort of the edges by attacker (radix on uint16 keys)."""
    key = src.astype(np.uint16) if n <= 1 << 16 else src
    order = np.argsort(key, kind="stable")
    indptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.bincount(src, minlength=n), out=indptr[1:])
    return indptr, dst[order]


def mark(n: int, targets: np.ndarray) -> np.ndarray:
    """A boolean array over ``0 .. n-1``, true where ``targets`` occur.

    A store per target, cheaper than counting (:func:`in_degree`); int32
    targets are widened to intp in chunks through one buffer that stays in cache.

    Examples
    --------
    >>> mark(4, np.array([2, 0, 2], dtype=np.int32)).tolist()
    [True, False, True, False]
    """
    marks = np.zeros(n, dtype=bool)
    if targets.dtype == np.intp or len(targets) <= _CHUNK:
        marks[targets] = True
        return marks
    buffer = np.empty(_CHUNK, dtype=np.intp)
    for start in range(0, len(targets), _CHUNK):
        chunk = targets[start:start + _CHUNK]
        wide = buffer[:len(chunk)]
        wide[...] = chunk
        marks[wide] = True
    return marks


def counts_first(n: int, targets: np.ndarray, degree: np.ndarray) -> bool:
    """Whether round 0 should count the attackers (:func:`in_degree`) rather than mark them (:func:`mark`).

    Either gives the same rounds; this only guesses which is cheaper, from
    ``1/_PROBE_SHARE`` of the edges ``targets``, in ``_PROBE_RUNS`` evenly spaced
    runs (contiguous, so the sample costs a few hundred cache lines).  The
    arguments no sampled edge attacks include the unattacked ones, round 0.
    When they are many (at least ``1/_WIDE`` of the arguments) but hold at most
    ``1/_HALF`` of the edges (``degree``, out-degree per argument), round 0 is
    likely wide and followed by an OUT round that leaves edges to count: one
    pass that counts costs less than a mark and then a count.  Otherwise round
    0 is likely narrow, or holds most edges (its OUT round is then "attacked and
    unlabelled"), and a mark, cheaper than a count, is all it needs.  Below
    ``_PROBE_MIN`` edges: mark.

    Examples
    --------
    Arguments 0 and 1 attack argument 0, each ``1 << 17`` times: the
    unattacked 1 .. 7 hold half the edges (round 0 is wide and light).

    >>> degree = np.array([1 << 17, 1 << 17, 0, 0, 0, 0, 0, 0])
    >>> counts_first(8, np.zeros(1 << 18, dtype=np.int32), degree)
    True
    >>> counts_first(8, np.zeros(1 << 18, dtype=np.int32), np.array([0, 1 << 18, 0, 0, 0, 0, 0, 0]))
    False
    """
    if len(targets) < max(_PROBE_MIN, 1):
        return False
    runs = min(_PROBE_RUNS, len(targets))
    step = len(targets) // runs
    sample = targets[:runs * step].reshape(runs, step)[:, :max(1, step // _PROBE_SHARE)]
    hit = np.zeros(n, dtype=bool)
    hit[sample.astype(np.intp).reshape(-1)] = True  # widened first: a contiguous index is stored faster
    if _WIDE * (n - np.count_nonzero(hit)) < n:
        return False
    return _HALF * (len(targets) - int(np.dot(degree, hit))) <= len(targets)  # the edges of the unhit ones


def _unlabelled_hits(n: int, targets: np.ndarray, state: np.ndarray) -> np.ndarray:
    """The distinct unlabelled arguments among ``targets``, ascending."""
    if _SORT * len(targets) < n:
        hit = np.unique(targets)
        return hit[state[hit] == 0]
    return np.flatnonzero(mark(n, targets) & (state == 0))


def _count_down(n: int, targets: np.ndarray, pending: np.ndarray, state: np.ndarray) -> np.ndarray:
    """Subtract one from ``pending`` per occurrence in ``targets``; the unlabelled ones now at zero, ascending."""
    if _SORT * len(targets) < n:
        hit, counts = np.unique(targets, return_counts=True)
        pending[hit] -= counts
        return hit[(pending[hit] == 0) & (state[hit] == 0)]
    pending -= np.bincount(targets, minlength=n)
    return np.flatnonzero((pending == 0) & (state == 0))


class Worklist:
    """Attacker counters and CSR out-adjacency over arguments ``0 .. n-1``.

    Parameters
    ----------
    n : int
    indptr, indices : numpy.ndarray
        The arguments attacked by ``a`` are ``indices[indptr[a]:indptr[a + 1]]``.
    pending : numpy.ndarray of int64, optional
        The counters, updated in place.  By default they are counted only when
        an OUT round needs them (``None`` until then): the first rounds need
        only *whether* an argument is attacked (:func:`mark`), unless
        :func:`counts_first` guesses that counting in round 0 is cheaper.
    state : numpy.ndarray of int8, optional
        ``1`` IN, ``-1`` OUT, ``0`` unlabelled (default: all unlabelled); updated in place.

    Examples
    --------
    >>> w = Worklist(3, np.array([0, 1, 2, 2]), np.array([1, 2], dtype=np.int32))   # 0 -> 1 -> 2
    >>> [list(map(int, r)) for r in w.run()], w.state.tolist()
    ([[0], [1], [2]], [1, -1, 1])
    """

    def __init__(self, n: int, indptr: np.ndarray, indices: np.ndarray,
                 pending: np.ndarray | None = None, state: np.ndarray | None = None):
        self.n = n
        self.indptr = indptr.astype(np.int64, copy=False)
        self.indices = indices if indices.dtype.kind in "iu" else indices.astype(np.int32)
        self.degree = np.diff(self.indptr)
        self.pending = pending
        self.state = np.zeros(n, dtype=np.int8) if state is None else state
        self.rest = int(self.indptr[-1]) if state is None else int(self.degree[self.state == 0].sum())
        self.ptr, self.ind = memoryview(self.indptr), memoryview(self.indices)
        self.st = memoryview(self.state)
        self.attacked: np.ndarray | None = None  # whether attacked at all, before the first OUT round

    def _counts(self, released: bool, nodes=None, edges: int = 0) -> np.ndarray:
        """The counters, counted now if not yet: per argument, its attackers that are not OUT.

        ``released``: no IN argument attacks an unlabelled one (between an OUT
        round and the next IN one), so for those the counters may be counted
        from the unlabelled arguments' edges when these are fewer.  ``nodes``
        (``edges`` edges) are the new OUT arguments: when they hold every edge
        of the OUT arguments, the OUT attacks are gathered from them
        (:meth:`_gather`) rather than by a masked pass over all edges.
        """
        if self.pending is None:
            out = self.state == -1
            out_edges = int(self.degree[out].sum())
            if released and self.rest <= out_edges:
                self.pending = self._rest_counts()
            else:
                self.pending = in_degree(self.n, self.indices)
                if out_edges and nodes is not None and out_edges == edges:
                    self.pending -= np.bincount(self._gather(nodes, edges), minlength=self.n)
                elif out_edges:
                    self.pending -= np.bincount(self.indices[np.repeat(out, self.degree)], minlength=self.n)
        return self.pending

    def _edges(self, nodes) -> int:
        if isinstance(nodes, list) and len(nodes) <= _SMALL:
            ptr = self.ptr
            return sum(ptr[a + 1] - ptr[a] for a in nodes)
        return int(self.degree[nodes].sum())

    def _gather(self, nodes, edges: int) -> np.ndarray:
        """Every argument attacked by ``nodes`` (``edges`` edges, with repeats)."""
        if _MASK * edges > len(self.indices):  # one pass over all edges with a mask of the attackers
            mask = np.zeros(self.n, dtype=bool)
            mask[nodes] = True
            return self.indices[np.repeat(mask, self.degree)]
        nodes = np.asarray(nodes, dtype=np.int64)
        starts = self.indptr[nodes]
        lengths = self.degree[nodes]
        shift = np.repeat(starts - (np.cumsum(lengths) - lengths), lengths)
        return self.indices[shift + np.arange(len(shift))]

    def _rest_counts(self) -> np.ndarray:
        """Per argument, how many of its attackers are unlabelled (their ``rest`` edges gathered, :meth:`_gather`)."""
        return np.bincount(self._gather(np.flatnonzero(self.state == 0), self.rest), minlength=self.n)

    def _attackers(self, nodes) -> list:
        """``nodes`` that attack something, as a list."""
        if len(nodes) > _SMALL:
            nodes = nodes[self.degree[nodes] > 0]
        return nodes if isinstance(nodes, list) else nodes.tolist()

    def beat(self, nodes, edges: int):
        """Label OUT every unlabelled argument attacked by the new IN ``nodes`` (``edges`` edges); ascending."""
        if edges <= _SMALL:
            ptr, ind, st, beaten = self.ptr, self.ind, self.st, set()
            for a in self._attackers(nodes):
                for b in ind[ptr[a]:ptr[a + 1]]:
                    if st[b] == 0:
                        beaten.add(b)
            out = sorted(beaten)
            for b in out:
                st[b] = -1
            return out
        if self.rest * _REST < edges:
            if self.pending is None and not self.rest and self.attacked is not None:
                beaten = np.flatnonzero(self.attacked & (self.state == 0))  # only the new IN attack anything
            else:
                beaten = np.flatnonzero((self.state == 0) & (self._counts(False) > self._rest_counts()))
        else:
            beaten = _unlabelled_hits(self.n, self._gather(nodes, edges), self.state)
        self.state[beaten] = -1
        return beaten

    def release(self, nodes, edges: int):
        """Count down the attackers of what the new OUT ``nodes`` attack; the new IN arguments, ascending."""
        if self.pending is None:  # counted now, with ``nodes`` already OUT
            return np.flatnonzero((self.state == 0) & (self._counts(True, nodes, edges) == 0))
        if edges <= _SMALL:
            ptr, ind, st, pend, free = self.ptr, self.ind, self.st, memoryview(self.pending), []
            for b in self._attackers(nodes):
                for c in ind[ptr[b]:ptr[b + 1]]:
                    if st[c] == 0:
                        pend[c] -= 1
                        if pend[c] == 0:
                            free.append(c)
            free.sort()
            return free
        if self.rest * _REST < edges:
            self.pending[:] = self._rest_counts()
            return np.flatnonzero((self.state == 0) & (self.pending == 0))
        return _count_down(self.n, self._gather(nodes, edges), self.pending, self.state)

    def run(self, current=None, rounds: list | None = None) -> list:
        """Propagate from the IN arguments ``current`` (default: the unattacked ones).

        Returns ``rounds`` (a new list by default) extended with one array or list per round.
        """
        rounds = [] if rounds is None else rounds
        self.attacked = None
        if current is None and self.pending is None and self.rest == len(self.indices) \
                and counts_first(self.n, self.indices, self.degree):  # the labelled attack nothing
            self.pending = in_degree(self.n, self.indices)
            current = np.flatnonzero((self.pending == 0) & (self.state == 0))
        elif current is None:
            self.attacked = mark(self.n, self.indices)
            current = np.flatnonzero(~self.attacked & (self.state == 0))
        while len(current):
            self.state[current] = 1
            rounds.append(current)
            edges = self._edges(current)
            self.rest -= edges
            beaten = self.beat(current, edges)
            if not len(beaten):
                break
            rounds.append(beaten)
            self.attacked = None  # from now on OUT arguments attack too
            edges = self._edges(beaten)
            self.rest -= edges
            current = self.release(beaten, edges)
        return rounds


def _edge_step(n: int, src: np.ndarray, dst: np.ndarray, nodes: np.ndarray, label: int,
               pending: np.ndarray | None, state: np.ndarray,
               attacked: np.ndarray | None) -> tuple[np.ndarray, np.ndarray | None]:
    """One round from an edge list: label ``nodes`` with ``label``; return the next round and the counters.

    After an IN round the next is the unlabelled arguments they attack (labelled
    OUT here); after an OUT round the unlabelled arguments whose counter drops to
    zero.  Either is computed from the frontier's edges or, when fewer, from the
    edges of the still unlabelled arguments (see the module docstring).  The
    counters (``pending``) are counted at the first step that needs them;
    before the first OUT round ``attacked`` says which arguments are attacked.
    """
    state[nodes] = 2 * label  # tagged as the frontier for the one pass below
    source = state[src]
    front, rest = source == 2 * label, source == 0
    state[nodes] = label
    n_rest = np.count_nonzero(rest)
    few_rest = n_rest * _REST < np.count_nonzero(front)
    if label == 1:
        if few_rest and not n_rest and attacked is not None:  # only the new IN arguments attack anything
            beaten = np.flatnonzero(attacked & (state == 0))
        elif few_rest:
            if pending is None:  # before any OUT round: the in-degrees
                pending = in_degree(n, dst)
            beaten = np.flatnonzero((state == 0) & (pending > np.bincount(dst[rest], minlength=n)))
        else:
            beaten = _unlabelled_hits(n, dst[front], state)
        state[beaten] = -1
        return beaten, pending
    if pending is None:  # counted now, ``nodes`` already OUT: the unlabelled attackers
        if 2 * n_rest <= len(src):
            pending = np.bincount(dst[rest], minlength=n)
        else:
            pending = in_degree(n, dst) - np.bincount(dst[~rest], minlength=n)
        return np.flatnonzero((state == 0) & (pending == 0)), pending
    if few_rest:
        pending[:] = np.bincount(dst[rest], minlength=n)
        return np.flatnonzero((state == 0) & (pending == 0)), pending
    return _count_down(n, dst[front], pending, state), pending


def edge_rounds(n: int, src: np.ndarray, dst: np.ndarray) -> tuple[np.ndarray, list]:
    """The rounds of an edge list ``src -> dst``.

    Round 0 needs only whether an argument is attacked (:func:`mark`).  Each
    round is one pass over the edges left (:func:`_edge_step`); when an OUT
    round has labelled many arguments, the edges that can no longer count (from
    or to a labelled argument) are dropped.  Once the passes add up to
    ``_EDGE_PASSES`` times the edges, the CSR of what is left is built and the
    :class:`Worklist` takes over, so a long chain of small rounds costs the CSR
    once.  Returns ``(state, rounds)`` as :meth:`Worklist.run` leaves them.

    Examples
    --------
    >>> state, rounds = edge_rounds(4, np.array([0, 1, 2, 3]), np.array([1, 2, 3, 3]))
    >>> state.tolist(), [r.tolist() for r in rounds]
    ([1, -1, 1, -1], [[0], [1], [2], [3]])
    """
    state = np.zeros(n, dtype=np.int8)
    rounds: list = []
    attacked = mark(n, dst)
    current = np.flatnonzero(~attacked)
    if not len(current):
        return state, rounds
    src, dst = src.astype(np.intp, copy=False), dst.astype(np.intp, copy=False)
    budget, work, unlabelled, pending = _EDGE_PASSES * len(src), 0, n, None
    while len(current):
        if work >= budget and len(src):
            indptr, indices = csr(n, src, dst)
            return state, Worklist(n, indptr, indices, pending, state).run(current, rounds)
        rounds.append(current)
        beaten, pending = _edge_step(n, src, dst, current, 1, pending, state, attacked)
        attacked = None  # from now on OUT arguments attack too
        if not len(beaten):
            break
        rounds.append(beaten)
        left = n - np.count_nonzero(state)
        if not left:
            break
        current, pending = _edge_step(n, src, dst, beaten, -1, pending, state, None)
        work += 2 * len(src)
        if len(current) and _DROP * left < unlabelled:  # most edges now touch a labelled argument: drop them
            keep = (state[src] == 0) & (state[dst] == 0)
            src, dst, unlabelled = src[keep], dst[keep], left
    return state, rounds


def label_edges(n: int, src: np.ndarray, dst: np.ndarray) -> tuple[np.ndarray, list]:
    """The rounds of an edge list: on the CSR and plain-Python steps when small, else :func:`edge_rounds`."""
    if len(dst) > _EDGE_MIN:
        return edge_rounds(n, src, dst)
    indptr, indices = csr(n, src, dst)
    worklist = Worklist(n, indptr, indices)
    return worklist.state, worklist.run()
