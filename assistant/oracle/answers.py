"""The oracle's replies: each predictor's output from the gold analysis of a
suite case, and the seeded corruptions of the noisy oracle.

The replies are the ones :func:`assistant.variants.demo_fields` builds for
demos (the same encoder, the same JSON), plus the audit verdict, which names
the case's annotated defect class and typed location.

Corruptions (the error kinds the paper reports for real backbones):

``dropped_priority``
    one priority is left out of an extraction;
``missing_exception``
    one exception rule (consequent ``¬applicable(rK)``) is left out, with the
    exceptions to it and the priorities and attack edges that name them;
``old_clause_id``
    one object cites another fragment of the package instead of its own (an
    answer or an audit cites or points at the wrong clause);
``wrong_status``
    an answer's status is replaced by another one (the next label in the
    order accepted, rejected, both, undecidable).

Whether an answer is corrupted, and how, depends only on the seed, the case
and the predictor, never on the order in which requests arrive.
"""

from __future__ import annotations

import copy
import random
from dataclasses import dataclass

from symbolic.scenario.labels import Status
from symbolic.scenario.literals import excepted_rule
from symbolic.scenario.model import DefectClass, Scenario

__all__ = ["CORRUPTIONS", "Corruption", "corrupt", "gold_reply"]

CORRUPTIONS = ("dropped_priority", "missing_exception", "old_clause_id", "wrong_status")
_STATUSES = [s for s in Status]


@dataclass(frozen=True)
class Corruption:
    """What the noisy oracle changed in one reply."""

    case_id: str
    predictor: str
    kind: str
    detail: str

    def to_dict(self) -> dict:
        """JSON-ready."""
        return {"case_id": self.case_id, "predictor": self.predictor, "kind": self.kind, "detail": self.detail}


def gold_reply(scenario: Scenario, kind: str) -> dict:
    """The gold reply (``{field: value}`` as JSON data) of predictor ``kind`` on ``scenario``.

    ``kind`` is a value of :data:`assistant.oracle.prompts.OUTPUT_KINDS`.
    """
    from ..schemas import AuditVerdict
    from ..variants import demo_fields

    fields = demo_fields(scenario)
    if kind == "answer":
        return {"result": fields["answer"]["result"].model_dump(mode="json")}
    if kind == "check":
        return {"check": fields["check"]["check"].model_dump(mode="json")}
    if kind == "extract_then_answer":
        return {"analysis": fields["extract"]["analysis"].model_dump(mode="json")}
    if kind == "extract":
        return {"theory": fields["extract"]["theory"].model_dump(mode="json")}
    if kind == "extract_with_target":
        return {"theory": fields["extract_with_target"]["theory"].model_dump(mode="json")}
    meta = scenario.metadata
    defect = meta.defect_class or DefectClass.NONE
    verdict = AuditVerdict(defect_class=defect, location=meta.defect_location if defect is not DefectClass.NONE
                           else None, explanation="" if defect is DefectClass.NONE else f"{defect.value}",
                           corrected=fields["answer"]["result"])
    return {"audit": verdict.model_dump(mode="json")}


def _theory_of(reply: dict) -> dict | None:
    value = next(iter(reply.values()))
    return value if "rules" in value else None


_ANSWER_AT = {"result": None, "check": "final", "analysis": "result", "audit": "corrected"}


def _answer_of(reply: dict) -> dict | None:
    """The cited answer inside a reply (``None`` for a B4 extraction)."""
    field, value = next(iter(reply.items()))
    if field not in _ANSWER_AT:
        return None
    inner = _ANSWER_AT[field]
    return value if inner is None else value.get(inner)


def _options(reply: dict, scenario: Scenario) -> list[str]:
    theory, answer = _theory_of(reply), _answer_of(reply)
    options = []
    if theory is not None and theory.get("priorities"):
        options.append("dropped_priority")
    if theory is not None and any(excepted_rule(r["consequent"]) for r in theory["rules"]):
        options.append("missing_exception")
    if "audit" in reply:
        if reply["audit"].get("location") and len(scenario.evidence) > 1:
            options.append("old_clause_id")
    elif len(scenario.evidence) > 1 and (theory is not None or answer is not None and answer.get("cited")):
        options.append("old_clause_id")
    if answer is not None:
        options.append("wrong_status")
    return sorted(set(options), key=CORRUPTIONS.index)


def _other_fragment(scenario: Scenario, cited, rng: random.Random) -> str:
    others = [f.id for f in scenario.evidence if f.id not in set(cited)]
    return rng.choice(others) if others else scenario.evidence[0].id


def corrupt(reply: dict, scenario: Scenario, predictor: str, rate: float, seed: int
            ) -> tuple[dict, Corruption | None]:
    """Corrupt ``reply`` with probability ``rate`` (seeded by case and predictor).

    Returns
    -------
    (dict, Corruption or None)
        The reply (a new object when corrupted) and what was changed.
    """
    rng = random.Random(f"{seed}/{scenario.id}/{predictor}")
    if rate <= 0 or rng.random() >= rate:
        return reply, None
    options = _options(reply, scenario)
    if not options:
        return reply, None
    kind = rng.choice(options)
    reply = copy.deepcopy(reply)
    theory, answer = _theory_of(reply), _answer_of(reply)
    if kind == "dropped_priority":  # noqa: SIM114 - one branch per kind
        gone = theory["priorities"].pop(rng.randrange(len(theory["priorities"])))
        detail = f"dropped priority {gone['stronger']}>{gone['weaker']}"
    elif kind == "missing_exception":
        exceptions = [r for r in theory["rules"] if excepted_rule(r["consequent"])]
        first = rng.choice(exceptions)["id"]
        gone = {first}
        while True:  # exceptions to the dropped exception go with it
            more = {r["id"] for r in theory["rules"] if excepted_rule(r["consequent"]) in gone} - gone
            if not more:
                break
            gone |= more
        theory["rules"] = [r for r in theory["rules"] if r["id"] not in gone]
        theory["priorities"] = [p for p in theory.get("priorities", []) if not gone & {p["stronger"], p["weaker"]}]
        theory["attacks"] = [a for a in theory.get("attacks", []) if not gone & {a["source"], a["target"]}]
        detail = f"dropped exception {', '.join(sorted(gone))}"
    elif kind == "old_clause_id" and "audit" in reply and reply["audit"].get("location"):
        audit = reply["audit"]
        old = audit["location"]
        audit["location"] = f"evidence:{_other_fragment(scenario, [old.partition(':')[2]], rng)}"
        detail = f"location {old} -> {audit['location']}"
    elif kind == "old_clause_id" and theory is not None and "audit" not in reply:
        objects = [o for key in ("facts", "rules") for o in theory.get(key, [])]
        obj = rng.choice(objects)
        new = _other_fragment(scenario, obj["evidence"], rng)
        detail = f"{obj['id']} cites {new} instead of {', '.join(obj['evidence'])}"
        obj["evidence"] = [new]
    elif kind == "old_clause_id":
        i = rng.randrange(len(answer["cited"]))
        new = _other_fragment(scenario, answer["cited"], rng)
        detail = f"cites {new} instead of {answer['cited'][i]}"
        answer["cited"][i] = new
    else:
        old = Status(answer["status"])
        new = _STATUSES[(_STATUSES.index(old) + 1) % len(_STATUSES)]
        answer["status"] = new.value
        detail = f"status {old.value} -> {new.value}"
    return reply, Corruption(scenario.id, predictor, kind, detail)
