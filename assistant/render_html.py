"""One self-contained HTML page for a reviewer: ``paratrace ask --format html``
and the service's ``text/html`` answer.

The page holds the status and answer, the cited clauses quoted in their
document context (source file, clause, page or paragraph, the surrounding
extracted text with the fragment marked), the argument graph as inline SVG
(:mod:`assistant.render_svg`) with the active and defeated attacks and the
priorities that decided them, the objects rejected as ungrounded, and, for
ingested documents, the evidence selection.  No script, no external resource.
"""

from __future__ import annotations

from .html_text import escape

from .local_models import quality_note
from .render_svg import argument_svg

__all__ = ["render_html"]

_CONTEXT = 180
_CSS = """
body{font-family:system-ui,-apple-system,'Segoe UI',sans-serif;margin:24px auto;max-width:1100px;color:#1d1d1f;
line-height:1.45;padding:0 16px}
h1{font-size:22px;margin:0 0 4px} h2{font-size:17px;margin:28px 0 8px;border-bottom:1px solid #ddd;padding-bottom:4px}
.meta{color:#666;font-size:13px} .status{display:inline-block;padding:4px 12px;border-radius:14px;font-weight:bold;
font-size:15px;margin:10px 0;color:#fff} .accepted{background:#2e7d32} .rejected{background:#b23b3b}
.both{background:#6a3fa0} .undecidable{background:#8a6d1f} .failure{background:#444}
.answer{font-size:15px;background:#f6f6f8;padding:10px 14px;border-radius:6px}
blockquote{margin:8px 0 14px;padding:8px 12px;border-left:4px solid #8aa4c8;background:#f7f9fc;white-space:pre-wrap;
font-size:13px} mark{background:#fff0a8;padding:0 1px} .ctx{color:#777}
table{border-collapse:collapse;font-size:13px;margin:6px 0} td,th{border:1px solid #ddd;padding:4px 8px;text-align:left;
vertical-align:top} th{background:#f2f2f4} .active{color:#b23b3b;font-weight:bold} .defeated{color:#777}
.note{color:#666;font-style:italic} .graph{overflow-x:auto;border:1px solid #e4e4e8;border-radius:6px;padding:6px}
code{font-size:12px} .quality{background:#fff4e5;border:1px solid #f0b060;border-radius:6px;padding:8px 12px;
font-size:14px}
"""


def _fragments_by_id(fragments) -> dict:
    from symbolic.scenario.model import EvidenceFragment

    frags = (f if isinstance(f, EvidenceFragment) else EvidenceFragment.model_validate(f) for f in fragments or ())
    return {f.id: f for f in frags}


def _quote(fid: str, frag, prepared) -> str:
    if frag is None:
        return f'<p class="note">{escape(fid)}: not in the evidence package.</p>'
    label = frag.clause if not frag.clause or frag.clause.startswith(("para ", "preamble", "Appendix", "Annex",
                                                                          "Schedule")) else f"clause {frag.clause}"
    where = escape(frag.source) + (f", {escape(label)}" if label else "")
    body = f"<mark>{escape(frag.text)}</mark>"
    if prepared is not None and fid in prepared.package.locators:
        loc = prepared.package.locators[fid]
        doc = next((d for d in prepared.package.documents if d.sha256 == loc.sha256), None)
        where += f", page {loc.page}" if loc.page else ("" if label.startswith("para ") else
                                                        f", paragraph {loc.paragraph}")
        where += f", characters {loc.start}-{loc.end}"
        if doc is not None:
            before = doc.text[max(0, loc.start - _CONTEXT):loc.start]
            after = doc.text[loc.end:loc.end + _CONTEXT]
            body = (f'<span class="ctx">{"…" if loc.start > _CONTEXT else ""}{escape(before)}</span>{body}'
                    f'<span class="ctx">{escape(after)}{"…" if loc.end + _CONTEXT < len(doc.text) else ""}</span>')
    return (f'<h3 class="cited" data-id="{escape(fid)}" style="font-size:14px;margin:12px 0 0">'
            f'<code>{escape(fid)}</code> — {where}</h3><blockquote>{body}</blockquote>')


def _table(head: list[str], rows: list[list[str]], empty: str) -> str:
    if not rows:
        return f'<p class="note">{escape(empty)}</p>'
    cells = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in rows)
    return "<table><tr>" + "".join(f"<th>{escape(h)}</th>" for h in head) + "</tr>" + cells + "</table>"


def _reasoning(evaluation) -> str:
    theory = evaluation.theory
    evidence_of = {o.id: tuple(o.evidence) for o in (*theory.facts, *theory.rules)}
    by_id = {a.id: a for a in evaluation.arguments}
    labels = evaluation.labelling.labels
    parts = ["<h2>Argument graph</h2>", '<div class="graph">', argument_svg(evaluation, evidence_of=evidence_of),
             "</div>", "<h2>Attacks</h2>"]
    rows = []
    for x in evaluation.attacks:
        state = ('<span class="active">active</span>' if x.active else
                 f'<span class="defeated">defeated by priority {escape(x.defeated_by[0])} &gt; '
                 f'{escape(x.defeated_by[1])}</span>')
        rows.append([f"{escape(x.attacker)} ({escape(by_id[x.attacker].conclusion)})",
                     escape(getattr(x.kind, "value", str(x.kind))),
                     f"{escape(x.target)} ({escape(by_id[x.target].conclusion)})", escape(x.on),
                     escape(x.lic or ""), state])
    parts.append(_table(["attacker", "kind", "target", "on", "licensed by", "outcome"], rows, "No attacks."))
    parts.append("<h2>Priorities</h2>")
    rows = [[escape(p.stronger) + " &gt; " + escape(p.weaker), escape(getattr(p.basis, "value", str(p.basis))),
             escape(", ".join(p.evidence)), escape(p.note or "")] for p in theory.priorities]
    parts.append(_table(["priority", "basis", "evidence", "note"], rows, "No priorities."))
    if evaluation.priorities.cycles:
        parts.append('<p class="note">Unresolved priority cycles: '
                     + escape("; ".join(" ".join(c) for c in evaluation.priorities.cycles)) + "</p>")
    parts.append("<h2>Rules and facts</h2>")
    rows = [[escape(r.id), escape(", ".join(r.antecedents) or "⊤") + " ⇒ " + escape(r.consequent),
             escape(getattr(r.kind, "value", str(r.kind))), escape(", ".join(r.evidence))] for r in theory.rules]
    rows += [[escape(f.id), escape(f.literal), "fact", escape(", ".join(f.evidence))] for f in theory.facts]
    parts.append(_table(["id", "content", "kind", "evidence"], rows, "None."))
    labelled = [[escape(a.id), escape(a.conclusion), escape(getattr(labels.get(a.id), "value", "UNDEC"))]
                for a in evaluation.arguments]
    parts.append("<details><summary>Arguments and labels</summary>"
                 + _table(["argument", "conclusion", "label"], labelled, "None.") + "</details>")
    return "\n".join(parts)


