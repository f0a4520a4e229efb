"""The output contract: what an assistant run returns, for every configuration.

Two payload schemas and one run record (paper Section 5, Appendix A.8):

* ``common-v1`` (:class:`CommonV1`): the answer every configuration gives --
  final status, cited evidence ids, whether a conflict was detected and a
  priority applied, an uncertainty, the answer text and the conclusions it
  states.
* ``trace-v2`` (:class:`TraceV2`): the white-box payload -- facts, rules,
  attacks and priorities in the scenario schema's own types (so the scorer can
  hand them to :func:`symbolic.engine.grounding.ground` unchanged), typed trace nodes
  and edges, the objects the assistant's own parser-validator rejected, the
  conclusions it emitted and a :class:`Diagnostics` block naming a detected
  defect class and its location.
* :class:`OutputRecord`: one JSONL line of an outputs file -- the run cell
  (case, configuration, model, variant, repeat), the payloads and the
  :class:`RunMeta` (tokens, latency, calls, raw text, repair log, hard
  failure).

A field a configuration does not emit is ``None`` and left out of the JSON
(``exclude_none``); it is never filled with a made-up default.  All models are
frozen.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from symbolic.support.fsio import write_atomic
from symbolic.scenario.fields import EvidenceId, LiteralStr, StatusField
from symbolic.scenario.labels import Status
from symbolic.support.redact import redact_text
from symbolic.scenario.model import (
    Analysis,
    AttackEdge,
    DefectClass,
    Fact,
    Priority,
    Rule,
    Trace,
    TraceEdge,
    TraceNode,
)

__all__ = [
    "COMMON_V1",
    "CommonV1",
    "Diagnostics",
    "OUTPUT_RECORD_V1",
    "OutputRecord",
    "Rejected",
    "RunMeta",
    "TRACE_V2",
    "TraceV2",
    "json_schemas",
    "schema_text",
    "write_schemas",
]

COMMON_V1 = "common-v1"
TRACE_V2 = "trace-v2"
OUTPUT_RECORD_V1 = "output-record-v1"

_FROZEN = ConfigDict(frozen=True, extra="forbid")


def _dump(model: BaseModel) -> dict[str, Any]:
    return model.model_dump(mode="json", exclude_none=True)


class CommonV1(BaseModel):
    """The ``common-v1`` answer every configuration returns.

    Attributes
    ----------
    final_status : Status
        The four-valued status of the target (Definition 5).
    evidence_ids : tuple of str, optional
        Normalized ids of the fragments the answer cites.
    conflict_detected : bool, optional
        Whether the assistant reports conflicting evidence.
    priority_applied : bool, optional
        Whether the assistant reports resolving a conflict by a priority.
    uncertainty : float, optional
        Self-reported uncertainty in ``[0, 1]``.
    answer : str, optional
        The natural-language answer.
    emitted_conclusions : tuple of str, optional
        Normalized literals the answer states as concluded.

    Examples
    --------
    >>> c = CommonV1(final_status="Accepted", evidence_ids=["E_01", "e3"])
    >>> c.final_status.value, c.evidence_ids
    ('accepted', ('E-01', 'E-03'))
    >>> c.to_dict()
    {'evidence_ids': ['E-01', 'E-03'], 'final_status': 'accepted', 'schema_version': 'common-v1'}
    """

    model_config = _FROZEN
    schema_version: Literal["common-v1"] = COMMON_V1
    final_status: StatusField
    evidence_ids: tuple[EvidenceId, ...] | None = None
    conflict_detected: bool | None = None
    priority_applied: bool | None = None
    uncertainty: float | None = Field(default=None, ge=0.0, le=1.0)
    answer: str | None = None
    emitted_conclusions: tuple[LiteralStr, ...] | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict without the fields the configuration did not emit."""
        return dict(sorted(_dump(self).items()))


class Diagnostics(BaseModel):
    """The defect an auditing configuration reports (controlled suite, paper Table 6).

    Attributes
    ----------
    defect_class : DefectClass
        The detected defect class; ``none`` when no defect was found.
    location : str, optional
        Where the defect sits, as a typed location of :mod:`scorer.locations`
        (``evidence:E-03``, ``fact:f1``, ``rule:r2``, ``priority:r3>r2``,
        ``attack:r2-rebut->Penalty(x)``, ``target:Penalty(x)``); an untyped id
        is typed against the case's candidate when scored.
    explanation : str, optional
        Free text.

    Examples
    --------
    >>> d = Diagnostics(defect_class="priority_inversion", location="priority:r3>r2")
    >>> d.detected, Diagnostics(defect_class="none").detected
    (True, False)
    """

    model_config = _FROZEN
    defect_class: DefectClass
    location: str | None = None
    explanation: str | None = None

    @property
    def detected(self) -> bool:
        """Whether a defect (any class but ``none``) is reported."""
        return self.defect_class is not DefectClass.NONE


