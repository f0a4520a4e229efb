"""Report tables and files: layout, counts, intervals, q-values, stability, audit, determinism."""

from __future__ import annotations

import csv
import io
import json

import pytest

from report_builders import outputs, penalty, scenarios
from scorer.audit import component_audit, raw_edges, status_under
from scorer.cli import fill_missing
from scorer.contract import OutputRecord
from scorer.errors import ReportError
from scorer.records import CaseResult, MetricRecord
from scorer.report import REPORT_FILES, write_report
from scorer.score import score_suite
from scorer.summary import REPAIR_KINDS, summarize


def _case(i, config, ok, *, repeat=0, tgc=None, ncr=None, dla=None, gold="both"):
    metrics = {"ASA": MetricRecord("ASA", float(ok), "")}
    if tgc is not None:
        metrics["TGC"] = MetricRecord("TGC", tgc[0] / tgc[1], "", {"matched": tgc[0], "gold": tgc[1]})
    if ncr is not None:
        metrics["NCR"] = MetricRecord("NCR", float(ncr), "")
    if dla is not None:
        metrics["DLA"] = MetricRecord("DLA", dla, "")
    return CaseResult(f"c{i:02d}", config, "m", "", repeat, gold, gold if ok else "accepted", ok, False, metrics)


def test_summary_tables_from_hand_made_results():
    results = [_case(i, "a", i < 18, tgc=(3, 4), ncr=1 + i % 3, dla=1.0 if i < 5 else 0.0) for i in range(20)]
    results += [_case(i, "b", i < 10, ncr=0) for i in range(20)]
    results += [_case(i, "b", i < 12, repeat=1) for i in range(20)]
    s = summarize(results, seed=3, n_resamples=300)
    acc = {r.config[0]: r for r in s.accuracy}
    assert acc["a"].accuracy.estimate == 0.9 and acc["b"].accuracy.estimate == 0.5   # first run only
    assert acc["a"].dla.estimate == 0.25 and acc["b"].dla is None
    rows = {(r.config[0], r.metric): r for r in s.metric_rows}
    assert rows[("a", "TGC")].interval.method == "bootstrap-edge"
    assert (rows[("a", "TGC")].interval.numerator, rows[("a", "TGC")].interval.denominator) == (60, 80)
    assert rows[("a", "NCR")].interval.method == "bootstrap-case" and not rows[("a", "NCR")].is_rate
    assert rows[("b", "NCR")].interval.method == "bootstrap-case"      # a cost, even when all 0
    assert rows[("b", "TGC")].n_applicable == 0 and rows[("b", "TGC")].interval is None
    # paired: ASA (which stands for status correctness) and DLA... only metrics both have and 0/1
    paired = {p.metric: p for p in s.paired}
    assert set(paired) == {"ASA"}
    assert (paired["ASA"].only_a, paired["ASA"].only_b, paired["ASA"].n) == (8, 0, 20)
    assert paired["ASA"].pvalue == pytest.approx(2 / 2 ** 8)
    assert paired["ASA"].qvalue == pytest.approx(paired["ASA"].pvalue)   # a family of one
    (key, stab), = s.stability
    assert key[0] == "b" and stab.n_runs == 2 and stab.per_run_accuracy == (0.5, 0.6)
    (asa,) = [m for m in s.run_metrics if m.metric == "ASA"]
    assert asa.config[0] == "b" and asa.values == (0.5, 0.6) and asa.mean == pytest.approx(0.55)
    assert asa.sd == pytest.approx(0.0707106781)
    assert [m.metric for m in s.run_metrics] == ["ASA"]        # NCR is missing from run 1: not listed
    assert s == summarize(results, seed=3, n_resamples=300)


def test_summary_q_values_across_family():
    results = []
    for i in range(30):
        results.append(_case(i, "a", True, dla=1.0))
        results.append(_case(i, "b", i % 2 == 0, dla=1.0 if i < 25 else 0.0))
        results.append(_case(i, "c", i % 3 == 0, dla=0.0))
    s = summarize(results, n_resamples=50)
    assert len(s.paired) == 6                      # 3 pairs x (ASA, DLA)
    ps = sorted(p.pvalue for p in s.paired)
    for p in s.paired:
        rank = sum(q <= p.pvalue for q in ps)
        assert p.qvalue >= p.pvalue and p.qvalue <= min(1.0, p.pvalue * 6 / rank) + 1e-12


