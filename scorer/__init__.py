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
* :mod:`scorer.defects` -- the six defect classes: injection, detection, B4's candidate diff;
* :mod:`scorer.errors` -- the exception hierarchy.
"""

__all__: list[str] = []
