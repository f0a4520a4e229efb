"""Streamed TNF JSON and DOT of an evaluation, without a typed object per
attack or defeat edge (paper Section 4.3, docs/semantics.md section 12).

:func:`iter_tnf_json` yields the text of :func:`symbolic.traces.tnf_json.tnf_json`
in chunks, byte for byte, for the trace of an evaluation: the few nodes and
grounding, derivation and status edges come from the skeleton of
:func:`symbolic.traces.trace.trace_parts`, the attack and defeat edges straight from
the columns of :class:`~symbolic.traces.trace_attacks.AttackEdges`, already in
canonical order (``attack:`` < ``defeat:`` < ``derivation:`` < ``grounding:``
< ``status:``).

**Summarized defeats.**  With dense priorities a trace has about one defeat
edge per attack *per rule of the attacked team*, which no reader needs one
by one.  In the ``summary`` form (schema ``tnf-v1-summary``) the defeat edges
are left out; each defeated attack edge carries ``"defeats": "<set id>"`` and
the top-level ``"defeat_sets"`` lists every set once as ``{"id":
"defeats:<12 hex>", "priorities": [...]}``.  The attack edge ``e`` with set
``d`` stands for the defeat edges ``priority -> target(e)`` with ``attack =
id(e)``, one per priority of ``d``: the same content, linear in the attack
edges.  :data:`~symbolic.traces.trace.DEFEAT_EDGE_LIMIT` decides in ``auto`` mode.

**Attack columns.**  Above :data:`~symbolic.traces.trace.ATTACK_EDGE_LIMIT` attack edges (``auto``)
or on request (``attacks="columns"``) the attack edges themselves are
written as columns (schema ``tnf-v1-columns``, always with defeat sets):
``"attack_edges": {"active", "arguments", "defeats", "kind", "kinds", "lic",
"rules", "source", "target"}``.  Row ``i`` stands for the attack edge from
``arguments[source[i]]`` to ``arguments[target[i]]`` of kind
``kinds[kind[i]]``, licensed by ``rules[lic[i]]`` (no ``lic`` when ``-1``),
``active`` when ``active[i]`` is 1, else ``defeated`` with the defeat set
``defeat_sets[defeats[i]]``; the rows are in canonical order and
``"edges"`` holds the other edges.  :func:`symbolic.traces.tnf_json.expand_tnf`
turns either compact form back into the full one.

**One writer per format.**  :func:`symbolic.traces.trace.evaluation_rows` is the trace of an evaluation as a
:class:`~symbolic.traces.trace_rows.TraceRows` value in one of these forms; :func:`iter_tnf_bytes`
hands it to :func:`symbolic.traces.tnf_json.write_tnf` and :func:`iter_dot_bytes` to
:func:`symbolic.traces.dot.write_dot`, the same writers that :func:`~symbolic.traces.tnf_json.tnf_json`
and :func:`~symbolic.traces.dot.to_dot` use for a :class:`~symbolic.scenario.model.Trace`.  The rows
are made one at a time as they are written, from the columns of
:class:`~symbolic.traces.trace_attacks.AttackEdges`: no typed edge object and no graph.
"""

from __future__ import annotations

from typing import Iterator

from symbolic.engine.results import Evaluation
from symbolic.traces.defeat_set_members import set_id
from symbolic.traces.dot import write_dot
from symbolic.traces.tnf_json import write_tnf
from symbolic.traces.trace import (ATTACK_EDGE_LIMIT, ATTACKS_MODES, DEFEAT_EDGE_LIMIT, DEFEATS_MODES,
                                   evaluation_rows)
from symbolic.traces.trace_rows import COLUMNS_SCHEMA_VERSION, SUMMARY_SCHEMA_VERSION

__all__ = ["ATTACKS_MODES", "ATTACK_EDGE_LIMIT", "COLUMNS_SCHEMA_VERSION", "DEFEAT_EDGE_LIMIT", "DEFEATS_MODES",
           "SUMMARY_SCHEMA_VERSION", "defeat_set_id", "iter_dot", "iter_dot_bytes", "iter_tnf_bytes",
           "iter_tnf_json"]