def test_summary_rejects_duplicates_and_empty():
    with pytest.raises(ReportError):
        summarize([])
    with pytest.raises(ReportError, match="scored twice"):
        summarize([_case(1, "a", True), _case(1, "a", False)])


def test_audit_on_the_penalty_family():
    e = [f"E-{i:02d}" for i in range(1, 8)]
    gold = penalty("gold")
    assert status_under("full", e, gold, "Penalty(x)") == "accepted"
    assert status_under("no_priority_edges", e, gold, "Penalty(x)") == "both"
    assert status_under("no_attack_edges", e, penalty("no-r3"), "Penalty(x)") == "both"
    assert status_under("full", e, penalty("no-r3"), "Penalty(x)") == "rejected"
    # explosion: an unrelated contradiction makes the target both without the non-explosion check
    contra = gold.model_copy(update={"facts": gold.facts + (
        gold.facts[0].model_copy(update={"id": "f8", "literal": "Paid(x)"}),
        gold.facts[0].model_copy(update={"id": "f9", "literal": "¬Paid(x)"}))})
    assert status_under("full", e, contra, "Penalty(x)") == "accepted"
    assert status_under("no_ner_check", e, contra, "Penalty(x)") == "both"
    assert ("E-04", "grounding", "r1") in raw_edges(gold) and ("r2", "priority", "r1") in raw_edges(gold)


def test_audit_rows():
    suite = scenarios()
    engine, direct = outputs()
    outs = fill_missing(suite, engine + direct)
    results = score_suite(suite, outs)
    rows = component_audit(suite, outs, results, lambda o: score_suite(suite, o))
    by = {(r.variant, r.source): r for r in rows}
    assert [r.variant for r in rows] == sorted((r.variant for r in rows), key=[
        "no_priority_edges", "no_attack_edges", "no_ner_check", "no_tnf", "no_trace_graph"].index)
    assert by[("no_priority_edges", "gold")].changed == 3               # the three cases resolved by priorities
    assert by[("no_priority_edges", "engine / ref")].variant_value == 0.5
    assert by[("no_ner_check", "gold")].changed == 0
    assert ("no_tnf", "direct / lm") not in by                           # black box: no trace to audit
    assert by[("no_tnf", "engine / ref")].variant_value == 1.0           # same ids as gold
    tg = by[("no_trace_graph", "engine / ref")]
    assert "TGC: 6 not applicable" in tg.detail and tg.full_value == tg.variant_value == 1.0


def _report(tmp_path, name, audit=True):
    suite = scenarios()
    engine, direct = outputs()
    outs = fill_missing(suite, engine + direct)
    results = score_suite(suite, outs)
    summary = summarize(results, outputs=outs, scenarios=suite, n_resamples=200)
    rows = component_audit(suite, outs, results, lambda o: score_suite(suite, o)) if audit else None
    return write_report(tmp_path / name, summary=summary, scenarios=suite, outputs=outs, results=results,
                        audit=rows, suite_name="suite.jsonl", output_names=["engine.jsonl", "direct.jsonl"])


