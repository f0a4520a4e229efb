"""The six defect classes: what each one is, how it is injected, how it is found,
and how its location is spelled (paper Table 6; docs/metrics.md B6).

The class names are the scenario schema's :class:`symbolic.scenario.model.DefectClass`
(a controlled case stores its class in ``metadata.defect_class``); this module
holds what the rest of the code needs to know about them:

====================  ============================================  ==================================
class                 the defect                                    location
====================  ============================================  ==================================
missing_evidence      a cited fragment is absent from the package   ``evidence:E-03``
incomplete_coverage   the derivation of the target is dropped       ``target:Penalty(x)``
extraction_error      a fact's literal or a rule's consequent is    ``fact:f1`` / ``rule:r2``
                      the complement of what its fragment states
priority_inversion    one priority ``a > b`` becomes ``b > a``      ``priority:r3>r2``
attack_deletion       one attack edge is missing                    ``attack:r2-rebut->Penalty(x)``
invalid_proof_node    a node no fragment supports                   ``rule:r4`` / ``fact:f4``
====================  ============================================  ==================================

Locations are typed (:mod:`scorer.locations`); :func:`same_location` is the
comparison DLA uses (docs/metrics.md, DLA).  The injections are in
:mod:`scorer.defects.inject`, the detectors in :mod:`scorer.defects.detect`
(a white-box output, gold-free) and :mod:`scorer.defects.diff` (a candidate
analysis against a reference extraction, B4's audit).
"""

from __future__ import annotations

from dataclasses import dataclass

from scorer.locations import attack_location
from scorer.locations import same_location as _same_location
from symbolic.scenario.model import Analysis, DefectClass
from symbolic.traces.naming import EDGE_ARROW, Namer
from symbolic.engine.results import Attack, Evaluation

from ..errors import ScoringError

__all__ = [
    "DEFECTS",
    "DefectSpec",
    "attack_handle",
    "attack_labels",
    "defect_class",
    "handle_location",
    "is_defect",
    "same_location",
]


@dataclass(frozen=True, slots=True)
class DefectSpec:
    """One defect class and its metadata.

    Attributes
    ----------
    defect_class : DefectClass
    label : str
        The paper's name (Table 6).
    summary : str
        What the defect is.
    location : str
        The kind of location that names it, with an example.
    """

    defect_class: DefectClass
    label: str
    summary: str
    location: str

    @property
    def name(self) -> str:
        """The class's value (``missing_evidence``, ...)."""
        return self.defect_class.value


#: The six defect classes in the paper's order (Table 6), with their metadata.
DEFECTS: tuple[DefectSpec, ...] = tuple(DefectSpec(cls, label, summary, location) for cls, label, summary, location in (
    (DefectClass.MISSING_EVIDENCE, "missing evidence fragment",
     "an object cites a fragment that is not in the evidence package", "evidence:E-03"),
    (DefectClass.INCOMPLETE_COVERAGE, "incomplete query coverage",
     "the facts and rules on the target's atom are missing", "target:Penalty(x)"),
    (DefectClass.EXTRACTION_ERROR, "extraction error",
     "a fact's literal or a rule's consequent is the complement of what its fragment states",
     "fact:f1 or rule:r2"),
    (DefectClass.PRIORITY_INVERSION, "priority inversion",
     "a priority orders its two rules the other way", "priority:r3>r2"),
    (DefectClass.ATTACK_DELETION, "attack-edge deletion",
     "an attack the objects give is missing from the stated attacks", "attack:r2-rebut->Penalty(x)"),
    (DefectClass.INVALID_PROOF_NODE, "invalid proof node",
     "a node that no fragment supports (an object citing none, or a claim the objects do not give)",
     "rule:r4 or fact:f4"),
))


def defect_class(value: DefectClass | str) -> DefectClass:
    """``value`` as a :class:`~symbolic.scenario.model.DefectClass` (``none`` included).

    Raises
    ------
    ScoringError
        If ``value`` names no defect class.

    Examples
    --------
    >>> defect_class("priority_inversion").value
    'priority_inversion'
    """
    try:
        return DefectClass(value)
    except ValueError:
        raise ScoringError(f"unknown defect class {value!r}; expected one of "
                           + ", ".join(c.value for c in DefectClass)) from None


def is_defect(cls: DefectClass | None) -> bool:
    """Whether ``cls`` is one of the six classes (not ``none``, not unset): where DLA applies.

    >>> is_defect(DefectClass.NONE), is_defect(DefectClass.ATTACK_DELETION), is_defect(None)
    (False, True, False)
    """
    return cls is not None and cls is not DefectClass.NONE


def handle_location(handle: str) -> str:
    """A scorer handle (:mod:`scorer.handles`) as a location (an exception is a rule).

    >>> handle_location("exception:r4"), handle_location("fact:f1")
    ('rule:r4', 'fact:f1')
    """
    return "rule:" + handle[len("exception:"):] if handle.startswith("exception:") else handle


def same_location(predicted: str | None, gold: str | None, candidate: Analysis | None = None) -> bool:
    """Whether a reported defect location names the gold one (DLA, docs/metrics.md).

    Locations are typed (``rule:r2``, ``priority:r3>r2``, ``evidence:E-03``,
    ``attack:r2-rebut->Penalty(x)``, ``target:Penalty(x)``; the vocabulary of
    :mod:`scorer.locations`, shared with the controlled suite and the
    assistant).  An untyped id (``r3``) is typed against ``candidate``;
    whitespace is ignored and a priority names its pair of rules.  A missing
    gold location matches anything.

    Parameters
    ----------
    predicted, gold : str or None
    candidate : Analysis, optional
        The audited candidate analysis of the case.

    Returns
    -------
    bool

    Examples
    --------
    >>> same_location("r3 > r2", "priority:r3>r2"), same_location(None, "rule:r3"), same_location("fact:f1", None)
    (True, False, True)
    """
    return _same_location(predicted, gold, candidate)


def attack_handle(att: Attack, args: dict) -> str:
    """One engine attack as the location ``attack:<source>-<kind>-><target>``.

    The source is the attacker's top rule (or fact); the target the conclusion
    of the rebutted sub-argument, the undercut rule, or the undermined fact --
    the explicit-edge form of the controlled suite's candidates.

    Parameters
    ----------
    att : Attack
    args : dict
        Argument id -> argument of the evaluation.

    Returns
    -------
    str
    """
    attacker = args[att.attacker]
    source = attacker.top_rule or attacker.fact
    target = args[att.on].conclusion if att.kind.value == "rebut" else att.on
    return attack_location(source, att.kind.value, target)


def attack_labels(evaluation: Evaluation) -> dict[str, str]:
    """TNF attack edge id -> the attack's location (:func:`attack_handle`).

    When one TNF edge stands for several engine attacks, the smallest location is kept.

    Parameters
    ----------
    evaluation : Evaluation

    Returns
    -------
    dict of str to str
    """
    namer = Namer(evaluation.theory.rules, evaluation.arguments)
    args = {a.id: a for a in evaluation.arguments}
    out: dict[str, str] = {}
    for att in evaluation.attacks:
        key = f"attack:{att.kind.value}:{namer.argument_id(att.attacker)}{EDGE_ARROW}{namer.argument_id(att.target)}"
        out[key] = min(out.get(key, "\uffff"), attack_handle(att, args))
    return out
