"""The argument graph of a B4 run as inline SVG, laid out without Graphviz.

Arguments stand in three columns by their grounded label (IN, UNDEC, OUT,
paper Definition 5); an attack (Definition 2) is an arrow from attacker to
target, solid red when it succeeds, dashed grey when a priority defeats it,
labelled with that priority.  Coordinates are computed here, so the page needs
no binary and no script.
"""

from __future__ import annotations

from .html_text import escape

__all__ = ["argument_svg"]

_COLUMNS = ("IN", "UNDEC", "OUT")
_FILL = {"IN": "#e3f4e1", "UNDEC": "#fdf1d6", "OUT": "#f6dede"}
_STROKE = {"IN": "#2e7d32", "UNDEC": "#b7791f", "OUT": "#b23b3b"}
_W, _H, _GAP_X, _GAP_Y, _TOP, _LEFT = 240, 46, 120, 22, 48, 16
_MAX_NODES = 80


def _label(labels, arg_id) -> str:
    value = labels.get(arg_id)
    return getattr(value, "value", str(value or "UNDEC")).upper()


def _short(text: str, n: int = 34) -> str:
    return text if len(text) <= n else text[: n - 1] + "…"


def argument_svg(evaluation, *, evidence_of: dict | None = None) -> str:
    """An ``<svg>`` element drawing ``evaluation``'s arguments and attacks.

    Parameters
    ----------
    evaluation : symbolic evaluation
        ``arguments``, ``attacks``, ``labelling`` and ``theory`` of a B4 run.
    evidence_of : dict, optional
        Rule or fact id to the evidence ids it cites (shown under the node).

    Returns
    -------
    str
        The SVG markup (a short note instead when there are no arguments or
        more than 80).
    """
    args = list(evaluation.arguments)
    if not args:
        return '<p class="note">No arguments: the engine had nothing to reason over.</p>'
    if len(args) > _MAX_NODES:
        return f'<p class="note">{len(args)} arguments: too many to draw; see the tables below.</p>'
    labels = evaluation.labelling.labels
    evidence_of = evidence_of or {}
    columns = {c: [a for a in args if _label(labels, a.id) == c] for c in _COLUMNS}
    pos = {}
    for ci, name in enumerate(_COLUMNS):
        for ri, arg in enumerate(columns[name]):
            pos[arg.id] = (_LEFT + ci * (_W + _GAP_X), _TOP + ri * (_H + _GAP_Y))
    rows = max(len(v) for v in columns.values())
    width = _LEFT * 2 + 3 * _W + 2 * _GAP_X
    height = _TOP + rows * (_H + _GAP_Y) + 20
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" role="img" aria-label="argument graph" width="{width}" '
           f'height="{height}" viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">',
           '<defs><marker id="ah-active" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" '
           'orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#b23b3b"/></marker>'
           '<marker id="ah-defeated" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" '
           'orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#8a8a8a"/></marker></defs>']
    for ci, name in enumerate(_COLUMNS):
        x = _LEFT + ci * (_W + _GAP_X) + _W / 2
        out.append(f'<text x="{x}" y="24" text-anchor="middle" font-weight="bold" fill="{_STROKE[name]}">'
                   f'{name}</text>')
    for n, attack in enumerate(evaluation.attacks):
        if attack.attacker not in pos or attack.target not in pos:
            continue
        (x1, y1), (x2, y2) = pos[attack.attacker], pos[attack.target]
        y1, y2 = y1 + _H / 2, y2 + _H / 2
        if x1 == x2:  # same column: a loop out to the right
            sx, ex = x1 + _W, x2 + _W
            bulge = sx + 40 + 12 * (n % 4)
            path = f"M{sx},{y1} C{bulge},{y1} {bulge},{y2} {ex},{y2}"
            mx, my = bulge, (y1 + y2) / 2
        else:
            forward = x1 < x2
            sx, ex = (x1 + _W, x2) if forward else (x1, x2 + _W)
            y1, y2 = y1 + (-8 if forward else 8), y2 + (-8 if forward else 8)  # a pair's two directions apart
            path = f"M{sx},{y1} C{(sx + ex) / 2},{y1} {(sx + ex) / 2},{y2} {ex},{y2}"
            t = 0.3 + 0.4 * ((n * 0.618) % 1.0)  # spread the labels along the arrows
            mx, my = sx + (ex - sx) * t, y1 + (y2 - y1) * (3 * t * t - 2 * t ** 3)
        active = attack.active
        kind = getattr(attack.kind, "value", str(attack.kind))
        state = "active" if active else "defeated"
        dash = "" if active else ' stroke-dasharray="5 4"'
        out.append(f'<path class="attack {state}" d="{path}" fill="none" stroke="{"#b23b3b" if active else "#8a8a8a"}" '
                   f'stroke-width="{1.8 if active else 1.3}"{dash} '
                   f'marker-end="url(#ah-{state})"><title>{escape(attack.attacker)} {kind} {escape(attack.target)}: '
                   f'{state}</title></path>')
        tag = kind if active else f"{kind}, defeated by {attack.defeated_by[0]}>{attack.defeated_by[1]}"
        out.append(f'<text x="{mx}" y="{my - 4}" text-anchor="middle" font-size="10" stroke="#fff" '
                   f'stroke-width="3" paint-order="stroke" '
                   f'fill="{"#b23b3b" if active else "#6b6b6b"}">{escape(tag)}</text>')
    for arg in args:
        x, y = pos[arg.id]
        name = _label(labels, arg.id)
        via = f"rule {arg.top_rule}" if arg.top_rule else f"fact {arg.fact}"
        cites = evidence_of.get(arg.top_rule or arg.fact, ())
        second = via + (f" · {', '.join(cites)}" if cites else "")
        out.append(f'<g class="argument" data-id="{escape(arg.id)}" data-label="{name}">'
                   f'<rect x="{x}" y="{y}" width="{_W}" height="{_H}" rx="6" fill="{_FILL[name]}" '
                   f'stroke="{_STROKE[name]}" stroke-width="1.4"/>'
                   f'<text x="{x + 8}" y="{y + 18}" font-weight="bold">{escape(arg.id)} · '
                   f'{escape(_short(arg.conclusion))}</text>'
                   f'<text x="{x + 8}" y="{y + 35}" fill="#444">{escape(_short(second, 40))}</text>'
                   f'<title>{escape(arg.id)}: {escape(arg.conclusion)} via {escape(via)} ({name})</title></g>')
    out.append("</svg>")
    return "\n".join(out)
