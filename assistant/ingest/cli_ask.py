"""The document half of ``paratrace ask``: ``--doc`` ingestion and selection,
an ingested ``--evidence`` package's selection, and the outputs that carry
the evidence read (JSON with the selection, text with a selection summary,
the HTML page)."""

from __future__ import annotations

import json
from pathlib import Path

import typer

__all__ = ["documents_evidence", "emit_documents_answer"]


def documents_evidence(query: str, evidence: Path | None, docs, budget: int | None, target: str | None):
    """Ingest ``docs`` (or read an ingested ``evidence`` package) and select for ``query``.

    Returns ``None`` for a hand-written evidence package (used as it is).
    """
    from .package import FORMAT, IngestedPackage
    from .run import prepare, prepare_package
    from .select import DEFAULT_BUDGET

    budget = budget or DEFAULT_BUDGET
    if docs:
        return prepare(query, docs, budget=budget, target=target)
    from symbolic.suites._jsonread import parse_json
    from symbolic.errors import ScenarioError
    from symbolic.support.fsio import read_bytes

    try:  # read as load_package reads it: strictly, a leading BOM ignored
        data = parse_json(read_bytes(evidence, max_bytes=64 * 1024 * 1024, error=ScenarioError), file=str(evidence))
    except ScenarioError as exc:
        from ..errors import InputLimitError

        raise InputLimitError(f"evidence package {exc}") from None
    if isinstance(data, dict) and data.get("format") == FORMAT:
        from pydantic import ValidationError

        from .errors import DocumentError

        try:
            package = IngestedPackage.model_validate(data)
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(x) for x in first["loc"])
            raise DocumentError(f"{evidence}: field {where}: {first['msg']}") from None
        return prepare_package(query, package, budget=budget, target=target)
    return None


def _selection_lines(selection: dict) -> list[str]:
    lines = [f"evidence: {len(selection['kept'])} fragment(s) kept, {len(selection['left_out'])} left out "
             f"({selection['kept_tokens']} of {selection['total_tokens']} tokens, budget {selection['budget_tokens']})"]
    lines += [f"  left out {x['id']}: {x['reason']}" for x in selection["left_out"][:20]]
    if len(selection["left_out"]) > 20:
        lines.append(f"  ... and {len(selection['left_out']) - 20} more")
    return lines


def emit_documents_answer(result, prepared, fmt: str, fragments=None, query: str | None = None) -> None:
    """Print ``result`` in ``fmt`` with the evidence ``prepared`` (may be ``None``) or ``fragments``."""
    from ..render import render_dot, render_text

    if fmt == "html":
        from ..render_html import render_html

        typer.echo(render_html(result, prepared, fragments, query=query), nl=False)
    elif fmt == "json":
        body = {"record": result.record.to_dict(), "evidence": prepared.summary()}
        typer.echo(json.dumps(body, ensure_ascii=False, sort_keys=True))
    elif fmt == "dot":
        typer.echo(render_dot(result), nl=False)
    else:
        from symbolic.support.redact import redact_text
        from symbolic.support.textsafe import escape_controls

        text = render_text(result) + "\n".join(_selection_lines(prepared.selection)) + "\n"
        typer.echo(escape_controls(redact_text(text), keep="\n\t"), nl=False)
