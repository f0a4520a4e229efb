"""The trace and its writers: names of nodes, the trace graph, the trace normal form (Section 4.3,
Algorithm 4: serialized records, alias collapse, canonical ids), TNF JSON, DOT.

This package exports no names: import each from its module.
"""

__all__: list[str] = []
