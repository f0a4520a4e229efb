"""Canonical, content-derived ids of trace nodes and edges (TNF step vi,
docs/semantics.md section 12).

A node's id depends only on its normative content, never on the name an
author gave the object (``r1``, ``f2``) nor on the engine's argument numbering
(``A3``).  Ids are readable strings with a type prefix:

=============  ==============================================  =====================================
node type      id                                              example
=============  ==============================================  =====================================
query          ``query:<target>``                              ``query:Penalty(x)``
evidence       ``evidence:<fragment id>``                      ``evidence:E-01``
fact           ``fact:<literal>``                              ``fact:Delay(x)``
rule           ``rule:<body><arrow><head>``                    ``rule:Delay(x)=>Penalty(x)``
priority       ``priority:(<stronger>)>(<weaker>)``            ``priority:(B(x)=>¬P(x))>(A(x)=>P(x))``
argument       ``arg:<conclusion>@<12 hex of sha256>``         ``arg:Penalty(x)@5d1c0e...``
conclusion     ``conclusion:<literal>``                        ``conclusion:¬Penalty(x)``
status         ``status:<status>``                             ``status:accepted``
=============  ==============================================  =====================================

- A rule's ``<body>`` is its distinct antecedents, sorted and joined by
  ``&`` (empty for a rule without antecedents); ``<arrow>`` is ``->``
  (strict), ``=>`` (defeasible) or ``~>`` (defeater).
- An applicability literal names the rule it is about by *content*:
  ``¬applicable(r1)`` becomes ``¬applicable[Delay(x)=>Penalty(x)]``.  A rule
  inside a cycle of such references is written ``applicable[?]``; a reference
  to a rule that is not in the theory keeps the author's id.
- A priority's sides are rule contents (without the ``rule:`` prefix).
- An argument's hash is taken over its derivation: ``fact:<literal>`` for a
  fact argument, ``rule:<content>(<ids of its sub-arguments, sorted,
  comma-joined>)`` otherwise (a Merkle scheme: the id of an argument fixes
  its whole derivation tree, and the string stays short however deep the
  tree); the readable part is its conclusion.

Edge ids (:func:`edge_id`) join the edge type and the endpoint ids with ``→``
(U+2192), which no node id contains:

- ``grounding:<evidence>→<object>``, ``derivation:<from>→<to>``,
  ``status:<from>→<to>``;
- ``attack:<kind>:<attacker>→<attacked>`` (``lic`` and ``state`` are
  attributes compared after alignment, not part of the id);
- ``defeat:<priority>→<attack edge id>``.
"""

from __future__ import annotations

import hashlib
import re
from typing import Iterable, Sequence

import numpy as np

from symbolic.engine.priorities import adjacency, cyclic_components
from symbolic.scenario.labels import RuleKind
from symbolic.scenario.literals import NEG
from symbolic.scenario.model import EdgeType, Rule, TraceEdge
from symbolic.engine.results import Argument

__all__ = ["ARROWS", "EDGE_ARROW", "PART_SEPARATOR", "Namer", "edge_id", "edge_key", "string_ranks", "trace_sort_key"]

PART_SEPARATOR = ")>("  # between the two parts of a priority id


def string_ranks(strings: Sequence[str]) -> np.ndarray:
    """The rank of each string in Python's string (code-point) order; equal strings get distinct ranks.

    >>> string_ranks(["b", "a", "c"]).tolist()
    [1, 0, 2]
    """
    order = sorted(range(len(strings)), key=strings.__getitem__)
    ranks = np.empty(len(strings), dtype=np.int64)
    ranks[order] = np.arange(len(strings), dtype=np.int64)
    return ranks


ARROWS = {RuleKind.STRICT: "->", RuleKind.DEFEASIBLE: "=>", RuleKind.DEFEATER: "~>"}
EDGE_ARROW = "\u2192"
_APPLICABLE = re.compile(r"^applicable\((.+)\)$")
_APPLICABLE_OPEN = "applicable("  # in every literal that names a rule
_UNKNOWN_RULE = "?"
_AND = " \u2227 "  # between the antecedents of a rule's label


