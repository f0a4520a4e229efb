"""Shipped suites: gold consistency, byte-identical rebuilds, corpus targets,
and the build's handling of malformed sources.
"""

from __future__ import annotations

import sys
import types

import pytest
from typer.testing import CliRunner

from experiments.errors import SuiteCheckError, SuiteError
from experiments.suites.build import build_suite
from experiments.suites.builders import collect_sources
from experiments.suites.registry import SUITES, get_suite, load_suite, suite_names
from experiments.suites.stats import suite_stats, unmet_targets
from optimize.root import app

SHIPPED = sorted(entry.name for entry in SUITES.entries() if entry.metadata["shipped"])


def test_registry_lists_the_three_suites_and_rejects_unknown_names():
    assert suite_names() == ("controlled-140", "normative-en", "peer")
    assert SHIPPED == ["controlled-140", "normative-en"]
    with pytest.raises(SuiteError, match="unknown suite 'x'; known suites: controlled-140"):
        get_suite("x")
    with pytest.raises(SuiteError, match="not shipped"):
        load_suite("peer")


@pytest.mark.parametrize("name", SHIPPED)
def test_every_shipped_suite_has_a_card_and_passes_validate_check_gold(name):
    info = get_suite(name).metadata
    assert info["path"].is_file() and info["card"].is_file()
    result = CliRunner().invoke(app, ["validate", "--check-gold", str(info["path"])])
    assert result.exit_code == 0, result.output
    assert "gold agrees with the engine" in result.output
    assert all(s.gold.trace is not None for s in load_suite(name))


@pytest.mark.parametrize("name", SHIPPED)
def test_rebuild_is_byte_identical_to_the_shipped_file(name, tmp_path):
    out = tmp_path / f"{name}.jsonl"
    result = build_suite(name, output=out)
    assert out.read_bytes() == get_suite(name).metadata["path"].read_bytes(), (
        f"{name}.jsonl is stale: run `paratrace suite build {name}`")
    assert result.count == len(load_suite(name))


def test_normative_en_meets_the_corpus_targets():
    stats = suite_stats(load_suite("normative-en"))
    assert unmet_targets(stats) == []
    walkthroughs = [s for s in load_suite("normative-en") if "appendix_b" in s.metadata.tags]
    assert {s.metadata.domain.value for s in walkthroughs} >= {"contracts", "banking_guarantees",
                                                               "internal_policies"}


def test_peer_builds_only_from_a_given_path(tmp_path):
    with pytest.raises(SuiteError, match="--from PATH"):
        build_suite("peer", output=tmp_path / "peer.jsonl")
    missing = tmp_path / "nothing.jsonl"
    with pytest.raises(SuiteError, match="nothing.jsonl"):
        build_suite("peer", source=missing, output=tmp_path / "peer.jsonl")


def test_peer_card_documents_the_build_command():
    text = get_suite("peer").metadata["card"].read_text(encoding="utf-8")
    assert "paratrace suite build peer --from" in text and "paratrace import-peer" in text


def _module(name, scenarios):
    module = types.ModuleType(name)
    if scenarios is not None:
        module.SCENARIOS = scenarios
    sys.modules[name] = module
    return name


@pytest.fixture
def fake_modules():
    created = []

    def make(name, scenarios):
        created.append(name)
        return _module(name, scenarios)

    yield make
    for name in created:
        sys.modules.pop(name, None)


def _record(ident="cont-901", **gold):
    return {"id": ident, "query": "q?", "target": "P(x)",
            "evidence": [{"id": "E-01", "text": "P holds for x.", "source": "doc"}],
            "gold": {"status": "accepted", "facts": [{"id": "f1", "literal": "P(x)", "evidence": ["E-01"]}],
                     **gold},
            "metadata": {"domain": "contracts"}}


def test_collect_sources_names_module_index_and_field(fake_modules):
    bad = _record()
    bad["gold"]["facts"][0]["evidence"] = "E-01"
    name = fake_modules("fake_src_bad", [_record("cont-900"), bad])
    with pytest.raises(SuiteError, match=r"fake_src_bad\.SCENARIOS\[1\].*gold\.facts\.0\.evidence"):
        collect_sources([name])


def test_collect_sources_rejects_traces_duplicates_and_missing_lists(fake_modules):
    with pytest.raises(SuiteError, match="gold.trace must be left out"):
        collect_sources([fake_modules("fake_src_trace", [_record(trace={"nodes": [], "edges": []})])])
    dup = fake_modules("fake_src_dup", [_record(), _record()])
    with pytest.raises(SuiteError, match="duplicate scenario id 'cont-901'"):
        collect_sources([dup])
    with pytest.raises(SuiteError, match="has no SCENARIOS list"):
        collect_sources([fake_modules("fake_src_none", None)])
    with pytest.raises(SuiteError, match="cannot be imported"):
        collect_sources(["experiments.suites.sources.does_not_exist"])


def test_build_refuses_a_corpus_that_fails_its_checks(fake_modules, monkeypatch, tmp_path):
    from experiments.suites import builders

    wrong = _record(status="rejected")
    monkeypatch.setattr(builders, "SOURCE_MODULES", (fake_modules("fake_src_wrong", [wrong]),))
    out = tmp_path / "x.jsonl"
    with pytest.raises(SuiteCheckError) as info:
        build_suite("normative-en", output=out)
    assert [f.check for f in info.value.findings] == ["status"]
    assert "engine computes accepted" in str(info.value)
    assert not out.exists()


@pytest.mark.parametrize("name", SHIPPED)
def test_card_statistics_block_is_current(name):
    import hashlib

    from experiments.suites.stats import refresh_card, stats_markdown

    info = get_suite(name).metadata
    card = info["card"].read_text(encoding="utf-8")
    digest = hashlib.sha256(info["path"].read_bytes()).hexdigest()
    assert refresh_card(card, stats_markdown(suite_stats(load_suite(name)), digest)) == card, (
        f"{info['card'].name} is stale: run `paratrace suite build {name}`")
    for section in ("## What it covers", "## How it was built", "## Status and flag distribution",
                    "## Known limitations", "**Licence**", "**Version**"):
        assert section in card


def test_variant_builds_never_replace_the_shipped_files(tmp_path):
    with pytest.raises(SuiteError, match="pass --output"):
        build_suite("controlled-140", seed=7)
    with pytest.raises(SuiteError, match="pass --output"):
        build_suite("controlled-140", source=get_suite("normative-en").metadata["path"])
    with pytest.raises(SuiteError, match="--from does not apply"):
        build_suite("normative-en", source=tmp_path / "x.jsonl", output=tmp_path / "n.jsonl")
    other = build_suite("controlled-140", seed=7, output=tmp_path / "c7.jsonl")
    assert other.count == 140 and other.path.read_bytes() != get_suite("controlled-140").metadata["path"].read_bytes()
