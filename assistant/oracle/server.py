"""Oracle backbones: OpenAI-compatible chat-completions servers on 127.0.0.1
that answer every configuration's prompts from the gold analysis of the suite
case the prompt is about.

The case is found from the prompt text alone (query, evidence package and, in
audit mode, the candidate analysis, rendered as the configurations render
them); nothing reaches the server but the HTTP request any model receives.
Use it like any OpenAI-compatible model: ``openai/oracle`` with
``api_base=server.base_url`` goes through litellm/DSPy/Instructor.

When several cases share the prompt (the controlled suite's variants of one
base scenario share query and evidence; only the audit prompt shows the
candidate), they must share the gold reply, and the first case id answers:
like any deterministic model, the oracle gives one prompt one answer.
"""

from __future__ import annotations

import json
import threading
from typing import Iterable

from symbolic.scenario.model import Scenario

from ..backends import PROBE_MESSAGES
from ..errors import BackendError
from ..scripted import Script
from ..scripted_http import ScriptedServer
from .answers import Corruption, corrupt, gold_reply
from .prompts import read_prompt

__all__ = ["Oracle", "OracleServer"]


def _evidence_text(scenario: Scenario) -> str:
    from ..evidence import EvidencePackage

    return EvidencePackage.of(scenario.evidence).format().strip()


def _candidate_text(scenario: Scenario) -> str | None:
    from ..signatures import CandidateAnalysis

    if scenario.candidate is None:
        return None
    return CandidateAnalysis(analysis=scenario.candidate).format().strip()


class Oracle:
    """Answers configuration prompts from a suite's gold analyses.

    Parameters
    ----------
    scenarios : iterable of Scenario
        The suite.
    noise : float, optional
        Share of answers to corrupt (0 = the perfect oracle), in [0, 1].
    seed : int, optional
        Seed of the corruptions.

    Raises
    ------
    BackendError
        For a noise rate outside [0, 1] or an empty suite.
    """

    def __init__(self, scenarios: Iterable[Scenario], *, noise: float = 0.0, seed: int = 0):
        if not 0.0 <= noise <= 1.0:
            raise BackendError(f"oracle noise must be a rate in [0, 1], got {noise!r}")
        self.noise, self.seed = float(noise), int(seed)
        self._by_prompt: dict[tuple[str, str], list[Scenario]] = {}
        for s in sorted(scenarios, key=lambda s: s.id):
            self._by_prompt.setdefault((s.query.strip(), _evidence_text(s)), []).append(s)
        if not self._by_prompt:
            raise BackendError("the oracle needs a suite with at least one case")
        self._candidates: dict[str, str | None] = {}
        self._lock = threading.Lock()
        self.answered = 0
        self.corruptions: dict[tuple[str, str], tuple[Corruption, tuple[str, ...]]] = {}

    def match(self, inputs: dict[str, str], kind: str) -> tuple[Scenario, tuple[str, ...]]:
        """The case a prompt's inputs are about, and every case id that shares the prompt.

        Raises
        ------
        BackendError
            If no case, or several cases with different gold replies, match.
        """
        key = (inputs.get("query", "").strip(), inputs.get("evidence", "").strip())
        found = self._by_prompt.get(key)
        if not found:
            raise BackendError(f"no case of the oracle's suite has this query and evidence package "
                               f"(query {key[0][:80]!r})")
        if "candidate" in inputs:
            wanted = inputs["candidate"].strip()
            found = [s for s in found if self._candidate(s) == wanted]
            if not found:
                raise BackendError("no case of the oracle's suite has this query, evidence and candidate analysis")
        if "target" in inputs:
            found = [s for s in found if s.target == inputs["target"].strip()] or found
        if len(found) > 1:
            replies = {json.dumps(gold_reply(s, kind), sort_keys=True) for s in found}
            if len(replies) > 1:
                raise BackendError(f"{len(found)} cases share this prompt with different gold answers: "
                                   + ", ".join(s.id for s in found[:5]))
        return found[0], tuple(s.id for s in found)

    def _candidate(self, scenario: Scenario) -> str | None:
        if scenario.id not in self._candidates:
            self._candidates[scenario.id] = _candidate_text(scenario)
        return self._candidates[scenario.id]

    def answer(self, messages: list[dict], schema: dict | None = None) -> str:
        """The reply text (JSON) to one chat request; ``OK`` to the runner's backbone probe."""
        if [dict(m) for m in messages] == list(PROBE_MESSAGES):
            return "OK"
        prompt = read_prompt(messages)
        scenario, shared = self.match(prompt.inputs, prompt.kind)
        reply, corruption = corrupt(gold_reply(scenario, prompt.kind), scenario, prompt.kind, self.noise, self.seed)
        with self._lock:
            self.answered += 1
            if corruption is not None:
                self.corruptions[(scenario.id, prompt.kind)] = (corruption, shared)
        return json.dumps(reply, ensure_ascii=False)

    def ledger(self) -> dict:
        """What the oracle answered: request count, noise, and every corruption with the cases it reached."""
        with self._lock:
            rows = [{**c.to_dict(), "cases": list(shared)}
                    for (_, _), (c, shared) in sorted(self.corruptions.items())]
            return {"answered": self.answered, "noise": self.noise, "seed": self.seed, "corruptions": rows}


class OracleServer(ScriptedServer):
    """An :class:`Oracle` behind the scripted OpenAI-compatible HTTP server.

    ``GET /v1/oracle/ledger`` returns :meth:`Oracle.ledger`.

    Examples
    --------
    >>> from symbolic.scenario.model import EvidenceFragment, Gold
    >>> case = Scenario(id="c1", query="Due?", target="P(x)", gold=Gold(status="undecidable"),
    ...                 evidence=[EvidenceFragment(id="E-01", text="t", source="doc")])
    >>> import urllib.request
    >>> with OracleServer([case]) as srv:
    ...     json.load(urllib.request.urlopen(srv.base_url + "/oracle/ledger"))["answered"]
    0
    """

    def __init__(self, scenarios: Iterable[Scenario], *, noise: float = 0.0, seed: int = 0, port: int = 0):
        self.oracle = Oracle(scenarios, noise=noise, seed=seed)
        super().__init__(Script(responder=self.oracle.answer), port=port,
                         routes={"/v1/oracle/ledger": self.oracle.ledger})
