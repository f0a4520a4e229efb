"""The MLflow UI served by ``paratrace ui`` shows the logged experiment and its
runs, checked in headless Chromium (skipped where Chromium is absent)."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from experiments.runner.tracking import GroupLog, log_group, parent_run, setup_mlflow
from experiments.runner.ui import start_ui, stop_ui, wait_until_up

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed")


def render(url: str, profile) -> str:
    cmd = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
           "--no-first-run", "--disable-background-networking", "--disable-component-update",
           "--disable-sync", f"--user-data-dir={profile}", "--virtual-time-budget=20000",
           "--dump-dom", url]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=180, check=False).stdout


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
        home = render(url + "/#/experiments", tmp_path / "profile")
        assert "paratrace/normative-en" in home
        page = render(f"{url}/#/experiments/{experiment_id}/runs", tmp_path / "profile")
        assert "ui-spec-7f3" in page
    finally:
        stop_ui(proc)
    assert proc.poll() is not None