class Rejected(BaseModel):
    """An object the assistant's parser-validator (or the repair) dropped, and why.

    Examples
    --------
    >>> Rejected(kind="rule", id="r9", reason="cites unknown evidence E-12").kind
    'rule'
    """

    model_config = _FROZEN
    kind: Literal["fact", "rule", "priority", "attack", "edge", "node"]
    id: str = Field(min_length=1)
    reason: str = Field(min_length=1)


class TraceV2(BaseModel):
    """The ``trace-v2`` white-box payload.

    Attributes
    ----------
    facts, rules, attacks, priorities : tuple
        The emitted normative objects, as :mod:`symbolic.scenario.model` types.
    nodes, edges : tuple
        Typed trace nodes and edges (docs/semantics.md section 12).
    rejected : tuple of Rejected
        Objects dropped before status computation, with reasons.
    emitted_conclusions : tuple of str, optional
        Normalized literals the trace concludes.
    diagnostics : Diagnostics, optional
        The defect report of an auditing configuration.

    Examples
    --------
    >>> t = TraceV2(facts=[{"id": "f1", "literal": "Delay(x)", "evidence": ["E1"]}])
    >>> from symbolic.engine.grounding import ground
    >>> [f.id for f in ground({"E-01"}, t.analysis()).facts]
    ['f1']
    """

    model_config = _FROZEN
    schema_version: Literal["trace-v2"] = TRACE_V2
    facts: tuple[Fact, ...] = ()
    rules: tuple[Rule, ...] = ()
    attacks: tuple[AttackEdge, ...] = ()
    priorities: tuple[Priority, ...] = ()
    nodes: tuple[TraceNode, ...] = ()
    edges: tuple[TraceEdge, ...] = ()
    rejected: tuple[Rejected, ...] = ()
    emitted_conclusions: tuple[LiteralStr, ...] | None = None
    diagnostics: Diagnostics | None = None

    @model_validator(mode="after")
    def _unique_ids(self):
        self.analysis()
        return self

    def analysis(self) -> Analysis:
        """The facts, rules, attacks and priorities as an :class:`~symbolic.scenario.model.Analysis`."""
        return Analysis(facts=self.facts, rules=self.rules, attacks=self.attacks,
                        priorities=self.priorities)

    def trace(self) -> Trace:
        """The typed nodes and edges as a :class:`~symbolic.scenario.model.Trace`."""
        return Trace(nodes=self.nodes, edges=self.edges)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict without the fields the configuration did not emit."""
        return dict(sorted(_dump(self).items()))


class RunMeta(BaseModel):
    """Run metadata of one output.

    Attributes
    ----------
    prompt_tokens, completion_tokens : int, optional
        Token usage summed over the calls of the run.
    latency_ms : float, optional
        Wall-clock latency of the case, in milliseconds.
    calls : int, optional
        Number of LM calls.
    raw_text : str
        The raw model text the payloads were parsed from (kept on hard failures).
    repair_log : tuple of str
        Every deterministic repair applied, in order.
    hard_failure : bool
        The output could not be repaired; it is scored as incorrect.
    failure_reason : str, optional
        Why, when ``hard_failure``.
    """

    model_config = _FROZEN
    prompt_tokens: int | None = Field(default=None, ge=0)
    completion_tokens: int | None = Field(default=None, ge=0)
    latency_ms: float | None = Field(default=None, ge=0.0)
    calls: int | None = Field(default=None, ge=0)
    raw_text: str = ""
    repair_log: tuple[str, ...] = ()
    hard_failure: bool = False
    failure_reason: str | None = None

    # raw_text, repair_log and failure_reason are model or provider text: every secret in them
    # (symbolic.support.redact.redact_text) is masked as *** when a record is built or read, so no record
    # stored or returned carries one (the schema's descriptions stay as they are).
    @field_validator("raw_text", "failure_reason", mode="before")
    @classmethod
    def _masked(cls, value):
        """Mask secrets in model or provider text.

        >>> RunMeta(hard_failure=True, failure_reason="bad key sk-abcdefghijkl0123456789").failure_reason
        'bad key ***'
        """
        return redact_text(value) if isinstance(value, str) else value

    @field_validator("repair_log", mode="before")
    @classmethod
    def _masked_log(cls, value):
        if isinstance(value, (list, tuple)):
            return tuple(redact_text(v) if isinstance(v, str) else v for v in value)
        return value

    @model_validator(mode="after")
    def _failure_reason(self):
        if self.hard_failure and not self.failure_reason:
            raise ValueError("a hard failure needs a failure_reason")
        if not self.hard_failure and self.failure_reason is not None:
            raise ValueError("failure_reason is set but hard_failure is false")
        return self


class OutputRecord(BaseModel):
    """One line of an outputs JSONL file: one configuration's output on one case.

    A hard failure carries no payload (``common`` and ``trace`` are ``None``)
    and keeps the raw text in ``meta``; any other record has a ``common``
    payload.

    Examples
    --------
    >>> rec = OutputRecord(case_id="c1", configuration="direct", model="m",
    ...                    common={"final_status": "both"})
    >>> rec.to_json()
    '{"case_id": "c1", "common": {"final_status": "both", "schema_version": "common-v1"}, "configuration": "direct", "meta": {"hard_failure": false, "raw_text": "", "repair_log": []}, "model": "m", "repeat": 0, "schema_version": "output-record-v1"}'
    >>> OutputRecord.failure(case_id="c1", configuration="direct", model="m",
    ...                      raw_text="{oops", reason="truncated JSON").status is None
    True
    """

    model_config = _FROZEN
    schema_version: Literal["output-record-v1"] = OUTPUT_RECORD_V1
    case_id: str = Field(min_length=1)
    configuration: str = Field(min_length=1)
    model: str = Field(min_length=1)
    variant: str | None = None
    repeat: int = Field(default=0, ge=0)
    common: CommonV1 | None = None
    trace: TraceV2 | None = None
    meta: RunMeta = RunMeta()

    @model_validator(mode="after")
    def _payloads(self):
        if self.meta.hard_failure and (self.common is not None or self.trace is not None):
            raise ValueError("a hard failure carries no common or trace payload")
        if not self.meta.hard_failure and self.common is None:
            raise ValueError("common is missing; a record without it must be a hard failure")
        return self

    @classmethod
    def failure(cls, *, case_id: str, configuration: str, model: str, raw_text: str,
                reason: str, variant: str | None = None, repeat: int = 0,
                repair_log=(), **meta) -> "OutputRecord":
        """A hard-failure record that keeps the raw text (scored as incorrect)."""
        return cls(case_id=case_id, configuration=configuration, model=model, variant=variant,
                   repeat=repeat, meta=RunMeta(raw_text=raw_text, repair_log=tuple(repair_log),
                                               hard_failure=True, failure_reason=reason, **meta))

    @property
    def status(self) -> Status | None:
        """The predicted status, ``None`` on a hard failure."""
        return None if self.common is None else self.common.final_status

    @property
    def run_key(self) -> tuple[str, str, str, int]:
        """``(configuration, model, variant or "", repeat)``: the run cell this output belongs to."""
        return (self.configuration, self.model, self.variant or "", self.repeat)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict without absent fields."""
        return _dump(self)

    def to_json(self) -> str:
        """One JSONL line: sorted keys, absent fields left out, UTF-8 kept."""
        return json.dumps(self.to_dict(), sort_keys=True, ensure_ascii=False)


