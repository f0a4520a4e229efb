"""Prompt optimization of the assistant per model family (docs/optimize.md).

Metrics as DSPy objectives (:mod:`optimize.objectives`, feedback from the
trace alignment in :mod:`optimize.feedback`), leak-free splits by scenario
and update-pair cluster (:mod:`experiments.splits`), thin seeded wrappers over
DSPy's optimizers (:mod:`optimize.optimizers`), one run end to end
(:mod:`optimize.run`), saved programs with a manifest
(:mod:`optimize.programs`), the MLflow registry (:mod:`optimize.registry`)
and the before/after ledger with a transfer matrix (:mod:`optimize.ledger`).
:mod:`optimize.tutor` is an offline LM that learns from demos or
instructions, for tests and benchmarks.

The names below are imported on first use, so ``import optimize`` stays light.

Examples
--------
>>> import optimize
>>> optimize.model_family("openai/gpt-4o-mini")
'openai-gpt-4o-mini'
"""

from __future__ import annotations

from importlib import import_module

__all__ = [
    "LoadedProgram",
    "Manifest",
    "Objective",
    "OptimizeError",
    "ProgramLoadError",
    "RunSpec",
    "load_program",
    "log_program",
    "make_optimizer",
    "model_family",
    "registered_name",
    "run_optimization",
    "save_program",
]

_WHERE = {
    "LoadedProgram": "programs", "Manifest": "programs", "load_program": "programs", "model_family": "programs",
    "save_program": "programs", "Objective": "objectives", "OptimizeError": "errors",
    "ProgramLoadError": "errors", "RunSpec": "run", "run_optimization": "run", "log_program": "registry",
    "registered_name": "registry", "make_optimizer": "optimizers",
}


def __getattr__(name: str):
    if name in _WHERE:
        return getattr(import_module(f".{_WHERE[name]}", __name__), name)
    raise AttributeError(f"module 'optimize' has no attribute {name!r}")
