"""The engine run and the four-valued status of a target literal (Definition 5, docs/semantics.md
section 7): ``s(p) = 1`` iff some argument for ``p`` (defeaters left out) is IN or UNDEC; ``a(p) = 1``
iff some argument for ``comp(p)`` (defeaters included) is IN or UNDEC, or arguments for ``p`` exist
and none of them is IN; ``(1, 0)`` accepted, ``(0, 1)`` rejected, ``(1, 1)`` both, ``(0, 0)``
undecidable.  This differs from the paper's literal "IN-labelled" text so that an unresolved
conflict gives ``both`` (docs/semantics.md explains why).
"""

from __future__ import annotations

from typing import Iterable, Sequence

from symbolic.engine.arguments import build_arguments
from symbolic.engine.attacks import derive_attacks
from symbolic.engine.grounding import Theory, ground
from symbolic.engine.labelling import grounded_labelling
from symbolic.scenario.labels import Status
from symbolic.scenario.literals import complement, normalize_literal
from symbolic.scenario.model import Analysis
from symbolic.engine.priorities import priority_order
from symbolic.engine.results import Argument, Evaluation, Label, Labelling
from symbolic.engine.target_rules import TargetRules

__all__ = ["evaluate", "evaluate_analysis", "four_valued", "support_against"]

_STATUS = {(True, False): Status.ACCEPTED, (False, True): Status.REJECTED, (True, True): Status.BOTH,
           (False, False): Status.UNDECIDABLE}


def support_against(target: str, arguments: Sequence[Argument], labelling: Labelling) -> tuple[bool, bool]:
    """``(s(p), a(p))`` for a target literal (Definition 5, docs/semantics.md section 7).

    Parameters
    ----------
    target : str
        The target literal ``p`` (any negation spelling).
    arguments : sequence of Argument
    labelling : Labelling
        The grounded labelling of ``arguments``.

    Returns
    -------
    (bool, bool)

    Raises
    ------
    ValueError
        If ``target`` is not a literal.

    Examples
    --------
    >>> from symbolic.engine.results import Argument, Label, Labelling
    >>> pro = Argument("A1", "p", "r1", None, (), frozenset({"r1"}), frozenset())
    >>> support_against("p", [pro], Labelling({"A1": Label.UNDEC}))
    (True, True)
    """
    p = normalize_literal(target)
    q = complement(p)
    labels = labelling.labels
    pro = [labels[a.id] for a in arguments if a.conclusion == p and not a.defeater]
    con = [labels[a.id] for a in arguments if a.conclusion == q]
    support = any(label is not Label.OUT for label in pro)
    against = any(label is not Label.OUT for label in con) or (bool(pro) and all(label is not Label.IN for label in pro))
    return support, against


def four_valued(target: str, arguments: Sequence[Argument], labelling: Labelling) -> Status:
    """The four-valued status of ``target`` (Definition 5): :func:`support_against` as a :class:`Status`.

    Examples
    --------
    >>> from symbolic.engine.results import Argument, Label, Labelling
    >>> pro = Argument("A1", "p", "r1", None, (), frozenset({"r1"}), frozenset())
    >>> con = Argument("A2", "¬p", "r2", None, (), frozenset({"r2"}), frozenset(), defeater=True)
    >>> str(four_valued("p", [pro, con], Labelling({"A1": Label.IN, "A2": Label.OUT})))
    'accepted'
    >>> str(four_valued("p", [pro, con], Labelling({"A1": Label.OUT, "A2": Label.IN})))
    'rejected'
    >>> str(four_valued("q", [pro, con], Labelling({"A1": Label.IN, "A2": Label.OUT})))
    'undecidable'
    """
    return _STATUS[support_against(target, arguments, labelling)]


def evaluate(theory: Theory, target: str) -> Evaluation:
    """Run the engine on a grounded theory: arguments, priorities, attacks, grounded labelling and
    status (Definitions 1-5, Algorithm 1).

    Parameters
    ----------
    theory : Theory
        From :func:`symbolic.engine.grounding.ground`.
    target : str

    Returns
    -------
    Evaluation
        ``extra["target_rules"]`` holds the :class:`~symbolic.engine.target_rules.TargetRules` the
        attacks were neutralized with, for the trace's defeat edges.

    Raises
    ------
    ValueError
        If ``target`` is not a literal.
    symbolic.engine.arguments.ArgumentLimitError
        If the theory yields too many arguments.

    Warns
    -----
    PriorityCycleWarning
        When the priorities contain a cycle.

    Examples
    --------
    >>> from symbolic.engine.grounding import Theory
    >>> from symbolic.scenario.model import Fact, Rule
    >>> e = ["E-01"]
    >>> t = Theory(frozenset(e), facts=(Fact(id="f1", literal="a", evidence=e),),
    ...            rules=(Rule(id="r1", antecedents=["a"], consequent="p", kind="strict", evidence=e),
    ...                   Rule(id="r2", antecedents=["a"], consequent="¬p", kind="strict", evidence=e)))
    >>> ev = evaluate(t, "p")
    >>> str(ev.status), ev.support, ev.against, len(ev.attacks)
    ('both', True, True, 0)
    """
    p = normalize_literal(target)
    arguments = build_arguments(theory)
    order = priority_order(theory)
    target_rules = TargetRules(theory, arguments, order.closure)
    attacks = derive_attacks(theory, arguments, order, target_rules=target_rules)
    labelling = grounded_labelling([a.id for a in arguments], attacks)
    support, against = support_against(p, arguments, labelling)
    return Evaluation(
        target=p, status=_STATUS[support, against], support=support, against=against,
        theory=theory, arguments=arguments, attacks=attacks, priorities=order, labelling=labelling,
        extra={"target_rules": target_rules},
    )


def evaluate_analysis(evidence_ids: Iterable[str], analysis: Analysis, target: str) -> Evaluation:
    """Ground ``analysis`` against an evidence package, then :func:`evaluate` it.

    ``evaluation.theory.dropped`` lists what grounding excluded; raises ``ValueError`` if ``target``
    is not a literal.

    Examples
    --------
    >>> from symbolic.scenario.model import Analysis, Fact, Rule
    >>> a = Analysis(facts=[Fact(id="f1", literal="a", evidence=["E-01"])],
    ...              rules=[Rule(id="r1", antecedents=["a"], consequent="p", evidence=["E-02"])])
    >>> str(evaluate_analysis(["E-01"], a, "p").status)
    'undecidable'
    """
    return evaluate(ground(evidence_ids, analysis), target)
