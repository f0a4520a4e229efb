"""Leak-free train / validation / test splits (prompt optimization, held-out runs).

Scenarios are grouped into *clusters* before they are split: the two members
of an update pair (``metadata.pair``) and every controlled variant of a corpus
scenario (tag ``base:<id>``) together with that scenario and its own pair
partner form one cluster (connected components).  Whole clusters are dealt to
the splits after a seeded shuffle, so no update pair or defect family straddles
train and test, and demos drawn from the training split can never show an
evaluated case or its partner.  Each split has a digest over its scenarios'
content, recorded in the manifest of a saved program.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass
from typing import Iterable, Sequence

from symbolic.scenario.model import Scenario

from .errors import SplitError

__all__ = ["DEFAULT_FRACTIONS", "Split", "cluster_keys", "digest", "split_scenarios"]

DEFAULT_FRACTIONS = (0.5, 0.25, 0.25)


def _links(scenario: Scenario) -> list[str]:
    links = []
    if scenario.metadata.pair:
        links.append(f"pair:{scenario.metadata.pair}")
    links += [f"case:{tag[len('base:'):]}" for tag in scenario.metadata.tags if tag.startswith("base:")]
    return links


def cluster_keys(scenarios: Iterable[Scenario]) -> dict[str, str]:
    """Scenario id -> cluster key (the smallest scenario id of its cluster).

    Parameters
    ----------
    scenarios : iterable of Scenario

    Returns
    -------
    dict of str to str

    Raises
    ------
    SplitError
        If two scenarios share an id.

    Examples
    --------
    >>> from symbolic.scenario.model import Metadata
    >>> from scorer.metrics._examples import penalty_scenario
    >>> base = penalty_scenario()
    >>> a = base.model_copy(update={"id": "a", "metadata": Metadata(pair="p1", role="base")})
    >>> b = base.model_copy(update={"id": "b", "metadata": Metadata(pair="p1", role="update")})
    >>> c = base.model_copy(update={"id": "c", "metadata": Metadata(tags=("base:b",))})
    >>> d = base.model_copy(update={"id": "d"})
    >>> cluster_keys([a, b, c, d])
    {'a': 'a', 'b': 'a', 'c': 'a', 'd': 'd'}
    """
    parent: dict[str, str] = {}

    def find(x: str) -> str:
        parent.setdefault(x, x)
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    def union(x: str, y: str) -> None:
        rx, ry = find(x), find(y)
        if rx != ry:
            parent[max(rx, ry)] = min(rx, ry)

    ids: list[str] = []
    seen: set[str] = set()
    for s in scenarios:
        if s.id in seen:
            raise SplitError(f"two scenarios share the id {s.id!r}")
        seen.add(s.id)
        ids.append(s.id)
        find(f"case:{s.id}")
        for link in _links(s):
            union(f"case:{s.id}", link)
    members: dict[str, list[str]] = {}
    for i in ids:
        members.setdefault(find(f"case:{i}"), []).append(i)
    return {i: min(members[find(f"case:{i}")]) for i in ids}


def digest(scenarios: Iterable[Scenario]) -> str:
    """SHA-256 over the scenarios' canonical JSON, in id order.

    >>> from scorer.metrics._examples import penalty_scenario
    >>> len(digest([penalty_scenario()])), digest([]) == digest([])
    (64, True)
    """
    h = hashlib.sha256()
    for s in sorted(scenarios, key=lambda s: s.id):
        h.update(s.model_dump_json().encode("utf-8"))
        h.update(b"\n")
    return h.hexdigest()


@dataclass(frozen=True)
class Split:
    """Three disjoint sets of scenarios, cluster-closed.

    Attributes
    ----------
    train, val, test : tuple of Scenario
        Sorted by id.  ``test`` is the held-out split every result is reported on.
    seed : int
    """

    train: tuple[Scenario, ...]
    val: tuple[Scenario, ...]
    test: tuple[Scenario, ...]
    seed: int = 0

    @property
    def digests(self) -> dict[str, str]:
        """Split name -> :func:`digest` of its scenarios."""
        return {"train": digest(self.train), "val": digest(self.val), "test": digest(self.test)}

    def ids(self, name: str) -> tuple[str, ...]:
        """Case ids of split ``name`` (``train``, ``val`` or ``test``)."""
        return tuple(s.id for s in getattr(self, name))


def _priority(s: Scenario) -> bool:
    return bool(s.metadata.priority or s.gold.priorities)


def _deal(clusters: dict[str, list[Scenario]], strata: list[list[str]], shares, rng=None):
    train: list[Scenario] = []
    val: list[Scenario] = []
    test: list[Scenario] = []
    for keys in strata:
        if rng is not None:
            rng.shuffle(keys)
        n = sum(len(clusters[k]) for k in keys)
        want_test, want_val = round(n * shares[2]), round(n * shares[1])
        got_test = got_val = 0
        for key in keys:
            members = clusters[key]
            if got_test < want_test or not test:
                test += members
                got_test += len(members)
            elif got_val < want_val or not val:
                val += members
                got_val += len(members)
            else:
                train += members
    return train, val, test


def split_scenarios(scenarios: Sequence[Scenario], *, seed: int = 0,
                    fractions: Sequence[float] = DEFAULT_FRACTIONS, stratify: bool = True) -> Split:
    """Split scenarios by cluster into train, validation and test.

    Clusters (:func:`cluster_keys`) are sorted, shuffled with ``seed`` and dealt
    whole: first to test until it holds its share of scenarios, then to
    validation, the rest to train.  With ``stratify`` this is done separately
    for the clusters with and without a gold priority, so every split holds
    priority cases when there are enough (falling back to one stratum when a
    split would stay empty).

    Parameters
    ----------
    scenarios : sequence of Scenario
    seed : int, optional
        Seed of the shuffle.
    fractions : sequence of three floats, optional
        Shares of train, validation and test (normalized; each must be > 0).
    stratify : bool, optional
        Deal priority and non-priority clusters separately.

    Returns
    -------
    Split

    Raises
    ------
    SplitError
        On bad fractions, duplicate ids, or fewer clusters than three.

    Examples
    --------
    >>> from scorer.metrics._examples import penalty_scenario
    >>> cases = [penalty_scenario().model_copy(update={"id": f"c{i}"}) for i in range(8)]
    >>> sp = split_scenarios(cases, seed=1)
    >>> len(sp.train), len(sp.val), len(sp.test)
    (4, 2, 2)
    >>> split_scenarios(cases, seed=1) == sp
    True
    """
    if len(fractions) != 3 or any(not isinstance(f, (int, float)) or f <= 0 for f in fractions):
        raise SplitError(f"fractions must be three positive numbers (train, val, test), got {tuple(fractions)!r}")
    keys = cluster_keys(scenarios)
    clusters: dict[str, list[Scenario]] = {}
    for s in scenarios:
        clusters.setdefault(keys[s.id], []).append(s)
    if len(clusters) < 3:
        raise SplitError(f"{len(scenarios)} scenarios form {len(clusters)} clusters; a split needs at least 3")
    total = float(sum(fractions))
    shares = (fractions[0] / total, fractions[1] / total, fractions[2] / total)
    rng = random.Random(seed)
    strata: dict[bool, list[str]] = {}
    for key in sorted(clusters):
        strata.setdefault(stratify and any(_priority(s) for s in clusters[key]), []).append(key)
    for keys in strata.values():
        rng.shuffle(keys)
    train, val, test = _deal(clusters, [strata[k] for k in sorted(strata)], shares)
    if stratify and not (train and val and test):
        train, val, test = _deal(clusters, [[k for k in sorted(clusters)]], shares, rng)
    if not train or not val or not test:
        raise SplitError(f"cannot deal {len(clusters)} clusters into three non-empty splits with fractions "
                         f"{tuple(fractions)!r}")

    def by_id(items):
        return tuple(sorted(items, key=lambda s: s.id))

    return Split(by_id(train), by_id(val), by_id(test), seed)
