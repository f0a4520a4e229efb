"""Suite statistics (``paratrace suite stats``) and the corpus coverage targets of experiments/suites/normative-en.md."""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Mapping, Sequence

from symbolic.scenario.model import Scenario

__all__ = ["CARD_BEGIN", "CARD_END", "CORPUS_TARGETS", "SuiteStats", "refresh_card", "stats_markdown",
           "suite_stats", "unmet_targets"]

_STATUSES = ("accepted", "rejected", "both", "undecidable")
_PER_CASE_TAG = re.compile(r"^(?:base|[a-z_]*id):")  # one value per case: counting them says nothing


@dataclass(frozen=True)
class SuiteStats:
    """Counts over one suite.

    Attributes
    ----------
    total : int
    domains, statuses, tags, defects, bases : Mapping[str, int]
        Scenarios per domain (``"-"`` when unset), gold status, metadata tag,
        defect class (controlled suites) and priority basis (over gold priorities).
    contradiction, priority : int
        Scenarios with each flag.
    pairs : int
        Complete update pairs (one base, one update).
    pairs_changed : int
        Complete pairs whose two gold statuses differ.
    fragments : tuple of int
        ``(min, max)`` evidence fragments per scenario.
    """

    total: int
    domains: Mapping[str, int]
    statuses: Mapping[str, int]
    contradiction: int
    priority: int
    pairs: int
    pairs_changed: int
    tags: Mapping[str, int] = field(default_factory=dict)
    defects: Mapping[str, int] = field(default_factory=dict)
    bases: Mapping[str, int] = field(default_factory=dict)
    fragments: tuple[int, int] = (0, 0)

    def as_dict(self) -> dict:
        """A JSON-ready dict with sorted keys."""
        return {
            "total": self.total, "domains": dict(sorted(self.domains.items())),
            "statuses": {s: self.statuses.get(s, 0) for s in _STATUSES},
            "contradiction": self.contradiction, "priority": self.priority,
            "pairs": self.pairs, "pairs_changed": self.pairs_changed,
            "tags": dict(sorted(self.tags.items())), "defects": dict(sorted(self.defects.items())),
            "priority_bases": dict(sorted(self.bases.items())), "fragments": list(self.fragments),
        }


def suite_stats(scenarios: Sequence[Scenario]) -> SuiteStats:
    """Count a suite by domain, status, flags, tags, defect classes and update pairs.

    Examples
    --------
    >>> from symbolic.scenario.model import EvidenceFragment, Gold, Metadata
    >>> frag = [EvidenceFragment(id="E-01", text="t", source="doc")]
    >>> a = Scenario(id="a", query="q", target="P(x)", evidence=frag, gold=Gold(status="accepted"),
    ...              metadata=Metadata(domain="contracts", pair="p1", role="base"))
    >>> b = a.model_copy(update={"id": "b", "gold": Gold(status="rejected"),
    ...                          "metadata": Metadata(domain="contracts", pair="p1", role="update")})
    >>> st = suite_stats([a, b])
    >>> st.total, dict(st.domains), st.pairs, st.pairs_changed
    (2, {'contracts': 2}, 1, 1)
    """
    roles: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    for s in scenarios:
        if s.metadata.pair is not None:
            roles[s.metadata.pair][s.metadata.role].append(s.gold.status.value)
    complete = [r for r in roles.values() if len(r["base"]) == 1 and len(r["update"]) == 1]
    sizes = [len(s.evidence) for s in scenarios]
    return SuiteStats(
        total=len(scenarios),
        domains=Counter(s.metadata.domain.value if s.metadata.domain else "-" for s in scenarios),
        statuses=Counter(s.gold.status.value for s in scenarios),
        contradiction=sum(s.metadata.contradiction for s in scenarios),
        priority=sum(s.metadata.priority for s in scenarios),
        pairs=len(complete),
        pairs_changed=sum(r["base"][0] != r["update"][0] for r in complete),
        tags=Counter(t for s in scenarios for t in s.metadata.tags if not _PER_CASE_TAG.match(t)),
        defects=Counter(s.metadata.defect_class.value for s in scenarios if s.metadata.defect_class),
        bases=Counter(p.basis.value for s in scenarios for p in s.gold.priorities),
        fragments=(min(sizes, default=0), max(sizes, default=0)),
    )


CORPUS_TARGETS = {
    "scenarios": 60, "per_domain": 10, "per_status": 10, "contradiction_share": 0.60,
    "priority_share": 0.35, "pairs": 15, "pairs_changed": 10, "min_fragments": 3, "max_fragments": 8,
}


