"""The argument nodes of a trace and their derivation edges (paper Section 4.3,
Definition 1, docs/semantics.md section 12).

One node per argument id (:meth:`symbolic.naming.Namer.argument_id`; the
arguments of one derivation share it), labelled ``<labelling>: <conclusion>
via <top rule>``, with derivation edges from its fact or top rule and from
each sub-argument, and one to the node of its conclusion.  The edges are
integer columns over the positions of a :class:`~symbolic.skeleton.NodeStore`
(no edge id is formatted while the trace is built).
"""

from __future__ import annotations

from .model import EdgeType, NodeType
from .naming import Namer
from .skeleton import EdgeGroup, NodeStore

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
    labels = evaluation.labelling.labels
    rounds = {a: k for k, members in enumerate(evaluation.labelling.rounds) for a in members}
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
