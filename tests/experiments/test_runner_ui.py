"""The MLflow UI served by ``paratrace ui`` on a real tracked run (B3 and B4 on
two scripted backbones), rendered by headless Chromium (skipped where Chromium
is absent): the experiment opens on its runs table, the runs of two backbones
stand side by side with their metrics, and one case is compared across B3 and
B4 in MLflow's evaluation view, with its assessments.

Set ``PARATRACE_SCREENSHOT_DIR`` to keep the screenshots."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path
from urllib.parse import quote

import pytest

from assistant.backends import Backbone
from assistant.scripted import Script, scripted_lm
from experiments.runner.run import run_experiment
from experiments.runner.solve import AssistantSolver
from experiments.runner.spec import ExperimentSpec
from experiments.runner.tracking import GroupLog, log_group, parent_run, runs_table_url, setup_mlflow
from experiments.runner.ui import start_ui, stop_ui, wait_until_up

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed")
SUITE = Path(__file__).resolve().parents[1] / "symbolic" / "fixtures" / "penalty_suite.jsonl"
THEORY = {"theory": {
    "facts": [{"id": "f1", "literal": "Delay(x)", "evidence": ["E-01"]}],
    "rules": [{"id": "r1", "antecedents": ["Delay(x)"], "consequent": "Penalty(x)", "evidence": ["E-02"]}],
    "attacks": [], "priorities": []}}


class Accepting(Script):
    """B4's theory step answers with a theory that accepts the penalty; other steps answer minimally."""

    def next(self, messages, schema=None):
        if schema and "theory" in (schema.get("properties") or {}):
            self.requests.append(messages)
            self.schemas.append(schema)
            return json.dumps(THEORY)
        return super().next(messages, schema)


def chromium(profile: Path, *args: str, size: str = "1920,1200") -> subprocess.CompletedProcess:
    if profile.exists():
        shutil.rmtree(profile)
    cmd = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
           "--disable-background-networking", "--disable-component-update", "--disable-sync",
           f"--user-data-dir={profile}", "--virtual-time-budget=40000", f"--window-size={size}",
           "--run-all-compositor-stages-before-draw", *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=240, check=False)


def page_text(url: str, profile: Path) -> str:
    """The rendered page as text (scripts and styles dropped)."""
    dom = chromium(profile, "--dump-dom", url).stdout
    dom = re.sub(r"<(script|style)[^>]*>.*?</\1>", " ", dom, flags=re.S)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", dom)).replace("&amp;", "&")


def screenshot(url: str, profile: Path, path: Path, size: str = "1920,1200") -> Path:
    chromium(profile, f"--screenshot={path}", url, size=size)
    assert path.stat().st_size > 10_000, f"no screenshot of {url}"
    keep = os.environ.get("PARATRACE_SCREENSHOT_DIR")
    if keep:
        Path(keep).mkdir(parents=True, exist_ok=True)
        shutil.copy(path, Path(keep) / path.name)
    return path


@pytest.fixture(scope="module")
def tracked(tmp_path_factory):
    root = tmp_path_factory.mktemp("ui")
    saved = os.environ.pop("MLFLOW_TRACKING_URI", None)
    cwd = os.getcwd()
    os.chdir(root)
    try:
        backbones = {"null": Backbone("scripted/null", scripted_lm("scripted/null", Script(fallback="null")),
                                      "scripted", True),
                     "accepting": Backbone("scripted/accepting", scripted_lm(
                         "scripted/accepting", Accepting(fallback="null")), "scripted", True)}
        spec = ExperimentSpec(name="ui-b3-b4", suites=[str(SUITE)], configurations=["b3", "b4"], concurrency=1,
                              backbones=[{"model": "scripted/null", "alias": "null"},
                                         {"model": "scripted/null", "alias": "accepting"}])
        result = run_experiment(spec, workdir=root, track=True, solver=AssistantSolver(resolved=backbones))
        mlflow = setup_mlflow(root, autolog_dspy=False)
        client = mlflow.MlflowClient()
        parent = client.get_run(result.mlflow_runs[0])
        children = client.search_runs([parent.info.experiment_id],
                                      filter_string=f"tags.`mlflow.parentRunId` = '{parent.info.run_id}'")
        cells = {(r.data.params["configuration"], r.data.params["backbone"]): r for r in children}
        proc, url = start_ui(root, log_file=root / "ui.log")
        wait_until_up(url, proc)
        yield mlflow, root, url, parent, cells
    finally:
        if "proc" in locals():
            stop_ui(proc)
        os.chdir(cwd)
        if saved is not None:
            os.environ["MLFLOW_TRACKING_URI"] = saved


