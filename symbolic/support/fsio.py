"""Which paths paratrace reads and writes: regular files only, never a hang.

Inputs must be regular files (a symbolic link to one is followed): a named pipe
(FIFO), a device, a socket or a directory is refused before it is opened, so a
command never blocks on a pipe that nobody writes.  Outputs are written only to
a regular file or a new path, through a temporary file and a rename in the same
directory (a reader sees the old file or the new one).  A symbolic link given
as an output is followed: its *target* is written and the link is kept.  A
device, a pipe, a socket or a directory at an output path is refused; nothing
is replaced.

Every refusal is a :class:`PathError` (exit code 2 on the command line) that
names the path and what is there.
"""

from __future__ import annotations

import errno
import os
import stat
import tempfile
from pathlib import Path

from symbolic.errors import LocatedError, SymbolicError

__all__ = ["PathError", "check_input", "check_output", "input_problem", "output_problem",
           "read_bytes", "read_text", "write_atomic"]


class PathError(LocatedError, SymbolicError):
    """A path that paratrace refuses to read or write (missing, a pipe, a device...)."""


_KINDS = ((stat.S_ISFIFO, "a named pipe (FIFO)"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"), (stat.S_ISDIR, "a directory"))


def _kind(mode: int) -> str | None:
    for test, name in _KINDS:
        if test(mode):
            return name
    return None if stat.S_ISREG(mode) else "not a regular file"


def _stat_problem(path: str) -> tuple[os.stat_result | None, str | None]:
    """``(stat, None)`` when ``path`` exists (links followed), else ``(None, reason)``; a missing path gives ``(None, None)``."""
    try:
        return os.stat(path), None
    except FileNotFoundError:
        if os.path.islink(path):
            return None, f"is a dangling symbolic link (to {os.readlink(path)!r})"
        return None, None
    except NotADirectoryError:
        return None, "no such file (a parent is not a directory)"
    except PermissionError:
        return None, "permission denied"
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return None, "is a symbolic link loop"
        if exc.errno == errno.ENAMETOOLONG:
            return None, "the file name is too long"
        return None, exc.strerror or str(exc)


def _error(error, reason: str, path) -> Exception:
    """``error(reason, file=path)`` for a located error class, ``error("path: reason")`` for another."""
    if isinstance(error, type) and issubclass(error, LocatedError):
        return error(reason, file=str(path))
    return error(f"{path}: {reason}")


def input_problem(path) -> str | None:
    """Why ``path`` cannot be read as an input file, or ``None`` when it can.

    Examples
    --------
    >>> input_problem("/dev/null")
    'is a character device, expected a regular file'
    >>> input_problem("/nonexistent/x.jsonl")
    'no such file'
    """
    if "\x00" in str(path):
        return "the path contains a NUL character"
    info, reason = _stat_problem(str(path))
    if info is None:
        return reason or "no such file"
    kind = _kind(info.st_mode)
    if kind == "a directory":
        return "is a directory, expected a file"
    if kind is not None:
        return f"is {kind}, expected a regular file"
    return None


def check_input(path, *, error=PathError) -> Path:
    """Refuse anything but a readable regular file (see :func:`input_problem`).

    Parameters
    ----------
    path : str or path-like
    error : type, optional
        The error class to raise (default :class:`PathError`); a
        :class:`~symbolic.errors.LocatedError` subclass gets ``file=path``,
        another class a message that starts with the path.

    Returns
    -------
    Path
    """
    reason = input_problem(path)
    if reason is not None:
        raise _error(error, reason, path)
    return Path(path)


def output_problem(path) -> str | None:
    """Why ``path`` may not be written as an output file, or ``None`` when it may.

    A regular file, a new path in an existing directory, or a symbolic link
    to either (its target is written) may be; anything else may not.

    Examples
    --------
    >>> output_problem("/dev/null")
    'is a character device; refusing to replace it (give a regular file or a new path)'
    >>> output_problem("/tmp")
    'is a directory; refusing to replace it (give a regular file or a new path)'
    """
    text = str(path)
    if "\x00" in text:
        return "the path contains a NUL character"
    if not text or text.endswith(os.sep):
        return "is a directory path, expected a file name"
    target = os.path.realpath(text)
    info, reason = _stat_problem(text)
    if reason is not None and not reason.startswith("is a dangling"):
        return reason
    if info is not None:
        kind = _kind(info.st_mode)
        if kind is not None:
            return f"is {kind}; refusing to replace it (give a regular file or a new path)"
        return None
    parent = os.path.dirname(target) or "."
    pinfo, preason = _stat_problem(parent)
    if pinfo is None:
        return f"its directory {parent} does not exist" if preason is None else f"its directory {parent} {preason}"
    if not stat.S_ISDIR(pinfo.st_mode):
        return f"its parent {parent} is not a directory"
    return None


def check_output(path, *, error=PathError) -> Path:
    """Refuse an output path that is not a regular file or a new path (see :func:`output_problem`).

    Returns
    -------
    Path
        The path to write: the target of a symbolic link, else ``path``.
    """
    reason = output_problem(path)
    if reason is not None:
        raise _error(error, reason, path)
    return Path(os.path.realpath(path)) if os.path.islink(path) else Path(path)


def read_bytes(path, *, max_bytes: int = 64 * 1024 * 1024, error=PathError) -> bytes:
    """The bytes of a regular file of at most ``max_bytes`` (refused beyond, without reading it all).

    Raises
    ------
    error
        If the path is not a readable regular file or is too large.
    """
    check_input(path, error=error)
    try:
        with open(path, "rb") as handle:
            data = handle.read(max_bytes + 1)
    except OSError as exc:
        raise _error(error, exc.strerror or str(exc), path) from None
    if len(data) > max_bytes:
        raise _error(error, f"file is over the limit of {max_bytes} bytes", path)
    return data


def read_text(path, *, max_bytes: int = 64 * 1024 * 1024, error=PathError) -> str:
    """The UTF-8 text of a regular file (see :func:`read_bytes`); bad bytes are an ``error`` naming the offset."""
    data = read_bytes(path, max_bytes=max_bytes, error=error)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise _error(error, f"not valid UTF-8: byte 0x{data[exc.start]:02x} at byte offset {exc.start}",
                     path) from None


def write_atomic(path, data: bytes | str, *, error=PathError) -> Path:
    """Write ``data`` to ``path`` through a temporary file and a rename.

    A reader sees the old file or the new one, never a mix; on failure the
    temporary file is removed and any previous file is untouched.  The file
    gets the usual permissions (``0o666`` minus the umask), whoever wrote it.
    A symbolic link is followed (its target is written, the link is kept);
    a directory, device, pipe or socket at ``path`` is refused.

    Parameters
    ----------
    path : str or path-like
    data : bytes or str
        Text is encoded as UTF-8.
    error : type, optional
        The error raised for a refused path.

    Returns
    -------
    Path
        The file written (the link's target for a link).

    Raises
    ------
    error
        If the path may not be written (:func:`output_problem`).
    OSError
        If the directory is not writable.
    """
    if isinstance(data, str):
        data = data.encode("utf-8")
    target = check_output(path, error=error)
    directory = target.parent if str(target.parent) else Path(".")
    fd, tmp = tempfile.mkstemp(dir=directory, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
    return target
