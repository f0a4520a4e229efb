"""Helpers of the serving tests: a small evidence package, a B4 reply that
accepts the target, scripted assistants whose LM blocks or fails, and an app
factory over them (no network)."""

from __future__ import annotations

import json
import threading

EVIDENCE = [
    {"id": "E-01", "text": "The delivery was made 12 days after the agreed date.", "source": "Delivery log"},
    {"id": "E-02", "text": "Clause 7.2: late delivery incurs a penalty.", "source": "Supply Agreement",
     "clause": "7.2"},
]
QUERY = "Is the supplier liable for the late-delivery penalty?"
TARGET = "Penalty(x)"
REQUEST = {"query": QUERY, "evidence": EVIDENCE, "target": TARGET}
SECRET_TEXT = "agreed date"  # a piece of evidence text that must never reach a log line

THEORY = {"theory": {
    "facts": [{"id": "f1", "literal": "Delay(x)", "evidence": ["E-01"]}],
    "rules": [{"id": "r1", "antecedents": ["Delay(x)"], "consequent": "Penalty(x)", "evidence": ["E-02"]}],
    "attacks": [], "priorities": []}}


def scripted_assistant(config: str, replies, *, fallback: str = "null", **kwargs):
    """An :class:`assistant.api.Assistant` over a fresh scripted backend, and its script."""
    from assistant.api import Assistant
    from assistant.backends import Backbone
    from assistant.scripted import Script, scripted_lm

    script = Script(replies, fallback=fallback)
    backbone = Backbone("scripted/test", scripted_lm("scripted/test", script), "scripted", json_schema=True)
    return Assistant(config, backbone=backbone, **kwargs), script


def theory_reply(_messages) -> str:
    """The B4 reply accepting ``Penalty(x)`` from E-01 and E-02."""
    return json.dumps(THEORY)


class Gate:
    """A scripted reply that blocks until :meth:`open` (a backbone that hangs), counting entries and exits."""

    def __init__(self):
        self._open = threading.Event()
        self.entered = threading.Event()
        self.finished = threading.Event()

    def __call__(self, _messages) -> str:
        self.entered.set()
        self._open.wait(60)
        self.finished.set()
        return json.dumps(THEORY)

    def open(self) -> None:
        self._open.set()


def failing_reply(_messages) -> str:
    """A scripted reply whose transport fails, quoting evidence text in its message."""
    raise ConnectionError(f"connection reset while sending '{SECRET_TEXT}'")


def make_app(replies=(), *, configs=("b4",), config=None, **kwargs):
    """A service over one scripted assistant per configuration.

    ``replies`` is played by every configuration, or is a dict from configuration to its replies.  A
    scripted backend runs one reply at a time (the script holds a lock while a callable reply runs), so
    concurrent calls that must not wait for each other go to different configurations.
    """
    from optimize.serve.app import create_app

    scripts = {}

    def factory(config):
        played = replies.get(config, ()) if isinstance(replies, dict) else replies
        assistant, scripts[config] = scripted_assistant(config, list(played))
        return assistant

    app = create_app(factory, config=config or configs[0], configs=tuple(configs), **kwargs)
    return app, scripts