def json_schemas() -> dict[str, dict]:
    """The exported JSON Schemas of the contract.

    Returns
    -------
    dict
        ``{"common-v1": ..., "trace-v2": ..., "output-record": ...}``.

    Examples
    --------
    >>> s = json_schemas()
    >>> sorted(s), s["common-v1"]["required"]
    (['common-v1', 'output-record', 'trace-v2'], ['final_status'])
    """
    return {
        COMMON_V1: CommonV1.model_json_schema(),
        TRACE_V2: TraceV2.model_json_schema(),
        "output-record": OutputRecord.model_json_schema(),
    }


def schema_text(name: str) -> str:
    """One exported schema as text: sorted keys, two-space indent, final newline.

    Raises
    ------
    KeyError
        If ``name`` is not one of :func:`json_schemas`' keys.

    Examples
    --------
    >>> schema_text("common-v1").splitlines()[0]
    '{'
    """
    return json.dumps(json_schemas()[name], indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def write_schemas(directory) -> list[str]:
    """Write every schema to ``<directory>/<name>.schema.json``; return the paths written.

    The copies shipped in ``scorer/schemas/`` are made with this function (a
    test keeps them in step with the models).

    Examples
    --------
    >>> import tempfile
    >>> [p.rsplit("/", 1)[1] for p in write_schemas(tempfile.mkdtemp())]
    ['common-v1.schema.json', 'output-record.schema.json', 'trace-v2.schema.json']
    """
    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    for name in sorted(json_schemas()):
        path = out / f"{name}.schema.json"
        write_atomic(path, schema_text(name))
        paths.append(str(path))
    return paths
