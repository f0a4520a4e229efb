"""Numbered shorthands of the internal-policy and regulatory scenarios (see
:mod:`experiments.suites.sources.normative_en_pr`): fragment, fact and rule ids
from numbers, over the constructors of :mod:`.authoring`."""

from __future__ import annotations

from .authoring import case, fact, frag, prio, revise, rule

__all__ = ["_case", "_e", "_f", "_p", "_r", "_with"]

_case = case
_p = prio


def _e(num, source, clause, text, distractor=False):
    """Fragment ``E-<num>``; ``text`` is re-flowed onto one line.

    >>> _e(3, "Memo", None, '''Two
    ...     lines.''')["id"], _e(3, "Memo", None, "x")["tags"]
    ('E-03', [])
    """
    return frag(f"E-{num:02d}", source, clause, text, distractor=distractor)


def _f(num, literal, *evidence):
    """Gold fact ``f<num>`` grounded in ``evidence``."""
    return fact(f"f{num}", literal, *evidence)


def _r(num, antecedents, consequent, *evidence, kind="defeasible"):
    """Gold rule ``r<num>: antecedents => consequent``."""
    return rule(f"r{num}", antecedents, consequent, *evidence, kind=kind)


def _with(evidence, *extra):
    """An update package: the base fragments followed by the added ones."""
    return revise(evidence, add=extra)
