"""``targetRules`` of an attack (Definition 4, docs/semantics.md section 5): the one definition,
read by the attack functions (:mod:`symbolic.engine.attacks`) and the trace's defeat edges.

An attack is neutralized when some rule of ``targetRules(attack)`` is stronger in ``P+`` than its
licensing rule.  Team reading: a rebut on a sub-argument concluding ``L``, every applicable rule
concluding ``L`` (:meth:`TargetRules.of_conclusion`); an undercut of ``r``, ``{r}``; undermining
fact ``f`` inside ``B``, the top rules of the sub-arguments of ``B`` that use ``f``
(:meth:`TargetRules.of_undermine`).
"""

from __future__ import annotations

from typing import Iterable, Sequence

from symbolic.engine.grounding import Theory
from symbolic.engine.results import Argument, Evaluation

__all__ = ["NeutralizingPairs", "TargetRules", "applicable_rules", "target_rules_of"]


def applicable_rules(theory: Theory, arguments: Sequence[Argument]) -> frozenset[str]:
    """Rules whose antecedents are all concluded by non-defeater arguments.

    The rules the team reading of ``targetRules`` ranges over (Definition 4).

    Parameters
    ----------
    theory : Theory
    arguments : sequence of Argument

    Returns
    -------
    frozenset of str

    Examples
    --------
    >>> from symbolic.engine.grounding import Theory
    >>> from symbolic.scenario.model import Fact, Rule
    >>> t = Theory(frozenset({"E-01"}), facts=(Fact(id="f1", literal="a", evidence=["E-01"]),),
    ...            rules=(Rule(id="r1", antecedents=["a"], consequent="b", evidence=["E-01"]),
    ...                   Rule(id="r2", antecedents=["c"], consequent="b", evidence=["E-01"])))
    >>> sorted(applicable_rules(t, [Argument("A1", "a", None, "f1", (), frozenset(), frozenset({"f1"}))]))
    ['r1']
    """
    supported = {a.conclusion for a in arguments if not a.defeater}
    return frozenset(r.id for r in theory.rules if all(x in supported for x in r.antecedents))


class TargetRules:
    """``targetRules`` (Definition 4) over one theory's arguments and ``P+``.

    Parameters
    ----------
    theory : Theory
    arguments : sequence of Argument
        The theory's arguments (Definition 1), sub-arguments first.
    closure : collection of (str, str)
        The pairs ``(stronger, weaker)`` of ``P+``, read when :attr:`stronger_than` is first needed.

    Attributes
    ----------
    concluders : dict of str to list of str
        The applicable rules concluding each literal, in the theory's rule order.
    stronger_than : dict of str to set of str
        For each rule, the rules stronger than it in ``P+`` (built on first use).

    Examples
    --------
    >>> from symbolic.engine.grounding import Theory
    >>> from symbolic.scenario.model import Fact, Rule
    >>> t = Theory(frozenset({"E-01"}), facts=(Fact(id="f1", literal="a", evidence=["E-01"]),),
    ...            rules=(Rule(id="r1", antecedents=["a"], consequent="b", evidence=["E-01"]),
    ...                   Rule(id="r2", antecedents=["a"], consequent="¬b", evidence=["E-01"])))
    >>> a1 = Argument("A1", "a", None, "f1", (), frozenset(), frozenset({"f1"}))
    >>> a2 = Argument("A2", "b", "r1", None, ("A1",), frozenset({"r1"}), frozenset({"f1"}))
    >>> rules = TargetRules(t, [a1, a2], [("r1", "r2")])
    >>> rules.of_conclusion("b"), rules.of_undermine("A2", "f1"), rules.stronger("r2")
    (['r1'], ['r1'], {'r1'})
    """

    __slots__ = ("concluders", "_stronger_than", "_arguments", "_by_id", "_sources",
                 "_neutralizing")

    def __init__(self, theory: Theory, arguments: Sequence[Argument], closure: Iterable[tuple[str, str]]):
        applicable = applicable_rules(theory, arguments)
        self.concluders: dict[str, list[str]] = {}
        for rule in theory.rules:
            if rule.id in applicable:
                self.concluders.setdefault(rule.consequent, []).append(rule.id)
        self._stronger_than = None
        self._arguments = arguments
        self._sources = (theory, arguments, closure)
        self._neutralizing = None  # NeutralizingPairs.of, for the evaluation these were built for
        self._by_id: dict[str, Argument] | None = None

    @property
    def stronger_than(self) -> dict[str, set[str]]:
        """For each rule, the rules stronger than it in ``P+`` (built on first use)."""
        if self._stronger_than is None:
            grouped: dict[str, set[str]] = {}
            for strong, weak in self._sources[2]:
                grouped.setdefault(weak, set()).add(strong)
            self._stronger_than = grouped
        return self._stronger_than

    @property
    def arguments(self) -> Sequence[Argument]:
        """The arguments these ``targetRules`` range over."""
        return self._arguments

    def computed_from(self, evaluation: Evaluation) -> bool:
        """Whether these are the ``targetRules`` of ``evaluation``'s own theory, arguments and ``P+``."""
        theory, arguments, closure = self._sources
        return (theory is evaluation.theory and arguments is evaluation.arguments
                and closure is evaluation.priorities.closure)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, TargetRules):
            return NotImplemented
        return (self.concluders == other.concluders and self.stronger_than == other.stronger_than
                and tuple(self._arguments) == tuple(other._arguments))

    __hash__ = None  # type: ignore[assignment]

    def of_conclusion(self, literal: str) -> list[str]:
        """``targetRules`` of a rebut on a sub-argument concluding ``literal``."""
        return self.concluders.get(literal, [])

    def of_undermine(self, target: str, fact: str) -> list[str]:
        """``targetRules`` of undermining ``fact`` inside argument ``target``.

        The top rules of the sub-arguments of ``target`` (itself included)
        that use ``fact``, in depth-first order from ``target``.
        """
        if self._by_id is None:
            self._by_id = {a.id: a for a in self._arguments}
        by_id, rules, stack, seen = self._by_id, [], [target], set()
        while stack:
            node = by_id[stack.pop()]
            if node.id in seen or fact not in node.premises:
                continue
            seen.add(node.id)
            if node.top_rule is not None and node.top_rule not in rules:
                rules.append(node.top_rule)
            stack.extend(reversed(node.subs))
        return rules

    def stronger(self, rule: str | None) -> set[str]:
        """The rules stronger than ``rule`` in ``P+`` (empty for ``None``, a fact's attack)."""
        return self.stronger_than.get(rule, set()) if rule is not None else set()