def defeat_set_id(priorities) -> str:
    """The id of a defeat set: ``defeats:`` and 12 hex of the sha256 of its sorted priority ids.

    >>> defeat_set_id(["priority:(b=>¬p)>(a=>p)"])[:8]
    'defeats:'
    """
    return set_id("\n".join(sorted(priorities)).encode("utf-8"))


def iter_tnf_bytes(evaluation: Evaluation, *, query: str | None = None, defeats: str = "auto",
                   attacks: str = "auto") -> Iterator[bytes]:
    """The TNF JSON of an evaluation's trace as UTF-8 ``bytes``, in chunks.

    Parameters
    ----------
    evaluation : Evaluation
        From :func:`symbolic.traces.tnf.normal_form` (its ``evaluation``).
    query : str, optional
        The query node's label.
    defeats : {"auto", "edges", "summary"}
        ``edges``: one defeat edge per priority and attack edge, exactly
        :func:`symbolic.traces.tnf_json.tnf_json` of the trace; ``summary``: defeat
        sets (module docstring); ``auto``: ``summary`` only when the full form
        would have more than :data:`DEFEAT_EDGE_LIMIT` defeat edges.
    attacks : {"auto", "edges", "columns"}
        ``edges``: one JSON object per attack edge; ``columns``: the attack
        edges as columns, with defeat sets (module docstring); ``auto``:
        ``columns`` only above :data:`ATTACK_EDGE_LIMIT` attack edges and
        unless ``defeats`` is ``edges``.

    Yields
    ------
    bytes
        Pieces whose concatenation is one JSON object.

    Raises
    ------
    ValueError
        If ``defeats`` or ``attacks`` is not one of its modes, or ``attacks``
        is ``columns`` and ``defeats`` is ``edges``.
    """
    yield from write_tnf(evaluation_rows(evaluation, query=query, defeats=defeats, attacks=attacks))


def iter_tnf_json(evaluation: Evaluation, *, query: str | None = None, defeats: str = "auto",
                  attacks: str = "auto") -> Iterator[str]:
    """The TNF JSON of an evaluation's trace, in chunks of text (:func:`iter_tnf_bytes`, decoded).

    Parameters
    ----------
    evaluation : Evaluation
    query : str, optional
    defeats : {"auto", "edges", "summary"}
    attacks : {"auto", "edges", "columns"}
        As for :func:`iter_tnf_bytes`.

    Yields
    ------
    str
        Pieces whose concatenation is one JSON object.
    """
    for piece in iter_tnf_bytes(evaluation, query=query, defeats=defeats, attacks=attacks):
        yield piece.decode("utf-8")


def iter_dot_bytes(evaluation: Evaluation, *, query: str | None = None, name: str = "trace",
                   defeats: str = "auto") -> Iterator[bytes]:
    """Graphviz DOT of an evaluation's trace as UTF-8 ``bytes``, in chunks: exactly
    :func:`symbolic.traces.dot.to_dot` of :func:`symbolic.traces.trace.build_trace`,
    unless the defeat edges are summarized.

    In the summary form (see :func:`iter_tnf_bytes`) the defeat edges are left
    out, each defeated attack edge carries ``defeats="<set id>"`` and one
    comment line per set, ``// defeats:<id>: <priority ids>``, follows the
    nodes.

    Parameters
    ----------
    evaluation : Evaluation
    query : str, optional
    name : str, optional
        The graph's name.
    defeats : {"auto", "edges", "summary"}
        As for :func:`iter_tnf_bytes`.

    Yields
    ------
    bytes
    """
    yield from write_dot(evaluation_rows(evaluation, query=query, defeats=defeats, attacks="edges"), name=name)


def iter_dot(evaluation: Evaluation, *, query: str | None = None, name: str = "trace",
             defeats: str = "auto") -> Iterator[str]:
    """Graphviz DOT of an evaluation's trace, in chunks of text (:func:`iter_dot_bytes`, decoded).

    Parameters
    ----------
    evaluation : Evaluation
    query : str, optional
    name : str, optional
        The graph's name.
    defeats : {"auto", "edges", "summary"}
        As for :func:`iter_tnf_bytes`.

    Yields
    ------
    str
    """
    for piece in iter_dot_bytes(evaluation, query=query, name=name, defeats=defeats):
        yield piece.decode("utf-8")