def test_report_files(tmp_path):
    written = _report(tmp_path, "rep")
    assert sorted(p.rsplit("/", 1)[1] for p in written) == sorted(REPORT_FILES)
    md = (tmp_path / "rep" / "summary.md").read_text()
    for heading in ("## 1. Status accuracy and DLA", "## 2. Confusion matrices", "## 3. Metrics per configuration",
                    "## 4. Paired comparison", "## 5. Repeated-run stability",
                    "## 6. Component-dependency audit (Table 19)", "## Hard failures"):
        assert heading in md
    assert "| direct / lm | 0 | 6 | 2 | 4 | 3/6 | 50.0 [18.8, 81.2] | — |" in md
    assert "truncated JSON" in md and "no output for this case" in md
    assert "| direct / lm | gold:both | 2 | 0 | 1/2 | 50.0 [9.5, 90.5] |" in md
    assert "| engine / ref | priority | 3 | 0 | 3/3 |" in md
    subsets = list(csv.DictReader(io.StringIO((tmp_path / "rep" / "summary_subsets.csv").read_text())))
    assert {r["subset"] for r in subsets} == {"contradiction", "priority", "gold:accepted", "gold:both",
                                              "gold:rejected", "gold:undecidable"}
    lines = (tmp_path / "rep" / "cases.jsonl").read_text().splitlines()
    assert len(lines) == 24
    failed = [json.loads(x) for x in lines if json.loads(x)["hard_failure"]]
    assert len(failed) == 2 and all(not f["correct"] and f["metrics"]["ASA"]["value"] == 0.0 for f in failed)
    truncated = next(f for f in failed if f["case_id"] == "p-nofacts")
    assert truncated["output_meta"]["raw_text"].startswith('{"final_status": "undecidable"')
    rows = list(csv.DictReader(io.StringIO((tmp_path / "rep" / "cases.csv").read_text())))
    assert len(rows) == 24 and rows[0]["configuration"] == "direct" and "TGC" in rows[0]
    conf = list(csv.DictReader(io.StringIO((tmp_path / "rep" / "summary_confusion.csv").read_text())))
    assert sum(int(r["count"]) for r in conf) == 12
    audit = list(csv.DictReader(io.StringIO((tmp_path / "rep" / "audit.csv").read_text())))
    assert {r["variant"] for r in audit} == {"no_priority_edges", "no_attack_edges", "no_ner_check", "no_tnf",
                                             "no_trace_graph"}


def test_report_is_byte_identical_on_rerun(tmp_path):
    _report(tmp_path, "a")
    _report(tmp_path, "b")
    for name in REPORT_FILES:
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes(), name


def test_report_without_audit_and_bad_directory(tmp_path):
    _report(tmp_path, "plain", audit=False)
    assert "## 6." not in (tmp_path / "plain" / "summary.md").read_text()
    assert (tmp_path / "plain" / "audit.csv").read_text().count("\n") == 1
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(ReportError, match="not a directory"):
        _report(tmp_path, "file")


def test_audit_no_tnf_shows_what_naming_invariance_buys():
    suite = [s for s in scenarios() if s.id == "p-gold"]
    renamed = penalty("gold").model_dump()
    names = {"r1": "late_delivery", "r2": "force_majeure", "r3": "negligence"}
    for r in renamed["rules"]:
        r["id"] = names[r["id"]]
    for p in renamed["priorities"]:
        p["stronger"], p["weaker"] = names[p["stronger"]], names[p["weaker"]]
    out = OutputRecord(case_id="p-gold", configuration="engine", model="ref",
                       common={"final_status": "accepted"}, trace=renamed)
    results = score_suite(suite, [out])
    assert results[0].metrics["TGC"].value == 1.0                      # TNF: names do not matter
    row, = [r for r in component_audit(suite, [out], results) if r.variant == "no_tnf"]
    assert row.full_value == 1.0 and row.variant_value < 0.6 and row.changed > 0


def test_repair_table():
    suite = scenarios()
    engine, direct = outputs()
    outs = fill_missing(suite, engine + direct)
    s = summarize(score_suite(suite, outs), outputs=outs, n_resamples=20)
    rows = {r.config[0]: dict(zip(REPAIR_KINDS, r.by_kind)) | {"n": r.n_outputs, "hard": r.hard_failures}
            for r in s.repairs}
    assert rows["direct"]["n"] == 6 and rows["direct"]["hard"] == 2
    assert rows["direct"]["fence"] == 4 and rows["direct"]["prose"] == 0 and rows["direct"]["status"] == 1
    assert rows["engine"]["fence"] == 6 and rows["engine"]["evidence ids"] == 6
    assert rows["engine"]["field names"] == 6                      # "status" -> "final_status"
