"""The README's command lines paste as they read: no line of its "Everyday
commands" block is a shell pipe of alternatives (``suite list | stats ...``
ran as a pipe and exited 127), and ``ask --help`` names every document format
``ingest`` takes (``.eml`` included)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _everyday_block() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text[text.index("## Everyday commands"):]
    block = re.search(r"```bash\n(.*?)```", section, re.S).group(1)
    return [line for line in block.splitlines() if line.strip()]


def test_no_everyday_command_is_a_pipe_of_alternatives():
    for line in _everyday_block():
        command = line.split("  #", 1)[0]
        unbracketed = re.sub(r"\[[^\]]*\]", "", command)  # [--format text|json] lists choices
        assert " | " not in unbracketed and not re.search(r"\w\|\w", unbracketed), line
        assert command.startswith("paratrace "), line


def test_ask_help_names_eml():
    done = subprocess.run([sys.executable, "-c", "from optimize.console import main; main()", "ask", "--help"],
                          capture_output=True, text=True, timeout=300, env={"COLUMNS": "200", "PATH": "/usr/bin",
                                                                             "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr
    assert ".eml" in done.stdout
