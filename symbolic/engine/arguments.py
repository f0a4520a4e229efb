"""Argument construction (Definition 1, docs/semantics.md section 3) and the argument index that
attack derivation reads.

Arguments are built bottom-up in rounds: round ``k`` holds the arguments of height ``k``.  A rule is
never reused inside its own sub-arguments, so derivations are finite even for cyclic rules; a
defeater's argument argues only against and is never a sub-argument.
"""

from __future__ import annotations

from bisect import bisect_left
from itertools import product
from collections.abc import Mapping, Sequence

from symbolic.errors import SymbolicError
from symbolic.engine.grounding import Theory
from symbolic.scenario.labels import RuleKind
from symbolic.engine.results import Argument

__all__ = ["ArgumentIndex", "ArgumentLimitError", "build_arguments"]

DEFAULT_LIMIT = 2_000_000
_EMPTY: frozenset[str] = frozenset()
_DEFEATER, _STRICT = RuleKind.DEFEATER, RuleKind.STRICT


class ArgumentLimitError(SymbolicError):
    """Building the arguments of a theory would exceed the argument limit."""


def _combinations(pools, fresh_from, rule_id, args):
    """Sub-argument combinations with at least one member of height ``k - 1``.

    ``pools[i]`` lists the support arguments for antecedent ``i`` (ascending
    index); members with index ``>= fresh_from`` are the fresh ones.  The
    result is sorted and leaves out combinations that already use ``rule_id``.
    """
    cuts = [bisect_left(pool, fresh_from) for pool in pools]
    used = {i for pool in pools for i in pool if rule_id in args[i].rules}
    if used:
        pools = [[i for i in pool if i not in used] for pool in pools]
        cuts = [bisect_left(pool, fresh_from) for pool in pools]
    terms = []
    for i, pool in enumerate(pools):
        if cuts[i] == len(pool):
            continue
        parts = [p[:c] for p, c in zip(pools[:i], cuts[:i])] + [pool[cuts[i]:]] + pools[i + 1:]
        if all(parts):
            terms.append(parts)
    if len(terms) == 1:  # the product of ascending pools is already in order
        return list(product(*terms[0]))
    combos = [c for parts in terms for c in product(*parts)]
    combos.sort()
    return combos


def build_arguments(theory: Theory, *, limit: int = DEFAULT_LIMIT) -> tuple[Argument, ...]:
    """Build every argument of a grounded theory (Definition 1), in semi-naive rounds: round ``k``
    revisits only the rules with an antecedent that gained a support argument in round ``k - 1``.

    Parameters
    ----------
    theory : Theory
    limit : int, optional
        Largest number of arguments to build (a guard against exponentially many alternatives).

    Returns
    -------
    tuple of Argument
        Fact arguments first, then rule applications by height, rule position and sub-argument ids;
        ids ``A1, A2, ...`` in that order (they depend only on the theory).

    Raises
    ------
    ArgumentLimitError
        If more than ``limit`` arguments would be built.

    Examples
    --------
    >>> from symbolic.engine.grounding import Theory
    >>> from symbolic.scenario.model import Fact, Rule
    >>> t = Theory(frozenset({"E-01"}),
    ...     facts=(Fact(id="f1", literal="Delay(x)", evidence=["E-01"]),),
    ...     rules=(Rule(id="r1", antecedents=["Delay(x)"], consequent="Penalty(x)", evidence=["E-01"]),
    ...            Rule(id="r2", antecedents=["Penalty(x)"], consequent="Delay(x)", evidence=["E-01"])))
    >>> [(a.id, a.conclusion, a.top_rule, a.subs) for a in build_arguments(t)]
    [('A1', 'Delay(x)', None, ()), ('A2', 'Penalty(x)', 'r1', ('A1',)), ('A3', 'Delay(x)', 'r2', ('A2',))]
    """
    args: list[Argument] = []
    append = args.append
    support: dict[str, list[int]] = {}
    rules = theory.rules
    watching: dict[str, list[int]] = {}
    for position, rule in enumerate(rules):
        for literal in dict.fromkeys(rule.antecedents):
            watching.setdefault(literal, []).append(position)

    def too_many(conclusion: str) -> ArgumentLimitError:
        return ArgumentLimitError(
            f"theory yields more than {limit} arguments (while building {conclusion!r})"
        )

    if len(theory.facts) > limit:
        raise too_many(theory.facts[limit].literal)
    for fact in theory.facts:
        append(Argument(f"A{len(args) + 1}", fact.literal, None, fact.id, (), _EMPTY, frozenset((fact.id,)),
                    False, True))
    fresh_from = 0
    candidates = {i for i, rule in enumerate(rules) if not rule.antecedents}
    initial = set(candidates)
    while True:
        for index in range(fresh_from, len(args)):
            if not args[index].defeater:
                literal = args[index].conclusion
                support.setdefault(literal, []).append(index)
                candidates.update(watching.get(literal, ()))
        start = len(args)
        for position in sorted(candidates):
            rule = rules[position]
            rule_id, head, own = rule.id, rule.consequent, frozenset((rule.id,))
            defeater, strict = rule.kind is _DEFEATER, rule.kind is _STRICT
            if position in initial:
                combos = [()]
            else:
                pools = [support.get(lit) for lit in rule.antecedents]
                if not all(pools):
                    continue
                combos = _combinations(pools, fresh_from, rule_id, args)
            if len(args) + len(combos) > limit:
                raise too_many(head)
            for combo in combos:
                parts = [args[i] for i in combo]
                append(Argument(f"A{len(args) + 1}", head, rule_id, None, tuple(p.id for p in parts),
                            own.union(*(p.rules for p in parts)), frozenset().union(*(p.premises for p in parts)),
                            defeater, strict and all(p.strict for p in parts)))
        if len(args) == start:
            return tuple(args)
        fresh_from, candidates, initial = start, set(), set()


