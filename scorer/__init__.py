"""paratrace's scorer: the output contract, deterministic repair, the metrics,
the statistics and the reports (paper Sections 5-6, Appendix A.8).

Importing this package touches no network and no LLM library.  The package
exports no names; each is imported from the one submodule that defines it, so
that the ``paratrace`` command starts without the statistics (statsmodels,
scipy):

* :mod:`scorer.contract` -- the output contract (``OutputRecord``, ``CommonV1``, ``TraceV2``, ``json_schemas``);
* :mod:`scorer.outputs_io` -- ``load_outputs``, ``dump_outputs``;
* :mod:`scorer.repair` -- deterministic repair (``repair_output``, ``repair_record``, ``Repaired``);
* :mod:`scorer.records` -- ``CaseResult``, ``MetricRecord``, ``MetricAggregate``, ``AlignmentRecord``;
* :mod:`scorer.metrics` -- the per-case metrics and their registry ``METRICS``;
* :mod:`scorer.score` -- ``score_case``, ``score_suite``, ``aggregate``;
* :mod:`scorer.summary` -- ``Summary``, ``summarize``;
* :mod:`scorer.stats` -- intervals and tests (Wilson, bootstrap, McNemar, Benjamini-Hochberg);
* :mod:`scorer.report` -- ``write_report``;
* :mod:`scorer.audit` -- the component-dependency audit (paper Table 19);
* :mod:`scorer.ncr` -- normative counterfactual robustness (NCR) and its witnesses;
* :mod:`scorer.operations` -- operational figures of a run (latency, tokens, valid JSON share);
* :mod:`scorer.errors` -- the exception hierarchy.
"""

from importlib import import_module

_LAZY = {
    "Injected": "inject", "gold_output": "inject",
    "LocalizationTable": "localize", "localization_table": "localize", "localize_case": "localize",
}


def __getattr__(name):
    if name in _LAZY:
        value = getattr(import_module(f".{_LAZY[name]}", __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

__all__ = sorted([
    "localize_case",
    "localization_table",
    "LocalizationTable",
    "gold_output",
    "Injected",
])
