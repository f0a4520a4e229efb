"""Shared fixtures of the assistant tests: the paper's penalty example as an
evidence package, scripted replies for every configuration, and an assistant
factory over the scripted backend (no network)."""

from __future__ import annotations

import os

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "true")
os.environ.setdefault("MLFLOW_DISABLE_TELEMETRY", "true")

import json  # noqa: E402

import pytest  # noqa: E402
import typer  # noqa: E402

from assistant_cases import FRAGMENTS, QUERY, TARGET, THEORY, gold  # noqa: E402
from symbolic.scenario.model import Analysis, Fact, Metadata, Priority, Rule, Scenario  # noqa: E402

@pytest.fixture
def app():
    """A root Typer app with ``ask`` and ``local-llm`` registered (for typer's CliRunner)."""
    from assistant.cli import register

    root = typer.Typer()

    @root.callback()
    def _root():
        """paratrace (test root)."""

    register(root)
    return root


@pytest.fixture
def package(tmp_path):
    """The penalty example as an evidence package file with its query and target."""
    path = tmp_path / "package.json"
    path.write_text(json.dumps({"query": QUERY, "target": "Penalty(x)",
                                "fragments": [f.model_dump(mode="json", exclude_none=True) for f in FRAGMENTS]}))
    return path


@pytest.fixture
def fragments():
    return FRAGMENTS


@pytest.fixture
def scenario():
    return Scenario(id="pen-001", query=QUERY, target=TARGET, evidence=FRAGMENTS, gold=gold(),
                    metadata=Metadata(defect_class=None, tags=("GOLDTAG-SECRET",)))


@pytest.fixture
def candidate():
    """The penalty theory with the priority r3 > r2 inverted."""
    return Analysis(
        facts=[Fact(**{k: v for k, v in f.items() if k != "quote"}) for f in THEORY["facts"]],
        rules=[Rule(**r) for r in THEORY["rules"]],
        priorities=[Priority(stronger="r2", weaker="r1", basis="exception", evidence=["E-05"]),
                    Priority(stronger="r2", weaker="r3", basis="exception", evidence=["E-06"])],
    )


@pytest.fixture
def make():
    """Build an :class:`Assistant` over a fresh scripted backend playing ``replies``."""
    from assistant.api import Assistant
    from assistant.backends import Backbone
    from assistant.scripted import Script, scripted_lm

    def factory(config, replies, *, fallback="error", **kwargs):
        script = Script(replies, fallback=fallback)
        backbone = Backbone("scripted/test", scripted_lm("scripted/test", script), "scripted", json_schema=True)
        return Assistant(config, backbone=backbone, **kwargs), script

    return factory
