"""Assembly helpers of the internal-policy and regulatory scenarios (see
:mod:`experiments.suites.sources.normative_en_pr`)."""

from __future__ import annotations

__all__ = ["_case", "_e", "_f", "_p", "_r", "_with"]


def _e(num, source, clause, text, distractor=False):
    """Fragment ``E-<num>``; ``text`` is re-flowed onto one line.

    >>> _e(3, "Memo", None, '''Two
    ...     lines.''')["id"], _e(3, "Memo", None, "x")["tags"]
    ('E-03', [])
    """
    return {"id": f"E-{num:02d}", "text": " ".join(text.split()), "source": source,
            "clause": clause, "tags": ["distractor"] if distractor else []}


def _f(num, literal, *evidence):
    """Gold fact ``f<num>`` grounded in ``evidence``."""
    return {"id": f"f{num}", "literal": literal, "evidence": list(evidence)}


def _r(num, antecedents, consequent, *evidence, kind="defeasible"):
    """Gold rule ``r<num>: antecedents => consequent``."""
    return {"id": f"r{num}", "antecedents": list(antecedents), "consequent": consequent,
            "kind": kind, "evidence": list(evidence)}


def _p(stronger, weaker, basis, *evidence, note=None):
    """Gold priority ``stronger > weaker`` on ``basis``."""
    return {"stronger": stronger, "weaker": weaker, "basis": basis,
            "evidence": list(evidence), "note": note}


def _case(ident, query, target, evidence, *, facts, rules, status, tags,
          priorities=(), attacks=(), contradiction, pair=None, role=None):
    """One scenario dict; the domain follows the id prefix, ``priority`` the priorities."""
    domain = "internal_policies" if ident.startswith("pol-") else "regulatory"
    return {
        "id": ident,
        "query": query,
        "target": target,
        "evidence": list(evidence),
        "gold": {"facts": list(facts), "rules": list(rules), "attacks": list(attacks),
                 "priorities": list(priorities), "status": status},
        "metadata": {"domain": domain, "contradiction": contradiction,
                     "priority": bool(priorities), "pair": pair, "role": role,
                     "tags": sorted(tags)},
    }


def _with(evidence, *extra):
    """An update package: the base fragments followed by the added ones."""
    return [*evidence, *extra]
