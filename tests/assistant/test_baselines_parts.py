"""The baselines' deterministic parts: BM25 retrieval, the ReAct tools, the
graph neighbourhood, the output schemas' checks and the registry hook."""

from __future__ import annotations

import itertools

import pytest
from pydantic import ValidationError

from assistant.baselines import BASELINES, GraphRAG, LegalBenchRAG, ReActBaseline, SelfRefine, TreeOfThought
from assistant.baselines.graph import build_graph, cited_fragments, neighbourhood, render, seed_entities
from assistant.baselines.rag import retrieve
from assistant.baselines.react import list_fragments, read_fragment, search
from assistant.baselines.retrieval import bm25_rank, tokens
from assistant.baselines.schemas import ExtractionCheck, FragmentIndex, KnowledgeGraph, PathProposals
from assistant.configs import build
from assistant.errors import AssistantError, ConfigurationError
from assistant.evidence import EvidencePackage
from assistant.extraction import Extraction
from symbolic.scenario.model import EvidenceFragment

from assistant_cases import ANSWER, FRAGMENTS, QUERY, THEORY
from baseline_cases import GRAPH, PATHS, answer, run


def test_bm25_ranks_by_content_words_and_breaks_ties_by_package_order():
    same = [EvidenceFragment(id=f"E{i}", text="A penalty applies.", source="S") for i in (3, 1, 2)]
    assert [h.fragment.id for h in bm25_rank("penalty", same)] == ["E-03", "E-01", "E-02"]
    hits = bm25_rank(QUERY, FRAGMENTS)
    assert hits[0].fragment.id == "E-04" and [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)
    assert bm25_rank(QUERY, FRAGMENTS) == hits  # a pure function
    assert bm25_rank(QUERY, FRAGMENTS, k=0) == () and bm25_rank(QUERY, [], k=3) == ()
    with pytest.raises(ConfigurationError, match="k must be >= 0"):
        bm25_rank(QUERY, FRAGMENTS, k=-1)


def test_tokens_split_literals_and_drop_function_words():
    assert tokens("Is the GrossNegligence(x) of the carrier proven?") == ("gross", "negligence", "x", "carrier",
                                                                          "proven")


def test_retrieval_keeps_package_order_and_is_independent_of_fragment_order():
    pkg = EvidencePackage(fragments=FRAGMENTS)
    chosen = retrieve(QUERY, pkg, 4, "Penalty(x)")
    assert [f.id for f in chosen.fragments] == ["E-01", "E-04", "E-05", "E-06"]
    for order in itertools.islice(itertools.permutations(FRAGMENTS), 0, 720, 97):
        assert retrieve(QUERY, EvidencePackage(fragments=order), 4, "Penalty(x)").ids == chosen.ids
    assert retrieve(QUERY, pkg, 50).ids == pkg.ids


def test_react_tools_read_the_bound_package_only():
    with pytest.raises(AssistantError, match="no evidence package is bound"):
        list_fragments()
    from assistant.baselines.react import _PACKAGE

    token = _PACKAGE.set(EvidencePackage(fragments=FRAGMENTS))
    try:
        assert list_fragments().splitlines()[3] == "E-04 (Supply Agreement, 7.2)"
        assert read_fragment("e4").startswith("[E-04] (Supply Agreement, 7.2) Clause 7.2")
        assert read_fragment("E-99").startswith("No fragment 'E-99'; the ids are: E-01, E-02")
        assert read_fragment("clause seven").startswith("No fragment")
        assert search("gross negligence").splitlines()[0].startswith("[E-03]")
        assert search("zebra") == "No fragment matches these words."
    finally:
        _PACKAGE.reset(token)


def test_fragment_index_shows_ids_but_validates_against_the_texts():
    index = FragmentIndex(fragments=FRAGMENTS)
    assert index.format() == "6 fragments: E-01, E-02, E-03, E-04, E-05, E-06"
    assert index.text_of("E-02").startswith("A storm")


def test_graph_neighbourhood_render_and_sources():
    graph = build_graph(KnowledgeGraph.model_validate(GRAPH))
    seeds = seed_entities(graph, f"{QUERY} Penalty(x)")
    assert seeds == ("n1", "n2")
    assert neighbourhood(graph, seeds, hops=1) == ("n1", "n2", "n3")
    assert neighbourhood(graph, seeds, hops=0) == seeds
    assert neighbourhood(graph, ["n9"], hops=1) == tuple(graph.nodes)  # no known seed: the whole graph
    assert cited_fragments(graph, ("n1", "n2", "n3")) == ("E-01", "E-02", "E-04", "E-05", "E-06")
    text = render(graph, ("n1", "n2"))
    assert "n1 late delivery --triggers--> n2 penalty [E-04]" in text and "excuses" not in text
    assert render(graph, ()) == "Entities:\n- (none)\nRelations:\n- (none)"
    with pytest.raises(ConfigurationError):
        neighbourhood(graph, seeds, hops=-1)


