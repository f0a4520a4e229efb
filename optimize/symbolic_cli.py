"""The commands of the symbolic library: ``paratrace status``, ``validate``, ``schema`` and
``import-peer``.

``status`` evaluates scenarios and explains the result, ``validate`` checks suites (optionally
against the engine), ``schema`` prints JSON Schemas and ``import-peer`` converts the peer corpus.
They sit at the composition root with the other packages' commands (:func:`register` adds them to
the group of :mod:`optimize.root`, whose error handling turns a bad input into exit code 2 and one
line on stderr); ``symbolic`` itself holds the library they call: the engine, the suites and the
trace writers (text, :mod:`symbolic.traces.text`; JSON lines and DOT, :mod:`optimize.status_outputs`).
Like every command module they import what they need inside the commands, so ``paratrace status``
loads neither DSPy nor the statistics.
"""

from __future__ import annotations

import json
import sys
import warnings
from enum import Enum
from pathlib import Path
from typing import Optional

import typer

from symbolic.support.collector import collected_between, gc_paused
from symbolic.errors import ParatraceError, PriorityCycleWarning, ScenarioError

__all__ = ["app", "register"]


def _one_line(text: str) -> str:
    """One line with control sequences escaped (a file name cannot drive the terminal)."""
    from symbolic.support.textsafe import one_line

    return one_line(text)


app = typer.Typer(name="paratrace", add_completion=False)
"""The symbolic commands alone; :func:`register` adds them to the composed ``paratrace`` group."""


class Format(str, Enum):
    """Output formats of ``paratrace status``."""

    TEXT = "text"
    JSON = "json"
    DOT = "dot"


class Which(str, Enum):
    """Which analysis of a scenario to evaluate."""

    GOLD = "gold"
    CANDIDATE = "candidate"


def _evaluate(scenario, analysis):
    from symbolic.engine.status import evaluate_analysis

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PriorityCycleWarning)
        return evaluate_analysis(scenario.evidence_ids(), analysis, scenario.target)


def _select(scenarios, case: str | None, file: Path):
    if case is None:
        return scenarios
    chosen = [s for s in scenarios if s.id == case.strip()]
    if not chosen:
        known = ", ".join(s.id for s in scenarios[:10]) + (", ..." if len(scenarios) > 10 else "")
        raise ScenarioError(f"no case {case!r} (cases: {known})", file=str(file), value=case)
    return chosen


class Defeats(str, Enum):
    """How ``paratrace status --format json|dot`` writes defeat edges."""

    AUTO = "auto"
    EDGES = "edges"
    SUMMARY = "summary"


class Attacks(str, Enum):
    """How ``paratrace status --format json`` writes attack edges."""

    AUTO = "auto"
    EDGES = "edges"
    COLUMNS = "columns"


def _write(chunks) -> None:
    """Stream UTF-8 pieces to stdout (its binary buffer when it has one)."""
    out = sys.stdout
    out.flush()
    raw = getattr(out, "buffer", None)
    for chunk in chunks:
        if raw is not None:
            raw.write(chunk)
        else:
            out.write(chunk.decode("utf-8"))
    (raw or out).flush()


@app.command()
def status(
    file: Path = typer.Argument(..., help="A JSONL suite, or a .json file holding one scenario."),
    case: Optional[str] = typer.Option(None, "--case", "-c", help="Only this case id."),
    fmt: Format = typer.Option(Format.TEXT, "--format", "-f", help="text, json (TNF trace) or dot."),
    analysis: Which = typer.Option(Which.GOLD, "--analysis", help="Evaluate the gold or the candidate analysis."),
    defeats: Defeats = typer.Option(Defeats.AUTO, "--defeats",
                                    help="json and dot: defeat edges one by one (edges), as defeat sets "
                                         "(summary), or summary only for traces with very many defeat "
                                         "edges (auto)."),
    attacks: Attacks = typer.Option(Attacks.AUTO, "--attacks",
                                    help="json: attack edges one by one (edges), as columns with defeat sets "
                                         "(columns), or columns only for traces with very many attack edges "
                                         "(auto)."),
) -> None:
    """Compute and explain the status of each scenario (or one case)."""
    if attacks is Attacks.COLUMNS and (fmt is not Format.JSON or defeats is Defeats.EDGES):
        raise typer.BadParameter("columns is a form of --format json with defeat sets (not with --defeats edges)",
                                 param_hint="--attacks")
    import gc

    from symbolic.suites.io import load_suite

    with gc_paused():  # what is loaded lives until the end: frozen, the collector never walks it
        scenarios = _select(load_suite(file), case, file)
        gc.freeze()
    chosen = []
    for scenario in scenarios:
        picked = scenario.gold if analysis is Which.GOLD else scenario.candidate
        if picked is None:
            raise ScenarioError(f"case {scenario.id!r} has no candidate analysis", file=str(file),
                                field="candidate")
        chosen.append((scenario, picked))
    chosen = collected_between(chosen)  # the collector runs between two scenarios, not within one
    try:
        if fmt is Format.TEXT:
            from rich.console import Console

            from symbolic.traces.text import render_text

            console = Console(highlight=False)
            for scenario, picked in chosen:
                render_text(console, scenario, _evaluate(scenario, picked), analysis=analysis.value)
        elif fmt is Format.JSON:
            from optimize.status_outputs import iter_traces_json_bytes

            _write(iter_traces_json_bytes(chosen, defeats=defeats.value, attacks=attacks.value))
        else:
            from optimize.status_outputs import iter_traces_dot_bytes

            _write(iter_traces_dot_bytes(chosen, defeats=defeats.value))
    finally:
        chosen.close()  # the collector's state restored, also after an error


