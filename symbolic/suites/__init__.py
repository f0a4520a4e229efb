"""Suite files: the bounded reader of JSON and JSONL, the scenario loader and writer, the peer
corpus importer.

This package exports no names: import each from its module.
"""

__all__: list[str] = []
