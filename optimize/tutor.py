"""A deterministic scripted LM whose answers improve with demos and instructions.

Optimizers can only be shown to *do* something offline if the LM responds to
what they change.  :class:`Tutor` plays that LM through the real DSPy /
Instructor path (:class:`~assistant.scripted.ScriptedEngine`):

* asked for a configuration's output on a known scenario, it answers with the
  gold extraction (or answer) when the prompt shows at least one demo or its
  instructions contain :data:`HINT`; otherwise with a *degraded* answer that
  drops every priority and explicit attack (and, for B1-B3, answers
  ``undecidable``), so status, PHA and TGC suffer on priority cases;
* sampled at a temperature above 0 (SIMBA's resampling), it answers well with
  probability one half, drawn from its own seeded RNG;
* asked for a configuration's output on a case it does not know, it gives
  the smallest valid answer (as ``scripted/null`` does);
* asked anything else (an optimizer's proposer or reflection prompt), it
  proposes an instruction that contains :data:`HINT`, filling every string
  field of the requested JSON schema (or a fenced block when there is none).

Every request is kept, with its kind, for call counting in tests and benchmarks.
"""

from __future__ import annotations

import json
import random
import re
import threading
from dataclasses import dataclass
from typing import Iterable

from symbolic.scenario.model import Scenario

__all__ = ["HINT", "INSTRUCTION", "TUTOR_MODELS", "Tutor", "TutorEngine", "tutor_backbone", "tutor_for"]

#: Offline model families played by :class:`Tutor` (what each learns from).
TUTOR_MODELS = {"scripted/tutor": "both", "scripted/tutor-demos": "demos", "scripted/tutor-hint": "hint"}
HINT = "Ground every priority"
INSTRUCTION = (f"{HINT} and every exception in the fragment that states it; extract facts, rules, attacks and "
               "priorities with fragment ids.")
_FIELD = re.compile(r"^\s*\d+\. `(\w+)`", re.MULTILINE)
_ASSISTANT_FIELDS = ("theory", "analysis", "result", "check", "audit")


@dataclass
class _Stats:
    assistant: int = 0
    proposer: int = 0


class Tutor:
    """A reply source with the :class:`~assistant.scripted.Script` protocol (``next(messages, schema)``).

    Parameters
    ----------
    scenarios : iterable of Scenario
        The cases it can recognise (by query and evidence text).
    seed : int, optional
        Seed of the sampling at temperature > 0.
    predictors : iterable of str, optional
        Predictor names to give advice for when a schema asks for a name -> text mapping (SIMBA).
    learns_from : {"both", "demos", "hint"}, optional
        What makes it answer well: demos or the hint (default), only demos, or only the hint.
        Two tutors that learn from different things play two model families.

    Examples
    --------
    >>> from scorer.metrics._examples import penalty_scenario
    >>> t = Tutor([penalty_scenario()])
    >>> t.next([{"role": "user", "content": "Propose an instruction."}], None).startswith("```")
    True
    >>> t.stats.proposer, len(t.requests)
    (1, 1)
    """

    def __init__(self, scenarios: Iterable[Scenario], *, seed: int = 0,
                 predictors: Iterable[str] = ("extract", "extract_with_target", "extract_by_fragment",
                                              "extract_by_fragment_with_target"),
                 learns_from: str = "both"):
        if learns_from not in ("both", "demos", "hint"):
            raise ValueError(f"learns_from must be both, demos or hint, got {learns_from!r}")
        self.learns_from = learns_from
        self.scenarios = sorted(scenarios, key=lambda s: (-len(s.evidence), s.id))
        self.predictors = tuple(predictors)
        self.requests: list[list[dict]] = []
        self.schemas: list[dict | None] = []
        self.stats = _Stats()
        self.temperature: float | None = None
        self._rng = random.Random(seed)
        self._lock = threading.Lock()

    # -- recognising the request -------------------------------------------------
    def _scenario(self, text: str) -> Scenario | None:
        for s in self.scenarios:  # most fragments first: an update case is not taken for its base
            if s.query in text and all(f.text in text for f in s.evidence):
                return s
        return None

    def _skilled(self, messages: list[dict]) -> bool:
        system = " ".join(str(m.get("content", "")) for m in messages if m.get("role") == "system")
        demos = sum(1 for m in messages[:-1] if m.get("role") == "assistant") > 0
        hint = HINT.lower() in system.lower()
        return {"both": demos or hint, "demos": demos, "hint": hint}[self.learns_from]

    def next(self, messages: list[dict], schema: dict | None = None) -> str:
        """Record a request and answer it (see the module docstring)."""
        with self._lock:
            self.requests.append(messages)
            self.schemas.append(schema)
            props = (schema or {}).get("properties", {})
            fields = [f for f in _ASSISTANT_FIELDS if f in props]
            last = next((str(m.get("content", "")) for m in reversed(messages) if m.get("role") == "user"), "")
            if not fields:
                self.stats.proposer += 1
                return self._propose(messages, schema)
            self.stats.assistant += 1
            scenario = self._scenario(last)
            if scenario is None:  # a case it does not know: the smallest valid answer, like scripted/null
                from assistant.scripted import minimal_instance

                return json.dumps(minimal_instance(schema), ensure_ascii=False)
            good = self._skilled(messages)
            if not good and self.temperature:
                good = self._rng.random() < 0.5
            return json.dumps(self._answer(scenario, schema, fields[0], good), ensure_ascii=False)

    # -- replies ---------------------------------------------------------------
    def _answer(self, s: Scenario, schema: dict, name: str, good: bool) -> dict:
        from assistant.variants import demo_fields

        fields = demo_fields(s)
        targeted = "TargetedExtraction" in json.dumps(schema)
        source = {"theory": fields["extract_with_target" if targeted else "extract"]["theory"],
                  "analysis": fields["extract"]["analysis"], "result": fields["answer"]["result"],
                  "check": fields["check"]["check"]}.get(name)
        if source is None:  # audit: no gold verdict here, answer minimally
            from assistant.scripted import minimal_instance

            return minimal_instance(schema)
        value = json.loads(source.model_dump_json())
        if not good:
            value = _degrade(value)
        return {name: value}

    def _propose(self, messages: list[dict], schema: dict | None) -> str:
        if schema is not None:
            return json.dumps(self._fill(schema, schema), ensure_ascii=False)
        system = " ".join(str(m.get("content", "")) for m in messages if m.get("role") == "system")
        head = system.partition("Your output fields are:")[2].partition("All interactions")[0]
        names = _FIELD.findall(head)
        if not names:
            return f"```\n{INSTRUCTION}\n```"
        if "JSON object" in system:
            return json.dumps({name: INSTRUCTION for name in names}, ensure_ascii=False)
        return "\n\n".join(f"[[ ## {name} ## ]]\n{INSTRUCTION}" for name in names) + "\n\n[[ ## completed ## ]]"

    def _fill(self, node: dict, root: dict):
        from assistant.scripted import minimal_instance

        if "$ref" in node:
            return self._fill(root.get("$defs", {})[node["$ref"].rsplit("/", 1)[-1]], root)
        for key in ("anyOf", "oneOf"):
            if key in node:
                options = [o for o in node[key] if o.get("type") != "null"] or node[key]
                return self._fill(options[0], root)
        kind = node.get("type")
        if kind == "string" and "enum" not in node:
            return INSTRUCTION
        if kind == "object" and "properties" not in node and isinstance(node.get("additionalProperties"), dict):
            return {name: self._fill(node["additionalProperties"], root) for name in self.predictors}
        if kind == "object" or "properties" in node:
            props = node.get("properties", {})
            return {k: self._fill(v, root) for k, v in props.items() if k in node.get("required", props)}
        return minimal_instance(node, root)


