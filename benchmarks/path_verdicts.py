"""The performance goals of the user-facing paths and how :mod:`benchmarks.paths` reads them off one
run: each path's ratios over the engine core, and a verdict per goal (the values it reads and whether
they meet it)."""

from __future__ import annotations

__all__ = ["GOALS", "ratios", "verdicts"]

GOALS = {"clingo_over_api_min": 5.0, "cli_json_peer_s_max": 10.0,
         "cli_json_peer_rss_mb_max": 1024, "path_over_engine_max": 3.0, "tiny_status_s_max": 0.6}


def ratios(row: dict, tiny: dict) -> dict:
    """Each path over the engine core; for the CLI also after subtracting the start-up.

    The start-up is the one-case run (``tiny``) of the same kind: ``cli_text``
    for the text format (it imports the table renderer), ``cli_json`` for the
    others.
    """
    engine = max(row["engine"]["median_ms"], 1e-3)
    cli = ("cli_json", "cli_json_edges", "cli_text", "cli_dot", "cli_validate", "cli_score")
    out = {f"{name}_over_engine": round(row[name]["median_ms"] / engine, 2)
           for name in ("api", "tnf", *cli) if name in row}
    for name in cli:
        if name in row:
            startup = tiny["cli_text" if name == "cli_text" else "cli_json"]["median_ms"]
            out[f"{name}_minus_startup_over_engine"] = round(max(row[name]["median_ms"] - startup, 0) / engine, 2)
    # The same on CPU time (user + system of the process), which the machine's load disturbs much less.
    engine_cpu = max(row["engine"]["cpu_ms"], 1e-3)
    for name in ("api", "tnf", *cli):
        if name in row:
            out[f"{name}_cpu_over_engine"] = round(row[name]["cpu_ms"] / engine_cpu, 2)
            if name in cli:
                startup_cpu = tiny["cli_text" if name == "cli_text" else "cli_json"]["cpu_ms"]
                out[f"{name}_minus_startup_cpu_over_engine"] = round(
                    max(row[name]["cpu_ms"] - startup_cpu, 0) / engine_cpu, 2)
    # Paired: each path over the engine timed alongside it (in the same process, moments apart).
    for name in ("api", "tnf"):
        if "engine_cpu_ms" in row.get(name, {}):
            out[f"{name}_cpu_over_paired_engine"] = round(
                row[name]["cpu_ms"] / max(row[name]["engine_cpu_ms"], 1e-3), 2)
    for name in cli:
        warm = row.get(name, {}).get("after_one_case")
        if warm:
            out[f"{name}_after_one_case_cpu_over_engine"] = round(warm["cpu_ms"] / engine_cpu, 2)
            if "engine_cpu_ms" in warm:
                out[f"{name}_after_one_case_cpu_over_paired_engine"] = round(
                    warm["cpu_ms"] / max(warm["engine_cpu_ms"], 1e-3), 2)
    return out


def verdicts(rows: dict, peer_rows: dict, peer_graphs) -> dict:
    """Each goal of :data:`GOALS` against this run's numbers: the values it reads and whether they meet it.

    ``path_over_engine`` reads CPU ratios over the engine timed alongside each
    path (``*_over_paired_engine``: ``api`` and ``tnf`` interleaved with the
    engine in this process; each CLI path after one case in a process of its
    own (``after_one_case``: the start-up taken out without subtracting two
    noisy process times), with the engine timed right after in that process),
    and the scoring over its own engine calls (not over one: it makes
    hundreds), and lists every one above the bound.
    """
    out = {}
    clingo = [p["clingo_over_api"] for p in peer_rows.values() if p.get("clingo_over_api") is not None]
    if clingo:
        out["clingo_over_api_min"] = {"value": min(clingo), "met": min(clingo) >= GOALS["clingo_over_api_min"]}
    peer_json = [row["cli_json"] for name, row in rows.items() if name in peer_graphs and "cli_json" in row]
    if peer_json:
        seconds = max(r["median_ms"] for r in peer_json) / 1e3
        rss = max(r["rss_mb"] for r in peer_json)
        out["cli_json_peer_s_max"] = {"value": round(seconds, 2), "met": seconds <= GOALS["cli_json_peer_s_max"]}
        out["cli_json_peer_rss_mb_max"] = {"value": rss, "met": rss <= GOALS["cli_json_peer_rss_mb_max"]}
    tiny = max(rows["tiny"][name]["median_ms"] for name in ("cli_json", "cli_text")) / 1e3
    out["tiny_status_s_max"] = {"value": round(tiny, 3), "met": tiny <= GOALS["tiny_status_s_max"]}
    ratios, over = {}, {}
    for name, row in rows.items():
        for key, value in row.items():
            if key.endswith("_cpu_over_paired_engine"):
                ratios[f"{name}.{key}"] = value
        score = row.get("score_engine", {}).get("score_cpu_over_its_engine_calls")
        if score is not None:
            ratios[f"{name}.score_cpu_over_its_engine_calls"] = score
    over = {key: value for key, value in ratios.items() if value > GOALS["path_over_engine_max"]}
    if ratios:
        out["path_over_engine_max"] = {"value": max(ratios.values()), "met": not over, "over": over}
    return out
