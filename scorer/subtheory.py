"""Subsets of a grounded theory and their memoized status (the STATUS
signatures shared by trace alignment, Algorithm 4, and NCR, Algorithm 5).

A :class:`Universe` holds the grounded objects of one analysis over one
evidence package, each under a *handle* ``kind:id`` (``fact:f1``,
``rule:r3``, ``exception:r4``, ``priority:r3>r2``, ``attack:r4-undercut->r1``),
in canonical order: facts, rules, exceptions, priorities, attacks, each by id.

Two prunings keep the many re-evaluations cheap:

* **grounded reachability** -- only objects in the dependency cone of the
  target can change its status (a rebuttal needs a complementary conclusion,
  an undercut an exception to a rule in the cone, an undermine a
  complementary premise, a priority a chain to a rule in the cone); the
  others are never evaluated;
* **STATUS signatures** -- the status of a subset depends only on its
  *effective* relevant part (a priority or attack whose rule was removed goes
  with it), so statuses are memoized on that frozenset.

The engine itself is :func:`symbolic.engine.status.evaluate`; nothing here
re-implements it.
"""

from __future__ import annotations

import copy
import warnings
from dataclasses import dataclass, field, replace
from typing import Iterable, Mapping

from symbolic.errors import PriorityCycleWarning
from symbolic.engine.grounding import Theory, ground
from symbolic.scenario.labels import Status
from symbolic.scenario.literals import atom, normalize_literal
from symbolic.scenario.model import Analysis, AttackEdge, Priority
from symbolic.engine.results import Evaluation
from symbolic.engine.status import evaluate
from symbolic.traces.tnf import collapse_aliases

from .budget import CaseBudget
from .handles import canonical_key, content_keys, handle_of

__all__ = ["Universe"]

