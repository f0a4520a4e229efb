"""Signals that end a paratrace command, turned into exceptions so that it ends cleanly.

A process killed by a signal's default action runs no ``finally`` block and no
:mod:`atexit` handler, so the processes it started (the MLflow UI of
``paratrace ui``, the embedded llama.cpp server of ``run`` and ``demo``) would
outlive it.  :func:`end_on_signals` makes ``SIGTERM`` and ``SIGHUP`` raise
:class:`SystemExit` (status ``128 + signal``, the shell's convention) and,
for the commands that run until stopped, ``SIGINT`` raise
:class:`KeyboardInterrupt` even where the process inherited it as ignored (a
command started with ``&`` from a script): the command's own clean-up then
stops its children.  A ``SIGHUP`` the process inherited as ignored
(``nohup``) stays ignored.
"""

from __future__ import annotations

import signal
import threading
from contextlib import contextmanager
from typing import Iterator

__all__ = ["ENDING_SIGNALS", "end_on_signals", "ending_signals"]

#: The signals that end a command cleanly (``SIGINT`` only with ``interrupt=True``).
ENDING_SIGNALS = (signal.SIGTERM, signal.SIGHUP)


def _exit(signum: int, _frame) -> None:
    raise SystemExit(128 + signum)


def end_on_signals(*, interrupt: bool = False) -> dict[int, object]:
    """Install the handlers in the main thread; return the handlers they replace.

    Parameters
    ----------
    interrupt : bool, optional
        Also make ``SIGINT`` raise :class:`KeyboardInterrupt` where it is
        ignored (a server command started in the background of a script).

    Returns
    -------
    dict
        Signal number -> previous handler (empty outside the main thread,
        where handlers cannot be installed).

    Examples
    --------
    >>> previous = end_on_signals()
    >>> signal.getsignal(signal.SIGTERM) is _exit
    True
    >>> for sig, handler in previous.items():
    ...     _ = signal.signal(sig, handler)
    """
    if threading.current_thread() is not threading.main_thread():
        return {}
    previous: dict[int, object] = {}
    for sig in ENDING_SIGNALS:
        if sig == signal.SIGHUP and signal.getsignal(sig) is signal.SIG_IGN:
            continue  # nohup: the user asked this process to outlive its terminal
        previous[sig] = signal.signal(sig, _exit)
    if interrupt:
        previous[signal.SIGINT] = signal.signal(signal.SIGINT, signal.default_int_handler)
    return previous


@contextmanager
def ending_signals(*, interrupt: bool = False) -> Iterator[None]:
    """:func:`end_on_signals` for the duration of a block; the previous handlers are restored after it."""
    previous = end_on_signals(interrupt=interrupt)
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
