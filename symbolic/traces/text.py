"""The text writer: an evaluation rendered for ``paratrace status`` (rich tables).

Shows, for one scenario: the status with ``s(p)``/``a(p)`` and the gold
status, the grounded labelling of every argument, the attacks (active, or
defeated together with the priority of ``P+`` that neutralized them,
Definition 4), unresolved priority cycles (Definition 3) and the objects
the parser-validator dropped as ungrounded, with the reason.
"""

from __future__ import annotations

from typing import Iterator

from rich.console import Console, Group
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from symbolic.engine.results import KINDS, AttackTable, Evaluation, Label
from symbolic.scenario.labels import Status
from symbolic.scenario.model import Scenario

__all__ = ["STATUS_STYLE", "TABLE_LIMIT", "evaluation_renderable", "render_text"]

TABLE_LIMIT = 2000
_CHUNK = 1 << 14

STATUS_STYLE = {
    Status.ACCEPTED: "bold green",
    Status.REJECTED: "bold red",
    Status.BOTH: "bold magenta",
    Status.UNDECIDABLE: "bold yellow",
}
_LABEL_STYLE = {Label.IN: "green", Label.OUT: "red", Label.UNDEC: "yellow"}


def _derivation(arg) -> str:
    if arg.fact is not None:
        return f"fact {arg.fact}"
    subs = ", ".join(arg.subs)
    rule = f"{arg.top_rule} (defeater)" if arg.defeater else arg.top_rule
    return f"{rule} from {subs}" if subs else f"{rule}"


def _arguments_table(evaluation: Evaluation) -> Table:
    table = Table(title="Grounded labelling (Algorithm 1)", title_justify="left", expand=False)
    for name in ("argument", "conclusion", "derivation", "label"):
        table.add_column(name, overflow="fold")
    labels = evaluation.labelling.labels
    for arg in evaluation.arguments:
        label = labels.get(arg.id, Label.UNDEC)
        table.add_row(arg.id, escape(arg.conclusion), escape(_derivation(arg)),
                      Text(label.value, style=_LABEL_STYLE[label]))
    return table


def _attacks_table(evaluation: Evaluation) -> Table:
    table = Table(title="Attacks (Definition 2) and neutralization (Definition 4)",
                  title_justify="left", expand=False)
    for name in ("attacker", "target", "kind", "on", "lic", "state"):
        table.add_column(name, overflow="fold")
    for att in evaluation.attacks:
        if att.defeated_by is None:
            state = Text("active", style="bold")
        else:
            stronger, weaker = att.defeated_by
            state = Text(f"defeated by {stronger} > {weaker}", style="dim")
        table.add_row(att.attacker, att.target, att.kind.value, escape(att.on), att.lic or "-", state)
    return table


def _dropped_table(evaluation: Evaluation) -> Table:
    table = Table(title="Dropped as ungrounded (parser-validator)", title_justify="left", expand=False)
    for name in ("kind", "id", "reason"):
        table.add_column(name, overflow="fold")
    for item in evaluation.theory.dropped:
        table.add_row(item.kind, escape(item.id), escape(item.reason))
    return table


def _priorities_text(evaluation: Evaluation, listed: bool = True) -> Text:
    order = evaluation.priorities
    text = Text()
    if listed:
        base = ", ".join(f"{a} > {b}" for a, b in sorted(order.base)) or "none"
        text.append(f"Priority base P0: {base}\n")
    else:
        text.append(f"Priority base P0: {len(order.base)} pairs (listed below the panel)\n")
    if order.cycles:
        cycles = "; ".join("{" + ", ".join(cycle) + "}" for cycle in order.cycles)
        text.append(f"Unresolved priorities (cycles): {cycles}; ", style="bold yellow")
        text.append(f"rules losing all comparisons: {', '.join(sorted(order.unresolved))}\n", style="yellow")
    else:
        text.append("Unresolved priorities (cycles): none\n")
    return text


def evaluation_renderable(scenario: Scenario, evaluation: Evaluation, *, analysis: str = "gold",
                          tables: bool = True) -> Panel:
    """A rich panel describing one evaluated scenario.

    Parameters
    ----------
    scenario : Scenario
    evaluation : Evaluation
        The engine's evaluation of ``scenario`` (of its ``analysis``).
    analysis : str, default "gold"
        Which analysis was evaluated (``gold`` or ``candidate``), for the header.
    tables : bool, default True
        Include the priority base and the labelling and attack tables
        (:func:`render_text` writes them as plain lines for a large theory).

    Returns
    -------
    rich.panel.Panel
    """
    status = evaluation.status
    header = Text()
    header.append("status ")
    header.append(status.value, style=STATUS_STYLE[status])
    header.append(f"   s(p)={int(evaluation.support)} a(p)={int(evaluation.against)}")
    gold = scenario.gold.status
    header.append(f"   gold {gold.value}")
    if analysis == "gold":
        header.append(" (agrees)" if gold is status else " (DISAGREES)",
                      style="green" if gold is status else "bold red")
        if evaluation.theory.dropped:
            n = len(evaluation.theory.dropped)
            header.append(f"; {n} gold object{'s' if n > 1 else ''} dropped as ungrounded (see below)",
                          style="yellow")
    header.append(f"\nquery: {scenario.query}\n")
    parts = [header, _priorities_text(evaluation, listed=tables)]
    if tables:
        parts.append(_arguments_table(evaluation) if evaluation.arguments else Text("No arguments.\n"))
        parts.append(_attacks_table(evaluation) if evaluation.attacks else Text("No attacks.\n"))
    if evaluation.theory.dropped:
        parts.append(_dropped_table(evaluation))
    else:
        parts.append(Text("Nothing dropped: every object is grounded."))
    title = f"{escape(scenario.id)}: {escape(evaluation.target)} ({analysis} analysis)"
    return Panel(Group(*parts), title=title, title_align="left", expand=False)


