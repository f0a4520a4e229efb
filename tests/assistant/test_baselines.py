"""The reasoning-style baselines end to end through ``Assistant`` on the scripted
backend: status, citations, LM calls, what reaches the prompts, hard failures."""

from __future__ import annotations

import json

import pytest

from assistant.baselines import BASELINES, ReActBaseline, SelfRefine
from symbolic.scenario.model import DefectClass

from assistant_cases import ANSWER, QUERY, THEORY
from baseline_cases import FORCE_MAJEURE, GOLD_MARKERS, GRAPH, PATHS, VALID, answer, run, secret_scenario
from baseline_cases import valid_replies


@pytest.mark.parametrize("name", sorted(VALID))
def test_valid_run_gives_status_citations_and_call_count(name):
    _, calls, status, cited = VALID[name]
    result, script = run(name, valid_replies(name))
    record = result.record
    assert not record.meta.hard_failure
    assert record.configuration == name
    assert record.common.final_status.value == status
    assert record.common.evidence_ids == cited
    assert len(script.requests) == calls == record.meta.calls == len(result.calls)


@pytest.mark.parametrize("name", sorted(VALID))
def test_no_gold_or_metadata_reaches_a_prompt(name):
    _, script = run(name, valid_replies(name))
    for prompt in script.prompts:
        for marker in GOLD_MARKERS:
            assert marker not in prompt
        assert QUERY in prompt or "Build a knowledge graph" in prompt  # graphrag's index step is query-free


@pytest.mark.parametrize("name", sorted(VALID))
def test_invalid_replies_beyond_retries_are_a_hard_failure(name):
    result, script = run(name, ["not json at all", '{"still": "wrong"}', "never read"], max_retries=1)
    record = result.record
    assert record.meta.hard_failure and record.common is None and record.trace is None
    assert "failed validation after 2 attempts" in record.meta.failure_reason
    assert record.meta.raw_text == '{"still": "wrong"}'
    assert len(script.requests) == 2 == record.meta.calls


def test_a_failure_mid_pipeline_is_a_hard_failure_too():
    replies = valid_replies("self-refine")[:1] + ["{}", "{}"]
    result, script = run("self-refine", replies, max_retries=1)
    assert result.record.meta.hard_failure
    assert len(script.requests) == 3


@pytest.mark.parametrize("name", sorted(set(VALID) - {"dspy-modular"}))
def test_answer_only_baselines_emit_no_trace(name):
    result, _ = run(name, valid_replies(name))
    assert result.record.trace is None
    assert result.record.common.emitted_conclusions is None


# --- legalbench-rag -------------------------------------------------------------------------------------------


def test_rag_prompt_holds_only_retrieved_fragments():
    result, script = run("legalbench-rag", valid_replies("legalbench-rag"))
    user = script.requests[0][-1]["content"]
    assert result.prediction.retrieved == ("E-01", "E-04", "E-05", "E-06")
    assert "[E-06]" in user and "[E-04]" in user
    assert "[E-02]" not in user and "[E-03]" not in user and "storm" not in user


def test_rag_citing_an_unretrieved_fragment_is_reasked():
    bad = {"result": {**ANSWER, "cited": ["E-03", "E-06"]}}
    result, script = run("legalbench-rag", [bad, {"result": ANSWER}])
    assert "'E-03' is not in the evidence package" in script.requests[1][-1]["content"]
    assert result.record.common.evidence_ids == ("E-01", "E-04", "E-06")
    assert len(result.record.meta.repair_log) == 1


# --- graphrag -------------------------------------------------------------------------------------------------


def test_graphrag_builds_the_graph_and_answers_from_the_neighbourhood():
    result, script = run("graphrag", valid_replies("graphrag"))
    pred = result.prediction
    assert sorted(pred.graph.nodes) == ["n1", "n2", "n3", "n4", "n5"] and pred.graph.number_of_edges() == 3
    assert pred.seeds == ("n1", "n2") and pred.neighbourhood == ("n1", "n2", "n3", "n4")
    index_prompt, answer_prompt = script.prompts
    assert QUERY not in index_prompt and "[E-03]" in index_prompt
    assert "n4 gross negligence --overrides--> n3 force majeure [E-06]" in answer_prompt
    assert "inspection report" not in answer_prompt and "[E-03]" not in answer_prompt


def test_graphrag_rejects_dangling_relations_and_out_of_neighbourhood_citations():
    dangling = json.loads(json.dumps(GRAPH))
    dangling["relations"][0]["target"] = "n9"
    off = {"result": {**ANSWER, "cited": ["E-03"]}}
    result, script = run("graphrag", [{"graph": dangling}, {"graph": GRAPH}, off, {"result": ANSWER}])
    assert "'n9' is not an entity id" in script.requests[1][-1]["content"]
    assert "'E-03' is not in the evidence package" in script.requests[3][-1]["content"]
    assert result.record.common.final_status.value == "accepted" and len(script.requests) == 4


# --- react ----------------------------------------------------------------------------------------------------


def test_react_reads_evidence_only_through_its_tools():
    result, script = run("react", valid_replies("react"))
    first, second, third, extract = script.prompts
    assert "6 fragments: E-01, E-02, E-03, E-04, E-05, E-06" in first
    assert "force majeure" not in first.split("[[ ## query ## ]]")[-1]  # no fragment text before a tool ran
    assert "[E-05] Clause 9.1: no penalty is due" in second  # the search observation
    assert "Clause 9.3: force majeure does not excuse gross negligence" in third  # read_fragment's observation
    traj = result.prediction.trajectory
    assert [traj[f"tool_name_{i}"] for i in range(3)] == ["search", "read_fragment", "finish"]