def target_rules_of(evaluation: Evaluation) -> TargetRules:
    """The :class:`TargetRules` of an evaluation: the engine's own (``evaluation.extra["target_rules"]``,
    set by :func:`symbolic.engine.status.evaluate`) when it carries them, else computed afresh."""
    carried = _carried(evaluation)
    if carried is not None:
        return carried
    return TargetRules(evaluation.theory, evaluation.arguments, evaluation.priorities.closure)


def _carried(evaluation: Evaluation) -> TargetRules | None:
    """The engine's own :class:`TargetRules` of ``evaluation``, if it carries them for its theory."""
    carried = evaluation.extra.get("target_rules")
    return carried if isinstance(carried, TargetRules) and carried.computed_from(evaluation) else None


class NeutralizingPairs:
    """The pairs of ``P+`` that neutralize an attack (Definition 4) of one evaluation.

    :meth:`pairs` gives, for an attack on ``on`` inside ``target`` licensed by
    ``lic``, every ``(t, lic)`` with ``t`` in ``targetRules`` and ``t >+ lic``,
    plus the engine's own ``defeated_by`` pair; ``targetRules`` and ``P+``
    come from :class:`TargetRules`, as in the engine.
    """

    def __init__(self, evaluation: Evaluation):
        self.target_rules = target_rules_of(evaluation)
        self.rules = {r.id for r in evaluation.theory.rules}
        self.facts = {f.id for f in evaluation.theory.facts}
        self.conclusion = {a.id: a.conclusion for a in evaluation.arguments}

    @classmethod
    def of(cls, evaluation: Evaluation) -> NeutralizingPairs:
        """The neutralizing pairs of ``evaluation``, built once and kept with the ``targetRules`` it
        carries (:func:`target_rules_of`); an evaluation that carries none gets a new one each time."""
        carried = _carried(evaluation)
        if carried is None:
            return cls(evaluation)
        if carried._neutralizing is None:
            carried._neutralizing = cls(evaluation)
        return carried._neutralizing

    def target_class(self, on: str, target: str) -> tuple:
        """A key of the ``targetRules`` of an attack on ``on`` (a rule, fact or sub-argument id) inside
        argument ``target``: ``(0, rule)``, ``(1, fact, target)`` or ``(2, attacked conclusion)``;
        attacks with equal keys have equal ``targetRules`` (:meth:`targets_of_class`)."""
        if on in self.rules:
            return (0, on)
        if on in self.facts:
            return (1, on, target)
        return (2, self.conclusion[on])

    def targets_of_class(self, key: tuple) -> Sequence[str]:
        """The ``targetRules`` of the attacks of a :meth:`target_class` key (to read, not to change)."""
        if key[0] == 0:
            return key[1:]
        if key[0] == 1:
            return self.target_rules.of_undermine(key[2], key[1])
        return self.target_rules.of_conclusion(key[1])

    def pairs(self, on: str, target: str, lic: str, defeated_by) -> frozenset[tuple[str, str]]:
        """Every ``(t, lic)`` of ``P+`` with ``t`` in the ``targetRules`` of an attack on ``on`` inside
        ``target`` (as in :meth:`target_class`), plus the engine's own pair ``defeated_by`` (or ``None``)."""
        targets = set(self.targets_of_class(self.target_class(on, target)))
        strong = self.target_rules.stronger(lic)
        found = {(t, lic) for t in (targets & strong if len(targets) > len(strong) else strong & targets)} \
            if strong else set()
        if defeated_by is not None:
            found.add(tuple(defeated_by))
        return frozenset(found)
