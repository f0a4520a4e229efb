"""Experiment support for paratrace: shipped scenario suites and their tooling."""

__all__: list[str] = []
