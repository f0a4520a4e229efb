"""The TNF JSON and DOT text of an evaluation's trace, as ``paratrace status`` writes them
(:func:`symbolic.traces.tnf_json.write_tnf` and :func:`symbolic.traces.dot.write_dot` of
:func:`symbolic.traces.trace.evaluation_rows`), for the tests."""

from symbolic.traces.dot import write_dot
from symbolic.traces.tnf_json import write_tnf
from symbolic.traces.trace import evaluation_rows


def iter_tnf_json(evaluation, *, query=None, defeats="auto", attacks="auto"):
    """The TNF JSON text of an evaluation's trace, in one piece."""
    return [b"".join(write_tnf(evaluation_rows(evaluation, query=query, defeats=defeats, attacks=attacks))).decode()]


def iter_dot(evaluation, *, query=None, name="trace", defeats="auto"):
    """The DOT text of an evaluation's trace, in one piece."""
    rows = evaluation_rows(evaluation, query=query, defeats=defeats, attacks="edges")
    return [b"".join(write_dot(rows, name=name)).decode()]
