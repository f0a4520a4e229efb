"""One writer per run directory: an exclusive OS lock on ``runs/<name>/.lock``.

The lock is ``fcntl.flock`` on an open file, so the kernel releases it when the
process ends, however it ends (``kill -9`` included): a crashed run never
leaves a stale lock.  A second ``paratrace run`` on the same directory fails at
once with exit code 2, naming the process that holds it.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path

from symbolic.support.fsio import check_output

from ..errors import ExperimentError

__all__ = ["LOCK_FILE", "RunLock"]

LOCK_FILE = ".lock"


class RunLock:
    """An exclusive, non-blocking lock on a run directory (created when missing).

    Parameters
    ----------
    root : Path
        The run directory.

    Raises
    ------
    ExperimentError
        From :meth:`acquire` when another process holds the lock.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> root = pathlib.Path(tempfile.mkdtemp()) / "run"
    >>> with RunLock(root):
    ...     RunLock(root).acquire()  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    experiments.errors.ExperimentError: run ... is in use by another paratrace process (pid ...); wait for it to finish, or stop it, then resume
    """

    def __init__(self, root):
        self.root = Path(root)
        self.path = self.root / LOCK_FILE
        self._fd: int | None = None

    def acquire(self) -> "RunLock":
        """Take the lock or fail at once."""
        try:
            self.root.mkdir(parents=True, exist_ok=True)
        except FileExistsError:
            raise ExperimentError(f"run {self.root} exists and is not a directory") from None
        check_output(self.path, error=ExperimentError)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 32, 0).decode("ascii", "replace").strip() or "unknown"
            os.close(fd)
            raise ExperimentError(f"run {self.root} is in use by another paratrace process (pid {holder}); "
                                  "wait for it to finish, or stop it, then resume") from None
        try:
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()}\n".encode("ascii"), 0)
        except OSError:
            pass  # the pid only names the holder to a second process (a full disk: "pid unknown"); the lock holds
        self._fd = fd
        return self

    def release(self) -> None:
        """Give the lock back (the file stays; removing it would race with a waiting process)."""
        if self._fd is not None:
            fcntl.flock(self._fd, fcntl.LOCK_UN)
            os.close(self._fd)
            self._fd = None

    def __enter__(self) -> "RunLock":
        return self.acquire()

    def __exit__(self, *exc) -> None:
        self.release()
