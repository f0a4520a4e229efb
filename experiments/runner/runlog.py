"""The append-only per-case result log that makes runs resumable.

One JSON object per line, flushed and fsynced per record, keyed by
:class:`~experiments.runner.spec.RunKey`.  A run killed at any moment leaves at
most one partial last line; :class:`ResultLog` cuts it off when it reopens the
file, so ``--resume`` re-runs exactly the cases without a complete record, and the
cases whose latest record is an infrastructure error (no model answer).
"""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path
from typing import Iterator

from ..errors import ExperimentError
from .spec import RunKey

__all__ = ["ResultLog"]


class ResultLog:
    """An append-only JSONL log of case results.

    Parameters
    ----------
    path : str or Path
        The log file; created with its parent directory when missing.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> log = ResultLog(pathlib.Path(tempfile.mkdtemp()) / "results.jsonl")
    >>> key = RunKey("s", "c1", "b4", "m", "standard", 0)
    >>> log.append(key, {"outcome": "scored"})
    >>> key in log.completed(), len(list(log.records()))
    (True, 1)
    """

    def __init__(self, path):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._repair_tail()

    def _repair_tail(self) -> None:
        if not self.path.exists():
            return
        with open(self.path, "rb+") as fh:
            data = fh.read()
            if not data or data.endswith(b"\n"):
                return
            cut = data.rfind(b"\n") + 1
            fh.truncate(cut)

    def records(self) -> Iterator[dict]:
        """Every complete record, in append order.

        Raises
        ------
        ExperimentError
            If a complete line is not a JSON object with a ``key``.
        """
        if not self.path.exists():
            return
        with open(self.path, encoding="utf-8") as fh:
            for number, line in enumerate(fh, 1):
                if not line.strip():
                    continue
                try:
                    record = json.loads(line)
                    RunKey(**record["key"])
                except (json.JSONDecodeError, KeyError, TypeError) as exc:
                    raise ExperimentError(
                        f"{self.path}:{number}: not a result record ({exc}); "
                        "move the file away to start a fresh run"
                    ) from None
                yield record

    def latest(self) -> dict[RunKey, dict]:
        """The latest record of every key (a retried case has several)."""
        return {RunKey(**r["key"]): r for r in self.records()}

    def completed(self, retry: tuple[str, ...] = ("infra_error",)) -> set[RunKey]:
        """The keys whose latest record is final: not an outcome in ``retry``
        (infrastructure errors are not results; ``--resume`` runs them again)."""
        return {key for key, r in self.latest().items() if r.get("outcome") not in retry}

    def append(self, key: RunKey, record: dict) -> None:
        """Append one record for ``key`` and make it durable before returning."""
        line = json.dumps({"key": key.as_dict(), **record}, sort_keys=True, ensure_ascii=False)
        with self._lock, open(self.path, "a", encoding="utf-8") as fh:
            fh.write(line + "\n")
            fh.flush()
            os.fsync(fh.fileno())
