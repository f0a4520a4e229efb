"""Fixtures for the engine tests: a compact way to write small theories.

``spec(facts=..., rules=..., priorities=..., attacks=...)`` builds an
:class:`~symbolic.scenario.model.Analysis` whose objects all cite ``E-01``:

- facts: ``{"f1": "Delay(x)"}``;
- rules: ``{"r1": "Delay(x) => Penalty(x)"}`` with ``=>`` defeasible,
  ``->`` strict and ``~>`` defeater; antecedents are comma separated
  (use ``;`` when a literal itself contains commas);
- priorities: ``["r2>r1"]``;
- attacks: ``[("r2", "Penalty(x)", "rebut")]`` or with a fourth item ``lic``.
"""

from __future__ import annotations

import re

import pytest

from symbolic.engine.grounding import ground
from symbolic.scenario.model import Analysis, AttackEdge, Fact, Priority, Rule

EVIDENCE = ("E-01",)
_ARROW = re.compile(r"\s*(=>|->|~>)\s*")
_KIND = {"=>": "defeasible", "->": "strict", "~>": "defeater"}


def _rule(rule_id: str, text: str) -> Rule:
    body, arrow, head = _ARROW.split(text, maxsplit=1)
    separator = ";" if ";" in body else ","
    antecedents = [part.strip() for part in body.split(separator) if part.strip()]
    return Rule(id=rule_id, antecedents=antecedents, consequent=head, kind=_KIND[arrow],
                evidence=EVIDENCE)


def build_analysis(facts=None, rules=None, priorities=(), attacks=()) -> Analysis:
    """An :class:`Analysis` from the compact notation of this module."""
    return Analysis(
        facts=[Fact(id=k, literal=v, evidence=EVIDENCE) for k, v in (facts or {}).items()],
        rules=[_rule(k, v) for k, v in (rules or {}).items()],
        priorities=[
            Priority(stronger=p.split(">")[0].strip(), weaker=p.split(">")[1].strip(),
                     basis="exception", evidence=EVIDENCE)
            for p in priorities
        ],
        attacks=[
            AttackEdge(source=a[0], target=a[1], kind=a[2], lic=a[3] if len(a) > 3 else None,
                       evidence=EVIDENCE)
            for a in attacks
        ],
    )


@pytest.fixture(scope="session")
def spec():
    """Factory: compact notation -> :class:`Analysis`."""
    return build_analysis


@pytest.fixture(scope="session")
def theory():
    """Factory: compact notation -> grounded :class:`Theory` over ``E-01``."""

    def make(**kwargs):
        return ground(EVIDENCE, build_analysis(**kwargs))

    return make
