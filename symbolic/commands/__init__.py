"""The symbolic commands of ``paratrace`` (status, validate, schema, import-peer) and the command
group every package's commands join (composed in :mod:`optimize.root`).

This package exports no names: import each from its module.
"""

__all__: list[str] = []
