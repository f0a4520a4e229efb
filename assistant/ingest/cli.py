"""``paratrace ingest``: documents to an evidence package file.

:func:`register` adds the command to the root app of :mod:`optimize.root`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

__all__ = ["register"]


def register(app: typer.Typer) -> None:
    """Add ``ingest`` to ``app``."""

    @app.command("ingest")
    def ingest_command(
        documents: list[Path] = typer.Argument(..., help="PDF (text layer), DOCX, HTML, Markdown, text or .eml files."),
        output: Optional[Path] = typer.Option(None, "--output", "-o", help="Package JSON to write (default stdout)."),
        query: Optional[str] = typer.Option(None, "--query", "-q",
                                            help="Select fragments for this question (and store it)."),
        target: Optional[str] = typer.Option(None, "--target", help="The proposition asked about, as a literal."),
        budget: Optional[int] = typer.Option(None, "--budget", min=1,
                                             help="Evidence token budget for --query (default 2000)."),
    ) -> None:
        """Cut documents into clause-level evidence fragments (ids, hashes, clauses, pages, offsets).

        The package is what 'paratrace ask --evidence' reads.  With --query the
        fragments are selected for the question within the budget and the
        selection (kept, left out, why) is recorded in the package.
        """
        from .package import ingest
        from .run import prepare_package
        from .select import DEFAULT_BUDGET

        if budget is not None and not query:
            from ..errors import ConfigurationError

            raise ConfigurationError("--budget selects fragments for a question: pass --query too")
        from symbolic.support.collector import gc_paused

        with gc_paused():  # the command's policy: what it builds lives until it is written, no collector pass over it
            package = ingest(documents, target=target)
            if query:
                prepared = prepare_package(query, package, budget=budget or DEFAULT_BUDGET, target=target)
                package = prepared.package.model_copy(update={"fragments": prepared.fragments})
            text = package.to_json() + "\n"
        if output is None:
            typer.echo(text, nl=False)
        else:
            from symbolic.support.fsio import write_atomic

            from .errors import DocumentError

            write_atomic(output, text, error=DocumentError)
            kept = len(package.fragments)
            from symbolic.support.textsafe import one_line

            typer.echo(one_line(f"{output}: {kept} fragment(s) from {len(package.documents)} document(s)"), err=True)