def render_text(console: Console, scenario: Scenario, evaluation: Evaluation, *, analysis: str = "gold") -> None:
    """Print :func:`evaluation_renderable` on ``console``.

    Above :data:`TABLE_LIMIT` arguments or attacks the priority base and the
    two tables are written as plain lines after the panel (``stronger >
    weaker``, then tab-separated rows; streamed, linear in the output)
    instead of inside rich renderables, whose layout cost grows with every row.
    """
    if len(evaluation.arguments) <= TABLE_LIMIT and len(evaluation.attacks) <= TABLE_LIMIT:
        console.print(evaluation_renderable(scenario, evaluation, analysis=analysis))
        return
    console.print(evaluation_renderable(scenario, evaluation, analysis=analysis, tables=False))
    out = console.file
    out.flush()
    raw = getattr(out, "buffer", None)

    def write(piece: bytes) -> None:
        if raw is not None:
            raw.write(piece)
        else:
            out.write(piece.decode("utf-8"))

    base = evaluation.priorities.base
    write(f"Priority base P0: {len(base)} pairs\n".encode("utf-8"))
    for chunk in _base_rows(base):
        write(chunk)
    write(f"Grounded labelling (Algorithm 1): {len(evaluation.arguments)} arguments\n"
          "argument\tconclusion\tderivation\tlabel\n".encode("utf-8"))
    labels = evaluation.labelling.labels
    arguments = evaluation.arguments
    for start in range(0, len(arguments), _CHUNK):
        write("".join(f"{arg.id}\t{arg.conclusion}\t{_derivation(arg)}\t{labels.get(arg.id, Label.UNDEC).value}\n"
                      for arg in arguments[start:start + _CHUNK]).encode("utf-8"))
    write(f"Attacks (Definition 2) and neutralization (Definition 4): {len(evaluation.attacks)} attacks\n"
          "attacker\ttarget\tkind\ton\tlic\tstate\n".encode("utf-8"))
    for chunk in _attack_rows(evaluation.attacks):
        write(chunk)
    (raw or out).flush()


def _base_rows(base) -> Iterator[bytes]:
    """``stronger > weaker`` lines of the priority base, sorted as pairs of strings, in chunks."""
    pairs = sorted(base)
    for start in range(0, len(pairs), _CHUNK):
        yield "".join(f"{s} > {w}\n" for s, w in pairs[start:start + _CHUNK]).encode("utf-8")


def _attack_rows(attacks) -> Iterator[bytes]:
    """Tab-separated attack rows (attacker, target, kind, on, lic, state) as UTF-8, in chunks."""
    if not isinstance(attacks, AttackTable):
        yield "".join(f"{a.attacker}\t{a.target}\t{a.kind.value}\t{a.on}\t{a.lic or '-'}\t"
                      f"{'active' if a.defeated_by is None else 'defeated by %s > %s' % a.defeated_by}\n"
                      for a in attacks).encode("utf-8")
        return
    args = attacks.argument_ids
    on_ids = [*attacks.argument_ids, *attacks.rule_ids, *attacks.fact_ids]  # "on": arguments, rules, facts
    offset = [0, len(attacks.argument_ids), len(attacks.argument_ids) + len(attacks.rule_ids)]
    kinds = [k.value for k in KINDS]
    lics = ["-", *attacks.rule_ids]
    states = ["active", *(f"defeated by {s} > {w}" for s, w in attacks.defeats)]
    columns = (attacks.attacker.tolist(), attacks.target.tolist(), attacks.kind.tolist(), attacks.shape.tolist(),
               attacks.on.tolist(), attacks.lic.tolist(), attacks.defeat.tolist())
    rows = list(zip(*columns))
    for start in range(0, len(rows), _CHUNK):
        yield "".join(f"{args[a]}\t{args[t]}\t{kinds[k]}\t{on_ids[offset[shape] + on]}\t{lics[lic + 1]}\t"
                      f"{states[defeat + 1]}\n"
                      for a, t, k, shape, on, lic, defeat in rows[start:start + _CHUNK]).encode("utf-8")
