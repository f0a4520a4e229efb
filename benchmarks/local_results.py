"""The embedded models on the shipped suites, run through ``paratrace run``, and docs/results.md.

Three steps, each resumable::

    python benchmarks/local_results.py plan                 # the runs and the slices (cases listed)
    python benchmarks/local_results.py run [--jobs N]       # run or resume them (paratrace run --resume)
    python benchmarks/local_results.py optimize             # B4 and B1 optimized per family
    python benchmarks/local_results.py page [--out docs/results.md]   # the page, from what has finished

The runs: the default model's B1 and B4 on all 85 cases of normative-en, and
every embedded model's B1-B4 on a fixed slice of normative-en and of
controlled-140 (``--slice`` cases each, stratified by gold status, chosen by
``--seed``; 6 by default, sized so that ``run`` regenerates the whole page within a
working session on the 2-core machine it was made on: 1.7 h, of which the slices
took 1.1 h and the two 85-case runs 0.6 h, so 24 would take about 5 h).  The default model's B1 and B4 on the normative-en slice are read
from its runs on all 85 cases (the same calls), not run twice.  Each run is ``paratrace run --suite SLICE.jsonl --config C --model M``
as a user types it, in ``--workdir`` (default ``.paratrace-results``), without
MLflow tracking and without the response cache (a cached reply costs no time and
no tokens, which would falsify the page's seconds and tokens per case); a killed
run continues where it stopped.  ``--jobs N`` runs N of them at once, each in
its own cache directory under ``<workdir>/slots`` (sharing the assembled models), so
each has its own embedded server: a call never queues behind another run's.  The
embedded server decodes on half the cores, so ``--jobs 2`` uses both cores of a
2-core machine; it halves the wall time only where the cores do not share one
physical core.  On the machine that made docs/results.md they do: one server's B1
took 11 s a case alone and 22 s beside one busy process, so the page is made with
``--jobs 1`` and its seconds per case are those of a quiet machine.
``optimize`` runs
``paratrace optimize --config b4`` (and ``--config b1``) ``--optimizer labeled --budget 2 --seed 0`` on the
default Qwen model and on Gemma 3 270M, and ``--optimizer random-search --budget 1 --weights ASA=1`` on
the default model (the programs shipped in ``assistant/shipped/``), into ``<workdir>/optimize-runs`` (a
finished run is kept).  ``page`` scores every finished case with the project's
scorer, adds the optimization ledger, and prints the page's tables as JSON too.
Not a test: nothing here asserts a time or a score.
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import random
import statistics
import subprocess
import sys
from collections import Counter, defaultdict
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

# Run as a script, benchmarks/ is first on sys.path and benchmarks/assistant.py would shadow the package.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "true")
os.environ.setdefault("MLFLOW_DISABLE_TELEMETRY", "true")

__all__ = ["main", "plan_runs", "run_all", "slice_ids", "wall_span"]

_SUITES = ("normative-en", "controlled-140")
_CONFIGS = ("b1", "b2", "b3", "b4")


def slice_ids(scenarios, n: int, seed: int) -> list[str]:
    """``n`` case ids stratified by gold status (proportional, at least one per status), sorted."""
    by_status: dict[str, list[str]] = defaultdict(list)
    for sc in scenarios:
        by_status[sc.gold.status.value].append(sc.id)
    rng = random.Random(seed)
    total = sum(len(v) for v in by_status.values())
    chosen: list[str] = []
    for status in sorted(by_status):
        ids = sorted(by_status[status])
        k = max(1, round(n * len(ids) / total))
        chosen += rng.sample(ids, min(k, len(ids)))
    return sorted(chosen)[:n] if len(chosen) > n else sorted(chosen)


def plan_runs(workdir: Path, slice_n: int, seed: int) -> list[dict]:
    """The runs, with the slice files written into ``workdir/suites``."""
    from assistant.local_models import DEFAULT_LOCAL_MODEL, LOCAL_MODELS
    from experiments.suites.registry import load_suite

    suites_dir = workdir / "suites"
    suites_dir.mkdir(parents=True, exist_ok=True)
    runs = []
    full = load_suite("normative-en")
    path = suites_dir / "normative-en-all.jsonl"
    path.write_text("".join(sc.model_dump_json(exclude_none=True) + "\n" for sc in full))
    for config in ("b1", "b4"):
        runs.append({"name": f"default-{config}-normative-en-all", "model": DEFAULT_LOCAL_MODEL, "config": config,
                     "suite": str(path), "slice": "normative-en (all 85)", "cases": [sc.id for sc in full]})
    for suite in _SUITES:
        scenarios = load_suite(suite)
        ids = slice_ids(scenarios, slice_n, seed)
        path = suites_dir / f"{suite}-slice{slice_n}-seed{seed}.jsonl"
        path.write_text("".join(sc.model_dump_json(exclude_none=True) + "\n" for sc in scenarios if sc.id in ids))
        for model in LOCAL_MODELS:
            for config in _CONFIGS:
                run = {"name": f"{model.split('/')[1]}-{config}-{suite}-slice", "model": model,
                       "config": config, "suite": str(path), "slice": f"{suite} slice ({len(ids)})", "cases": ids}
                if suite == "normative-en" and model == DEFAULT_LOCAL_MODEL and config in ("b1", "b4"):
                    run["source"] = f"default-{config}-normative-en-all"  # a subset of that run's cases
                runs.append(run)
    return runs


def _results(workdir: Path, run: dict) -> Path:
    return workdir / "runs" / run.get("source", run["name"]) / "results.jsonl"


def _slot_env(workdir: Path, slot: int) -> dict[str, str]:
    """The environment of parallel slot ``slot``: its own cache directory, the assembled models shared.

    The embedded server is found through the cache directory's state file, so two runs in one
    cache directory would share one server and each call would wait for the other run's.
    """
    from assistant.local_llm import cache_dir

    own = workdir / "slots" / str(slot)
    own.mkdir(parents=True, exist_ok=True)
    models = own / "models"
    if not models.is_symlink():
        shared = cache_dir() / "models"
        shared.mkdir(parents=True, exist_ok=True)
        models.symlink_to(shared.resolve(), target_is_directory=True)
    return {**os.environ, "PARATRACE_CACHE_DIR": str(own)}


def run_all(workdir: Path, runs: list[dict], jobs: int = 1) -> dict[str, int]:
    """Run or resume ``runs``, ``jobs`` at a time (each in its own slot, :func:`_slot_env`); exit code per run."""
    if jobs <= 1:
        return {r["name"]: _run(workdir, r) for r in runs}
    slots: queue.Queue[int] = queue.Queue()
    for slot in range(jobs):
        slots.put(slot)

    def one(run: dict) -> int:
        slot = slots.get()
        try:
            return _run(workdir, run, env=_slot_env(workdir, slot))
        finally:
            slots.put(slot)

    with ThreadPoolExecutor(max_workers=jobs) as pool:
        return dict(zip([r["name"] for r in runs], pool.map(one, runs)))


def _run(workdir: Path, run: dict, env: dict[str, str] | None = None) -> int:
    if "source" in run:
        print(f"[local_results] {run['name']}: read from {run['source']}", file=sys.stderr, flush=True)
        return 0
    results = _results(workdir, run)
    cmd = [sys.executable, "-c", "from optimize.console import main; main()", "run", "--suite", run["suite"],
           "--config", run["config"], "--model", run["model"], "--name", run["name"], "--workdir", str(workdir),
           "--no-track", "--no-cache", *(["--resume"] if results.exists() else [])]
    print(f"[local_results] {run['name']}: {' '.join(cmd[3:])}", file=sys.stderr, flush=True)
    return subprocess.call(cmd, env=env)


def _summarize(workdir: Path, run: dict) -> dict | None:
    from experiments.suites.registry import load_suite
    from scorer.outputs_io import load_outputs
    from scorer.score import aggregate, score_suite
    from scorer.stats import wilson

    results = _results(workdir, run)
    if not results.exists():
        return None
    not_scored: list = []
    outputs = load_outputs(results, not_scored=not_scored)  # the latest record of each case
    cases = set(run["cases"])
    outputs = [o for o in outputs if o.case_id in cases]
    not_scored = [n for n in not_scored if n.case_id in cases]
    outcomes = Counter({"answered": len(outputs), "not scored (infrastructure error or bound)": len(not_scored)})
    suite = "controlled-140" if "controlled-140" in run["slice"] else "normative-en"
    scenarios = [sc for sc in load_suite(suite) if sc.id in {o.case_id for o in outputs}]
    scored = score_suite(scenarios, outputs, ncr=False) if outputs else []
    agg = aggregate(scored) if scored else {}
    correct = sum(r.correct for r in scored)
    interval = wilson(correct, len(scored)) if scored else None
    metas = [o.meta for o in outputs]
    seconds = [m.latency_ms / 1000 for m in metas if m.latency_ms is not None]
    tokens = [(m.prompt_tokens or 0) + (m.completion_tokens or 0) for m in metas]
    dla: dict[str, list[float]] = defaultdict(list)
    for res, sc in ((r, next(s for s in scenarios if s.id == r.case_id)) for r in scored):
        value = res.metrics.get("DLA")
        if value is not None and value.value is not None and sc.metadata.defect_class is not None:
            dla[sc.metadata.defect_class.value].append(value.value)
    return {
        **({"source": run["source"]} if "source" in run else {}),
        "name": run["name"], "model": run["model"], "config": run["config"], "slice": run["slice"],
        "planned": len(run["cases"]), "finished": len(outputs) + len(not_scored), "outcomes": dict(sorted(outcomes.items())),
        "answered": len(scored), "hard_failures": sum(r.hard_failure for r in scored),
        "shortcuts": sum(r.shortcut for r in scored),
        "scored_rate": (len(scored) - sum(r.hard_failure for r in scored)) / max(1, len(outputs) + len(not_scored)),
        "ASA": correct / len(scored) if scored else None,
        "ASA_ci": None if interval is None else [round(interval.low, 3), round(interval.high, 3)],
        "metrics": {k: (None if v.value is None else round(v.value, 3)) for k, v in sorted(agg.items())},
        "DLA_by_class": {k: round(sum(v) / len(v), 3) for k, v in sorted(dla.items())},
        "seconds_median": round(statistics.median(seconds), 1) if seconds else None,
        "seconds_total": round(sum(seconds)) if seconds else None,
        "tokens_median": int(statistics.median(tokens)) if tokens else None,
        "correct_by_case": {r.case_id: r.correct for r in scored},
        "revision": _revision(results.parent),
    }


def wall_span(workdir: Path, runs: list[dict]) -> float | None:
    """Seconds from the first run's start (its manifest's date) to the last case written (the latest
    ``results.jsonl``), over the runs of ``runs`` that have results: the wall time of a plan run in one
    go; a plan resumed after a pause spans the pause too.  ``None`` without results."""
    from datetime import datetime

    starts, ends = [], []
    for run in runs:
        results = _results(workdir, run)
        if "source" in run or not results.exists():
            continue
        try:
            date = json.loads((results.parent / "manifest.json").read_text(encoding="utf-8"))["date"]
            starts.append(datetime.fromisoformat(date).timestamp())
        except (OSError, ValueError, KeyError, TypeError):
            continue
        ends.append(results.stat().st_mtime)
    return max(ends) - min(starts) if starts else None


def _revision(run_dir: Path) -> str | None:
    """The short git revision in the run's manifest: the code it started with (a resumed run goes on
    with newer code)."""
    try:
        return json.loads((run_dir / "manifest.json").read_text(encoding="utf-8")).get("git_revision", "")[:7] or None
    except (OSError, ValueError, AttributeError):
        return None


def _paired(a: dict, b: dict) -> str:
    from scorer.stats import paired_mcnemar

    common = sorted(set(a["correct_by_case"]) & set(b["correct_by_case"]))
    if not common:
        return "no common cases"
    test = paired_mcnemar([a["correct_by_case"][c] for c in common], [b["correct_by_case"][c] for c in common])
    return f"n={len(common)}, b={test.b}, c={test.c}, exact p={test.pvalue:.3g}"


def _fmt(value) -> str:
    return "—" if value is None else (f"{value:.2f}" if isinstance(value, float) else str(value))


def page(rows: list[dict], missing: list[str] = (), slices: dict[str, list[str]] | None = None,
         ledger: list[str] = (), planned: dict[str, dict] | None = None, span: float | None = None) -> str:
    """docs/results.md from the summarized runs; ``missing`` names the planned runs not started,
    ``slices`` lists each slice's case ids; ``ledger`` holds the optimization section's lines;
    ``planned`` (run name -> run) lets the page estimate the model time of what is left; ``span`` is
    :func:`wall_span`."""
    head = ["# Results of the embedded models", "",
            "Generated by `python benchmarks/local_results.py page` from runs of `paratrace run` "
            "(`python benchmarks/local_results.py run` resumes them, one run at a time). Every figure here "
            "comes from a real "
            "model served by llama.cpp on 127.0.0.1 on a 2-core machine, one thread per server; none comes from an oracle (the "
            "oracle backbones are install checks, see README). A case is *scored* when the model's reply "
            "validated; a reply invalid after the re-asks counts as incorrect; a case stopped by a token or "
            "time bound or an infrastructure error is not scored (see Outcomes per run); "
            "a shortcut (a theory that asserts the target as a fact) counts as incorrect. Intervals are "
            "Wilson 95 %; paired tests are exact McNemar on the cases both runs answered (b: only the "
            "first correct, c: only the second).", ""]
    lines = head + ["| run | model | config | cases | finished | scored (of finished) | shortcuts | ASA [95 % CI] | CLA | "
                    "DLA | TGC | NER | PHA | s/case (median) | tokens/case (median) |",
                    "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for r in rows:
        m = r["metrics"]
        ci = "" if r["ASA_ci"] is None else f" [{r['ASA_ci'][0]:.2f}, {r['ASA_ci'][1]:.2f}]"
        lines.append(f"| {r['slice']} | {r['model']} | {r['config']} | {r['planned']} | {r['finished']} | "
                     f"{r['scored_rate']:.2f} | {r['shortcuts']} | {_fmt(r['ASA'])}{ci} | {_fmt(m.get('CLA'))} | "
                     f"{_fmt(m.get('DLA'))} | {_fmt(m.get('TGC'))} | {_fmt(m.get('NER'))} | {_fmt(m.get('PHA'))} | "
                     f"{_fmt(r['seconds_median'])} | {_fmt(r['tokens_median'])} |")
    own = [r for r in rows if "source" not in r]
    total = sum(r["seconds_total"] or 0 for r in own)
    done = sum(r["finished"] for r in own)
    if done:
        lines += ["", f"The finished runs took {total / 3600:.1f} h of model time for {done} cases "
                      f"({total / done:.0f} s a case); a slice row of the default model on "
                      "normative-en is read from its run on all 85 cases."]
        if span is not None:
            lines += ["", f"From the first run's start to the last case written: {span / 3600:.2f} h of wall time "
                          "(a plan resumed after a pause counts the pause)."]
    lines += ["", "## Paired tests: B4 against B1 on the same cases", ""]
    by_key = {(r["model"], r["slice"], r["config"]): r for r in rows}
    for (model, slice_, config), r in sorted(by_key.items()):
        if config == "b4" and (model, slice_, "b1") in by_key:
            lines.append(f"- {model}, {slice_}: {_paired(by_key[(model, slice_, 'b1')], r)}")
    lines += ["", "## Per-family optimization (B4 and B1)", "", *ledger]
    lines += ["", "## DLA by defect class", ""]
    for r in rows:
        if r["DLA_by_class"]:
            lines.append(f"- {r['model']} {r['config']} {r['slice']}: "
                         + ", ".join(f"{k} {v:.2f}" for k, v in r["DLA_by_class"].items()))
    lines += ["", "## Outcomes per run", ""]
    lines += [f"- {r['name']}: {r['outcomes']}" + (f", started at {r['revision']}" if r.get("revision") else "")
              for r in rows]
    lines += ["", "## Slices", ""]
    lines += [f"- {name}: {', '.join(ids)}" for name, ids in (slices or {}).items()]
    unfinished = [f"{r['name']} ({r['finished']} of {r['planned']})" for r in rows if r["finished"] < r["planned"]]
    lines += ["", "## Not finished", "",
              "Planned runs that have not started, and runs that stopped early "
              "(`python benchmarks/local_results.py run` continues them):", ""]
    lines += [f"- {name}" for name in [*missing, *unfinished]] or ["- none"]
    left = remaining_seconds(rows, planned or {})
    if left is not None and left[0]:
        lines += ["", f"At the medians measured above (same model and configuration; else the model's median over "
                      f"its configurations), what is left takes about {left[0] / 3600:.1f} h on this machine"
                      + (f"; no estimate for {', '.join(left[1])} (no run of that model yet)" if left[1] else "")
                      + "."]
    return "\n".join(lines) + "\n"


def remaining_seconds(rows: list[dict], planned: dict[str, dict]) -> tuple[float, list[str]] | None:
    """Model time the planned cases not yet finished would take, from the measured medians.

    Parameters
    ----------
    rows : list of dict
        The summarized runs (``model``, ``config``, ``finished``, ``seconds_median``).
    planned : dict
        Run name -> planned run (``model``, ``config``, ``cases``), every run of the plan.

    Returns
    -------
    (float, list of str) or None
        Seconds, and the runs no median of their model could estimate; ``None`` without a plan.

    Examples
    --------
    >>> rows = [{"name": "a", "model": "m", "config": "b1", "finished": 2, "seconds_median": 10.0}]
    >>> plan = {"a": {"model": "m", "config": "b1", "cases": [1, 2, 3]},
    ...         "b": {"model": "m", "config": "b4", "cases": [1, 2]}, "c": {"model": "n", "config": "b1", "cases": [1]}}
    >>> remaining_seconds(rows, plan)
    (30.0, ['c'])
    """
    if not planned:
        return None
    done = {r["name"]: r for r in rows}
    own: dict[tuple[str, str], list[float]] = defaultdict(list)
    for r in rows:
        if r.get("seconds_median") is not None and "source" not in r:
            own[(r["model"], r["config"])].append(r["seconds_median"])
    total, unknown = 0.0, []
    for name, run in planned.items():
        left = len(run["cases"]) - (done[name]["finished"] if name in done else 0)
        if left <= 0:
            continue
        same = own.get((run["model"], run["config"])) or [v for (m, _), vs in own.items() if m == run["model"]
                                                           for v in vs]
        if not same:
            unknown.append(name)
            continue
        total += left * statistics.median(same)
    return total, unknown


#: The per-family optimization runs: (model, directory name under <workdir>/optimize-runs, optimizer,
#: budget, extra arguments); the directory name starts with the configuration.  The random-search runs are
#: the programs shipped for the default model (assistant/shipped/, docs/optimize.md).
OPTIMIZE_RUNS = (("local/qwen2.5-coder-0.5b", "b4-qwen2.5-coder-0.5b-labeled-s0", "labeled", "2", ()),
                 ("local/gemma-3-270m", "b4-gemma-3-270m-labeled-s0", "labeled", "2", ()),
                 ("local/qwen2.5-coder-0.5b", "b1-qwen2.5-coder-0.5b-labeled-s0", "labeled", "2", ()),
                 ("local/gemma-3-270m", "b1-gemma-3-270m-labeled-s0", "labeled", "2", ()),
                 ("local/qwen2.5-coder-0.5b", "b4-qwen2.5-coder-0.5b-random-search-s0", "random-search", "1",
                  ("--weights", "ASA=1")),
                 ("local/qwen2.5-coder-0.5b", "b1-qwen2.5-coder-0.5b-random-search-s0", "random-search", "1",
                  ("--weights", "ASA=1")))


def _optimize(workdir: Path, model: str, name: str, optimizer: str, budget: str, extra: tuple[str, ...]) -> int:
    out = workdir / "optimize-runs" / name
    if (out / "evaluation.json").is_file():
        print(f"[local_results] {name}: finished", file=sys.stderr, flush=True)
        return 0
    cmd = [sys.executable, "-c", "from optimize.console import main; main()", "optimize", "--config", name[:2],
           "--model", model, "--optimizer", optimizer, "--budget", budget, "--seed", "0", *extra, "--no-register",
           "--out", str(out), "--force"]
    print(f"[local_results] {name}: {' '.join(cmd[3:])}", file=sys.stderr, flush=True)
    return subprocess.call(cmd)


def _ledger(workdir: Path) -> list[str]:
    from optimize.errors import OptimizeError
    from optimize.ledger import collect_runs, ledger_rows, render_ledger

    try:
        rows = ledger_rows(collect_runs(workdir / "optimize-runs"))
    except OptimizeError:
        return ["No optimization run has finished (`python benchmarks/local_results.py optimize`)."]
    return ["B4 and B1 trained on normative-en's train split and evaluated before and after on its held-out test "
            "split (`paratrace optimize ledger`): `labeled` adds two gold demos per predictor (budget 2, seed 0) on "
            "both families; `random-search` (budget 1, seed 0, objective ASA) picks on the validation split among "
            "the unoptimized program, the gold demos and demos bootstrapped from the model's own correct answers, "
            "and its programs are the ones shipped for the default model (`assistant/shipped/`; B4's pick was the "
            "unoptimized program itself, B1's the two gold demos). The optimization runs are a step of their own "
            "(`optimize`); `run` does not repeat them.", "", render_ledger(rows)]


def main(argv: list[str] | None = None) -> int:
    """The command line."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("step", choices=("plan", "run", "optimize", "page"))
    ap.add_argument("--workdir", type=Path, default=Path(".paratrace-results"))
    ap.add_argument("--slice", type=int, default=6,
                    help="Cases per suite slice (6: the whole page regenerates in under 2 h on 2 cores).")
    ap.add_argument("--seed", type=int, default=7, help="Chooses the slices' cases.")
    ap.add_argument("--only", default=None, help="Only runs whose name contains this.")
    ap.add_argument("--jobs", type=int, default=1, help="Runs at once, each with its own embedded server.")
    ap.add_argument("--out", type=Path, default=Path("docs/results.md"))
    args = ap.parse_args(argv)
    runs = [r for r in plan_runs(args.workdir, args.slice, args.seed) if not args.only or args.only in r["name"]]
    if args.step == "plan":
        print(json.dumps([{k: v for k, v in r.items()} for r in runs], indent=1))
        return 0
    if args.step == "run":
        codes = run_all(args.workdir, runs, args.jobs)
        print(json.dumps({"exit_codes": codes}))
        return 0
    if args.step == "optimize":
        codes = {run[1]: _optimize(args.workdir, *run) for run in OPTIMIZE_RUNS}
        print(json.dumps({"exit_codes": codes}))
        return 0
    summaries = {r["name"]: _summarize(args.workdir, r) for r in runs}
    rows = [row for row in summaries.values() if row is not None]
    missing = [name for name, row in summaries.items() if row is None]
    slices = {r["slice"]: r["cases"] for r in runs if "slice (" in r["slice"]}
    args.out.write_text(page(rows, missing, slices, _ledger(args.workdir),
                                  {r["name"]: r for r in runs}, wall_span(args.workdir, runs)), encoding="utf-8")
    print(json.dumps([{k: v for k, v in r.items() if k != "correct_by_case"} for r in rows], indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
