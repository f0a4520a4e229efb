"""``paratrace suite``: list, show, stats, check and build the shipped suites.

:func:`register` adds the ``suite`` group to the root app of
:mod:`optimize.root`.  Bad input raises a :class:`~symbolic.errors.ParatraceError`,
which the root app turns into exit code 2 and one line on stderr.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Optional

import typer

__all__ = ["register", "suite_app"]

suite_app = typer.Typer(name="suite", no_args_is_help=True, add_completion=False,
                        help="The shipped scenario suites: list, show, stats, check, build.")

_FILE = typer.Option(None, "--file", help="Read the suite from this JSONL file instead of the shipped one.")


def _load(name: str, file: Optional[Path]):
    from .suites.registry import load_suite

    return load_suite(name, file=file)


@suite_app.command("list")
def list_command() -> None:
    """The registered suites: name, size, status and card."""
    from .suites.registry import SUITES

    for name in sorted(SUITES):
        info = SUITES.entry(name).metadata
        if info["shipped"] and info["path"].is_file():
            size = f"{sum(1 for line in info['path'].open(encoding='utf-8') if line.strip())} cases"
        else:
            size = "not shipped" if not info["shipped"] else "not built"
        typer.echo(f"{name:<16} v{info['version']:<3} {size:<12} {info['description']}")
        typer.echo(f"{'':<21}build: {info['build']}; card: {info['card'].name}")


@suite_app.command("show")
def show_command(
    name: str = typer.Argument(..., help="Suite name (see `paratrace suite list`)."),
    case: Optional[str] = typer.Option(None, "--case", "-c", help="Render this case in full."),
    file: Optional[Path] = _FILE,
) -> None:
    """Without --case: one line per case; with --case: fragments, gold objects, trace and status."""
    from rich.console import Console

    from .errors import SuiteError
    from .suites.render import render_case

    scenarios = _load(name, file)
    if case is None:
        for s in scenarios:
            meta = s.metadata
            extra = meta.defect_class.value if meta.defect_class else (meta.domain.value if meta.domain else "-")
            typer.echo(f"{s.id:<40} {s.gold.status.value:<12} {extra:<20} {s.target}")
        return
    chosen = [s for s in scenarios if s.id == case]
    if not chosen:
        near = sorted(s.id for s in scenarios if case.split("-")[0] in s.id)[:5]
        hint = f"; similar ids: {', '.join(near)}" if near else ""
        raise SuiteError(f"suite {name!r} has no case {case!r}{hint}")
    render_case(Console(highlight=False), chosen[0])


@suite_app.command("stats")
def stats_command(
    name: str = typer.Argument(..., help="Suite name."),
    as_json: bool = typer.Option(False, "--json", help="Print the counts as one JSON object."),
    file: Optional[Path] = _FILE,
) -> None:
    """Counts by category, status, flags, tags, defect class and update pairs."""
    from .suites.registry import get_suite
    from .suites.stats import suite_stats, unmet_targets

    stats = suite_stats(_load(name, file))
    data = stats.as_dict()
    if as_json:
        typer.echo(json.dumps(data, sort_keys=True))
        return
    total = max(stats.total, 1)
    typer.echo(f"{name}: {stats.total} cases, {stats.fragments[0]}-{stats.fragments[1]} fragments each")
    for title, key in (("category", "domains"), ("status", "statuses"), ("defect class", "defects"),
                       ("priority basis", "priority_bases"), ("tag", "tags")):
        if data[key]:
            typer.echo(f"  by {title}: " + ", ".join(f"{k} {v}" for k, v in data[key].items()))
    typer.echo(f"  contradiction flag: {stats.contradiction} ({stats.contradiction / total:.0%}); "
               f"priority flag: {stats.priority} ({stats.priority / total:.0%})")
    typer.echo(f"  update pairs: {stats.pairs} ({stats.pairs_changed} change the gold status)")
    if get_suite(name).metadata["targets"]:
        unmet = unmet_targets(stats)
        typer.echo("  corpus targets: " + ("all met" if not unmet else "NOT met: " + "; ".join(unmet)))


@suite_app.command("check")
def check_command(
    name: str = typer.Argument(..., help="Suite name."),
    file: Optional[Path] = _FILE,
) -> None:
    """Gold consistency, metadata and annotation smells; exit 2 on any finding."""
    from .errors import SuiteCheckError
    from .suites.checks import check_scenarios
    from .suites.registry import get_suite

    scenarios = _load(name, file)
    findings = check_scenarios(scenarios, **get_suite(name).metadata["checks"])
    for finding in findings:
        typer.echo(f"paratrace: {finding}", err=True)
    if findings:
        raise SuiteCheckError(name, findings)
    typer.echo(f"{name}: {len(scenarios)} cases, no findings")


@suite_app.command("build")
def build_command(
    name: str = typer.Argument(..., help="normative-en, controlled-140 or peer."),
    output: Optional[Path] = typer.Option(None, "--output", "-o", help="Write here instead of the registered path."),
    source: Optional[Path] = typer.Option(None, "--from", help="peer: the peer corpus JSONL (required); "
                                          "controlled-140: the corpus to generate from."),
    seed: int = typer.Option(140, "--seed", help="Seed of the controlled suite."),
) -> None:
    """Rebuild a suite deterministically (same inputs, same bytes)."""
    from .suites.build import build_suite

    result = build_suite(name, output=output, source=source, seed=seed)
    typer.echo(f"wrote {result.count} cases to {result.path} (sha256 {result.sha256[:16]})")


def register(app: typer.Typer) -> None:
    """Add the ``suite`` group to the root ``paratrace`` app."""
    app.add_typer(suite_app, name="suite")
