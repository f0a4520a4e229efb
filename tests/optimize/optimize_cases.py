"""Helpers of the optimize tests; run as a script it replays one case with a saved program.

``python optimize_cases.py PROGRAM_DIR SUITE`` loads the program with
:func:`optimize.programs.load_program` in a fresh process, answers the first
case of ``SUITE`` with a prompt-hashing scripted LM and prints the prompt and
the status as one JSON line.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
PENALTY_SUITE = REPO / "tests" / "symbolic" / "fixtures" / "penalty_suite.jsonl"


def _echo(messages):
    digest = hashlib.sha256(json.dumps(messages, sort_keys=True).encode()).hexdigest()
    return json.dumps({"theory": {
        "facts": [{"id": "f1", "literal": "Delay(x)", "evidence": ["E-04"]}],
        "rules": [{"id": "r1", "antecedents": ["Delay(x)"], "consequent": "Penalty(x)", "evidence": ["E-01"]},
                  {"id": "r2", "antecedents": [], "consequent": "¬Penalty(x)", "evidence": ["E-02"]}]
        if digest < "8" else
        [{"id": "r1", "antecedents": ["Delay(x)"], "consequent": "Penalty(x)", "evidence": ["E-01"]}],
        "attacks": [], "priorities": []}})


def replay(config, program, suite_path=PENALTY_SUITE) -> dict:
    """Answer the first case of ``suite_path`` with ``program``; return prompt, status and the record JSON."""
    from assistant.api import Assistant
    from assistant.backends import Backbone
    from assistant.scripted import Script, scripted_lm
    from symbolic.suites.io import load_suite

    scenario = load_suite(suite_path)[0]
    script = Script([_echo], fallback="error")
    backbone = Backbone("scripted/t", scripted_lm("scripted/t", script), "scripted", True)
    record = Assistant(config, backbone=backbone, program=program).run_scenario(scenario).record
    return {"prompt": script.requests[0], "status": record.common.final_status.value,
            "trace": record.trace.model_dump(mode="json") if record.trace else None}


if __name__ == "__main__":
    from optimize.programs import load_program

    loaded = load_program(sys.argv[1])
    print(json.dumps(replay(loaded.config, loaded.program, sys.argv[2]), ensure_ascii=False))
