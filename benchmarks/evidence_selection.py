"""Evidence selection on normative-en: recall of the gold-cited fragments and
B4's answer status accuracy (ASA) on selected vs full evidence; prints JSON.

Usage::

    python benchmarks/evidence_selection.py        # default budget (2000 tokens); pools of 10, 20, 40 other cases
    python benchmarks/evidence_selection.py --distractors 20 --budgets 1000,2000,4000 --seed 7

For each case, its evidence is mixed (at seeded positions) into a pool with
every fragment of ``--distractors`` other cases (each count in turn), picked with the seed and
renumbered ``E-101``...; :func:`assistant.ingest.select.select` chooses
fragments for the case's query and target within the budget, with plain BM25
(``--feedback 0``) and with the default pseudo-relevance feedback from the 3
best hits (whose weight was chosen on this same suite, so its recall is an
optimistic estimate).  Reported per
budget: the pool and kept sizes in tokens, recall of the gold-cited fragments
(fragments the gold analysis cites; mean, share of cases at 1.0, minimum), and
the share of kept fragments that are distractors.

ASA (docs/metrics.md: 1 iff the predicted status equals the gold status) is
measured for B4 through the real DSPy/Instructor path and engine, with the
scripted LM answering from the gold analysis (the replies of
``benchmarks/assistant.py``'s oracle, :func:`assistant.variants.demo_fields`):
on the full pool it replies with the gold extraction; on the selected
evidence it replies with the gold extraction restricted to what it can see
(citations of left-out fragments removed, objects left with no citation
dropped with the priorities and attacks that name them), i.e. a perfect
reader of the selected evidence.  So the ASA difference is the cost of the
selection alone.  When the whole pool exceeds the assistant's input limits
(200 fragments) the full-evidence ASA is reported as not computed, never as a
score.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "true")
os.environ.setdefault("MLFLOW_DISABLE_TELEMETRY", "true")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

SUITE = Path(__file__).resolve().parents[1] / "experiments" / "suites" / "normative-en.jsonl"


def gold_cited(scenario) -> set[str]:
    """Fragment ids the gold analysis cites."""
    g = scenario.gold
    return {e for obj in (*g.facts, *g.rules, *g.priorities, *g.attacks) for e in obj.evidence}


def pool_for(scenario, others, rng: random.Random):
    """The case's fragments mixed into every fragment of ``others`` (renumbered), at seeded positions."""
    distractors, n = [], 101
    for other in others:
        for frag in other.evidence:
            distractors.append(frag.model_copy(update={"id": f"E-{n}"}))
            n += 1
    pool = list(distractors)
    for frag in scenario.evidence:
        pool.insert(rng.randrange(len(pool) + 1), frag)
    return pool


def restricted_theory(theory: dict, visible: set[str]) -> dict:
    """A gold extraction reply as a perfect reader of only ``visible`` fragments would give it."""
    from symbolic.scenario.labels import normalize_evidence_id

    out = {"facts": [], "rules": [], "attacks": [], "priorities": []}
    kept_rules = set()
    for kind in ("facts", "rules"):
        for obj in theory.get(kind, []):
            cites = [e for e in obj.get("evidence", []) if normalize_evidence_id(e) in visible]
            if not cites:
                continue
            obj = {**obj, "evidence": cites}
            if obj.get("quote") and normalize_evidence_id(obj.get("evidence")[0]) not in visible:
                obj.pop("quote")
            out[kind].append(obj)
            if kind == "rules":
                kept_rules.add(obj["id"])
    for kind in ("priorities", "attacks"):
        for obj in theory.get(kind, []):
            names = {obj.get(k) for k in ("stronger", "weaker", "source", "target") if obj.get(k)}
            rule_names = {x for x in names if x in {r["id"] for r in theory.get("rules", [])}}
            if not rule_names <= kept_rules:
                continue
            cites = [e for e in obj.get("evidence", []) if normalize_evidence_id(e) in visible]
            if obj.get("evidence") and not cites:
                continue
            out[kind].append({**obj, "evidence": cites})
    fact_ids = {f["id"] for f in out["facts"]}
    out["attacks"] = [a for a in out["attacks"] if a.get("source") in kept_rules | fact_ids
                      and (a.get("target") in kept_rules | fact_ids or a.get("target") not in
                           {o["id"] for k in ("facts", "rules") for o in theory.get(k, [])})]
    return out


def run_b4(scenario, fragments, theory: dict):
    from assistant.api import Assistant
    from assistant.backends import Backbone
    from assistant.scripted import Script, scripted_lm

    script = Script([{"theory": theory}], fallback="null")
    backbone = Backbone("scripted/oracle", scripted_lm("scripted/oracle", script), "scripted", True)
    return Assistant("b4", backbone=backbone).run(scenario.query, fragments, target=scenario.target,
                                                  case_id=scenario.id)


