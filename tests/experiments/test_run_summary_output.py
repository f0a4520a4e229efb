"""What ``paratrace run`` prints when its output is not a terminal, as a real
process: a progress line per case, summary tables that fit 100 columns (six
cells: metrics down, at most three cells across), one line explaining the
values (intervals, ``n/a``, NCR above 1) that points to docs/metrics.md."""

from __future__ import annotations

import subprocess

from cli_process import PARATRACE, ROOT, cli_env

SUITE = ROOT / "tests" / "symbolic" / "fixtures" / "penalty_suite.jsonl"


def test_the_summary_fits_100_columns_and_explains_itself(tmp_path):
    spec = tmp_path / "six.toml"
    spec.write_text(f'name = "six"\nsuites = ["{SUITE}"]\nconfigurations = ["b1", "b3", "b4"]\nconcurrency = 1\n'
                    '[[backbones]]\nmodel = "scripted/null"\n[[backbones]]\nmodel = "scripted/null"\n'
                    'alias = "second"\n')
    done = subprocess.run([*PARATRACE, "run", str(spec), "--no-track", "--workdir", str(tmp_path)], cwd=tmp_path,
                          env=cli_env(tmp_path), capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    lines = done.stdout.splitlines()
    assert "six: 1/42 cases, 0 failures" in done.stdout and "six: 42/42 cases" in done.stdout
    assert "six: 3/42 cases" not in done.stdout  # one line per 5 % of a long run
    table = [line for line in lines if line[:1] in "┏┃┡│└"]
    assert table and max(len(line) for line in table) <= 100, "\n".join(table)
    assert sum(line.startswith("┏") for line in table) == 2  # six cells, three per table
    assert any(line.startswith("│ NCR") for line in table)
    for header in ("b1 scripted/null", "b3 second", "b4 second"):
        assert header in done.stdout
    legend = [line for line in lines if "docs/metrics.md" in line]
    assert len(legend) == 1 and len(legend[0]) <= 100
    assert "[95% interval]" in legend[0] and "n/a" in legend[0] and "NCR" in legend[0] and ">1" in legend[0]
    assert "LM response was truncated" not in done.stdout + done.stderr
