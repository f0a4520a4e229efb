"""Prompt optimization of the assistant per model family (docs/optimize.md),
and the composition root of the ``paratrace`` command (:mod:`optimize.root`).

The package exports no names; each is imported from the one submodule that
defines it, so that ``import optimize`` stays light:

* :mod:`optimize.objectives` -- the metrics as DSPy objectives (``Objective``), with feedback from the
  trace alignment in :mod:`optimize.feedback`;
* :mod:`optimize.optimizers` -- thin seeded wrappers over DSPy's optimizers and their registry
  ``OPTIMIZERS`` (``make_optimizer``);
* :mod:`optimize.run` -- one run end to end (``RunSpec``, ``run_optimization``);
* :mod:`optimize.programs` -- writing saved programs (``save_program``) and loading them from a
  directory or the MLflow registry (``load_program``); the format is :mod:`assistant.programs`'s;
* :mod:`optimize.registry` -- the MLflow model registry (``log_program``, ``registered_name``);
* :mod:`optimize.ledger` -- the before/after ledger with a transfer matrix;
* :mod:`optimize.tutor` -- an offline LM that learns from demos or instructions, for tests and
  benchmarks;
* :mod:`optimize.errors` -- ``OptimizeError``, ``ProgramLoadError``;
* :mod:`optimize.serve` -- serving the assistant over HTTP.
* :mod:`optimize.console` -- the ``paratrace`` console script (thread defaults, then :mod:`optimize.root`).

Leak-free splits by scenario and update-pair cluster are in :mod:`experiments.splits`.

Examples
--------
>>> from optimize.programs import model_family
>>> model_family("openai/gpt-4o-mini")
'openai-gpt-4o-mini'
"""

__all__: list[str] = []