def measure(scenarios, *, budget: int, distractors: int, seed: int, asa: bool, feedback: int | None = None) -> dict:
    from assistant.ingest.select import fragment_tokens, select
    from assistant.variants import demo_fields

    recalls, distractor_share, pool_tokens, kept_tokens, rows = [], [], [], [], []
    from assistant.errors import InputLimitError

    asa_full, asa_sel, failures = [], [], {"full": 0, "selected": 0}
    not_computed, refused = [], ""
    for i, scenario in enumerate(scenarios):
        rng = random.Random(f"{seed}:{scenario.id}")
        others = rng.sample([s for s in scenarios if s.id != scenario.id], distractors)
        pool = pool_for(scenario, others, rng)
        extra = {} if feedback is None else {"feedback": feedback}
        chosen = select(scenario.query, pool, budget=budget, target=scenario.target, **extra)
        kept = set(chosen.kept_ids)
        gold = gold_cited(scenario)
        recall = len(gold & kept) / len(gold) if gold else 1.0
        recalls.append(recall)
        own = {f.id for f in scenario.evidence}
        distractor_share.append(sum(1 for k in kept if k not in own) / max(1, len(kept)))
        pool_tokens.append(sum(fragment_tokens(f) for f in pool))
        kept_tokens.append(chosen.record["kept_tokens"])
        row = {"case": scenario.id, "recall": round(recall, 4), "kept": len(kept), "pool": len(pool),
               "missed": sorted(gold - kept)}
        if asa:
            theory = demo_fields(scenario)["extract"]["theory"].model_dump(mode="json")
            try:
                full = run_b4(scenario, pool, theory).record
            except InputLimitError as exc:  # the assistant refuses the whole pool: not a score
                full, refused = None, str(exc)
                not_computed.append(scenario.id)
            sel = run_b4(scenario, chosen.fragments, restricted_theory(theory, kept)).record
            for name, rec, bucket in (("full", full, asa_full), ("selected", sel, asa_sel)):
                if rec is None:
                    continue
                failures[name] += bool(rec.meta.hard_failure)
                bucket.append(int(not rec.meta.hard_failure and rec.status == scenario.gold.status))
            row.update(status_full=getattr(getattr(full, "status", None), "value", None),
                       status_selected=getattr(sel.status, "value", None), gold=scenario.gold.status.value)
        rows.append(row)
    out = {
        "budget_tokens": budget,
        "cases": len(scenarios),
        "pool_tokens_median": statistics.median(pool_tokens),
        "kept_tokens_median": statistics.median(kept_tokens),
        "recall_gold_cited_mean": round(statistics.fmean(recalls), 4),
        "recall_share_of_cases_at_1": round(sum(r == 1.0 for r in recalls) / len(recalls), 4),
        "recall_min": round(min(recalls), 4),
        "kept_distractor_share_mean": round(statistics.fmean(distractor_share), 4),
        "cases_missing_gold": [{k: r[k] for k in ("case", "recall", "missed")} for r in rows if r["recall"] < 1.0],
    }
    if asa:
        if not_computed:
            out["asa_b4_full"] = None
            out["asa_b4_full_not_computed"] = {"cases": len(not_computed), "reason": refused}
        else:
            out["asa_b4_full"] = round(statistics.fmean(asa_full), 4)
        out["asa_b4_selected"] = round(statistics.fmean(asa_sel), 4)
        out["hard_failures"] = failures
        out["status_changed_by_selection"] = [
            {k: r[k] for k in ("case", "gold", "status_full", "status_selected", "missed")}
            for r in rows if r["status_full"] not in (None, r["status_selected"])]
    return out


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budgets", default="", help="comma-separated token budgets (default: the default budget)")
    parser.add_argument("--distractors", default="10,20,40",
                        help="comma-separated numbers of other cases whose fragments join each pool")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--feedback", default="0,3",
                        help="comma-separated numbers of feedback fragments (0: plain BM25; 3: the default)")
    parser.add_argument("--no-asa", action="store_true", help="recall only (no B4 runs)")
    args = parser.parse_args(argv)

    from assistant.ingest.select import DEFAULT_BUDGET
    from symbolic.suites.io import load_suite

    scenarios = sorted(load_suite(SUITE), key=lambda s: s.id)
    budgets = [int(b) for b in args.budgets.split(",") if b.strip()] or [DEFAULT_BUDGET]
    counts = [int(n) for n in args.distractors.split(",") if n.strip()]
    report = {"suite": SUITE.name, "seed": args.seed, "distractor_cases": counts,
              "default_budget": DEFAULT_BUDGET, "retriever": "bm25s (lucene), optional pseudo-relevance feedback, + cross-references",
              "asa_backbone": "scripted LM answering from the gold analysis (restricted to the selected evidence "
                              "on the selected runs)", "runs": []}
    started = time.perf_counter()
    for feedback in [int(n) for n in args.feedback.split(",") if n.strip()]:
        for count in counts:
            for budget in budgets:
                run = measure(scenarios, budget=budget, distractors=count, seed=args.seed, asa=not args.no_asa,
                              feedback=feedback)
                report["runs"].append({"feedback": feedback, "distractor_cases": count, **run})
    report["wall_s"] = round(time.perf_counter() - started, 2)
    print(json.dumps(report, indent=2, sort_keys=True))


if __name__ == "__main__":
    main()