def _degrade(value: dict) -> dict:
    """Drop priorities and explicit attacks; answers lose their status."""
    out = dict(value)
    for key in ("priorities", "attacks"):
        if key in out:
            out[key] = []
    if "status" in out:
        out["status"] = "undecidable"
        out["priority_applied"] = False
    for key in ("result", "final"):
        if isinstance(out.get(key), dict):
            out[key] = _degrade(out[key])
    return out


class TutorEngine:
    """A DSPy ``lm15`` engine over a :class:`Tutor` that passes on the request's temperature."""

    def __init__(self, tutor: Tutor):
        from assistant.scripted import ScriptedEngine

        self.tutor = tutor
        self._inner = ScriptedEngine(tutor)

    def complete(self, request):
        """Answer one canonical request (the ``Engine`` protocol)."""
        self.tutor.temperature = getattr(request.config, "temperature", None)
        return self._inner.complete(request)

    def stream(self, request):
        """Stream one canonical request as a single response."""
        self.tutor.temperature = getattr(request.config, "temperature", None)
        return self._inner.stream(request)

    def close(self):
        """Nothing to release."""


def tutor_backbone(tutor: Tutor, model: str = "scripted/tutor"):
    """A :class:`~assistant.backends.Backbone` answering from ``tutor`` (JSON-schema constrained).

    Examples
    --------
    >>> from scorer.metrics._examples import penalty_scenario
    >>> tutor_backbone(Tutor([penalty_scenario()])).kind
    'scripted'
    """
    import dspy

    from assistant.backends import Backbone

    lm = dspy.LM(model, engine=TutorEngine(tutor), cache=False, temperature=0.0)
    return Backbone(model, lm, "scripted", json_schema=True)


def tutor_for(model: str, scenarios: Iterable[Scenario] = (), *, seed: int = 0):
    """The backbone of the offline family ``model`` (a key of :data:`TUTOR_MODELS`), knowing ``scenarios``.

    Examples
    --------
    >>> tutor_for("scripted/tutor-hint").model
    'scripted/tutor-hint'
    """
    return tutor_backbone(Tutor(scenarios, seed=seed, learns_from=TUTOR_MODELS[model]), model)
