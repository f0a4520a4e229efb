"""Reading a configuration's prompt back: which predictor asks, and its inputs.

The oracle backbones receive exactly what any model receives: DSPy's chat
messages.  The system message names the output field (``Your output fields
are: 1. `theory` (Extraction)``); the last user message that holds the input
sections (``[[ ## query ## ]]``, ``[[ ## evidence ## ]]``, ...) is the call
being made (earlier ones are demos, later ones re-ask instructions).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..errors import BackendError

__all__ = ["OUTPUT_KINDS", "Prompt", "read_prompt"]

#: Output field and type of each predictor the oracle answers -> predictor kind.
OUTPUT_KINDS = {
    ("result", "CitedAnswer"): "answer",
    ("check", "SelfCheck"): "check",
    ("analysis", "StructuredAnswer"): "extract_then_answer",
    ("theory", "Extraction"): "extract",
    ("theory", "TargetedExtraction"): "extract_with_target",
    ("audit", "AuditVerdict"): "audit",
}
_OUTPUT = re.compile(r"Your output fields are:\s*\n1\. `(\w+)` \((\w+)\)")
_SECTION = re.compile(r"^\[\[ ## (\w+) ## \]\]\s*$", re.MULTILINE)
_TAIL = re.compile(r"\n\s*Respond with .*\Z", re.DOTALL)


@dataclass(frozen=True)
class Prompt:
    """One call: the predictor kind, its output field and its input sections."""

    kind: str
    field: str
    inputs: dict[str, str]


def _sections(text: str) -> dict[str, str]:
    marks = list(_SECTION.finditer(text))
    out = {}
    for i, mark in enumerate(marks):
        end = marks[i + 1].start() if i + 1 < len(marks) else len(text)
        out[mark.group(1)] = _TAIL.sub("", text[mark.end():end]).strip()
    return out


def read_prompt(messages: list[dict]) -> Prompt:
    """The predictor and inputs of a chat request.

    Raises
    ------
    BackendError
        If the request is not a prompt of a configuration the oracle answers.

    Examples
    --------
    >>> msgs = [{"role": "system", "content": "Your output fields are:\\n1. `result` (CitedAnswer): x"},
    ...         {"role": "user", "content": "[[ ## query ## ]]\\nIs it due?\\n\\n[[ ## evidence ## ]]\\n[E-01] (c) t\\n\\n"
    ...                                     "Respond with a JSON object."}]
    >>> p = read_prompt(msgs)
    >>> p.kind, p.inputs
    ('answer', {'query': 'Is it due?', 'evidence': '[E-01] (c) t'})
    """
    system = "\n".join(str(m.get("content") or "") for m in messages if m.get("role") == "system")
    match = _OUTPUT.search(system)
    if match is None:
        raise BackendError("the oracle answers paratrace's configuration prompts only; this request names no "
                           "output field ('Your output fields are: 1. `name` (Type)')")
    kind = OUTPUT_KINDS.get((match.group(1), match.group(2)))
    if kind is None:
        raise BackendError(f"the oracle does not answer output field {match.group(1)!r} ({match.group(2)}); "
                           "it answers " + ", ".join(f"{f} ({t})" for f, t in OUTPUT_KINDS))
    for message in reversed(messages):
        if message.get("role") == "user" and "[[ ## query ## ]]" in str(message.get("content") or ""):
            return Prompt(kind, match.group(1), _sections(str(message["content"])))
    raise BackendError("the request holds no user message with the input sections ([[ ## query ## ]])")
