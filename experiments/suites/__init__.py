"""Shipped scenario suites (registry, build, checks); see :mod:`experiments.suites.sources`."""

__all__: list[str] = []