def test_the_experiment_opens_on_the_runs_table(tracked, tmp_path):
    _, _, url, parent, cells = tracked
    page = page_text(runs_table_url(url, parent.info.experiment_id), tmp_path / "profile")
    assert "Runs - Experiment" in page and "ui-b3-b4" in page
    assert "Usage Quality Tool calls" not in page  # not the GenAI overview


def test_two_backbones_side_by_side_with_their_metrics(tracked, tmp_path):
    _, _, url, parent, cells = tracked
    a, b = cells[("b4", "null")], cells[("b4", "accepting")]
    assert a.data.metrics != b.data.metrics  # the two backbones answer differently
    runs = quote(json.dumps([a.info.run_id, b.info.run_id]))
    page_url = f"{url}/#/compare-runs?runs={runs}&experiments={quote(json.dumps([parent.info.experiment_id]))}"
    page = page_text(page_url, tmp_path / "profile")
    for run in (a, b):
        assert run.info.run_name in page
    metrics = page[page.index("Metrics"):]
    for name in ("ASA", "TGC", "PHA"):
        assert name in metrics
    for run in (a, b):
        assert f"{run.data.metrics['ASA']:.3g}"[:4] in metrics
    assert "ASA_ci_low" in page and "ASA_ci_high" in page  # each metric beside its interval
    screenshot(page_url, tmp_path / "profile", tmp_path / "backbones_side_by_side.png", size="1920,3000")


def test_one_case_compared_across_b3_and_b4(tracked, tmp_path):
    mlflow, _, url, parent, cells = tracked
    b3, b4 = cells[("b3", "accepting")], cells[("b4", "accepting")]
    case = "penalty-as-given"
    traces = {run.info.run_id: {t.info.tags["paratrace.case_id"]: t for t in mlflow.search_traces(
        locations=[parent.info.experiment_id], run_id=run.info.run_id, return_type="list")} for run in (b3, b4)}
    assert len(traces[b3.info.run_id]) == len(traces[b4.info.run_id]) == 7
    left, right = traces[b3.info.run_id][case], traces[b4.info.run_id][case]
    table_url = (f"{url}/#/experiments/{parent.info.experiment_id}/evaluation-runs"
                 f"?selectedRunUuid={b3.info.run_id}&compareToRunUuid={b4.info.run_id}")
    table = page_text(table_url, tmp_path / "profile")
    compared = re.sub(r"#[0-9a-f]{6} ", "", table[table.index("Comparing"):])
    assert compared.startswith(f"Comparing {b3.info.run_name} to {b4.info.run_name}")
    # per case: the gold as an expectation and the metrics as assessments, for both runs
    assert "7 of 7" in compared and "Expectations (1/1)" in compared and "Assessments (" in compared
    assert "gold_status" in compared and "ASA AVG" in compared
    assert f'"case_id": "{case}"' in compared
    case_url = f"{table_url}&selectedEvaluationId={left.info.trace_id}"
    page = page_text(case_url, tmp_path / "profile")
    assert "Comparing 2 traces" in page
    assert left.info.trace_id in page and right.info.trace_id in page and case in page
    screenshot(table_url, tmp_path / "profile", tmp_path / "b3_b4_cases.png")
    screenshot(case_url, tmp_path / "profile", tmp_path / "one_case_b3_b4.png")


def test_ui_lists_experiment_and_runs(tmp_path, monkeypatch):
    monkeypatch.delenv("MLFLOW_TRACKING_URI", raising=False)
    monkeypatch.chdir(tmp_path)
    mlflow = setup_mlflow(tmp_path, autolog_dspy=False)
    with parent_run(mlflow, "normative-en", "ui-spec-7f3", {"model": "m"}) as parent:
        log_group(mlflow, GroupLog(name="b4-child-91c", params={"configuration": "b4"},
                                   metrics={"ASA": (0.5, 0.1, 0.9, 4)}))
    experiment_id = parent.info.experiment_id
    proc, url = start_ui(tmp_path, log_file=tmp_path / "ui.log")
    try:
        wait_until_up(url, proc)
        home = page_text(url + "/#/experiments", tmp_path / "profile")
        assert "paratrace/normative-en" in home
        page = page_text(f"{url}/#/experiments/{experiment_id}/runs", tmp_path / "profile")
        assert "ui-spec-7f3" in page
    finally:
        stop_ui(proc)
    assert proc.poll() is not None
