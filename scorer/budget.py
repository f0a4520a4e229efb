"""The scoring budget of one case, in engine work units (deterministic).

A wall-clock limit would make scores depend on the machine and its load.  The
budget counts work instead: every engine evaluation the scorer runs on a case
(gold status, admissible-class search, NCR search, the output's own objects)
spends the number of arguments plus attacks it built.  The same case always
spends the same amount, so whether it fits, and every score, is the same on
every machine; a case that exceeds the budget, or the engine's argument limit,
is reported as *not scored (budget)*, never given a score.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .errors import ScoringError

__all__ = ["BudgetExceeded", "CaseBudget", "DEFAULT_CASE_BUDGET", "argument_bound"]

#: Default work units per case side: about 700 times the largest gold side of the shipped
#: suites (360 units); roughly 3 s of engine time on the project's machine.
DEFAULT_CASE_BUDGET = 250_000


class BudgetExceeded(ScoringError):
    """Scoring one case needed more engine work than its budget allows."""


@dataclass
class CaseBudget:
    """Work units one case may spend (``limit=None``: unbounded).

    Examples
    --------
    >>> b = CaseBudget(10)
    >>> b.spend(7); b.spent
    7
    >>> b.spend(7)
    Traceback (most recent call last):
    ...
    scorer.budget.BudgetExceeded: scoring budget of 10 engine work units exceeded (14 spent)
    """

    limit: int | None = DEFAULT_CASE_BUDGET
    spent: int = field(default=0)

    def __post_init__(self):
        if self.limit is not None and self.limit < 1:
            raise ValueError(f"a case budget must be a positive number of work units, got {self.limit}")

    def check(self, theory) -> None:
        """Refuse, before building it, a theory whose arguments alone would pass the limit."""
        if self.limit is None:
            return
        room = self.limit - self.spent
        bound = argument_bound(theory, room)
        if bound > room:
            raise BudgetExceeded(f"scoring budget of {self.limit} engine work units exceeded: the theory "
                                 f"would build more than {room} arguments ({self.spent} units spent)")

    def spend(self, units: int) -> None:
        """Count ``units`` of work; raise once the total passes the limit."""
        self.spent += int(units)
        if self.limit is not None and self.spent > self.limit:
            raise BudgetExceeded(f"scoring budget of {self.limit} engine work units exceeded ({self.spent} spent)")


def argument_bound(theory, cap: int) -> int:
    """An upper bound on the arguments of ``theory`` (Definition 1), at most ``cap + 1``.

    Counts derivation trees by height: a literal has one argument per fact and,
    per rule concluding it, the product of its antecedents' counts one height
    lower.  Exact for acyclic rules; an over-count when rules are cyclic (the
    engine never reuses a rule inside its own sub-arguments).

    Examples
    --------
    >>> from symbolic.engine.grounding import ground
    >>> from symbolic.scenario.model import Analysis, Fact, Rule
    >>> e = ["E-01"]
    >>> a = Analysis(facts=[Fact(id="f1", literal="a", evidence=e), Fact(id="f2", literal="a", evidence=e)],
    ...              rules=[Rule(id="r1", antecedents=["a"], consequent="b", evidence=e),
    ...                     Rule(id="r2", antecedents=["a", "b"], consequent="c", evidence=e)])
    >>> argument_bound(ground(e, a), 100)
    8
    """
    facts: dict[str, int] = {}
    for f in theory.facts:
        facts[f.literal] = facts.get(f.literal, 0) + 1
    counts = dict(facts)
    for _ in range(len(theory.rules)):
        new = dict(facts)
        for r in theory.rules:
            product = 1
            for literal in r.antecedents:
                product = min(cap + 1, product * counts.get(literal, 0))
                if not product:
                    break
            if product:
                new[r.consequent] = min(cap + 1, new.get(r.consequent, 0) + product)
        if new == counts:
            break
        counts = new
    return min(cap + 1, sum(counts.values()))
