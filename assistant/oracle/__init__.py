"""Oracle backbones for tests and installation checks (docs/metrics.md B8).

:class:`OracleServer` serves an OpenAI-compatible chat-completions endpoint on
127.0.0.1 that answers each configuration's prompts from the gold analysis of
the suite case named by the prompt; with ``noise`` it corrupts a seeded share
of its answers in the ways the paper reports.  ``paratrace oracle serve``
starts one from the command line.
"""

from __future__ import annotations

from .answers import CORRUPTIONS, Corruption, corrupt, gold_reply
from .prompts import OUTPUT_KINDS, Prompt, read_prompt
from .server import Oracle, OracleServer

__all__ = [
    "CORRUPTIONS",
    "Corruption",
    "OUTPUT_KINDS",
    "Oracle",
    "OracleServer",
    "Prompt",
    "corrupt",
    "gold_reply",
    "read_prompt",
]