def test_graph_schema_checks_ids_and_citations():
    package = EvidencePackage(fragments=FRAGMENTS)
    with pytest.raises(ValidationError, match="is used twice"):
        KnowledgeGraph.model_validate({"entities": [GRAPH["entities"][0]] * 2})
    with pytest.raises(ValidationError, match="'E-09' is not in the evidence package"):
        KnowledgeGraph.model_validate({"entities": [{"id": "n1", "name": "x", "evidence": ["E-09"]}]},
                                      context={"evidence": package})
    with pytest.raises(ValidationError):  # an entity must cite a fragment
        KnowledgeGraph.model_validate({"entities": [{"id": "n1", "name": "x", "evidence": []}]})


def test_path_proposals_are_bounded_and_distinct():
    assert len(PathProposals.model_validate({"paths": PATHS}, context={"breadth": 3}).paths) == 3
    with pytest.raises(ValidationError, match="at most 2 paths"):
        PathProposals.model_validate({"paths": PATHS}, context={"breadth": 2})
    with pytest.raises(ValidationError):  # one reading is not a tree
        PathProposals.model_validate({"paths": PATHS[:1]})


def test_extraction_check_accepts_known_ids():
    extraction = Extraction.model_validate(THEORY)
    ok = ExtractionCheck.model_validate({"unsupported": ["f2"], "conflicts": [{"between": ["r1", "r2"]}]},
                                        context={"extraction": extraction})
    assert ok.unsupported == ["f2"]
    with pytest.raises(ValidationError, match="unsupported names 'p1'"):
        ExtractionCheck.model_validate({"unsupported": ["p1"]}, context={"extraction": extraction})


def test_build_knows_the_baselines_and_lists_them_on_an_unknown_name():
    for name, cls in BASELINES.items():
        module = build(f" {name.upper()} ")
        assert type(module) is cls and module.name == name
    assert type(build("b2")).__name__ == "B2"
    with pytest.raises(ConfigurationError) as info:
        build("chain-of-thought")
    message = str(info.value)
    assert "'chain-of-thought'" in message and "b4" in message
    assert all(name in message for name in BASELINES)


@pytest.mark.parametrize("make", [lambda: LegalBenchRAG(k=0), lambda: GraphRAG(hops=-1),
                                  lambda: ReActBaseline(max_iters=0), lambda: SelfRefine(max_rounds=-1),
                                  lambda: TreeOfThought(breadth=1)])
def test_bad_parameters_are_configuration_errors(make):
    with pytest.raises(ConfigurationError):
        make()


def test_every_baseline_keeps_the_audit_predictor_of_b1():
    for cls in BASELINES.values():
        names = dict(cls().named_predictors())
        assert names["audit"].signature.__name__ == "AuditCandidate"


def test_graphrag_with_an_empty_graph_answers_from_nothing():
    result, script = run("graphrag", [{"graph": {"entities": [], "relations": []}},
                                      {"result": answer("undecidable", [])}])
    assert result.record.common.final_status.value == "undecidable"
    assert "Entities:\n- (none)" in script.prompts[1] and "[E-0" not in script.prompts[1].split("## graph ##")[-1]


def test_a_scripted_answer_reply_is_not_mistaken_for_a_graph():
    result, script = run("graphrag", [{"result": ANSWER}, {"result": ANSWER}, {"result": ANSWER}], max_retries=2)
    assert result.record.meta.hard_failure and len(script.requests) == 3


def test_compact_and_zero_shot_variants_reach_every_baseline_signature():
    from assistant.baselines import signatures
    from assistant.baselines.variants import INSTRUCTIONS
    from assistant.variants import INSTRUCTIONS as CONFIGURATIONS
    from assistant.variants import Variant, apply_variant, instruction

    for style in ("compact", "zero-shot"):
        assert set(signatures.__all__) <= set(INSTRUCTIONS[style])
        assert not set(signatures.__all__) & set(CONFIGURATIONS[style])  # the configurations' table is untouched
        assert all(instruction(style, name) == INSTRUCTIONS[style][name] for name in signatures.__all__)
        texts = {*INSTRUCTIONS[style].values(), *CONFIGURATIONS[style].values()}
        for cls in BASELINES.values():
            module = apply_variant(cls(), Variant.parse(style))
            for name, predictor in module.named_predictors():
                if not name.startswith("agent."):  # dspy.ReAct's generated signatures keep theirs
                    assert predictor.signature.instructions in texts, (cls.name, name)
    result, script = run("legalbench-rag", [{"result": ANSWER}], variant="zero-shot")
    assert INSTRUCTIONS["zero-shot"]["AnswerFromRetrieved"] in script.requests[0][0]["content"]
    assert result.record.variant == "zero-shot"


def test_max_calls_bound_the_valid_runs():
    from baseline_cases import VALID

    defaults = {name: cls().max_calls for name, cls in BASELINES.items()}
    assert defaults == {"legalbench-rag": 1, "graphrag": 2, "react": 7, "self-refine": 5, "tot": 4,
                        "dspy-modular": 3}
    assert all(VALID[name][1] <= bound for name, bound in defaults.items())
    assert ReActBaseline(max_iters=2).max_calls == 3 and SelfRefine(max_rounds=0).max_calls == 1
