"""The argument nodes of a trace and their derivation edges (paper Section 4.3,
Definition 1, docs/semantics.md section 12).

One node per argument id (:meth:`symbolic.traces.naming.Namer.argument_id`; the
arguments of one derivation share it), labelled ``<labelling>: <conclusion>
via <top rule>``, with derivation edges from its fact or top rule and from
each sub-argument, and one to the node of its conclusion.  The edges are
integer columns over the positions of a :class:`~symbolic.traces.skeleton.NodeStore`
(no edge id is formatted while the trace is built).

The usual case -- each argument its own node, its sub-arguments before it,
its fact or rule node in the store -- is built in bulk (:func:`_in_bulk`,
lists and integer columns); any other, argument by argument
(:func:`_one_by_one`), with the same nodes and edges in the same order.
"""

from __future__ import annotations

from itertools import chain, repeat

import numpy as np

from symbolic.scenario.model import EdgeType, NodeType
from symbolic.traces.naming import Namer
from symbolic.traces.skeleton import EdgeGroup, NodeStore

__all__ = ["argument_nodes"]


def argument_nodes(evaluation, namer: Namer, store: NodeStore) -> EdgeGroup:
    """Add the argument and conclusion nodes of ``evaluation`` to ``store``; return their derivation edges.

    Parameters
    ----------
    evaluation : Evaluation
    namer : Namer
        Names of the evaluation's theory and arguments.
    store : NodeStore
        Gets the nodes, in the order of the arguments (each conclusion node after the
        first argument that concludes it).

    Returns
    -------
    EdgeGroup
        Per argument, in order: fact or top rule -> argument, each sub-argument -> argument,
        argument -> conclusion.
    """
    return _in_bulk(evaluation, namer, store) or _one_by_one(evaluation, namer, store)


def _rounds(evaluation) -> dict[str, int]:
    """Engine argument id -> its worklist round."""
    return {a: k for k, members in enumerate(evaluation.labelling.rounds) for a in members}


def _in_bulk(evaluation, namer: Namer, store: NodeStore) -> EdgeGroup | None:
    """:func:`argument_nodes` as lists and columns; ``None`` (the store untouched) when some argument
    shares its node, names a sub-argument that comes later or is unknown, or has no fact or rule node."""
    args = evaluation.arguments
    n = len(args)
    node_of = namer.name_arguments()
    names = [arg.id for arg in args]
    index = dict(zip(names, range(n)))
    if len(index) != n:
        return None
    subs = [arg.subs for arg in args]
    counts = np.fromiter(map(len, subs), dtype=np.int64, count=n)
    flat = list(chain.from_iterable(subs))
    sub_at = np.fromiter(map(index.get, flat, repeat(-1)), dtype=np.int64, count=len(flat))
    if ((sub_at < 0) | (sub_at >= np.repeat(np.arange(n, dtype=np.int64), counts))).any():
        return None
    tops, facts = [arg.top_rule for arg in args], [arg.fact for arg in args]
    conclusions = namer.literals([arg.conclusion for arg in args])
    positions = store.positions
    rule_at = {top: positions.get(namer.rule_id(top), -1) for top in dict.fromkeys(tops) if top is not None}
    source = np.fromiter((positions.get("fact:" + c, -1) if f is not None else rule_at.get(t, -1)
                          for c, f, t in zip(conclusions, facts, tops)), dtype=np.int64, count=n)
    if (source < 0).any():
        return None
    labels = list(map(evaluation.labelling.labels.get, names))
    shown = {label: str(label) for label in dict.fromkeys(labels)}
    heads = {top: "fact" if top is None else namer.rule_label(top) for top in dict.fromkeys(tops)}
    rounds = _rounds(evaluation).get
    argument_type = NodeType.ARGUMENT
    attrs = [{"type": argument_type, "label": f"{shown[label]}: {c} via {heads[top]}", "names": (name,),
              "labelling": label, "round": rounds(name)}
             for name, label, c, top in zip(names, labels, conclusions, tops)]
    goal_ids = ["conclusion:" + c for c in conclusions]
    first = dict(zip(reversed(goal_ids), range(n - 1, -1, -1)))  # conclusion node -> its first argument
    goals = list(dict.fromkeys(goal_ids))
    conclusion_type = NodeType.CONCLUSION
    placed = store.extend(list(map(node_of.__getitem__, names)), attrs, goals,
                          [{"type": conclusion_type, "label": g[11:], "names": ()} for g in goals],
                          list(map(first.__getitem__, goals)))
    if placed is None:
        return None
    own, extra = placed
    goal_code = dict(zip(goals, range(len(goals))))
    goal = extra[np.fromiter(map(goal_code.__getitem__, goal_ids), dtype=np.int64, count=n)]
    # per argument: its fact or rule, its sub-arguments (-> the argument), then argument -> conclusion
    lengths = counts + 2
    ends = np.cumsum(lengths)
    starts, lasts = ends - lengths, ends - 1
    sources = np.empty(int(ends[-1]) if n else 0, dtype=np.int64)
    targets = np.repeat(own, lengths)
    inner = np.ones(len(sources), dtype=bool)
    inner[starts], inner[lasts] = False, False
    sources[starts], sources[lasts], targets[lasts] = source, own, goal
    sources[inner] = own[sub_at]
    return EdgeGroup(EdgeType.DERIVATION, sources, targets)


