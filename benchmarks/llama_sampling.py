"""Grammar-constrained greedy decoding on the embedded model: llama-cpp-python's
own sampler chain (grammar over the whole 262k vocabulary at every token)
against :class:`assistant.llama_sampling.VerifyFirstSampler`, in one process,
on the B4 extraction schema; plus the memory of ``logits_all`` on and off.

Prints JSON: per sampler the first run and the median of ``--repeats`` runs
(seconds, tokens per second), the ratio, and whether both produced the same
text (they must).  Needs the optional extra ``local``.  Not a test.

Usage::

    python benchmarks/llama_sampling.py [--repeats 3] [--tokens 120] [--threads 1]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

# Run as a script, benchmarks/ is first on sys.path and benchmarks/assistant.py would shadow the package.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

__all__ = ["main"]

PROMPT = ("Extract the facts and rules as JSON. Evidence: E-01 Clause 7.1: a delay in delivery makes the "
          "supplier liable to a penalty. E-02 Clause 7.4: no penalty is due for a delay caused by force "
          "majeure. E-03 The delivery was late because of a flood.\n")


def _rss_mb() -> float:
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024.0
    return 0.0


def _run(llm, grammar_json: str, tokens: int) -> tuple[float, str, int]:
    from llama_cpp import LlamaGrammar

    grammar = LlamaGrammar.from_json_schema(grammar_json, verbose=False)
    started = time.perf_counter()
    out = llm.create_completion(PROMPT, max_tokens=tokens, temperature=0.0, repeat_penalty=1.1, grammar=grammar)
    return time.perf_counter() - started, out["choices"][0]["text"], out["usage"]["completion_tokens"]


def main(argv: list[str] | None = None) -> int:
    """Measure both samplers and print JSON."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--tokens", type=int, default=120)
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args(argv)
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "true")

    from llama_cpp import Llama

    from assistant import llama_sampling
    from assistant.adapter import response_model_for
    from assistant.local_llm import model_path
    from assistant.signatures import ExtractTheory

    schema = json.dumps(response_model_for(ExtractTheory).model_json_schema())
    before = _rss_mb()
    llm = Llama(str(model_path()), n_ctx=2048, n_threads=args.threads, verbose=False)
    loaded = _rss_mb()
    original = Llama._init_sampler
    results, texts = {}, {}
    for name in ("library_chain", "verify_first"):
        if name == "verify_first":
            llama_sampling.install()
        runs = [_run(llm, schema, args.tokens) for _ in range(args.repeats)]
        Llama._init_sampler = original
        seconds = [r[0] for r in runs]
        texts[name] = runs[0][1]
        results[name] = {"first_s": round(seconds[0], 2), "median_s": round(statistics.median(seconds), 2),
                         "tokens": runs[0][2],
                         "tokens_per_s_median": round(runs[0][2] / statistics.median(seconds), 1)}
    del llm
    logits_all = Llama(str(model_path()), n_ctx=2048, n_threads=args.threads, verbose=False, logits_all=True)
    with_all = _rss_mb()
    del logits_all
    print(json.dumps({
        "benchmark": "llama_sampling", "threads": args.threads, "repeats": args.repeats, "max_tokens": args.tokens,
        **results,
        "speedup_median": round(results["library_chain"]["median_s"] / results["verify_first"]["median_s"], 2),
        "same_text": texts["library_chain"] == texts["verify_first"],
        "rss_mb": {"before_load": round(before), "model_logits_all_off": round(loaded),
                   "plus_model_logits_all_on_n_ctx_2048": round(with_all)},
    }, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
