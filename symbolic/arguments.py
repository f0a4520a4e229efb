"""Argument construction (Definition 1, SEMANTICS.md section 2).

Arguments are built bottom-up in rounds: round 0 holds one argument per
grounded fact; round ``k`` holds every rule application whose highest
sub-argument was built in round ``k - 1`` (so round ``k`` is exactly the set
of arguments of height ``k``).  A rule is never reused inside its own
sub-arguments, so every derivation is finite even when the rules are cyclic.
An argument whose top rule is a defeater argues only against: it is never
used as a sub-argument.

Ids ``A1, A2, ...`` follow the canonical order (height, then rule position in
the theory, then the ids of the sub-arguments), so they depend only on the
theory.
"""

from __future__ import annotations

from itertools import product
from typing import Sequence

from .errors import SymbolicError
from .grounding import Theory
from .labels import RuleKind
from .results import Argument

__all__ = ["ArgumentLimitError", "build_arguments", "super_arguments"]

DEFAULT_LIMIT = 2_000_000


class ArgumentLimitError(SymbolicError):
    """Building the arguments of a theory would exceed the argument limit."""


def _combinations(pools, fresh_from, rule_id, args):
    """Sub-argument combinations with at least one member of height ``k - 1``.

    ``pools[i]`` lists the support arguments for antecedent ``i`` (ascending
    index); members with index ``>= fresh_from`` are the fresh ones.
    """
    combos = []
    for i, pool in enumerate(pools):
        fresh = [a for a in pool if a >= fresh_from]
        if not fresh:
            continue
        parts = [[a for a in p if a < fresh_from] for p in pools[:i]] + [fresh] + pools[i + 1:]
        combos.extend(product(*parts))
    combos.sort()
    return [c for c in combos if not any(rule_id in args[s].rules for s in c)]


def build_arguments(theory: Theory, *, limit: int = DEFAULT_LIMIT) -> tuple[Argument, ...]:
    """Build every argument of a grounded theory (Definition 1).

    Parameters
    ----------
    theory : Theory
        The grounded facts and rules (from :func:`symbolic.grounding.ground`).
    limit : int, optional
        Largest number of arguments to build; a guard against the exponential
        blow-up that many alternative sub-arguments can cause.

    Returns
    -------
    tuple of Argument
        Fact arguments first (in theory order), then rule applications by
        height, rule position and sub-argument ids; ids are ``A1, A2, ...``
        in that order.

    Raises
    ------
    ArgumentLimitError
        If more than ``limit`` arguments would be built.

    Examples
    --------
    >>> from symbolic.grounding import Theory
    >>> from symbolic.model import Fact, Rule
    >>> t = Theory(frozenset({"E-01"}),
    ...     facts=(Fact(id="f1", literal="Delay(x)", evidence=["E-01"]),),
    ...     rules=(Rule(id="r1", antecedents=["Delay(x)"], consequent="Penalty(x)", evidence=["E-01"]),
    ...            Rule(id="r2", antecedents=["Penalty(x)"], consequent="Delay(x)", evidence=["E-01"])))
    >>> [(a.id, a.conclusion, a.top_rule, a.subs) for a in build_arguments(t)]
    [('A1', 'Delay(x)', None, ()), ('A2', 'Penalty(x)', 'r1', ('A1',)), ('A3', 'Delay(x)', 'r2', ('A2',))]
    """
    args: list[Argument] = []
    support: dict[str, list[int]] = {}

    def add(argument: Argument) -> None:
        if len(args) >= limit:
            raise ArgumentLimitError(
                f"theory yields more than {limit} arguments (while building {argument.conclusion!r})"
            )
        args.append(argument)

    for fact in theory.facts:
        add(Argument(id=f"A{len(args) + 1}", conclusion=fact.literal, top_rule=None, fact=fact.id,
                     subs=(), rules=frozenset(), premises=frozenset((fact.id,))))
    fresh_from, built_before = 0, len(args)
    first_round = True
    while True:
        new_support: list[tuple[str, int]] = []
        for index in range(fresh_from, built_before):
            if not args[index].defeater:
                new_support.append((args[index].conclusion, index))
        for literal, index in new_support:
            support.setdefault(literal, []).append(index)
        start = len(args)
        for rule in theory.rules:
            if not rule.antecedents:
                combos = [()] if first_round else []
            else:
                pools = [support.get(lit, []) for lit in rule.antecedents]
                if not all(pools):
                    continue
                combos = _combinations(pools, fresh_from, rule.id, args)
            for combo in combos:
                subs = [args[i] for i in combo]
                add(Argument(
                    id=f"A{len(args) + 1}",
                    conclusion=rule.consequent,
                    top_rule=rule.id,
                    fact=None,
                    subs=tuple(s.id for s in subs),
                    rules=frozenset((rule.id,)).union(*(s.rules for s in subs)),
                    premises=frozenset().union(*(s.premises for s in subs)),
                    defeater=rule.kind is RuleKind.DEFEATER,
                    strict=rule.kind is RuleKind.STRICT and all(s.strict for s in subs),
                ))
        first_round = False
        if len(args) == start:
            return tuple(args)
        fresh_from, built_before = start, len(args)


def super_arguments(arguments: Sequence[Argument]) -> dict[str, tuple[str, ...]]:
    """Map each argument id to the ids of every argument that contains it.

    An argument contains itself; the tuples are in argument order.
    This is the index behind internal-target propagation (Definition 2).

    Parameters
    ----------
    arguments : sequence of Argument
        Arguments as returned by :func:`build_arguments` (sub-arguments first).

    Returns
    -------
    dict of str to tuple of str

    Examples
    --------
    >>> from symbolic.results import Argument
    >>> a1 = Argument("A1", "p", None, "f1", (), frozenset(), frozenset({"f1"}))
    >>> a2 = Argument("A2", "q", "r1", None, ("A1",), frozenset({"r1"}), frozenset({"f1"}))
    >>> super_arguments([a1, a2])
    {'A1': ('A1', 'A2'), 'A2': ('A2',)}
    """
    containers: dict[str, set[int]] = {a.id: {i} for i, a in enumerate(arguments)}
    for i in range(len(arguments) - 1, -1, -1):
        mine = containers[arguments[i].id]
        for sub in arguments[i].subs:
            containers[sub] |= mine
    return {a.id: tuple(arguments[j].id for j in sorted(containers[a.id])) for a in arguments}