def _selection(prepared) -> str:
    if prepared is None:
        return ""
    sel = prepared.selection
    docs = _table(["document", "format", "role", "sha256", "renumbering"],
                  [[escape(d.name), escape(d.format), escape(d.role), f"<code>{d.sha256[:16]}</code>",
                    escape("; ".join(f"{r.old} → {r.new} (stated in {r.stated_in})" for r in d.renumbering))]
                   for d in prepared.package.documents], "No documents.")
    rows = [[f"<code>{escape(x['id'])}</code>", "kept", str(x["tokens"]), escape(x["reason"])] for x in sel["kept"]]
    rows += [[f"<code>{escape(x['id'])}</code>", "left out", str(x["tokens"]), escape(x["reason"])]
             for x in sel["left_out"]]
    return ("<h2>Documents and evidence selection</h2>" + docs
            + f'<p class="meta">{len(sel["kept"])} fragment(s) kept, {len(sel["left_out"])} left out: '
              f'{sel["kept_tokens"]} of {sel["total_tokens"]} tokens, budget {sel["budget_tokens"]} '
              f'({escape(sel["retriever"])}).</p>'
            + _table(["fragment", "selection", "tokens", "why"], rows, "No fragments."))


def render_html(result, prepared=None, fragments=None, *, query: str | None = None) -> str:
    """The reviewer's page for one run.

    Parameters
    ----------
    result : assistant.api.RunResult
    prepared : assistant.ingest.run.PreparedEvidence, optional
        Ingested documents and selection (quotes get document context).
    fragments : iterable of EvidenceFragment, optional
        The evidence package read (``prepared.fragments`` when omitted).
    query : str, optional
        The question, shown as the heading.

    Returns
    -------
    str
        A complete HTML document.
    """
    rec = result.record
    frags = _fragments_by_id(fragments if fragments is not None else (prepared.fragments if prepared else ()))
    query = query or (prepared.package.query if prepared is not None else None) or "paratrace answer"
    head = (f'<h1>{escape(query)}</h1><p class="meta">configuration {escape(rec.configuration)}, model '
            f'{escape(rec.model)}, variant {escape(rec.variant or "")}; {rec.meta.calls or 0} call(s), '
            f'{rec.meta.prompt_tokens or 0} tokens in / {rec.meta.completion_tokens or 0} out</p>')
    parts = [head]
    note = quality_note(rec.model)
    if note:
        parts.append(f'<p class="quality" id="quality">{escape(note)}</p>')
    if rec.meta.hard_failure:
        parts += ['<div class="status failure" id="status">hard failure</div>',
                  f'<p class="answer">{escape(rec.meta.failure_reason or "")}</p>',
                  f"<h2>Raw reply</h2><blockquote>{escape(rec.meta.raw_text or '(empty)')}</blockquote>"]
    else:
        common = rec.common
        status = common.final_status.value
        parts += [f'<div class="status {status}" id="status">{escape(status)}</div>',
                  f'<p class="answer" id="answer">{escape(common.answer or "")}</p>',
                  f'<p class="meta">conflict detected: {"yes" if common.conflict_detected else "no"}; '
                  f'priority applied: {"yes" if common.priority_applied else "no"}</p>',
                  "<h2>Cited clauses</h2>"]
        cited = list(common.evidence_ids or ())
        parts += [_quote(fid, frags.get(fid), prepared) for fid in cited] or ['<p class="note">No citations.</p>']
        pred = result.prediction
        evaluation = pred.get("evaluation") if pred is not None else None
        if evaluation is not None:
            parts.append(_reasoning(evaluation))
        else:
            parts.append(f'<p class="note">Configuration {escape(rec.configuration)} gives no argument graph.</p>')
        trace = rec.trace
        parts.append("<h2>Rejected as ungrounded</h2>")
        rows = [[escape(r.kind), escape(r.id), escape(r.reason)] for r in (trace.rejected if trace else ())]
        parts.append(_table(["kind", "id", "reason"], rows, "Nothing was rejected."))
        if trace is not None and trace.diagnostics is not None:
            d = trace.diagnostics
            parts.append(f'<p class="meta">audit: {escape(d.defect_class.value)}'
                         + (f" at {escape(d.location)}" if d.location else "") + "</p>")
    parts.append(_selection(prepared))
    body = "\n".join(parts)
    return (f'<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>{escape(query)}</title>'
            f'<meta name="viewport" content="width=device-width, initial-scale=1"><style>{_CSS}</style></head>'
            f"<body>\n{body}\n</body></html>\n")
