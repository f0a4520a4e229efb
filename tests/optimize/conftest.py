"""Shared fixtures of the optimize tests: offline environment, the penalty fixture suite."""

from __future__ import annotations

import os

import pytest

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "true")
os.environ.setdefault("MLFLOW_DISABLE_TELEMETRY", "true")

from optimize_cases import PENALTY_SUITE  # noqa: E402  (after the environment defaults)


@pytest.fixture(scope="session")
def penalty_suite():
    """The seven penalty scenarios (no update pairs)."""
    from symbolic.suites.io import load_suite

    return load_suite(PENALTY_SUITE)
