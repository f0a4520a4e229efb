"""DSPy signatures of the reasoning-style baselines (paper Table 4).

Each docstring is the LM instruction and nothing else.  Inputs are the query,
(part of) the evidence package, the target literal and intermediate LM
outputs; never a gold object.
"""

from __future__ import annotations

import dspy

from ..evidence import EvidencePackage
from ..extraction import Extraction
from ..schemas import CitedAnswer
from ..signatures import EXTRACTION_INSTRUCTION, _STATUSES, _UNTRUSTED
from .schemas import ExtractionCheck, Feedback, FragmentIndex, KnowledgeGraph, NormativePath, PathProposals
from .schemas import PathValue

__all__ = [
    "AnswerFromExtraction",
    "AnswerFromGraph",
    "AnswerFromRetrieved",
    "CheckExtraction",
    "CritiqueAnswer",
    "EvaluatePath",
    "ExtractGraph",
    "ExtractNorms",
    "ExtractNormsForTarget",
    "InspectEvidence",
    "ProposePaths",
    "ReviseAnswer",
]

_QUERY = "The question."
_EVIDENCE = "Evidence fragments, one per line: [id] (source) text."


class AnswerFromRetrieved(dspy.Signature):
    __doc__ = ("Answer the question using only the retrieved fragments, and cite the ids of the retrieved "
               f"fragments you rely on. {_STATUSES} {_UNTRUSTED}")

    query: str = dspy.InputField(desc=_QUERY)
    evidence: EvidencePackage = dspy.InputField(desc="The fragments retrieved for the question, one per line: "
                                                     "[id] (source) text.")
    result: CitedAnswer = dspy.OutputField()


class ExtractGraph(dspy.Signature):
    __doc__ = ("Build a knowledge graph of the evidence. Entities are the parties, acts, events, conditions, "
               "obligations, exceptions and clauses the fragments mention; relations are directed and labelled "
               "(triggers, excuses, overrides, applies to, proves, ...). Every entity and relation cites the ids of "
               f"the fragments stating it. {_UNTRUSTED}")

    evidence: EvidencePackage = dspy.InputField(desc=_EVIDENCE)
    graph: KnowledgeGraph = dspy.OutputField()


class AnswerFromGraph(dspy.Signature):
    __doc__ = ("Answer the question from the knowledge-graph neighbourhood of the entities it mentions and the "
               "source fragments of that neighbourhood; cite the ids of the fragments you rely on. "
               f"{_STATUSES} {_UNTRUSTED}")

    query: str = dspy.InputField(desc=_QUERY)
    graph: str = dspy.InputField(desc="Entities and relations near the question, each with its fragment ids.")
    evidence: EvidencePackage = dspy.InputField(desc="The source fragments of those entities and relations.")
    result: CitedAnswer = dspy.OutputField()


class InspectEvidence(dspy.Signature):
    __doc__ = ("Answer the question from the evidence fragments. You see only their ids: list, search and read "
               "them with the tools before answering, and cite the ids of the fragments you rely on. "
               f"{_STATUSES} {_UNTRUSTED}")

    query: str = dspy.InputField(desc=_QUERY)
    evidence: FragmentIndex = dspy.InputField(desc="The ids of the evidence fragments.")
    result: CitedAnswer = dspy.OutputField()


class CritiqueAnswer(dspy.Signature):
    __doc__ = ("Give feedback on the answer against the evidence: overlooked exceptions, conflicts left "
               "unaddressed, a status the evidence does not support, claims no cited fragment states, relevant "
               f"fragments not cited. Set done to true only if nothing needs revising. {_UNTRUSTED}")

    query: str = dspy.InputField(desc=_QUERY)
    evidence: EvidencePackage = dspy.InputField(desc=_EVIDENCE)
    answer: CitedAnswer = dspy.InputField(desc="The answer to give feedback on.")
    feedback: Feedback = dspy.OutputField()


