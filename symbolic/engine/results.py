"""Value types the engine returns: arguments, attacks, the priority order, the
grounded labelling and the evaluation of a target (Definitions 1-5).

They are plain frozen records over string ids; the engine modules compute
them and the trace module (:mod:`symbolic.traces.trace`) renders them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Mapping, Sequence

from symbolic.engine.grounding import Theory
from symbolic.scenario.labels import AttackKind, Status

__all__ = ["Argument", "Attack", "Evaluation", "Label", "Labelling", "PriorityOrder"]


class Label(str, Enum):
    """Grounded labels (Algorithm 1)."""

    IN = "IN"
    OUT = "OUT"
    UNDEC = "UNDEC"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True, slots=True)
class Argument:
    """An argument (Definition 1).

    Attributes
    ----------
    id : str
        Deterministic id (``A1``, ``A2``... in construction order).
    conclusion : str
        The normalized literal it concludes.
    top_rule : str or None
        The rule applied last; ``None`` for a fact argument.
    fact : str or None
        The fact id, for a fact argument.
    subs : tuple of str
        Ids of the immediate sub-arguments, one per antecedent, in order.
    rules : frozenset of str
        Every rule used.
    premises : frozenset of str
        Every fact used.
    defeater : bool
        Whether the top rule is a defeater (the argument never counts as support).
    strict : bool
        Whether every rule used is strict (a fact argument is strict).
    """

    id: str
    conclusion: str
    top_rule: str | None
    fact: str | None
    subs: tuple[str, ...]
    rules: frozenset[str]
    premises: frozenset[str]
    defeater: bool = False
    strict: bool = True


@dataclass(frozen=True, slots=True)
class Attack:
    """One attack of ``attacker`` on ``target`` (Definition 2).

    Attributes
    ----------
    attacker, target : str
        Argument ids.  ``target`` contains the internally attacked element.
    kind : AttackKind
    on : str
        What is attacked inside ``target``: a sub-argument id (rebut), a rule
        id (undercut) or a fact id (undermine).
    lic : str or None
        Licensing rule (``None`` for a fact attacker: never neutralized).
    explicit : bool
        Whether an explicit attack edge of the analysis produced it.
    defeated_by : tuple of (str, str) or None
        The pair ``(stronger, weaker)`` of ``P+`` that neutralized it
        (Definition 4); ``None`` when the attack is active.
    """

    attacker: str
    target: str
    kind: AttackKind
    on: str
    lic: str | None
    explicit: bool = False
    defeated_by: tuple[str, str] | None = None

    @property
    def active(self) -> bool:
        """Whether the attack takes part in the labelling."""
        return self.defeated_by is None


@dataclass(frozen=True, slots=True)
class PriorityOrder:
    """The priority base ``P0``, its unresolved cycles and the closure ``P+`` (Definition 3).

    Attributes
    ----------
    base : frozenset of (str, str)
        Grounded ``(stronger, weaker)`` pairs.
    cycles : tuple of tuple of str
        The rule sets of the unresolved components, each sorted.
    unresolved : frozenset of str
        Rules flagged ``unresolved_priority``.
    closure : frozenset of (str, str)
        ``P+``: the transitive closure of what remains.
    """

    base: frozenset[tuple[str, str]]
    cycles: tuple[tuple[str, ...], ...]
    unresolved: frozenset[str]
    closure: frozenset[tuple[str, str]]

    def stronger(self, a: str, b: str) -> bool:
        """``a >+ b``."""
        return (a, b) in self.closure


@dataclass(frozen=True, slots=True)
class Labelling:
    """A grounded labelling and the worklist rounds that produced it.

    ``rounds[k]`` holds the arguments labelled in round ``k`` (IN in even
    rounds, OUT in odd ones); UNDEC arguments appear in no round.
    """

    labels: Mapping[str, Label]
    rounds: tuple[tuple[str, ...], ...] = ()


@dataclass(frozen=True, slots=True)
class Evaluation:
    """Everything the engine computed for one target (Definition 5).

    ``support`` is ``s(p)`` and ``against`` is ``a(p)``.
    """

    target: str
    status: Status
    support: bool
    against: bool
    theory: Theory
    arguments: Sequence[Argument]
    attacks: Sequence[Attack]
    priorities: PriorityOrder
    labelling: Labelling
    extra: Mapping[str, object] = field(default_factory=dict)
