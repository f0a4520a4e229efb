"""A small suite and outputs for the report and CLI tests: the penalty family
(docs/semantics.md section 8) under several variants, scored by a white-box
configuration (two runs) and a black-box one (two runs, one hard failure, one
missing output)."""

from __future__ import annotations

import json

from scorer.contract import OutputRecord
from scorer.outputs_io import dump_outputs
from scorer.repair import repair_record
from symbolic.scenario.examples import penalty_analysis
from symbolic.suites.io import dump_suite
from symbolic.scenario.model import Analysis, EvidenceFragment, Gold, Metadata, Scenario

EVIDENCE = [EvidenceFragment(id=f"E-{i:02d}", text=f"Fragment {i}.", source="Supply Agreement")
            for i in range(1, 8)]


def penalty(variant: str) -> Analysis:
    """The penalty objects of ``variant``, facts numbered first (:func:`symbolic.scenario.examples.penalty_analysis`)."""
    return penalty_analysis(variant, facts_first=True)


CASES = [("p-gold", "gold", "accepted"), ("p-noprio32", "no-r3>r2", "both"), ("p-nor3", "no-r3", "rejected"),
         ("p-nofacts", "no-facts", "undecidable"), ("p-noprio", "no-priorities", "both"),
         ("p-gold-2", "gold", "accepted")]


def scenarios() -> list[Scenario]:
    out = []
    for case_id, variant, status in CASES:
        md = Metadata(contradiction=status == "both", priority=variant in ("gold", "no-r3"))
        out.append(Scenario(id=case_id, query="Is the penalty due?", target="Penalty(x)", evidence=EVIDENCE,
                            gold=Gold(**penalty(variant).model_dump(), status=status), metadata=md))
    return out


def _raw(status: str, analysis: Analysis | None, evidence=("E_01", "e4")) -> str:
    payload = {"status": status, "evidence_ids": list(evidence)}
    if analysis is not None:
        payload["trace"] = json.loads(analysis.model_dump_json())
    return "```json\n" + json.dumps(payload, ensure_ascii=False) + "\n```"


def outputs() -> tuple[list[OutputRecord], list[OutputRecord]]:
    """(white-box engine outputs, black-box outputs)."""
    ids = {e.id for e in EVIDENCE}
    engine, direct = [], []
    for repeat in (0, 1):
        for case_id, variant, status in CASES:
            engine.append(repair_record(_raw(status, penalty(variant)), evidence_ids=ids, case_id=case_id,
                                        configuration="engine", model="ref", repeat=repeat,
                                        prompt_tokens=100, completion_tokens=50, latency_ms=12.5, calls=1))
    wrong = {0: {"p-noprio32": "accepted", "p-nor3": "Rejected."}, 1: {"p-noprio32": "both"}}
    for repeat in (0, 1):
        for case_id, _, status in CASES:
            if repeat == 0 and case_id == "p-nofacts":
                raw = '{"final_status": "undecidable", "evidence_ids": ["E-0'      # truncated
            elif repeat == 0 and case_id == "p-gold-2":
                continue                                                            # missing output
            else:
                raw = _raw(wrong.get(repeat, {}).get(case_id, status), None) + "\nHope this helps."
            direct.append(repair_record(raw, evidence_ids=ids, case_id=case_id, configuration="direct",
                                        model="lm", repeat=repeat))
    return engine, direct


def write_inputs(tmp_path):
    """Write suite.jsonl, engine.jsonl and direct.jsonl; return their paths."""
    suite = tmp_path / "suite.jsonl"
    dump_suite(scenarios(), suite)
    engine, direct = outputs()
    return suite, dump_outputs(engine, tmp_path / "engine.jsonl"), dump_outputs(direct, tmp_path / "direct.jsonl")