@dataclass
class Universe:
    """The grounded objects of one analysis, with a memoized status oracle.

    Parameters
    ----------
    evidence_ids : iterable of str
        Normalized ids of the evidence package.
    analysis : Analysis
        The normative objects; the rows of an ``attack_table`` are explicit
        attack edges like the ``attacks`` entries, each under its own
        handle.  Ungrounded ones are dropped by
        :func:`symbolic.engine.grounding.ground` and proof aliases collapsed by
        :func:`symbolic.traces.tnf.collapse_aliases` (TNF steps iii and v), exactly as
        the trace normal form does, so the statuses here are the TNF's.
    target : str
        The target literal.
    budget : CaseBudget, optional
        Every engine evaluation (not the memo hits) spends its arguments plus
        attacks from it; :class:`scorer.budget.BudgetExceeded` once it is spent.

    Examples
    --------
    >>> from symbolic.scenario.model import Analysis, Fact, Rule
    >>> e = ["E-01"]
    >>> a = Analysis(facts=[Fact(id="f1", literal="a", evidence=e), Fact(id="f9", literal="z", evidence=e)],
    ...              rules=[Rule(id="r1", antecedents=["a"], consequent="p", evidence=e)])
    >>> u = Universe(e, a, "p")
    >>> u.handles, sorted(u.relevant)
    (('fact:f1', 'fact:f9', 'rule:r1'), ['fact:f1', 'rule:r1'])
    >>> str(u.status(u.handles)), str(u.status(["fact:f1"])), u.evaluations
    ('accepted', 'undecidable', 2)
    """

    evidence_ids: Iterable[str]
    analysis: Analysis
    target: str
    budget: CaseBudget | None = None
    theory: Theory = field(init=False)
    handles: tuple[str, ...] = field(init=False)
    objects: Mapping[str, object] = field(init=False)
    relevant: frozenset[str] = field(init=False)
    aliases: Mapping[str, str] = field(init=False)
    rule_handles: Mapping[str, str] = field(init=False)
    fact_handles: Mapping[str, str] = field(init=False)
    keys: Mapping[str, str] = field(init=False)
    evaluations: int = field(init=False, default=0)

    def __post_init__(self):
        self.target = normalize_literal(self.target)
        self.evidence_ids = frozenset(self.evidence_ids)
        theory, self.aliases = collapse_aliases(ground(self.evidence_ids, self.analysis))
        if theory.attack_table is not None:
            # Row i of an attack table is exactly one ``attacks`` entry (docs/performance.md), and
            # deletions edit one explicit edge at a time: the rows join the list, after its edges.
            theory = replace(theory, attacks=tuple(theory.attacks) + theory.attack_table.rows(), attack_table=None)
        self.theory = theory
        objects: dict[str, object] = {}
        for obj in (*self.theory.facts, *self.theory.rules, *self.theory.priorities, *self.theory.attacks):
            objects.setdefault(handle_of(obj), obj)
        self.handles = tuple(sorted(objects, key=canonical_key))
        self.objects = objects
        self.rule_handles = {r.id: handle_of(r) for r in self.theory.rules}
        self.fact_handles = {f.id: handle_of(f) for f in self.theory.facts}
        self.relevant = self._reachable()
        self.keys = content_keys(self.analysis_of(self.handles))
        self._memo: dict[frozenset[str], Evaluation] = {}
        self._everything: Evaluation | None = None
        # Each group of the theory's objects with their handles, computed once for every subtheory.
        self._handled = tuple(tuple((handle_of(o), o) for o in group) for group in
                              (theory.facts, theory.rules, theory.attacks, theory.priorities))

    # -- grounded reachability -------------------------------------------------
    def _reachable(self) -> frozenset[str]:
        atoms = {atom(self.target)}
        rules = set()
        rule_objs = {h: o for h, o in self.objects.items() if h.split(":")[0] in ("rule", "exception")}
        facts = {h: o for h, o in self.objects.items() if h.startswith("fact:")}
        attacks = {h: o for h, o in self.objects.items() if h.startswith("attack:")}
        priorities = {h: o for h, o in self.objects.items() if h.startswith("priority:")}
        chosen_attacks: set[str] = set()
        changed = True
        while changed:
            changed = False
            rule_ids = {rule_objs[h].id for h in rules}
            for h, r in rule_objs.items():
                if h in rules:
                    continue
                if atom(r.consequent) in atoms or (r.excepts is not None and r.excepts in rule_ids):
                    rules.add(h)
                    atoms.update(atom(x) for x in r.antecedents)
                    atoms.add(atom(r.consequent))
                    changed = True
            rule_ids = {rule_objs[h].id for h in rules}
            fact_ids = {f.id for f in facts.values() if atom(f.literal) in atoms}
            for h, e in attacks.items():
                if h in chosen_attacks:
                    continue
                hit = e.target in rule_ids or e.target in fact_ids
                if not hit and e.target not in self.rule_handles and e.target not in self.fact_handles:
                    hit = atom(normalize_literal(e.target)) in atoms
                if hit:
                    chosen_attacks.add(h)
                    for name in (e.source, e.lic):
                        if name in self.rule_handles and self.rule_handles[name] not in rules:
                            r = self.objects[self.rule_handles[name]]
                            rules.add(self.rule_handles[name])
                            atoms.update(atom(x) for x in r.antecedents)
                            atoms.add(atom(r.consequent))
                        elif name in self.fact_handles:
                            atoms.add(atom(self.objects[self.fact_handles[name]].literal))
                    changed = True
        keep = set(rules) | chosen_attacks
        keep.update(h for h, f in facts.items() if atom(f.literal) in atoms)
        # Priorities: everything weakly connected (through other priorities) to a kept rule,
        # since P+ chains and unresolved cycles act through the whole component.
        rule_ids = {self.objects[h].id for h in rules}
        linked = set(rule_ids)
        changed = True
        pri_keep: set[str] = set()
        while changed:
            changed = False
            for h, p in priorities.items():
                if h not in pri_keep and (p.stronger in linked or p.weaker in linked):
                    pri_keep.add(h)
                    linked.update((p.stronger, p.weaker))
                    changed = True
        keep |= pri_keep
        # A rule pulled in only through a priority chain matters for P+, not for arguments.
        keep.update(self.rule_handles[r] for r in linked if r in self.rule_handles)
        return frozenset(keep)

    # -- subsets ---------------------------------------------------------------
    def effective(self, keep: Iterable[str]) -> frozenset[str]:
        """The relevant handles of ``keep`` that survive the cascade.

        A priority needs both of its rules; an attack needs its source, its
        licensing rule and (when the target is an object) its target.

        Parameters
        ----------
        keep : iterable of str
            Handles to keep.

        Returns
        -------
        frozenset of str
            The STATUS signature of ``keep``.
        """
        kept = frozenset(keep) & self.relevant
        names = {self.objects[h].id for h in kept if not h.startswith(("priority:", "attack:"))}
        out = set()
        for h in kept:
            obj = self.objects[h]
            if isinstance(obj, Priority):
                if obj.stronger in names and obj.weaker in names:
                    out.add(h)
            elif isinstance(obj, AttackEdge):
                target_is_object = obj.target in self.rule_handles or obj.target in self.fact_handles
                if (obj.source in names and (obj.lic is None or obj.lic in names)
                        and (not target_is_object or obj.target in names)):
                    out.add(h)
            else:
                out.add(h)
        return frozenset(out)

    def subtheory(self, keep: Iterable[str]) -> Theory:
        """The grounded theory restricted to the effective part of ``keep``."""
        return self._restricted(self.effective(keep))

    def _restricted(self, eff: frozenset[str]) -> Theory:
        """The grounded theory restricted to ``eff``, an effective set (:meth:`effective`)."""
        facts, rules, attacks, priorities = (tuple(o for h, o in group if h in eff) for group in self._handled)
        return Theory(self.theory.evidence, facts=facts, rules=rules, attacks=attacks, priorities=priorities)

    def analysis_of(self, keep: Iterable[str]) -> Analysis:
        """The objects of ``keep`` (cascade applied, relevance not) as an :class:`Analysis`."""
        kept = frozenset(keep)
        names = {self.objects[h].id for h in kept if h in self.objects
                 and not h.startswith(("priority:", "attack:"))}
        t = self.theory
        return Analysis(
            facts=tuple(f for f in t.facts if handle_of(f) in kept),
            rules=tuple(r for r in t.rules if handle_of(r) in kept),
            attacks=tuple(a for a in t.attacks if handle_of(a) in kept and a.source in names
                          and (a.lic is None or a.lic in names)
                          and (a.target in names or (a.target not in self.rule_handles
                                                     and a.target not in self.fact_handles))),
            priorities=tuple(p for p in t.priorities if handle_of(p) in kept
                             and p.stronger in names and p.weaker in names),
        )

    def evaluate(self, keep: Iterable[str]) -> Evaluation:
        """The engine on the effective relevant part of ``keep``, memoized on its STATUS signature.

        Parameters
        ----------
        keep : iterable of str
            Handles to keep.

        Returns
        -------
        Evaluation
        """
        eff = self.effective(keep)
        hit = self._memo.get(eff)
        if hit is None:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", PriorityCycleWarning)
                sub = self._restricted(eff)
                if self.budget is not None:
                    self.budget.check(sub)
                self.evaluations += 1
                hit = self._memo[eff] = evaluate(sub, self.target)
            self._spend(hit)
        return hit

    def status(self, keep: Iterable[str]) -> Status:
        """The target's status on ``keep``, memoized on its STATUS signature.

        Parameters
        ----------
        keep : iterable of str
            Handles to keep.

        Returns
        -------
        Status
        """
        return self.evaluate(keep).status

    def everything(self) -> Evaluation:
        """The engine on every grounded object, the target's cone or not (memoized).

        Returns
        -------
        Evaluation
        """
        if self._everything is None:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", PriorityCycleWarning)
                if self.budget is not None:
                    self.budget.check(self.theory)
                self.evaluations += 1
                self._everything = evaluate(self.theory, self.target)
            self._spend(self._everything)
        return self._everything

    def _spend(self, evaluation: Evaluation) -> None:
        if self.budget is not None:
            self.budget.spend(len(evaluation.arguments) + len(evaluation.attacks))

    def snapshot(self) -> Universe:
        """A copy that goes on from this universe's state on its own.

        The copy starts with this one's memo, evaluation count and spent budget;
        what either computes afterwards (and spends) the other does not see, so
        scoring against a snapshot gives what scoring against this universe
        would have given at the moment the snapshot was taken.

        Returns
        -------
        Universe
        """
        twin = copy.copy(self)
        twin._memo = dict(self._memo)
        if self.budget is not None:
            twin.budget = replace(self.budget)
        return twin

    def describe(self, handle: str) -> str:
        """Human-readable description of a handle (``priority r3>r2``)."""
        kind, _, ident = handle.partition(":")
        return f"{kind} {ident}"
