"""The compact TNF forms (defeat sets, attack columns) say the same as the full form.

``symbolic.traces.tnf_json.expand_tnf`` turns ``tnf-v1-summary`` and ``tnf-v1-columns``
back into the ``tnf_json`` text byte for byte; ``trace_from_json`` reads all
three forms into the same ``Trace``; ``paratrace status --attacks`` selects the
form and rejects combinations that cannot be written.
"""

from __future__ import annotations

import json
import warnings

import pytest

from symbolic.traces import trace as trace_module
from symbolic.scenario.model import Analysis
from symbolic.traces.tnf import normal_form, tnf_json, trace_from_json
from symbolic.traces.tnf_json import TraceFormatError, expand_tnf
from trace_text import iter_tnf_json

from test_trace_stream import paratrace_cli, random_analysis, small_dense_file

E = ("E-01",)



def _form(analysis: Analysis):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return normal_form(E, analysis, "P0", query="Is P0 due?")


def _canonical(data: dict) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _text(form, **modes) -> str:
    return "".join(iter_tnf_json(form.evaluation, query="Is P0 due?", **modes))


@pytest.mark.parametrize("seed", range(40))
def test_expanding_either_compact_form_gives_the_full_text(seed):
    form = _form(random_analysis(seed))
    full = tnf_json(form.trace)
    summary, columns = _text(form, defeats="summary"), _text(form, attacks="columns")
    assert json.loads(summary)["schema_version"] == "tnf-v1-summary"
    assert json.loads(columns)["schema_version"] == "tnf-v1-columns"
    assert "attack:" not in "".join(e["id"] for e in json.loads(columns)["edges"])
    assert _canonical(expand_tnf(json.loads(summary))) == full
    assert _canonical(expand_tnf(json.loads(columns))) == full
    assert _canonical(expand_tnf(json.loads(full))) == full


@pytest.mark.parametrize("seed", range(0, 40, 3))
def test_trace_from_json_reads_every_form(seed):
    form = _form(random_analysis(seed))
    for text in (tnf_json(form.trace), _text(form, defeats="summary"), _text(form, attacks="columns")):
        trace = trace_from_json(text)
        assert trace == form.trace
        assert tnf_json(trace) == tnf_json(form.trace)


def test_columns_only_above_the_limit_and_never_with_defeat_edges(monkeypatch):
    form = _form(random_analysis(3))
    assert json.loads(_text(form))["schema_version"] == "tnf-v1"
    monkeypatch.setattr(trace_module, "ATTACK_EDGE_LIMIT", 0)
    assert json.loads(_text(form))["schema_version"] == "tnf-v1-columns"
    assert json.loads(_text(form, defeats="edges"))["schema_version"] == "tnf-v1"
    with pytest.raises(ValueError, match="cannot be combined"):
        _text(form, attacks="columns", defeats="edges")
    with pytest.raises(ValueError, match="attacks must be one of"):
        _text(form, attacks="rows")


def _columns(form) -> dict:
    return json.loads(_text(form, attacks="columns"))


@pytest.mark.parametrize(("change", "message"), [
    (lambda d: d["attack_edges"]["source"].append(0), "has 0 rows|has .* rows, attack_edges.source has"),
    (lambda d: d["attack_edges"]["target"].__setitem__(0, 10 ** 6), r"attack_edges\.target\.0: must be an integer"),
    (lambda d: d["attack_edges"]["lic"].__setitem__(0, "rule:x"), r"attack_edges\.lic\.0"),
    (lambda d: d["attack_edges"].pop("kind"), r"attack_edges\.kind: must be a list"),
    (lambda d: d["attack_edges"].__setitem__("weight", []), r"attack_edges\.weight: unknown column"),
    (lambda d: d.pop("attack_edges"), "attack_edges: missing"),
    (lambda d: d["defeat_sets"].append({"id": 3}), r"defeat_sets\.\d+: a defeat set is"),
    (lambda d: d.__setitem__("schema_version", "tnf-v9"), "unknown schema_version 'tnf-v9'"),
])
def test_malformed_columns_are_named(change, message):
    form = _form(random_analysis(5))
    data = _columns(form)
    change(data)
    with pytest.raises(TraceFormatError, match=message):
        trace_from_json(json.dumps(data))


def test_unknown_defeat_set_is_named():
    form = _form(random_analysis(5))
    data = json.loads(_text(form, defeats="summary"))
    edge = next(e for e in data["edges"] if "defeats" in e)
    edge["defeats"] = "defeats:000000000000"
    with pytest.raises(TraceFormatError, match=r"edges\.\d+\.defeats: names no defeat set"):
        trace_from_json(json.dumps(data))


def test_cli_attacks_option(tmp_path):
    path = small_dense_file(tmp_path)
    full, columns = paratrace_cli("status", str(path), "-f", "json", "--defeats", "edges"), \
        paratrace_cli("status", str(path), "-f", "json", "--attacks", "columns")
    assert full.returncode == columns.returncode == 0, full.stderr + columns.stderr
    full_record, short_record = json.loads(full.stdout), json.loads(columns.stdout)
    assert short_record["tnf"]["schema_version"] == "tnf-v1-columns"
    assert {k: v for k, v in full_record.items() if k != "tnf"} == {k: v for k, v in short_record.items() if k != "tnf"}
    assert _canonical(expand_tnf(short_record["tnf"])) == _canonical(full_record["tnf"])
    for bad in (("-f", "json", "--attacks", "columns", "--defeats", "edges"), ("-f", "dot", "--attacks", "columns"),
                ("-f", "json", "--attacks", "rows")):
        done = paratrace_cli("status", str(path), *bad)
        assert done.returncode == 2 and "--attacks" in done.stderr and "Traceback" not in done.stderr, done.stderr