def unmet_targets(stats: SuiteStats, targets: Mapping[str, float] = CORPUS_TARGETS) -> list[str]:
    """The coverage targets of the authored corpus that ``stats`` misses (empty when all are met).

    Examples
    --------
    >>> st = SuiteStats(total=60, domains={d: 12 for d in ("contracts", "banking_guarantees", "compliance",
    ...                 "internal_policies", "regulatory")}, statuses={"accepted": 30, "rejected": 10,
    ...                 "both": 10, "undecidable": 10}, contradiction=40, priority=21, pairs=15,
    ...                 pairs_changed=9, fragments=(3, 8))
    >>> unmet_targets(st)
    ['9 status-changing pairs < 10']
    """
    out = []
    if stats.total < targets["scenarios"]:
        out.append(f"{stats.total} scenarios < {targets['scenarios']}")
    for domain in ("contracts", "banking_guarantees", "compliance", "internal_policies", "regulatory"):
        if stats.domains.get(domain, 0) < targets["per_domain"]:
            out.append(f"domain {domain}: {stats.domains.get(domain, 0)} < {targets['per_domain']}")
    for status in _STATUSES:
        if stats.statuses.get(status, 0) < targets["per_status"]:
            out.append(f"status {status}: {stats.statuses.get(status, 0)} < {targets['per_status']}")
    total = max(stats.total, 1)
    if stats.contradiction / total < targets["contradiction_share"]:
        out.append(f"contradiction share {stats.contradiction / total:.2f} < {targets['contradiction_share']}")
    if stats.priority / total < targets["priority_share"]:
        out.append(f"priority share {stats.priority / total:.2f} < {targets['priority_share']}")
    if stats.pairs < targets["pairs"]:
        out.append(f"{stats.pairs} update pairs < {targets['pairs']}")
    if stats.pairs_changed < targets["pairs_changed"]:
        out.append(f"{stats.pairs_changed} status-changing pairs < {targets['pairs_changed']}")
    low, high = stats.fragments
    if stats.total and (low < targets["min_fragments"] or high > targets["max_fragments"]):
        out.append(f"fragments per scenario {low}-{high} outside "
                   f"{targets['min_fragments']}-{targets['max_fragments']}")
    return out


CARD_BEGIN = "<!-- suite-stats:begin (written by `paratrace suite build`; do not edit) -->"
CARD_END = "<!-- suite-stats:end -->"


def _row(counts: Mapping[str, int], keys: Sequence[str] | None = None) -> str:
    keys = list(keys) if keys is not None else sorted(counts)
    return ", ".join(f"{k} {counts.get(k, 0)}" for k in keys) or "none"


def stats_markdown(stats: SuiteStats, sha256: str) -> str:
    """The generated statistics block of a suite card (deterministic Markdown).

    Examples
    --------
    >>> st = SuiteStats(total=2, domains={"contracts": 2}, statuses={"accepted": 2}, contradiction=1,
    ...                 priority=0, pairs=0, pairs_changed=0, fragments=(3, 4))
    >>> print(stats_markdown(st, "ab" * 32).splitlines()[4])
    | cases | 2 (3-4 evidence fragments each) |
    """
    total = max(stats.total, 1)
    lines = [
        CARD_BEGIN,
        "",
        "| | |", "| --- | --- |",
        f"| cases | {stats.total} ({stats.fragments[0]}-{stats.fragments[1]} evidence fragments each) |",
        f"| by category | {_row(stats.domains)} |",
        f"| by gold status | {_row(stats.statuses, _STATUSES)} |",
        f"| contradiction flag | {stats.contradiction} ({stats.contradiction / total:.0%}) |",
        f"| priority flag | {stats.priority} ({stats.priority / total:.0%}) |",
        f"| priority bases | {_row(stats.bases)} |",
    ]
    if stats.pairs:
        lines.append(f"| update pairs | {stats.pairs} ({stats.pairs_changed} change the gold status) |")
    if stats.defects:
        lines.append(f"| defect classes | {_row(stats.defects)} |")
    tags = {k: v for k, v in stats.tags.items() if k != "controlled"}
    if tags:
        lines.append(f"| feature tags | {_row(tags)} |")
    lines += [f"| file SHA-256 | `{sha256}` |", "", CARD_END]
    return "\n".join(lines)


def refresh_card(text: str, block: str) -> str:
    """``text`` with its generated statistics block replaced by ``block``.

    Raises
    ------
    ValueError
        If the card has no (or a malformed) statistics block.
    """
    start, end = text.find(CARD_BEGIN), text.find(CARD_END)
    if start < 0 or end < start:
        raise ValueError("the card has no statistics block (suite-stats:begin ... suite-stats:end)")
    return text[:start] + block + text[end + len(CARD_END):]
