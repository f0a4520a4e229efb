"""Compact and zero-shot instructions of the baselines' signatures (paper Table 13 controls).

:func:`assistant.variants.apply_variant` swaps a predictor's instruction for
the instruction :func:`assistant.variants.instruction` finds for its
signature, in the configurations' table or this one, so a ``compact`` or
``zero-shot`` run of a baseline really uses the shorter instructions.  The two predictors ``dspy.ReAct``
builds internally have generated signatures and keep their standard
instruction.
"""

from __future__ import annotations

__all__ = ["INSTRUCTIONS"]

_STATUS_SHORT = "Status: accepted, rejected, both (conflict unresolved) or undecidable (nothing grounded)."

INSTRUCTIONS: dict[str, dict[str, str]] = {
    "zero-shot": {
        "AnswerFromRetrieved": "Answer from the retrieved fragments, cite their ids, give the status.",
        "ExtractGraph": "Extract entities and relations from the fragments, each with fragment ids.",
        "AnswerFromGraph": "Answer from the graph and its fragments, cite fragment ids, give the status.",
        "InspectEvidence": "Read the fragments with the tools, answer, cite fragment ids, give the status.",
        "CritiqueAnswer": "Give feedback on the answer against the evidence; say whether it is done.",
        "ReviseAnswer": "Revise the answer following the feedback; cite fragment ids, give the status.",
        "ProposePaths": "Propose distinct readings of which norm governs, each with its answer and status.",
        "EvaluatePath": "Rate the reading: sure, likely or impossible.",
        "ExtractNorms": "Extract facts, rules, attacks and priorities with fragment ids.",
        "ExtractNormsForTarget": "Extract facts, rules, attacks and priorities with fragment ids.",
        "CheckExtraction": "Check the extraction: conflicts, unsupported objects, gaps.",
        "AnswerFromExtraction": "Answer from the extraction and its check, cite fragment ids, give the status.",
    },
    "compact": {
        "AnswerFromRetrieved": f"Answer only from the retrieved fragments; cite their ids. {_STATUS_SHORT}",
        "ExtractGraph": ("Build a graph: entities (parties, events, conditions, obligations, exceptions, clauses) "
                         "and labelled directed relations, each citing fragment ids."),
        "AnswerFromGraph": f"Answer from the graph neighbourhood and its fragments; cite ids. {_STATUS_SHORT}",
        "InspectEvidence": f"Read the fragments with the tools, then answer; cite ids. {_STATUS_SHORT}",
        "CritiqueAnswer": ("List overlooked exceptions, unaddressed conflicts, unsupported claims and uncited "
                           "fragments; done only if nothing needs revising."),
        "ReviseAnswer": f"Revise the answer to address the feedback; cite ids. {_STATUS_SHORT}",
        "ProposePaths": ("Propose at most `breadth` readings that differ in which rule, exception or priority "
                         f"governs, each with fragment ids and its answer. {_STATUS_SHORT}"),
        "EvaluatePath": "Value the reading: sure (settled), likely (plausible), impossible (contradicted).",
        "ExtractNorms": ("Extract facts, rules (exception to rK: consequent ¬applicable(rK)), explicit attacks and "
                         "grounded priorities (stronger > weaker, with basis), each citing fragment ids."),
        "ExtractNormsForTarget": ("Extract facts, rules (exception to rK: consequent ¬applicable(rK)), explicit "
                                  "attacks and grounded priorities (stronger > weaker, with basis), each citing "
                                  "fragment ids. Use the target's predicate names."),
        "CheckExtraction": "List conflicts and what resolves them, unsupported object ids, and missing norms.",
        "AnswerFromExtraction": f"Apply the rules, weigh conflicts by priorities; cite ids. {_STATUS_SHORT}",
    },
}