def _gold_problems(scenario, line: int, file: str) -> list[str]:
    from optimize.status_outputs import trace_disagreement

    evaluation = _evaluate(scenario, scenario.gold)
    where = f"{file}:{line}: case {scenario.id!r}"
    problems = []
    if evaluation.status is not scenario.gold.status:
        problems.append(f"{where}: gold status is {scenario.gold.status.value} but the engine computes "
                        f"{evaluation.status.value}")
    if scenario.gold.trace is not None:
        reason = trace_disagreement(scenario, evaluation)  # the engine runs again only if the collapse changes the theory
        if reason:
            problems.append(f"{where}: gold trace is not TNF-equivalent to the recomputed trace ({reason})")
    return problems


UNGROUNDED_TAG = "ungrounded-gold"


def _citation_problems(scenario, line: int, file: str) -> list[str]:
    """Gold objects citing a fragment that is not in the package: an authoring error unless the case
    declares, with the metadata tag ``ungrounded-gold``, that it exercises the grounding rule
    (docs/semantics.md section 2: such objects are dropped)."""
    if UNGROUNDED_TAG in scenario.metadata.tags:
        return []
    known = scenario.evidence_ids()
    problems = []
    for kind in ("facts", "rules", "priorities", "attacks"):
        objs = getattr(scenario.gold, kind, ()) or ()
        for i, evidence in enumerate(obj.evidence for obj in objs):
            for j, cited in enumerate(evidence):
                if cited not in known:
                    problems.append(f"{file}:{line}: case {scenario.id!r}, field gold.{kind}.{i}.evidence.{j}: "
                                    f"cites fragment {cited!r}, which is not in the evidence package (the "
                                    f"engine drops the object as ungrounded; tag the case {UNGROUNDED_TAG!r} "
                                    "if that is intended)")
    return problems


@app.command()
def validate(
    files: list[Path] = typer.Argument(..., help="JSONL suites or .json scenario files."),
    check_gold: bool = typer.Option(False, "--check-gold", help="Recompute every status (and trace) and compare with gold."),
) -> None:
    """Check suites: exit 0 when all are valid, 2 otherwise, one line per problem on stderr.

    Besides the schema, every gold object must cite fragments of its own
    evidence package (unless the case is tagged ``ungrounded-gold``).
    """
    from symbolic.suites.io import check_suite

    failed = False
    for file in files:
        check = check_suite(file)
        problems = [_one_line(err) for err in check.errors]
        for line, scenario in check.scenarios:
            problems += _citation_problems(scenario, line, str(file))
        if check_gold:
            for line, scenario in check.scenarios:
                try:
                    problems += _gold_problems(scenario, line, str(file))
                except ParatraceError as exc:
                    problems.append(f"{file}:{line}: case {scenario.id!r}: {_one_line(exc)}")
        for problem in problems:
            typer.echo(f"paratrace: error: {problem}", err=True)
        if problems:
            failed = True
        else:
            agree = ", gold agrees with the engine" if check_gold else ""
            typer.echo(f"{file}: {len(check.scenarios)} scenarios valid{agree}")
    if failed:
        raise typer.Exit(2)


def _schemas(context) -> dict:
    """The scenario's schema, and those the composing root hands in (``ctx.obj.schemas``)."""
    from symbolic.suites.io import scenario_json_schema

    schemas = {"scenario": scenario_json_schema}
    more = getattr(context, "schemas", None)
    if more is not None:
        for name in more():
            schemas.setdefault(name, lambda name=name: more()[name])
    return schemas


@app.command()
def schema(
    ctx: typer.Context,
    name: str = typer.Argument("scenario", help="scenario, or a contract schema such as common-v1 or trace-v2."),
    output: Optional[Path] = typer.Option(None, "--output", "-o", help="Write to this file instead of stdout."),
) -> None:
    """Print a JSON Schema (draft 2020-12 where our own)."""
    from symbolic.suites.io import write_atomic

    schemas = _schemas(ctx.obj)
    if name not in schemas:
        raise ScenarioError(f"unknown schema {name!r}; available: {', '.join(sorted(schemas))}", value=name)
    text = json.dumps(schemas[name](), indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    if output is None:
        typer.echo(text, nl=False)
    else:
        write_atomic(output, text.encode("utf-8"))
        typer.echo(f"wrote the {name} schema to {output}", err=True)


@app.command("import-peer")
def import_peer(
    file: Path = typer.Argument(..., help="A peer corpus JSONL file (thecontrey/neuro_symbolic format)."),
    output: Path = typer.Option(..., "--output", "-o", help="The scenario suite (JSONL) to write."),
) -> None:
    """Convert peer corpus records into a scenario suite (docs/semantics.md section 9)."""
    from collections import Counter

    from symbolic.suites.io import dump_suite
    from symbolic.suites.peer import import_peer_file

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PriorityCycleWarning)
        scenarios = import_peer_file(file)
    digest = dump_suite(scenarios, output)
    counts = Counter(s.gold.status.value for s in scenarios)
    summary = ", ".join(f"{k} {counts[k]}" for k in ("accepted", "rejected", "both", "undecidable"))
    typer.echo(f"wrote {len(scenarios)} scenarios to {output} ({summary}; sha256 {digest[:16]})")


def register(root: typer.Typer) -> None:
    """Add the symbolic commands (status, validate, schema, import-peer) to ``root``.

    Parameters
    ----------
    root : typer.Typer
        The ``paratrace`` group (:func:`optimize.root.new_app`).
    """
    root.registered_commands.extend(app.registered_commands)