def test_react_stops_after_max_iters_and_still_answers():
    step = {"next_thought": "List.", "next_tool_name": "list_fragments", "next_tool_args": {}}
    replies = [step, step, {"reasoning": "Only a listing.", "result": answer("undecidable", [])}]
    result, script = run("react", replies, program=ReActBaseline(max_iters=2))
    assert len(script.requests) == 3
    assert result.record.common.final_status.value == "undecidable"
    assert "E-04 (Supply Agreement, 7.2)" in script.prompts[1]


def test_react_tool_errors_become_observations():
    bad = {"next_thought": "Read.", "next_tool_name": "read_fragment", "next_tool_args": {"id": "E-04"}}
    replies = [bad, *valid_replies("react")[2:]]
    result, script = run("react", replies)
    assert "Execution error in read_fragment" in script.prompts[1]
    assert result.record.common.final_status.value == "accepted"


# --- self-refine ----------------------------------------------------------------------------------------------


def test_self_refine_revises_with_the_feedback_then_stops():
    result, script = run("self-refine", valid_replies("self-refine"))
    revise = script.prompts[2]
    assert "Clause 9.3 overrides the force-majeure excuse." in revise and "No penalty" in revise
    assert [f.done for f in result.prediction.feedback] == [False, True]


def test_self_refine_rounds_are_bounded():
    replies = valid_replies("self-refine")[:3]
    result, script = run("self-refine", replies, program=SelfRefine(max_rounds=1))
    assert len(script.requests) == 3 and result.record.common.final_status.value == "accepted"
    result, script = run("self-refine", [{"result": FORCE_MAJEURE}], program=SelfRefine(max_rounds=0))
    assert len(script.requests) == 1 and result.record.common.final_status.value == "rejected"


# --- tot ------------------------------------------------------------------------------------------------------


def test_tot_values_each_path_and_keeps_the_best():
    result, script = run("tot", valid_replies("tot"))
    assert result.prediction.chosen == 2
    for i, path in enumerate(PATHS):
        assert path["reading"] in script.prompts[1 + i]
    assert "`breadth`" in script.prompts[0] and "\n3\n" in script.prompts[0]


def test_tot_ties_go_to_the_earlier_path_and_repeated_readings_are_reasked():
    repeated = {"proposals": {"paths": [PATHS[0], {**PATHS[1], "reading": PATHS[0]["reading"].upper()}]}}
    replies = [repeated, {"proposals": {"paths": PATHS[:2]}},
               {"value": {"verdict": "likely"}}, {"value": {"verdict": "likely"}}]
    result, script = run("tot", replies)
    assert "repeats an earlier reading" in script.requests[1][-1]["content"]
    assert result.prediction.chosen == 0 and result.record.common.final_status.value == "accepted"


# --- dspy-modular ---------------------------------------------------------------------------------------------


def test_modular_trace_holds_only_the_extracted_objects():
    theory = json.loads(json.dumps(THEORY))
    theory["facts"].append({"id": "f4", "literal": "Storm(x)", "evidence": []})
    result, script = run("dspy-modular", [{"extraction": theory}, {"check": VALID["dspy-modular"][0][1]["check"]},
                                          {"result": ANSWER}])
    trace = result.record.trace
    assert [f.id for f in trace.facts] == ["f1", "f2", "f3", "f4"] and len(trace.priorities) == 2
    assert trace.nodes == () and trace.edges == ()  # no engine, no trace graph
    assert [(r.kind, r.id) for r in trace.rejected] == [("fact", "f4")]
    assert "Penalty(x)" in trace.emitted_conclusions
    assert result.record.common.emitted_conclusions == trace.emitted_conclusions
    assert "Use the predicate names of the target literal" in script.prompts[0]
    assert '"r3>r2"' in script.prompts[2] or "r3>r2" in script.prompts[2]


def test_modular_check_must_name_extracted_ids():
    bad = {"check": {"conflicts": [{"between": ["r1", "r9"]}], "unsupported": [], "missing": []}}
    replies = [{"extraction": THEORY}, bad, {"check": {"conflicts": [], "unsupported": [], "missing": []}},
               {"result": ANSWER}]
    result, script = run("dspy-modular", replies)
    assert "names 'r9', which is not an extracted fact or rule" in script.requests[2][-1]["content"]
    assert len(script.requests) == 4 and not result.record.meta.hard_failure


# --- audit mode -----------------------------------------------------------------------------------------------


AUDIT = {"audit": {"defect_class": "priority_inversion", "location": "r2>r3", "explanation": "9.3 is reversed.",
                   "corrected": ANSWER}}


@pytest.mark.parametrize("name", ["legalbench-rag", "dspy-modular"])
def test_audit_mode_answers_in_own_style_then_adds_b1_audit_diagnostics(name, candidate):
    own = answer("both", ["E-04", "E-05"], "Clauses 7.2 and 9.1 conflict.", True)
    replies = valid_replies(name)
    replies[-1] = {"result": own}
    result, script = run(name, [*replies, AUDIT], scenario=secret_scenario(candidate))
    record = result.record
    assert len(script.requests) == VALID[name][1] + 1
    assert record.common.final_status.value == "both"  # the baseline's own answer, not the audit's
    assert record.trace.diagnostics.defect_class is DefectClass.PRIORITY_INVERSION
    assert record.trace.diagnostics.location == "priority:r2>r3"
    assert "r2>r3 (exception) [E-06]" in script.prompts[-1] and "storm" in script.prompts[-1]
    assert (len(record.trace.facts) > 0) == (name == "dspy-modular")
    assert not [m for m in GOLD_MARKERS for prompt in script.prompts if m in prompt]


def test_every_baseline_is_registered():
    assert sorted(BASELINES) == sorted(VALID)