def edge_id(edge: TraceEdge) -> str:
    """The canonical id of a trace edge (see the module docstring).

    Parameters
    ----------
    edge : TraceEdge

    Returns
    -------
    str

    Examples
    --------
    >>> edge_id(TraceEdge(source="arg:p@1", target="arg:¬p@2", type="attack", kind="rebut",
    ...                   lic="rule:a=>p", state="active"))
    'attack:rebut:arg:p@1→arg:¬p@2'
    >>> edge_id(TraceEdge(source="priority:(b=>¬p)>(a=>p)", target="arg:p@1", type="defeat",
    ...                   attack="attack:rebut:arg:¬p@2→arg:p@1"))
    'defeat:priority:(b=>¬p)>(a=>p)→attack:rebut:arg:¬p@2→arg:p@1'
    """
    return edge_key(edge.type, edge.source, edge.target, edge.kind, edge.attack)


def edge_key(edge_type: EdgeType, source: str, target: str, kind=None, attack: str | None = None) -> str:
    """:func:`edge_id` from the edge's fields, without building a :class:`TraceEdge`.

    >>> edge_key(EdgeType.GROUNDING, "evidence:E-01", "fact:a")
    'grounding:evidence:E-01→fact:a'
    """
    if edge_type is EdgeType.ATTACK:
        return f"attack:{kind.value if kind is not None else '?'}:{source}{EDGE_ARROW}{target}"
    if edge_type is EdgeType.DEFEAT and attack is not None:
        return f"defeat:{source}{EDGE_ARROW}{attack}"
    return f"{edge_type.value}:{source}{EDGE_ARROW}{target}"


def trace_sort_key(edge: TraceEdge) -> tuple[str, ...]:
    """Sort key of trace edges: the edge id, then the attributes outside the id."""
    return (edge_id(edge), edge.lic or "", edge.state or "", edge.target)


