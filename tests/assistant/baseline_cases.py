"""Scripted replies for the reasoning-style baselines on the paper's penalty
example (tests/assistant/assistant_cases.py), a scenario whose gold and
metadata carry marker strings that must never reach a prompt, and a runner
over the scripted backend.  Module name kept unique (no ``__init__.py``)."""

from __future__ import annotations

import copy

from assistant.api import Assistant
from assistant.backends import Backbone
from assistant.scripted import Script, scripted_lm
from symbolic.scenario.model import Fact, Gold, Metadata, Rule, Scenario

from assistant_cases import ANSWER, FRAGMENTS, QUERY, TARGET, THEORY

GOLD_MARKERS = ("GoldOnlyMarker", "gold-only-rule", "GOLDTAG-SECRET", "gold-pair-7", "gold-defect-at-r9")


def secret_scenario(candidate=None) -> Scenario:
    """The penalty case with marker strings in every gold and metadata field an assistant must not see."""
    gold = Gold(status="both",
                facts=[Fact(id="f1", literal="GoldOnlyMarker(x)", evidence=["E-01"])],
                rules=[Rule(id="gold-only-rule", antecedents=["GoldOnlyMarker(x)"], consequent="Penalty(x)",
                            evidence=["E-04"])])
    return Scenario(id="pen-bl-001", query=QUERY, target=TARGET, evidence=FRAGMENTS, gold=gold, candidate=candidate,
                    metadata=Metadata(tags=("GOLDTAG-SECRET",), pair="gold-pair-7", role="base",
                                      defect_class="priority_inversion", defect_location="gold-defect-at-r9"))


def run(config, replies, *, scenario=None, max_retries=2, program=None, **kwargs):
    """Run ``config`` (or ``program``) on ``scenario`` over a fresh scripted backend; return (result, script)."""
    script = Script(replies)
    backbone = Backbone("scripted/test", scripted_lm("scripted/test", script), "scripted", json_schema=True)
    assistant = Assistant(config, backbone=backbone, max_retries=max_retries, program=program, **kwargs)
    return assistant.run_scenario(scenario or secret_scenario()), script


def answer(status, cited, text="", conflict=False, priority=False):
    return {"answer": text or f"The penalty question is {status}.", "cited": list(cited), "conflict": conflict,
            "priority_applied": priority, "status": status}


FORCE_MAJEURE = answer("rejected", ["E-02", "E-05"], "No penalty: force majeure excuses the delay (cl. 9.1).", True)

GRAPH = {
    "entities": [
        {"id": "n1", "name": "late delivery", "kind": "event", "evidence": ["E-01", "E-04"]},
        {"id": "n2", "name": "penalty", "kind": "obligation", "evidence": ["E-04", "E-05", "E-06"]},
        {"id": "n3", "name": "force majeure", "kind": "exception", "evidence": ["E-02", "E-05"]},
        {"id": "n4", "name": "gross negligence", "kind": "condition", "evidence": ["E-06"]},
        {"id": "n5", "name": "inspection report", "kind": "document", "evidence": ["E-03"]},
    ],
    "relations": [
        {"source": "n1", "target": "n2", "relation": "triggers", "evidence": ["E-04"]},
        {"source": "n3", "target": "n2", "relation": "excuses", "evidence": ["E-05"]},
        {"source": "n4", "target": "n3", "relation": "overrides", "evidence": ["E-06"]},
    ],
}

PATHS = [
    {"reading": "Clause 7.2 governs: late delivery incurs the penalty.", "governing": ["E-04"], "set_aside": [],
     "answer": answer("accepted", ["E-01", "E-04"])},
    {"reading": "Clause 9.1 governs: force majeure excuses the penalty.", "governing": ["E-05"],
     "set_aside": ["E-04"], "answer": FORCE_MAJEURE},
    {"reading": "Clause 9.3 governs: gross negligence removes the force-majeure excuse.", "governing": ["E-06"],
     "set_aside": ["E-05"], "answer": ANSWER},
]

CHECK = {"conflicts": [{"between": ["r1", "r2"], "resolved_by": "r2>r1", "note": "9.1 excepts 7.2."},
                       {"between": ["r2", "r3"], "resolved_by": "r3>r2", "note": "9.3 excepts 9.1."}],
         "unsupported": [], "missing": []}

REACT_STEPS = [
    {"next_thought": "Find the penalty clauses.", "next_tool_name": "search",
     "next_tool_args": {"words": "penalty force majeure"}},
    {"next_thought": "Read clause 9.3 in full.", "next_tool_name": "read_fragment",
     "next_tool_args": {"fragment_id": "E-06"}},
    {"next_thought": "Enough.", "next_tool_name": "finish", "next_tool_args": {}},
]

#: name -> (replies of a valid run, LM calls, final status, cited ids)
VALID = {
    "legalbench-rag": ([{"result": ANSWER}], 1, "accepted", ("E-01", "E-04", "E-06")),
    "graphrag": ([{"graph": GRAPH}, {"result": ANSWER}], 2, "accepted", ("E-01", "E-04", "E-06")),
    "react": ([*REACT_STEPS, {"reasoning": "9.3 overrides 9.1.", "result": ANSWER}], 4, "accepted",
              ("E-01", "E-04", "E-06")),
    "self-refine": ([{"result": FORCE_MAJEURE},
                     {"feedback": {"issues": ["Clause 9.3 overrides the force-majeure excuse."],
                                   "missing": ["E-03", "E-06"], "done": False}},
                     {"result": ANSWER},
                     {"feedback": {"issues": [], "missing": [], "done": True}}], 4, "accepted",
                    ("E-01", "E-04", "E-06")),
    "tot": ([{"proposals": {"paths": PATHS}},
             {"value": {"verdict": "likely", "reason": "9.1 is excepted."}},
             {"value": {"verdict": "impossible", "reason": "9.3 removes the excuse."}},
             {"value": {"verdict": "sure", "reason": "E-03 proves gross negligence."}}], 4, "accepted",
            ("E-01", "E-04", "E-06")),
    "dspy-modular": ([{"extraction": THEORY}, {"check": CHECK}, {"result": ANSWER}], 3, "accepted",
                     ("E-01", "E-04", "E-06")),
}


def valid_replies(name):
    """A deep copy of the valid replies of ``name``."""
    return copy.deepcopy(VALID[name][0])
