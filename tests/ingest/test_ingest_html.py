"""The reviewer's page of ``ask --format html``, rendered by headless Chromium:
its DOM holds the status, the answer, the cited clauses in context, the
argument graph (inline SVG) with the defeated attack and its priority, what
was rejected and the evidence selection; the screenshot is a drawn page."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pytest

from ingest_fixtures import DOCUMENTS
from ingest_fixtures import QUERY, TARGET, walkthrough_replies

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run"]


@pytest.fixture(scope="module")
def page(tmp_path_factory, fixture_files, package):
    work = tmp_path_factory.mktemp("page")
    replies = work / "replies.jsonl"
    replies.write_text("".join(json.dumps({"reply": r}) + "\n" for r in walkthrough_replies(package)),
                       encoding="utf-8")
    docs = [a for r in DOCUMENTS for a in ("--doc", str(fixture_files[r]))]
    done = subprocess.run([sys.executable, "-c", "from optimize.root import main; main()", "ask", *docs, "-q", QUERY,
                           "--target", TARGET, "--model", f"scripted/replay:{replies}", "--format", "html"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    path = work / "answer.html"
    path.write_text(done.stdout, encoding="utf-8")
    return path


def test_page_is_self_contained(page):
    html = page.read_text(encoding="utf-8")
    assert html.startswith("<!doctype html>") and "<svg" in html
    assert "<script" not in html and "http://" not in html.replace('xmlns="http://www.w3.org/2000/svg"', "")
    assert "https://" not in html and "<link" not in html


@pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed")
def test_chromium_renders_status_citations_graph_and_rejections(page, package, tmp_path):
    profile = tmp_path / "profile"
    dom = subprocess.run([CHROMIUM, *FLAGS, f"--user-data-dir={profile}", "--dump-dom", page.as_uri()],
                         capture_output=True, text=True, timeout=180).stdout
    assert '<div class="status rejected" id="status">rejected</div>' in dom
    assert "Penalty(shipment_a) is rejected" in dom and "Decided by priority r2&gt;r1" in dom
    penalty = next(f for f in package.fragments if f.source == "supply-contract.pdf" and f.clause == "12.1")
    assert f'data-id="{penalty.id}"' in dom and "supply-contract.pdf, clause 12.1, page 1" in dom
    assert "<mark>12. LIQUIDATED DAMAGES\n12.1 If a shipment is delivered after its Delivery Date" in dom
    assert dom.count('class="argument"') == 5 and dom.count('data-label="OUT"') == 1
    assert dom.count('class="attack active"') == 1 and dom.count('class="attack defeated"') == 1
    assert "rebut, defeated by r2&gt;r1" in dom
    assert "<td>fact</td><td>f4</td><td>cites no evidence fragment</td>" in dom
    assert "Appendix 3 → Appendix 4 (stated in" in dom
    assert "28 fragment(s) kept, 0 left out" in dom


@pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed")
def test_chromium_screenshot_shows_a_drawn_page(page, tmp_path):
    from matplotlib.image import imread

    shot = tmp_path / "answer.png"
    subprocess.run([CHROMIUM, *FLAGS, f"--user-data-dir={tmp_path / 'profile'}", "--window-size=1200,1600",
                    f"--screenshot={shot}", page.as_uri()], capture_output=True, text=True, timeout=180)
    image = imread(shot)
    assert image.shape[:2] == (1600, 1200) and image.std() > 0.05
    rgb = image[..., :3]
    red = ((abs(rgb[..., 0] - 0xB2 / 255) < 0.03) & (abs(rgb[..., 1] - 0x3B / 255) < 0.03)
           & (abs(rgb[..., 2] - 0x3B / 255) < 0.03)).sum()
    assert red > 500  # the red "rejected" badge and the active attack are drawn


def test_page_of_a_configuration_without_graph_and_of_a_hard_failure():
    from assistant.api import Assistant
    from assistant.backends import Backbone
    from assistant.render_html import render_html
    from assistant.scripted import Script, scripted_lm
    from symbolic.scenario.model import EvidenceFragment

    fragments = [EvidenceFragment(id="E-01", text="Late delivery incurs a <penalty>.", source="Supply Agreement",
                                  clause="7.2")]
    answer = {"result": {"answer": "A penalty is due.", "cited": ["E-01"], "conflict": False,
                         "priority_applied": False, "status": "accepted"}}

    def run(config, replies):
        backbone = Backbone("scripted/t", scripted_lm("scripted/t", Script(replies)), "scripted", True)
        return Assistant(config, backbone=backbone, max_retries=0).run("Is a penalty due?", fragments)

    page = render_html(run("b1", [answer]), None, fragments, query="Is a penalty due?")
    assert '<div class="status accepted" id="status">accepted</div>' in page
    assert "Supply Agreement, clause 7.2" in page and "<mark>Late delivery incurs a &lt;penalty&gt;.</mark>" in page
    assert "Configuration b1 gives no argument graph." in page and "<svg" not in page
    failed = render_html(run("b1", ["{not json"]), None, fragments)
    assert '<div class="status failure" id="status">hard failure</div>' in failed and "{not json" in failed
