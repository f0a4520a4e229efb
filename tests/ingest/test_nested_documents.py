"""Documents nested without end are a typed refusal naming the file (issue 32, item 5; found by
``benchmarks/hostile_probe.py``): an email of multiparts nested 2,000 deep made the standard
library's parser recurse past Python's limit, an internal error (exit 1, HTTP 500)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from hostile_documents import nested_eml

from assistant.ingest.errors import DocumentError
from assistant.ingest.extract import extract_bytes

ROOT = Path(__file__).resolve().parents[2]


def test_an_email_nested_2000_deep_is_refused_naming_the_file():
    with pytest.raises(DocumentError, match=r"^deep\.eml: not a readable email document \(its structure is "
                                            r"nested too deeply\)$"):
        extract_bytes("deep.eml", nested_eml())


def test_the_command_line_says_it_in_one_line_with_exit_2(tmp_path):
    (tmp_path / "deep.eml").write_bytes(nested_eml())
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    done = subprocess.run([sys.executable, "-c", "from optimize.console import main; main()", "ingest", "deep.eml"],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip().splitlines() == [
        "paratrace: error: deep.eml: not a readable email document (its structure is nested too deeply)"]
