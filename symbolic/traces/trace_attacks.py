"""Attack and defeat edges of a trace, computed column-wise (paper Section 4.3, Definition 4,
docs/semantics.md section 12).

One attack edge per ``(attacker node, attacked node, kind)``; a defeated one points to its *defeat
set*, the sorted priority node ids that neutralize one of its attacks (:mod:`symbolic.traces.defeat_sets`).
With dense priorities the defeat edges outnumber the attacks by the size of a rule team, so no
Python object is built per attack or defeat edge: the engine's
:class:`~symbolic.engine.results.AttackTable` columns are grouped with numpy.
:func:`explicit_attack_edges` writes the engine's attacks in the form an analysis states them.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from symbolic.engine.results import KINDS, SHAPE_ARGUMENT, SHAPE_FACT, SHAPE_RULE, AttackTable, Evaluation
from symbolic.traces.defeat_sets import defeat_sets
from symbolic.scenario.labels import AttackKind
from symbolic.scenario.model import AttackEdge
from symbolic.traces.naming import EDGE_ARROW, Namer, string_ranks

__all__ = ["AttackEdges", "attack_columns", "attack_edges", "explicit_attack_edges"]

_KIND_RANK = {kind: i for i, kind in enumerate(sorted(KINDS, key=lambda k: k.value))}


def attack_columns(evaluation: Evaluation) -> AttackTable:
    """The evaluation's attacks as an :class:`AttackTable` indexed by its arguments, rules and facts
    (converted when given as :class:`~symbolic.engine.results.Attack` objects)."""
    attacks = evaluation.attacks
    ids = tuple(a.id for a in evaluation.arguments)
    if isinstance(attacks, AttackTable) and attacks.argument_ids == ids:
        return attacks
    rules = list(dict.fromkeys([r.id for r in evaluation.theory.rules]))
    facts = list(dict.fromkeys([f.id for f in evaluation.theory.facts]))
    arg_pos = {a: i for i, a in enumerate(ids)}
    rule_pos = {r: i for i, r in enumerate(rules)}
    fact_pos = {f: i for i, f in enumerate(facts)}
    defeats: dict[tuple[str, str], int] = {}
    cols: dict[str, list] = {name: [] for name in
                             ("attacker", "target", "on", "lic", "defeat", "kind", "shape", "explicit")}
    kind_code = {kind: i for i, kind in enumerate(KINDS)}

    def code(table: dict, names: list, name: str) -> int:
        if name not in table:
            table[name] = len(names)
            names.append(name)
        return table[name]

    for att in attacks:
        if att.on in arg_pos:
            shape, on = SHAPE_ARGUMENT, arg_pos[att.on]
        elif att.on in rule_pos or att.kind is AttackKind.UNDERCUT:
            shape, on = SHAPE_RULE, code(rule_pos, rules, att.on)
        else:
            shape, on = SHAPE_FACT, code(fact_pos, facts, att.on)
        cols["attacker"].append(arg_pos[att.attacker])
        cols["target"].append(arg_pos[att.target])
        cols["on"].append(on)
        cols["lic"].append(-1 if att.lic is None else code(rule_pos, rules, att.lic))
        cols["defeat"].append(-1 if att.defeated_by is None
                              else defeats.setdefault(tuple(att.defeated_by), len(defeats)))
        cols["kind"].append(kind_code[att.kind])
        cols["shape"].append(shape)
        cols["explicit"].append(bool(att.explicit))
    return AttackTable(ids, rules, facts, tuple(sorted(defeats, key=defeats.get)), cols)


@dataclass(frozen=True)
class AttackEdges:
    """The attack edges of a trace in canonical order, with their defeat sets.

    Attributes
    ----------
    source, target : numpy.ndarray of int
        Indices into ``node_ids`` (argument nodes) of each attack edge.
    kind : numpy.ndarray of int
        Index into :data:`symbolic.engine.results.KINDS`.
    lic : numpy.ndarray of int
        Index into ``rule_nodes`` (-1: no licensing rule).
    active, explicit : numpy.ndarray of bool
    defeat_set : numpy.ndarray of int
        Index into ``sets`` for a defeated edge, -1 for an active one.
    node_ids : tuple of str
        Argument node ids, sorted.
    rule_nodes : tuple of str
        Node ids of licensing rules, sorted.
    sets : tuple of tuple of str
        Defeat sets: the sorted priority node ids neutralizing an edge.
    pairs : frozenset of (str, str)
        Every ``(stronger, weaker)`` pair of ``P+`` used by a defeat set.
    """

    source: np.ndarray
    target: np.ndarray
    kind: np.ndarray
    lic: np.ndarray
    active: np.ndarray
    explicit: np.ndarray
    defeat_set: np.ndarray
    node_ids: tuple[str, ...]
    rule_nodes: tuple[str, ...]
    sets: tuple[tuple[str, ...], ...]
    pairs: frozenset[tuple[str, str]]

    def __len__(self) -> int:
        return len(self.source)

    def defeat_edge_count(self) -> int:
        """How many defeat edges the full (per-edge) form has."""
        if not len(self.sets):
            return 0
        sizes = np.array([len(s) for s in self.sets], dtype=np.int64)
        chosen = self.defeat_set[self.defeat_set >= 0]
        return int(sizes[chosen].sum())

    def edge_id(self, i: int) -> str:
        """The canonical id of attack edge ``i``."""
        return (f"attack:{KINDS[self.kind[i]].value}:{self.node_ids[self.source[i]]}"
                f"{EDGE_ARROW}{self.node_ids[self.target[i]]}")

    def defeat_order(self) -> tuple[np.ndarray, np.ndarray, tuple[str, ...]]:
        """Defeat edges of the full form in canonical order.

        Returns
        -------
        edge : numpy.ndarray of int
            The attack edge each defeat edge names.
        priority : numpy.ndarray of int
            Index into the returned priority node ids.
        priorities : tuple of str
            The priority node ids, sorted.
        """
        priorities = tuple(sorted({p for s in self.sets for p in s}))
        if not priorities:
            return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64), priorities
        position = {p: i for i, p in enumerate(priorities)}
        members = [np.array([position[p] for p in s], dtype=np.int64) for s in self.sets]
        defeated = np.flatnonzero(self.defeat_set >= 0)
        chosen = self.defeat_set[defeated]
        sizes = np.array([len(m) for m in members], dtype=np.int64)[chosen]
        edge = np.repeat(defeated, sizes)
        offsets = np.concatenate([[0], np.cumsum([len(m) for m in members])])
        flat = np.concatenate(members) if members else np.zeros(0, dtype=np.int64)
        starts = np.repeat(offsets[chosen], sizes)
        within = np.arange(len(edge)) - np.repeat(np.cumsum(sizes) - sizes, sizes)
        priority = flat[starts + within]
        # "defeat:<priority>→<attack id>": by priority id (with the arrow), then attack edge order.
        arrow_rank = string_ranks([p + EDGE_ARROW for p in priorities])
        order = np.lexsort((edge, arrow_rank[priority]))
        return edge[order], priority[order], priorities


def _edge_keys(table: AttackTable, arg_node: np.ndarray, source_rank: np.ndarray, kind_rank: np.ndarray,
               n_nodes: int) -> np.ndarray:
    """The sort key of each attack's edge, ``(kind rank * n_nodes + source rank) * n_nodes + target
    node``, in the narrowest integer type (fresh memory is what these columns cost most)."""
    key_type = np.int32 if len(KINDS) * n_nodes * n_nodes < 1 << 31 else np.int64
    if not len(table):
        return np.zeros(0, dtype=key_type)
    key = kind_rank.astype(key_type)[table.kind]
    key *= n_nodes
    key += source_rank.astype(key_type)[arg_node[table.attacker]]
    key *= n_nodes
    key += arg_node[table.target]
    return key


def attack_edges(evaluation: Evaluation, namer: Namer) -> AttackEdges:
    """Group an evaluation's attacks into trace edges, in canonical order.

    An edge is active when one of its attacks is active; its ``lic`` is the
    smallest licensing-rule node id among its active attacks (among all of
    them when it is defeated); it is explicit when one of its attacks is.
    A defeated edge's defeat set is every pair of ``P+`` that neutralizes one
    of its attacks (Definition 4): the engine's ``defeated_by`` plus each
    ``t >+ lic`` with ``t`` in ``targetRules``.

    Parameters
    ----------
    evaluation : Evaluation
    namer : Namer
        Names of the evaluation's theory and arguments.

    Returns
    -------
    AttackEdges
    """
    table = attack_columns(evaluation)
    n_args = len(table.argument_ids)
    arg_nodes = [namer.argument_id(a) for a in table.argument_ids]
    node_ids = tuple(sorted(set(arg_nodes)))
    node_pos = {n: i for i, n in enumerate(node_ids)}
    arg_node = np.array([node_pos[n] for n in arg_nodes], dtype=np.int32).reshape(n_args)
    # Edge ids "attack:<kind>:<source>→<target>": kind, then source (with the arrow), then target.
    n_nodes = max(len(node_ids), 1)
    source_rank = string_ranks([n + EDGE_ARROW for n in node_ids])
    kind_rank = np.array([_KIND_RANK[k] for k in KINDS], dtype=np.int64)
    key = _edge_keys(table, arg_node, source_rank, kind_rank, n_nodes)
    # Equal keys are one edge whose members are pooled order-independently, so any order of ties does.
    order = np.argsort(key, kind="stable").astype(np.int64, copy=False)
    key = key[order]
    if not (len(key) > 1 and bool((key[1:] == key[:-1]).any())):
        key = None
    starts = None if key is None else np.concatenate([[0], np.flatnonzero(key[1:] != key[:-1]) + 1])
    del key
    defeat = table.defeat[order]
    is_active = defeat < 0
    # lic: the smallest rule node id within the pool (active members, or all of a defeated edge).
    rule_node_of = [namer.rule_id(r) for r in table.rule_ids]
    rule_nodes = tuple(sorted(set(rule_node_of)))
    position = {n: i for i, n in enumerate(rule_nodes)}
    none = len(rule_nodes)
    rule_rank = np.array([position[n] for n in rule_node_of] + [none], dtype=np.int64)
    if starts is None:  # every attack is its own edge: nothing to pool
        first, group, active = order, None, is_active
        explicit = table.explicit[order]
        lic = np.where(rule_rank < none, rule_rank, -1)[table.lic[order]]  # -1 (no lic) picks the sentinel
    else:
        first = order[starts]
        active = np.logical_or.reduceat(is_active, starts) if len(starts) else np.zeros(0, dtype=bool)
        explicit = (np.logical_or.reduceat(table.explicit[order], starts) if len(starts)
                    else np.zeros(0, dtype=bool))
        lic_rank = rule_rank[table.lic[order]]  # -1 (no lic) picks the sentinel
        group = np.repeat(np.arange(len(starts)), np.diff(np.append(starts, len(order))))
        pooled = np.where(is_active | ~active[group], lic_rank, none)
        lic = np.minimum.reduceat(pooled, starts) if len(starts) else np.zeros(0, dtype=np.int64)
        lic = np.where(lic >= none, -1, lic)
    defeat_set, sets, pairs = defeat_sets(evaluation, namer, table, order, group, active)
    return AttackEdges(
        source=arg_node[table.attacker[first]], target=arg_node[table.target[first]],
        kind=table.kind[first].astype(np.int64),
        lic=lic.astype(np.int64, copy=False),
        active=active, explicit=explicit, defeat_set=defeat_set, node_ids=node_ids,
        rule_nodes=rule_nodes, sets=sets, pairs=pairs,
    )


def explicit_attack_edges(evaluation: Evaluation) -> tuple[AttackEdge, ...]:
    """One :class:`~symbolic.scenario.model.AttackEdge` per derived attack (source rule or fact against
    the rebutted conclusion, the undercut rule or the undermined fact), duplicates merged, sorted by
    ``(source, kind, target)``, each citing its source object's evidence.

    Examples
    --------
    >>> from symbolic.scenario.model import Analysis, Fact, Priority, Rule
    >>> from symbolic.engine.status import evaluate_analysis
    >>> e = ["E-01"]
    >>> a = Analysis(facts=[Fact(id="f1", literal="Delay(x)", evidence=e), Fact(id="f2", literal="Storm(x)", evidence=e)],
    ...              rules=[Rule(id="r1", antecedents=["Delay(x)"], consequent="Penalty(x)", evidence=e),
    ...                     Rule(id="r2", antecedents=["Storm(x)"], consequent="¬Penalty(x)", evidence=e)])
    >>> [(x.source, x.kind.value, x.target) for x in explicit_attack_edges(evaluate_analysis(e, a, "Penalty(x)"))]
    [('r1', 'rebut', '¬Penalty(x)'), ('r2', 'rebut', 'Penalty(x)')]
    """
    args = {a.id: a for a in evaluation.arguments}
    facts = {f.id: f for f in evaluation.theory.facts}
    edges: dict[tuple, AttackEdge] = {}
    for att in evaluation.attacks:
        attacker = args[att.attacker]
        source = attacker.top_rule or attacker.fact
        target = args[att.on].conclusion if att.kind is AttackKind.REBUT else att.on
        rule = evaluation.theory.rule(source) if attacker.top_rule else None
        evidence = rule.evidence if rule is not None else facts[source].evidence
        edges.setdefault((source, att.kind.value, target),
                         AttackEdge(source=source, target=target, kind=att.kind, evidence=evidence))
    return tuple(edges[k] for k in sorted(edges))
