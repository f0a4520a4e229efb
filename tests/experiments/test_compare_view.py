"""MLflow's views as a user meets them, in headless Chromium against a real ``mlflow server``
(skipped where Chromium is absent).

Two backbones with one model string on two endpoints (the oracle, exact and noisy), B4, four
cases of controlled-140, run by ``paratrace run`` as a process.  Then, as a person would:

* the runs table opens from the link ``run`` prints on the run's group, its cells by name and the
  metric columns with their values (not on a collapsed parent without metric columns);
* tick the two cells -> Compare: the run names are whole (``b4·exact``, ``b4·noisy``), each
  metric stands beside its interval (``ASA_ci_low``, ``ASA_ci_high``);
* Artifacts -> ``cases.txt``: per case and per run, in the page, the run and its backbone, the
  gold status, the answer, whether it is correct and the case's metrics, as results.jsonl says.

Set ``PARATRACE_SCREENSHOT_DIR`` to keep the screenshots.
"""

from __future__ import annotations

import asyncio
import functools
import json
import os
import re
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from chromium_page import CHROMIUM, open_page
from cli_process import PARATRACE, cli_env

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed")
CASES = 4


def _keep(path: Path) -> None:
    keep = os.environ.get("PARATRACE_SCREENSHOT_DIR")
    if keep:
        Path(keep).mkdir(parents=True, exist_ok=True)
        shutil.copy(path, Path(keep) / path.name)


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """The run (CLI process), its printed lines, and an ``mlflow server`` on its store."""
    from assistant.oracle import OracleServer
    from experiments.runner.plan import load_suites
    from experiments.runner.ui import free_port, wait_until_up

    root = tmp_path_factory.mktemp("compare-view")
    scenarios, _ = load_suites(["controlled-140"])
    cases = scenarios["controlled-140"]
    with OracleServer(cases, noise=0.0, seed=0) as exact, OracleServer(cases, noise=1.0, seed=3) as noisy:
        (root / "spec.toml").write_text(
            'name = "exact-vs-noisy"\nsuites = ["controlled-140"]\nconfigurations = ["b4"]\n'
            f"limit = {CASES}\nconcurrency = 2\nmax_retries = 0\n"
            f'[[backbones]]\nmodel = "openai/oracle"\nalias = "exact"\napi_base = "{exact.base_url}"\n'
            f'[[backbones]]\nmodel = "openai/oracle"\nalias = "noisy"\napi_base = "{noisy.base_url}"\n',
            encoding="utf-8")
        done = subprocess.run([*PARATRACE, "run", str(root / "spec.toml"), "--workdir", str(root / "w")],
                              cwd=root, env=cli_env(root, PARATRACE_API_KEY="unused"), capture_output=True,
                              text=True, timeout=1800)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    port = free_port()
    log = open(root / "server.log", "wb")
    server = subprocess.Popen([sys.executable, "-m", "mlflow", "server", "--backend-store-uri",
                               f"sqlite:///{root / 'w' / 'mlflow.db'}", "--host", "127.0.0.1", "--port", str(port),
                               "--workers", "1"], cwd=root, stdout=log, stderr=subprocess.STDOUT,
                              stdin=subprocess.DEVNULL, start_new_session=True,
                              env=cli_env(root, MLFLOW_SERVER_ENABLE_JOB_EXECUTION="false"))
    try:
        url = f"http://127.0.0.1:{port}"
        wait_until_up(url, server)
        records = [json.loads(line) for line in
                   (root / "w" / "runs" / "exact-vs-noisy" / "results.jsonl").read_text().splitlines()]
        yield root, url, done.stdout, records
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()
        log.close()


def _experiment_id(url: str) -> str:
    from mlflow import MlflowClient

    return MlflowClient(tracking_uri=url).get_experiment_by_name("paratrace/controlled-140").experiment_id


@functools.lru_cache(maxsize=1)
def _golds() -> dict[str, str]:
    from experiments.runner.plan import load_suites

    scenarios, _ = load_suites(["controlled-140"])
    return {s.id: str(getattr(s.gold.status, "value", s.gold.status)) for s in scenarios["controlled-140"]}


def _gold(case_id: str) -> str:
    return _golds()[case_id]


def test_the_run_links_a_runs_table_with_its_cells_and_their_metrics(served, tmp_path):
    from experiments.runner.tracking import runs_table_url

    root, url, printed, _ = served
    assert "open the UI with: paratrace ui --workdir" in printed
    link = runs_table_url(url, _experiment_id(url))

    async def body(page):
        await page.goto(link)
        text = await page.wait_for("Group: exact-vs-noisy", "b4·exact", "b4·noisy", "ASA", "TGC", "NCR")
        await page.screenshot(tmp_path / "runs_table.png")
        return text

    text = asyncio.run(open_page(tmp_path / "profile", body))
    _keep(tmp_path / "runs_table.png")
    assert "Error loading shared view state" not in text
    header = text[text.index("Run Name"):text.index("Group: exact-vs-noisy")]
    assert all(m in header for m in ("ASA", "TGC", "CLA", "NER", "PHA", "NCR")), header


def test_compare_two_backbones_case_by_case_without_a_popup(served, tmp_path):
    from experiments.runner.tracking import runs_table_url

    root, url, _, records = served
    link = runs_table_url(url, _experiment_id(url))
    latest = {(r["key"]["backbone"], r["key"]["case"]): r for r in records}
    assert len(latest) == 2 * CASES

    async def body(page):
        await page.goto(link)
        await page.wait_for("b4·exact", "b4·noisy")
        await page.tick_row("b4·exact")
        await page.tick_row("b4·noisy")
        await page.click("Compare")
        top = await page.wait_for("Comparing 2 Runs", "Run Name:", "cases.txt", "ASA_ci_low")
        await page.click("cases.txt")
        cases = await page.wait_for("· b4·exact", "· b4·noisy", "backbone exact = openai/oracle\n  at http://127.0.0.1:",
                                    "backbone noisy = openai/oracle\n  at http://127.0.0.1:")
        await page.screenshot(tmp_path / "compare_cases.png")
        return top, cases

    top, cases = asyncio.run(open_page(tmp_path / "profile", body))
    _keep(tmp_path / "compare_cases.png")
    names = top[top.index("Run Name:"):top.index("Start Time:")]
    assert "b4·exact" in names and "b4·noisy" in names and "..." not in names and "…" not in names
    metrics = top[top.index("\nMetrics\nShow diff only"):]  # the table's first rows (it scrolls)
    for name in ("ASA", "ASA_ci_high", "ASA_ci_low", "CLA"):
        assert re.search(rf"^{name}\s", metrics, re.M), name
    for (backbone, case_id), record in latest.items():
        block = re.search(rf"^{re.escape(case_id)} · b4·{backbone}\n(.*\n){{4}}", cases, re.M)
        assert block, (case_id, backbone)
        lines = block.group(0)
        common = record["output"]["common"]
        gold = _gold(case_id)
        assert re.search(rf"gold {gold}\s+answer {common['final_status']}\s+correct "
                         f"{'yes' if common['final_status'] == gold else 'NO'}", lines), lines
        assert re.search(r"ASA (1\.00|0\.00)\s+TGC (\d\.\d\d| n/a)", lines), lines
        assert common["answer"][:40] in lines
