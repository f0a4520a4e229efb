"""The manifest that freezes a run: what exactly was asked of which model.

Recorded next to the result log and as MLflow params, so two runs can be told
apart by content: model id and provider alias, decoding parameters, prompt and
schema hashes, suite digest, package versions, git revision and date.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import importlib.metadata as _md
import json
import subprocess
from pathlib import Path
from typing import Any, Mapping

__all__ = ["PACKAGES", "digest_file", "digest_json", "git_revision", "package_versions", "redact"]

PACKAGES = ("paratrace", "dspy", "litellm", "instructor", "mlflow", "pydantic", "networkx", "statsmodels")


def digest_file(path: str | Path) -> str:
    """``sha256:<hex>`` of a file's bytes."""
    from symbolic.support.fsio import open_input

    from ..errors import ExperimentError

    h = hashlib.sha256()
    with open_input(path, error=ExperimentError) as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return "sha256:" + h.hexdigest()


def digest_json(value: Any) -> str:
    """``sha256:<hex>`` of a value's canonical JSON (sorted keys).

    >>> digest_json({"b": 1, "a": 2}) == digest_json({"a": 2, "b": 1})
    True
    """
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), default=str)
    return "sha256:" + hashlib.sha256(text.encode()).hexdigest()


def package_versions() -> dict[str, str]:
    """Installed versions of the packages that shape a run."""
    out = {}
    for name in PACKAGES:
        try:
            out[name] = _md.version(name)
        except _md.PackageNotFoundError:
            out[name] = "absent"
    return out


def git_revision(cwd: str | Path | None = None) -> str:
    """The current git commit of ``cwd`` (``unknown`` outside a checkout)."""
    try:
        done = subprocess.run(["git", "rev-parse", "HEAD"], cwd=cwd, capture_output=True,
                              text=True, timeout=10, check=False)
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return done.stdout.strip() if done.returncode == 0 else "unknown"


def today() -> str:
    """UTC date and time of the run, ISO 8601."""
    return _dt.datetime.now(_dt.timezone.utc).replace(microsecond=0).isoformat()


def redact(mapping: Mapping[str, Any], environ: Mapping[str, str] | None = None) -> dict[str, Any]:
    """Drop credential-like keys and mask secrets (:func:`symbolic.support.redact.redact`).

    Parameters
    ----------
    mapping : Mapping
        Params, tags or manifest entries (nested mappings are handled).
    environ : Mapping, optional
        Defaults to ``os.environ``; values of variables whose name looks like a
        credential are masked wherever they occur, and so are key-shaped
        strings (``sk-...``).

    Examples
    --------
    >>> redact({"model": "openai/x", "api_key": "sk-1", "n": {"OPENAI_API_KEY": "sk-1"}}, {})
    {'model': 'openai/x', 'n': {}}
    >>> redact({"note": "key sk-live-123 here"}, {"OPENAI_API_KEY": "sk-live-123"})
    {'note': 'key *** here'}
    """
    from symbolic.support.redact import redact as _redact

    return _redact(dict(mapping), environ)
