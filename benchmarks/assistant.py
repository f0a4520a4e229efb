"""Benchmark of the assistant configurations; prints JSON.

Usage::

    python benchmarks/assistant.py                 # scripted oracle, 10 normative-en cases
    python benchmarks/assistant.py --cases 30
    python benchmarks/assistant.py --local 2       # also 2 cases per configuration on the embedded default

Per configuration it reports prompt and completion tokens per case, LM calls
per case, the wall-clock time per case, and (B4) the engine's share of the
per-case time (engine = parser-validator, arguments, attacks, labelling,
status and trace graph).  B4's tokens are compared with the paper's Table 18
(7,628 input / 1,082 output tokens per case).

Two backends:

- ``scripted``: the scripted LM replies with each case's gold-derived output
  (an oracle, so every run is valid and deterministic) through the real
  DSPy/Instructor path; tokens are estimated as ``ceil(characters / 4)``.
- ``local``: the embedded llama.cpp server with the default model; tokens are the
  server's own counts and latencies are real.  The model is tiny and not
  instruction-tuned: its answers are not meaningful, only the cost is.
  ``--max-tokens`` bounds each reply (default 1024) to keep the run short.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "true")
os.environ.setdefault("MLFLOW_DISABLE_TELEMETRY", "true")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

PAPER_B4 = {"prompt_tokens": 7628, "completion_tokens": 1082}
SUITE = Path(__file__).resolve().parents[1] / "experiments" / "suites" / "normative-en.jsonl"


def oracle_replies(config: str, scenario) -> list[dict]:
    """The gold-derived replies a perfect LM would give, in call order."""
    from assistant.variants import demo_fields

    fields = demo_fields(scenario)

    def dump(name, key):
        return {key: fields[name][key].model_dump(mode="json")}

    return {"b1": [dump("answer", "result")],
            "b2": [dump("answer", "result"), dump("check", "check")],
            "b3": [dump("extract", "analysis")],
            "b4": [dump("extract", "theory")]}[config]


def _summary(results) -> dict:
    recs = [r.record for r in results]
    per_case_ms = [r.total_ms for r in results]
    engine_ms = [r.engine_ms for r in results]
    out = {
        "cases": len(results),
        "prompt_tokens_per_case": statistics.fmean(r.meta.prompt_tokens or 0 for r in recs),
        "completion_tokens_per_case": statistics.fmean(r.meta.completion_tokens or 0 for r in recs),
        "calls_per_case": statistics.fmean(r.meta.calls or 0 for r in recs),
        "ms_per_case_median": statistics.median(per_case_ms),
        "hard_failures": sum(r.meta.hard_failure for r in recs),
    }
    if any(engine_ms):
        out["engine_ms_per_case_median"] = statistics.median(engine_ms)
        out["engine_share_of_case_time"] = sum(engine_ms) / sum(per_case_ms)
    return out


def run(config: str, model: str, scenarios, *, max_tokens: int, scripted: bool) -> dict:
    from assistant.api import Assistant
    from assistant.backends import Backbone, Decoding, resolve
    from assistant.scripted import Script, scripted_lm

    results = []
    for scenario in scenarios:
        if scripted:
            script = Script(oracle_replies(config, scenario))
            backbone = Backbone("scripted/oracle", scripted_lm("scripted/oracle", script), "scripted", True)
        else:
            backbone = resolve(model, decoding=Decoding(max_tokens=max_tokens), cache=False)
        assistant = Assistant(config, backbone=backbone)
        results.append(assistant.run(scenario.query, scenario.evidence, target=scenario.target,
                                     case_id=scenario.id))
    summary = _summary(results)
    if scripted:
        gold = [s.gold.status for s in scenarios]
        summary["status_matches_gold"] = sum(r.record.status == g for r, g in zip(results, gold))
    return summary


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=10, help="normative-en cases for the scripted run")
    parser.add_argument("--local", type=int, default=0, help="cases per configuration on the local model")
    parser.add_argument("--max-tokens", type=int, default=1024, help="reply bound for the local model")
    parser.add_argument("--configs", default="b1,b2,b3,b4")
    args = parser.parse_args(argv)

    from symbolic.suites.io import load_suite

    scenarios = sorted(load_suite(SUITE), key=lambda s: s.id)
    configs = [c.strip() for c in args.configs.split(",") if c.strip()]
    report: dict = {"suite": SUITE.name, "paper_table_18_b4_per_case": PAPER_B4, "scripted": {}, "local": {}}
    started = time.perf_counter()
    for config in configs:
        report["scripted"][config] = run(config, "scripted/oracle", scenarios[: args.cases],
                                         max_tokens=args.max_tokens, scripted=True)
    if args.local:
        from assistant.local_llm import ensure_server
        from assistant.local_models import DEFAULT_LOCAL_MODEL

        ensure_server()
        for config in configs:
            report["local"][config] = run(config, DEFAULT_LOCAL_MODEL, scenarios[: args.local],
                                          max_tokens=args.max_tokens, scripted=False)
    for mode in ("scripted", "local"):
        b4 = report[mode].get("b4")
        if b4:
            b4["prompt_tokens_vs_paper"] = b4["prompt_tokens_per_case"] / PAPER_B4["prompt_tokens"]
            b4["completion_tokens_vs_paper"] = b4["completion_tokens_per_case"] / PAPER_B4["completion_tokens"]
    report["wall_s"] = time.perf_counter() - started
    print(json.dumps(report, indent=2, sort_keys=True))


if __name__ == "__main__":
    main()