def _one_by_one(evaluation, namer: Namer, store: NodeStore) -> EdgeGroup:
    """:func:`argument_nodes` argument by argument (any shape of arguments)."""
    labels = evaluation.labelling.labels
    rounds = _rounds(evaluation)
    data, at = store.data, store.at
    arg_ids, argument_id, literal, rule_id = namer.name_arguments(), namer.argument_id, namer.literal, namer.rule_id
    argument_type = NodeType.ARGUMENT
    label_names: dict = {}  # str() of each label, once
    heads: dict = {}  # top rule -> [position of the rule node (-1: not yet), its readable rendering]
    facts: dict[str, int] = {}  # conclusion of a fact argument -> position of the fact node
    goals: dict[str, int] = {}  # conclusion -> position of its node
    placed: dict[str, int] = {}  # engine argument id -> position of its node
    shared: dict[str, set[str]] = {}  # node of several arguments -> their labellings
    sources: list[int] = []
    targets: list[int] = []
    add_source, add_target = sources.append, targets.append
    for arg in evaluation.arguments:
        arg_id, top = arg.id, arg.top_rule
        node = arg_ids.get(arg_id) or argument_id(arg_id)
        conclusion = literal(arg.conclusion)
        label = labels.get(arg_id)
        name = label_names.get(label) or label_names.setdefault(label, str(label))
        head = heads.get(top)
        if head is None:
            head = heads[top] = [-1, "fact" if top is None else namer.rule_label(top)]
        attrs = data.get(node)
        if attrs is None:  # as NodeStore.node, inlined
            data[node] = {"type": argument_type, "label": f"{name}: {conclusion} via {head[1]}",
                          "names": (arg_id,), "labelling": label, "round": rounds.get(arg_id)}
        else:  # another argument of the same derivation: every labelling in the label, sorted
            if arg_id not in attrs["names"]:
                attrs["names"] = tuple(sorted(attrs["names"] + (arg_id,)))
            seen = shared.get(node)
            if seen is None:
                seen = shared[node] = {label_names[attrs["labelling"]]}
            seen.add(name)
            attrs["label"] = (f"{'/'.join(sorted(seen)) if len(seen) > 1 else name}: "
                              f"{conclusion} via {head[1]}")
        position = placed.get(arg_id)
        if position is None:
            position = placed[arg_id] = at(node)
        if arg.fact is not None:
            source = facts.get(arg.conclusion)
            if source is None:
                source = facts[arg.conclusion] = at(namer.fact_id(arg.conclusion))
        else:  # the top rule's node
            source = head[0]
            if source < 0:
                source = head[0] = at(rule_id(top))
        add_source(source)
        add_target(position)
        for sub in arg.subs:
            at_sub = placed.get(sub)
            if at_sub is None:
                at_sub = placed[sub] = at(arg_ids.get(sub) or argument_id(sub))
            add_source(at_sub)
            add_target(position)
        goal = goals.get(conclusion)
        if goal is None:
            node_id = f"conclusion:{conclusion}"
            if node_id not in data:
                data[node_id] = {"type": NodeType.CONCLUSION, "label": conclusion, "names": ()}
            goal = goals[conclusion] = at(node_id)
        add_source(position)
        add_target(goal)
    return EdgeGroup(EdgeType.DERIVATION, sources, targets)