class ReviseAnswer(dspy.Signature):
    __doc__ = ("Revise the answer so that it addresses every point of the feedback, using only the evidence; "
               f"cite the ids of the fragments you rely on. {_STATUSES} {_UNTRUSTED}")

    query: str = dspy.InputField(desc=_QUERY)
    evidence: EvidencePackage = dspy.InputField(desc=_EVIDENCE)
    answer: CitedAnswer = dspy.InputField(desc="The previous answer.")
    feedback: Feedback = dspy.InputField(desc="The feedback on it.")
    result: CitedAnswer = dspy.OutputField()


class ProposePaths(dspy.Signature):
    __doc__ = ("Propose distinct normative readings of the evidence for the question, at most `breadth` of them: "
               "each reading says which rule, exception or priority governs and which it sets aside, cites the "
               "fragments involved, and gives the answer and status it leads to. Readings must differ in which "
               f"norm governs. {_STATUSES} {_UNTRUSTED}")

    query: str = dspy.InputField(desc=_QUERY)
    evidence: EvidencePackage = dspy.InputField(desc=_EVIDENCE)
    breadth: int = dspy.InputField(desc="The largest number of readings to propose.")
    proposals: PathProposals = dspy.OutputField()


class EvaluatePath(dspy.Signature):
    __doc__ = ("Evaluate one reading of the evidence for the question: sure if the fragments settle that this "
               "norm governs, likely if it is plausible but not settled, impossible if a fragment contradicts it "
               f"(an overlooked exception, a reversed priority, a fact the evidence does not state). {_UNTRUSTED}")

    query: str = dspy.InputField(desc=_QUERY)
    evidence: EvidencePackage = dspy.InputField(desc=_EVIDENCE)
    path: NormativePath = dspy.InputField(desc="The reading to evaluate.")
    value: PathValue = dspy.OutputField()


_NORMS = f"{EXTRACTION_INSTRUCTION} Do not answer the question yet. {_UNTRUSTED}"


class ExtractNorms(dspy.Signature):
    __doc__ = _NORMS

    query: str = dspy.InputField(desc=_QUERY)
    evidence: EvidencePackage = dspy.InputField(desc=_EVIDENCE)
    extraction: Extraction = dspy.OutputField()


class ExtractNormsForTarget(dspy.Signature):
    __doc__ = _NORMS + " Use the predicate names of the target literal."

    query: str = dspy.InputField(desc=_QUERY)
    evidence: EvidencePackage = dspy.InputField(desc=_EVIDENCE)
    target: str = dspy.InputField(desc="The proposition the question asks about, as a literal.")
    extraction: Extraction = dspy.OutputField()


class CheckExtraction(dspy.Signature):
    __doc__ = ("Check the extraction against the evidence: list the conflicts between its rules or facts and the "
               "priority or exception that resolves each (null when none does), the objects their cited fragments "
               f"do not state, and norms or facts the evidence states that it lacks. {_UNTRUSTED}")

    query: str = dspy.InputField(desc=_QUERY)
    evidence: EvidencePackage = dspy.InputField(desc=_EVIDENCE)
    extraction: Extraction = dspy.InputField(desc="Facts, rules, attacks and priorities extracted from the evidence.")
    check: ExtractionCheck = dspy.OutputField()


class AnswerFromExtraction(dspy.Signature):
    __doc__ = ("Decide the question from the extraction and its check: apply the rules to the facts, weigh the "
               "conflicts by the priorities and exceptions, ignore unsupported objects. Give the answer, cite the "
               f"fragments you rely on and the status. {_STATUSES} {_UNTRUSTED}")

    query: str = dspy.InputField(desc=_QUERY)
    evidence: EvidencePackage = dspy.InputField(desc=_EVIDENCE)
    extraction: Extraction = dspy.InputField(desc="Facts, rules, attacks and priorities extracted from the evidence.")
    check: ExtractionCheck = dspy.InputField(desc="Conflicts, unsupported objects and gaps found in the extraction.")
    result: CitedAnswer = dspy.OutputField()
