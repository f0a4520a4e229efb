"""Prompt optimization of the assistant per model family (issue 7).

Metrics as DSPy objectives (:mod:`optimize.objectives`), leak-free splits by
scenario and update-pair cluster (:mod:`optimize.splits`), thin wrappers over
DSPy's optimizers (:mod:`optimize.optimizers`), saved programs with a manifest
(:mod:`optimize.programs`), the MLflow registry (:mod:`optimize.registry`) and
the before/after ledger (:mod:`optimize.ledger`).

The package imports nothing heavy at import time; import the submodules.
"""

__all__: list[str] = []
