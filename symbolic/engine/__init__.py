"""The engine: grounding, arguments (Definition 1), attacks (Definition 2), the priority order
(Definition 3), neutralization (Definition 4), the grounded labelling (Algorithm 1) and the
four-valued status (Definition 5).

This package exports no names: import each from its module.
"""

__all__: list[str] = []