class ArgumentIndex:
    """Arguments by integer position, indexed for attack derivation (Definition 2): by conclusion, by
    top rule or fact, by rule used, by premise, and the super-arguments of each (itself included,
    for internal-target propagation).  Every list is ascending.

    Parameters
    ----------
    arguments : sequence of Argument
        Sub-arguments before the arguments that use them (as built by
        :func:`build_arguments`).

    Examples
    --------
    >>> from symbolic.engine.results import Argument
    >>> a1 = Argument("A1", "p", None, "f1", (), frozenset(), frozenset({"f1"}))
    >>> a2 = Argument("A2", "q", "r1", None, ("A1",), frozenset({"r1"}), frozenset({"f1"}))
    >>> index = ArgumentIndex([a1, a2])
    >>> index.containers, index.users, index.by_top
    ([[0, 1], [1]], {'r1': [1]}, {'f1': [0], 'r1': [1]})
    """

    __slots__ = ("arguments", "ids", "position", "conclusion", "top", "subs", "by_conclusion",
                 "by_top", "containers", "_users", "_premise_users")

    def __init__(self, arguments: Sequence[Argument]):
        self.arguments = args = tuple(arguments)
        self.ids = ids = tuple([a.id for a in args])
        self.position = position = dict(zip(ids, range(len(ids))))
        self.conclusion = [a.conclusion for a in args]
        self.top = top = [a.top_rule for a in args]
        self.subs = subs = [[position[s] for s in a.subs] if a.subs else [] for a in args]
        by_conclusion: dict[str, list[int]] = {}
        by_top: dict[str, list[int]] = {}
        for i, (literal, rule) in enumerate(zip(self.conclusion, top)):
            group = by_conclusion.get(literal)
            if group is None:
                by_conclusion[literal] = [i]
            else:
                group.append(i)
            key = rule if rule is not None else args[i].fact
            group = by_top.get(key)
            if group is None:
                by_top[key] = [i]
            else:
                group.append(i)
        self.by_conclusion, self.by_top = by_conclusion, by_top
        self._users: dict[str, list[int]] | None = None
        self._premise_users: dict[str, list[int]] | None = None
        supers: list = [None] * len(args)
        for i in range(len(args) - 1, -1, -1):
            mine = supers[i]
            if mine is None:
                mine = supers[i] = [i]
            else:
                mine.add(i)
                mine = supers[i] = sorted(mine)
            for s in subs[i]:
                if supers[s] is None:
                    supers[s] = set(mine)
                else:
                    supers[s].update(mine)
        self.containers: list[list[int]] = supers

    @property
    def users(self) -> Mapping[str, list[int]]:
        """The arguments using each rule: those containing an argument with that top rule."""
        if self._users is None:
            self._users = self._containing(lambda a: a.top_rule)
        return self._users

    @property
    def premise_users(self) -> Mapping[str, list[int]]:
        """The arguments with each fact among their premises: those containing its fact argument."""
        if self._premise_users is None:
            self._premise_users = self._containing(lambda a: a.fact)
        return self._premise_users

    def _containing(self, key_of) -> dict[str, list[int]]:
        """For each key (a rule or a fact), the ascending positions of the arguments that contain an
        argument with that key (its top rule or fact)."""
        out = {}
        for key, group in self.by_top.items():
            seeds = [i for i in group if key_of(self.arguments[i]) == key]
            if len(seeds) == 1:
                out[key] = list(self.containers[seeds[0]])
            elif seeds:
                out[key] = sorted(set().union(*(self.containers[i] for i in seeds)))
        return out

