"""Shared fixtures of the ingestion tests: the fixture documents written once
per session (generated with fpdf2 and python-docx) and their ingested package."""

from __future__ import annotations

import os

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "true")
os.environ.setdefault("MLFLOW_DISABLE_TELEMETRY", "true")

import pytest  # noqa: E402

import ingest_fixtures  # noqa: E402
from ingest_fixtures import DOCUMENTS  # noqa: E402


@pytest.fixture(scope="session")
def fixture_files(tmp_path_factory):
    """Paths of the fixture documents by role (contract, amendment, policy, notice, scan)."""
    return ingest_fixtures.write_all(tmp_path_factory.mktemp("documents"))


@pytest.fixture(scope="session")
def package(fixture_files):
    """The four documents, ingested."""
    from assistant.ingest.package import ingest

    return ingest([fixture_files[role] for role in DOCUMENTS])
