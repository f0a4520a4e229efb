"""The scenario model and its validation: literals, labels, the objects of an analysis (facts, rules,
priorities, attack edges, long lists kept as columns), the scenario record, the paper's example.

This package exports no names: import each from its module.
"""

__all__: list[str] = []
