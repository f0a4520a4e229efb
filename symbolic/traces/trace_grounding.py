"""The fact, rule and evidence nodes of a trace and their grounding edges
(paper Section 4.3, docs/semantics.md section 12).

One node per fact (``fact:<literal>``) and per rule (``rule:<content>``),
named by :class:`~symbolic.traces.naming.Namer`, and one per evidence fragment they
cite, created at its first citation, with a grounding edge ``evidence ->
object`` per citation.  The usual case -- every object its own node -- is
added to the :class:`~symbolic.traces.skeleton.NodeStore` in one step
(:meth:`~symbolic.traces.skeleton.NodeStore.extend`); objects that share a node
(two facts of one literal) are added one by one, with the same nodes, names
and edges in the same order.
"""

from __future__ import annotations

from itertools import chain
from typing import Sequence

import numpy as np

from symbolic.scenario.model import EdgeType, NodeType
from symbolic.traces.naming import Namer
from symbolic.traces.skeleton import EdgeGroup, NodeStore

__all__ = ["grounding_nodes"]


def grounding_nodes(theory, namer: Namer, store: NodeStore) -> EdgeGroup:
    """Add the nodes of the theory's facts and rules and of the evidence they cite to ``store``.

    Parameters
    ----------
    theory : symbolic.engine.grounding.Theory
    namer : Namer
        Names of the theory.
    store : NodeStore
        Gets, in order, each fact (then each rule) followed by the evidence nodes it is the first to cite.

    Returns
    -------
    EdgeGroup
        One grounding edge per cited fragment, facts first, each object's in citation order.
    """
    facts, rules = theory.facts, theory.rules
    namer.name_rules()
    spelled = namer.literals([fact.literal for fact in facts])
    rule_ids = [rule.id for rule in rules]
    evidence_nodes: dict[str, int] = {}
    parts = [_objects(store, evidence_nodes, NodeType.FACT, ["fact:" + s for s in spelled], spelled,
                      [fact.id for fact in facts], [fact.evidence for fact in facts]),
             _objects(store, evidence_nodes, NodeType.RULE, list(map(namer.rule_id, rule_ids)),
                      list(map(namer.rule_label, rule_ids)), rule_ids, [rule.evidence for rule in rules])]
    return EdgeGroup(EdgeType.GROUNDING, np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts]))


def _objects(store: NodeStore, evidence_nodes: dict[str, int], node_type: NodeType, ids: list[str],
             labels: list[str], names: list[str], evidence: Sequence[Sequence[str]]) -> tuple[np.ndarray, np.ndarray]:
    """Add objects of one type and the evidence nodes they create; their grounding edges as columns."""
    n = len(ids)
    lengths = np.fromiter(map(len, evidence), dtype=np.int64, count=n)
    fragments = list(chain.from_iterable(evidence))
    owner = np.repeat(np.arange(n, dtype=np.int64), lengths)
    placed = None
    if None not in names:
        new = [f for f in dict.fromkeys(fragments) if f not in evidence_nodes]
        first = dict(zip(reversed(fragments), reversed(owner.tolist())))  # fragment -> its first object
        evidence_type = NodeType.EVIDENCE
        placed = store.extend(ids, [{"type": node_type, "label": label, "names": (name,)}
                                    for label, name in zip(labels, names)],
                              ["evidence:" + f for f in new],
                              [{"type": evidence_type, "label": f, "names": ()} for f in new],
                              list(map(first.__getitem__, new)))
    if placed is None:
        return _one_by_one(store, evidence_nodes, node_type, ids, labels, names, evidence)
    own, extra = placed
    evidence_nodes.update(zip(new, extra.tolist()))
    sources = np.fromiter(map(evidence_nodes.__getitem__, fragments), dtype=np.int64, count=len(fragments))
    return sources, own[owner]


def _one_by_one(store: NodeStore, evidence_nodes: dict[str, int], node_type: NodeType, ids: list[str],
                labels: list[str], names: list[str], evidence) -> tuple[np.ndarray, np.ndarray]:
    """:func:`_objects` object by object (objects may share a node: their names are merged)."""
    sources: list[int] = []
    targets: list[int] = []
    for node_id, label, name, cited in zip(ids, labels, names, evidence):
        position = store.node(node_id, node_type, label, name)
        for fragment in cited:
            source = evidence_nodes.get(fragment)
            if source is None:
                source = evidence_nodes[fragment] = store.node(f"evidence:{fragment}", NodeType.EVIDENCE, fragment)
            sources.append(source)
            targets.append(position)
    return np.asarray(sources, dtype=np.int64), np.asarray(targets, dtype=np.int64)
