"""Typed content of serialized records (see :mod:`symbolic.traces.records`): proof
steps, claims, grounding events, and the :class:`Records` batch.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from symbolic.errors import ScenarioError
from symbolic.scenario.model import AttackEdge, Priority

__all__ = ["Claim", "Grounding", "ProofStep", "RecordError", "Records"]


class RecordError(ScenarioError):
    """A serialized attack record or provenance event is malformed (names field and value)."""


@dataclass(frozen=True, slots=True)
class ProofStep:
    """A provenance event that restates one derivation step.

    Attributes
    ----------
    id : str or None
        The step's own id, if it has one (an alias of ``rule`` or ``fact``).
    rule, fact : str or None
        The rule applied, or the fact restated.
    premises : tuple of str
        What the step says it used.
    conclusion : str or None
        What the step says it derived.
    """

    id: str | None
    rule: str | None = None
    fact: str | None = None
    premises: tuple[str, ...] = ()
    conclusion: str | None = None

    @property
    def referent(self) -> str | None:
        """The rule or fact this step is an alias of."""
        return self.rule if self.rule is not None else self.fact


@dataclass(frozen=True, slots=True)
class Claim:
    """A provenance event restating a computed result; ``record`` is its sorted JSON."""

    event: str
    record: str


@dataclass(frozen=True, slots=True)
class Grounding:
    """A provenance event saying that evidence fragment ``fragment`` grounds object ``object``.

    ``object`` is a fact or rule id, a proof-step id, or a priority id ``rA>rB``.
    """

    fragment: str
    object: str


@dataclass(frozen=True, slots=True)
class Records:
    """The typed content of a batch of records."""

    attacks: tuple[AttackEdge, ...] = ()
    priorities: tuple[Priority, ...] = ()
    steps: tuple[ProofStep, ...] = ()
    claims: tuple[Claim, ...] = ()
    groundings: tuple[Grounding, ...] = ()

    def __add__(self, other: "Records") -> "Records":
        return Records(self.attacks + other.attacks, self.priorities + other.priorities,
                       self.steps + other.steps, self.claims + other.claims,
                       self.groundings + other.groundings)

    def aliases(self) -> dict[str, str]:
        """Map each proof-step id to the rule or fact it applies."""
        return {s.id: s.referent for s in self.steps if s.id is not None and s.referent is not None}

    def resolved(self) -> "Records":
        """These records with every proof-step id replaced by the rule or fact it stands for.

        Examples
        --------
        >>> from symbolic.traces.records import parse_records
        >>> r = parse_records([{"event": "derive", "id": "s1", "rule": "r2"},
        ...                    {"from": "s1", "to": "r1", "kind": "rebut"}]).resolved()
        >>> (r.attacks[0].source, r.attacks[0].target)
        ('r2', 'r1')
        """
        alias = self.aliases()

        def sub(name):
            return alias.get(name, name) if name is not None else None

        attacks = tuple(e.model_copy(update={"source": sub(e.source), "target": sub(e.target),
                                             "lic": sub(e.lic)}) for e in self.attacks)
        priorities = tuple(p.model_copy(update={"stronger": sub(p.stronger), "weaker": sub(p.weaker)})
                           for p in self.priorities)
        groundings = tuple(Grounding(g.fragment, sub(g.object)) for g in self.groundings)
        return replace(self, attacks=attacks, priorities=priorities, groundings=groundings)
