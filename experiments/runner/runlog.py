"""The append-only per-case result log that makes runs resumable.

One JSON object per line, flushed and fsynced per record, keyed by
:class:`~experiments.runner.spec.RunKey`.  A run killed at any moment leaves at
most one partial last line; :func:`~experiments.runner.state.check_results`
moves it aside (reported) before a resume, so ``--resume`` re-runs exactly the
cases without a complete record, and the cases whose latest record is an
infrastructure error (no model answer).  Only one process writes a log at a time
(:class:`~experiments.runner.lock.RunLock`).
"""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path
from typing import Iterator

from symbolic.support.fsio import append_whole, open_input

from ..errors import ExperimentError
from .spec import RunKey
from .state import RETRIED_OUTCOMES

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
        """Move a torn last line (no newline) aside, reported (:func:`~experiments.runner.state.check_results`)."""
        if not self.path.exists():
            return
        with open_input(self.path, error=ExperimentError, follow_links=False) as fh:
            fh.seek(0, os.SEEK_END)
            if fh.tell() == 0:
                return
            fh.seek(-1, os.SEEK_END)
            if fh.read(1) == b"\n":
                return
        from .state import check_results

        try:
            check_results(self.path)
        except ExperimentError:
            pass  # the torn line is gone; other problems are reported by records() and the resume check

    def records(self) -> Iterator[dict]:
        """Every complete record, in append order.

        Raises
        ------
        ExperimentError
            If a complete line is not a valid result record
            (its key; :func:`~experiments.runner.state.record_problem`), naming
            the line.  Outputs are checked before a run starts
            (:func:`~experiments.runner.state.check_results`).
        """
        from symbolic.suites._jsonread import parse_json
        from symbolic.errors import ScenarioError

        from .state import record_problem

        if not self.path.exists():
            return
        with open_input(self.path, error=ExperimentError, follow_links=False) as fh:
            for number, line in enumerate(fh, 1):
                if not line.strip():
                    continue
                try:
                    record = parse_json(line, line=number)
                    problem = record_problem(record, output=False)
                except ScenarioError as exc:
                    problem = exc.reason
                if problem is not None:
                    raise ExperimentError(
                        f"{self.path}:{number}: not a result record ({problem}); resume with --repair to move "
                        "the line aside and run its case again"
                    )
                yield record

    def latest(self) -> dict[RunKey, dict]:
        """The latest record of every key (a retried case has several)."""
        return {RunKey(**r["key"]): r for r in self.records()}

    def completed(self, retry: tuple[str, ...] = RETRIED_OUTCOMES) -> set[RunKey]:
        """The keys whose latest record is final: not an outcome in ``retry``
        (infrastructure errors are not results; ``--resume`` runs them again)."""
        return {key for key, r in self.latest().items() if r.get("outcome") not in retry}

    def append(self, key: RunKey, record: dict) -> None:
        """Append one record for ``key`` and make it durable before returning.

        A write the file system refuses (a full disk) takes the log back to
        its length before the record, so no torn line is left and every
        record written before stays whole.

        Raises
        ------
        ExperimentError
            When the record could not be written, naming the log (``cannot
            write: No space left on device; ...``): ``--resume`` runs the
            case again once there is room.
        """
        data = (json.dumps({"key": key.as_dict(), **record}, sort_keys=True, ensure_ascii=False) + "\n").encode()
        with self._lock:
            try:
                append_whole(self.path, data)  # never through a link, never a partial record
            except OSError as exc:
                raise self._unwritten(exc) from None

    def _unwritten(self, exc: OSError) -> ExperimentError:
        from symbolic.support.fsio import write_failure

        return write_failure(self.path, exc, error=ExperimentError,
                             kept="every record written before is kept, this case is not recorded",
                             then="continue with --resume")