class Namer:
    """Content-derived names for the rules, facts, priorities and arguments of one theory.

    Parameters
    ----------
    rules : iterable of Rule
        The theory's rules; ids in ``applicable(rK)`` literals are resolved
        against them.
    arguments : sequence of Argument, optional
        The engine's arguments, for :meth:`argument_id`.

    Examples
    --------
    >>> from symbolic.scenario.model import Rule
    >>> n = Namer([Rule(id="r1", antecedents=["b", "a"], consequent="p"),
    ...            Rule(id="r9", antecedents=["c"], consequent="¬applicable(r1)", kind="strict")])
    >>> n.rule_id("r1"), n.rule_id("r9")
    ('rule:a&b=>p', 'rule:c->¬applicable[a&b=>p]')
    >>> n.priority_id("r9", "r1")
    'priority:(c->¬applicable[a&b=>p])>(a&b=>p)'
    """

    def __init__(self, rules: Iterable[Rule], arguments: Sequence[Argument] = ()):
        self._rules = {r.id: r for r in rules}
        self._cyclic = self._reference_cycles()
        self._content: dict[str, str] = {}
        self._labels: dict[str, str] = {}
        self._args = {a.id: a for a in arguments}
        self._derivations: dict[str, str] = {}
        self._arg_ids: dict[str, str] = {}
        self._priority_ids: dict[tuple[str, str], str] = {}
        self._literals: dict[str, str] = {}
        self._rule_ids: dict[str, str] = {}

    @property
    def argument_ids(self) -> dict[str, str]:
        """The argument node ids computed so far (engine argument id -> node id), to read, not to change."""
        return self._arg_ids

    def _reference_cycles(self) -> frozenset[str]:
        refs = adjacency((rule.id, other) for rule in self._rules.values()
                         for other in map(_referenced, (*rule.antecedents, rule.consequent)) if other in self._rules)
        return frozenset(rule for component in cyclic_components(refs) for rule in component)

    def literal(self, literal: str) -> str:
        """The canonical spelling of a normalized literal (applicability by rule content)."""
        spelled = self._literals.get(literal)
        if spelled is None:
            other = _referenced(literal)
            if other is None or other not in self._rules:
                spelled = literal
            else:
                sign = NEG if literal.startswith(NEG) else ""
                inner = _UNKNOWN_RULE if other in self._cyclic else self.rule_content(other)
                spelled = f"{sign}applicable[{inner}]"
            self._literals[literal] = spelled
        return spelled

    def rule_content(self, rule_id: str) -> str:
        """``<body><arrow><head>`` of a rule of the theory.

        Raises
        ------
        KeyError
            If the rule is not in the theory.
        """
        if rule_id not in self._content:
            rule = self._rules[rule_id]
            body = "&".join(sorted({self.literal(a) for a in rule.antecedents}))
            self._content[rule_id] = f"{body}{ARROWS[rule.kind]}{self.literal(rule.consequent)}"
        return self._content[rule_id]

    def rule_id(self, rule_id: str) -> str:
        """The node id of a rule, ``rule:<content>``; an unknown rule keeps its author id."""
        node = self._rule_ids.get(rule_id)
        if node is None:
            node = self._rule_ids[rule_id] = (f"rule:{self.rule_content(rule_id)}" if rule_id in self._rules
                                              else f"rule:{rule_id}")
        return node

    def rule_label(self, rule_id: str) -> str:
        """A readable rendering of a rule: ``a ∧ b => p``."""
        if rule_id not in self._rules:
            return rule_id
        label = self._labels.get(rule_id)
        if label is None:
            rule = self._rules[rule_id]
            body = _AND.join(sorted({self.literal(a) for a in rule.antecedents}))
            label = self._labels[rule_id] = f"{body} {ARROWS[rule.kind]} {self.literal(rule.consequent)}".strip()
        return label

    def fact_id(self, literal: str) -> str:
        """The node id of a fact, ``fact:<literal>``."""
        return f"fact:{self.literal(literal)}"

    def priority_part(self, rule_id: str) -> str:
        """How a rule is written inside a priority id: its content when known, else its author id."""
        return self.rule_content(rule_id) if rule_id in self._rules else rule_id

    def priority_id(self, stronger: str, weaker: str) -> str:
        """The node id of ``stronger > weaker``."""
        node = self._priority_ids.get((stronger, weaker))
        if node is None:
            content = self._content  # rule_id(r)[5:]: the content of a known rule, else its author id
            strong = content.get(stronger) or self.priority_part(stronger)
            weak = content.get(weaker) or self.priority_part(weaker)
            node = self._priority_ids[stronger, weaker] = f"priority:({strong}{PART_SEPARATOR}{weak})"
        return node

    def priority_label(self, stronger: str, weaker: str) -> str:
        """A readable rendering of ``stronger > weaker``."""
        return f"({self.rule_label(stronger)}) > ({self.rule_label(weaker)})"

    def derivation(self, arg_id: str) -> str:
        """The canonical derivation string of an argument (hashed by :meth:`argument_id`).

        Raises
        ------
        KeyError
            If the argument was not given to the constructor.
        """
        if arg_id not in self._derivations:
            arg = self._args[arg_id]
            if arg.top_rule is None:
                text = f"fact:{self.literal(arg.conclusion)}"
            else:
                subs = ",".join(sorted(self.argument_id(s) for s in arg.subs))
                text = f"{self.rule_id(arg.top_rule)}({subs})"
            self._derivations[arg_id] = text
        return self._derivations[arg_id]

    def argument_id(self, arg_id: str) -> str:
        """The node id of an argument, ``arg:<conclusion>@<hash of its derivation>``.

        Raises
        ------
        KeyError
            If the argument was not given to the constructor.
        """
        if arg_id not in self._arg_ids:
            digest = hashlib.sha256(self.derivation(arg_id).encode("utf-8")).hexdigest()[:12]
            self._arg_ids[arg_id] = f"arg:{self.literal(self._args[arg_id].conclusion)}@{digest}"
        return self._arg_ids[arg_id]


def _referenced(literal: str) -> str | None:
    if _APPLICABLE_OPEN not in literal:  # the regular expression cannot match
        return None
    match = _APPLICABLE.match(literal[1:] if literal.startswith(NEG) else literal)
    return match.group(1) if match else None
