"""Bounds on document ingestion: bytes, expanded bytes, text, blocks, fragments,
cross-references and time.

Documents are untrusted input: a 57 KB DOCX can hold 60,000 paragraphs, a 1 MB
one a gigabyte of text, a text file millions of cross-referencing clauses.
Every ingestion runs under a :class:`DocumentLimits`; the first bound a
document crosses stops it with a :class:`DocumentLimitError` naming the file,
the limit (its name and value) and what was found, before the work or the
memory it would take is spent.  The defaults keep the peak memory of one
ingestion well under 1 GB (``benchmarks/ingest.py`` measures it on the bombs)
and are set per process with ``PARATRACE_DOC_<NAME>`` environment variables
(``PARATRACE_DOC_MAX_FILE_BYTES=33554432``), or per call in the Python API.

>>> DocumentLimits().max_blocks
200000
>>> DocumentLimits.from_env({"PARATRACE_DOC_MAX_BLOCKS": "500"}).max_blocks
500
"""

from __future__ import annotations

import dataclasses
import os
import time
from dataclasses import dataclass
from typing import Mapping

from ..errors import ConfigurationError
from .errors import DocumentError

__all__ = ["BYTE_LIMITS", "Deadline", "DocumentLimitError", "DocumentLimits", "ENV_PREFIX"]

ENV_PREFIX = "PARATRACE_DOC_"
#: Limits on sizes in bytes (HTTP 413 in the service); the others are 422.
BYTE_LIMITS = frozenset({"max_file_bytes", "max_total_bytes", "max_expanded_bytes"})


class DocumentLimitError(DocumentError):
    """A document over one of the :class:`DocumentLimits`.

    Parameters
    ----------
    file : str
        The document's name.
    limit : str
        The limit's name (``max_blocks``).
    value : int or float
        The limit's value.
    found : str
        What the document holds (``more than 200000 paragraphs``).
    """

    def __init__(self, file: str, limit: str, value, found: str):
        self.file, self.limit, self.value = file, limit, value
        env = ENV_PREFIX + limit.upper()
        super().__init__(f"{file}: {found}, over the limit {limit} = {value} (set {env} to change it)")


@dataclass(frozen=True, slots=True)
class DocumentLimits:
    """The bounds of one ingestion.

    Attributes
    ----------
    max_file_bytes : int
        Bytes of one document file (16 MiB).
    max_total_bytes : int
        Bytes of all documents of one ingestion (32 MiB).
    max_expanded_bytes : int
        Bytes a DOCX (all members of its zip archive) may expand to, checked on
        the archive's directory before anything is decompressed, and read with
        that bound (64 MiB).
    max_text_chars : int
        Characters of one document's extracted text (16,000,000).
    max_blocks : int
        Blocks (paragraphs, table rows, PDF lines) of one document (200,000).
    max_fragments : int
        Fragments (clauses) of one ingestion (100,000).
    max_cross_refs : int
        Resolved cross-references of one ingestion (1,000,000).
    max_seconds : float
        Wall-clock seconds of one ingestion (60).
    max_concurrent_ingestions : int
        Requests with documents that ``paratrace serve`` ingests at once (2;
        never more than half its workers); the next one is answered 503 with
        ``Retry-After``.  Ingestion is Python work under one interpreter lock,
        so more at once finish no sooner: each only takes longer and holds its
        memory longer (8 at once on a 16-worker service: every one 504 at the
        request timeout, 2.2 GB peak RSS).
    """

    max_file_bytes: int = 16 * 1024 * 1024
    max_total_bytes: int = 32 * 1024 * 1024
    max_expanded_bytes: int = 64 * 1024 * 1024
    max_text_chars: int = 16_000_000
    max_blocks: int = 200_000
    max_fragments: int = 100_000
    max_cross_refs: int = 1_000_000
    max_seconds: float = 60.0
    max_concurrent_ingestions: int = 2

    def __post_init__(self):
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0:
                raise ConfigurationError(f"document limit {f.name} must be a positive number, got {value!r}")

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> "DocumentLimits":
        """The defaults, with every ``PARATRACE_DOC_<NAME>`` variable of ``environ`` applied.

        Raises
        ------
        ConfigurationError
            For a variable that names no limit or holds no positive number.
        """
        environ = os.environ if environ is None else environ
        names = {f.name: f for f in dataclasses.fields(cls)}
        values = {}
        for key, text in environ.items():
            if not key.startswith(ENV_PREFIX):
                continue
            name = key[len(ENV_PREFIX):].lower()
            if name not in names:
                raise ConfigurationError(f"${key}: no such document limit; the limits are "
                                         + ", ".join(ENV_PREFIX + n.upper() for n in names))
            try:
                values[name] = float(text) if name == "max_seconds" else int(text)
            except ValueError:
                values[name] = None
            if values[name] is None or not values[name] > 0:
                raise ConfigurationError(f"${key}: expected a positive number, got {text!r}")
        return cls(**values)


class Deadline:
    """The time bound of one ingestion, checked between units of work.

    Parameters
    ----------
    limits : DocumentLimits
    clock : callable, optional
        Monotonic seconds (tests pass a fake clock).
    until : float, optional
        An earlier end on ``clock`` (a service request's own timeout): the
        work stops there too, so nothing goes on after the request was
        answered.
    """

    def __init__(self, limits: DocumentLimits, clock=time.monotonic, *, until: float | None = None):
        self.limits, self.clock = limits, clock
        own = clock() + limits.max_seconds
        self.by_request = until is not None and until < own
        self.until = until if self.by_request else own

    def check(self, file: str, doing: str) -> None:
        """Raise :class:`DocumentLimitError` once the time is spent.

        Parameters
        ----------
        file : str
            The document being worked on.
        doing : str
            What was being done (``reading paragraphs``), for the message.
        """
        if self.clock() <= self.until:
            return
        if self.by_request:
            raise DocumentLimitError(file, "max_seconds", self.limits.max_seconds,
                                     f"{doing} outlasted the request's timeout")
        raise DocumentLimitError(file, "max_seconds", self.limits.max_seconds,
                                 f"{doing} took longer than {self.limits.max_seconds:g} s")
