"""Which paths paratrace reads and writes: regular files only, never a hang.

Inputs are opened by :func:`open_input` (without blocking, then checked on the descriptor, so a
pipe swapped in after a check cannot hang the read); outputs are written by :func:`write_atomic`
(a regular file or a new path, through a temporary file and a rename).  Every refusal is a
:class:`PathError` (exit code 2 on the command line) naming the path and what is there.
"""

from __future__ import annotations

import errno
import os
import stat
import tempfile
from pathlib import Path
from typing import BinaryIO

from symbolic.errors import LocatedError, SymbolicError

__all__ = ["PathError", "append_whole", "check_output", "input_problem", "open_input", "output_problem",
           "read_bytes", "read_tail", "read_text", "write_atomic", "write_failure"]


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


def _shown(path) -> str:
    """``path`` as text that can be printed: bytes that are not UTF-8 (a file system name) as ``\\xNN``."""
    text = os.fsdecode(path) if isinstance(path, bytes) else str(path)
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        pass
    try:
        return text.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    except UnicodeEncodeError:  # a lone surrogate that no file system byte gives
        return text.encode("utf-8", "backslashreplace").decode("utf-8")


def _error(error, reason: str, path) -> Exception:
    """``error(reason, file=path)`` for a located error class, ``error("path: reason")`` for another."""
    if isinstance(error, type) and issubclass(error, LocatedError):
        return error(reason, file=_shown(path))
    return error(f"{_shown(path)}: {reason}")


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


def _open_problem(path: str, exc: OSError, follow_links: bool) -> str:
    """Why ``os.open`` failed on ``path``, in the words of :func:`input_problem`."""
    if exc.errno == errno.ELOOP and not follow_links and os.path.islink(path):
        return "is a symbolic link; refusing to follow it"
    if exc.errno in (errno.EACCES, errno.EPERM):
        return "permission denied"
    return input_problem(path) or exc.strerror or str(exc)


def open_input(path, *, error=PathError, follow_links: bool = True) -> BinaryIO:
    """Open a regular file for reading: with ``O_NONBLOCK`` (``O_NOFOLLOW`` unless ``follow_links``),
    then ``fstat`` of the descriptor decides; a device is refused from its path before it is opened.

    Parameters
    ----------
    path : str or path-like
    error : type, optional
        The error class to raise (default :class:`PathError`); a
        :class:`~symbolic.errors.LocatedError` subclass gets ``file=path``,
        another class a message that starts with the path.
    follow_links : bool, optional
        Whether a symbolic link is followed (default); when false, a link is
        refused (the files a command keeps for itself, never read through a
        link put in their place).

    Returns
    -------
    BinaryIO
        The file, in blocking mode, positioned at its start; the caller closes it.

    Raises
    ------
    error
        Naming the path and what is there (``is a named pipe (FIFO), expected a
        regular file``), or why it cannot be opened.

    Examples
    --------
    >>> import os, tempfile
    >>> pipe = os.path.join(tempfile.mkdtemp(), "pipe.jsonl")
    >>> os.mkfifo(pipe)
    >>> open_input(pipe)
    Traceback (most recent call last):
    ...
    symbolic.support.fsio.PathError: ...pipe.jsonl: is a named pipe (FIFO), expected a regular file
    """
    text = os.fsdecode(path)
    if "\x00" in text:
        raise _error(error, "the path contains a NUL character", path)
    try:
        before = os.stat(text) if follow_links else os.lstat(text)
    except OSError:
        before = None  # the open says why
    if before is not None and (stat.S_ISCHR(before.st_mode) or stat.S_ISBLK(before.st_mode)):
        raise _error(error, f"is {_kind(before.st_mode)}, expected a regular file", path)
    flags = (os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)
             | (0 if follow_links else getattr(os, "O_NOFOLLOW", 0)))
    try:
        fd = os.open(text, flags)
    except OSError as exc:
        raise _error(error, _open_problem(text, exc, follow_links), path) from None
    try:
        kind = _kind(os.fstat(fd).st_mode)
        if kind == "a directory":
            raise _error(error, "is a directory, expected a file", path)
        if kind is not None:
            raise _error(error, f"is {kind}, expected a regular file", path)
        os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_bytes(path, *, max_bytes: int = 64 * 1024 * 1024, error=PathError, follow_links: bool = True) -> bytes:
    """The bytes of a regular file of at most ``max_bytes`` (refused beyond, without reading it all).

    The file is opened by :func:`open_input` (never blocking, checked on its
    descriptor).

    Raises
    ------
    error
        If the path is not a readable regular file or is too large.
    """
    with open_input(path, error=error, follow_links=follow_links) as handle:
        size = os.fstat(handle.fileno()).st_size
        if size > max_bytes:
            raise _error(error, f"file is {size} bytes, over the limit of {max_bytes} bytes", path)
        try:
            data = handle.read(max_bytes + 1)
        except OSError as exc:
            raise _error(error, exc.strerror or str(exc), path) from None
    if len(data) > max_bytes:
        raise _error(error, f"file is over the limit of {max_bytes} bytes", path)
    return data


def read_tail(path, max_bytes: int = 64 * 1024, *, error=PathError) -> bytes:
    """The last ``max_bytes`` bytes of a regular file (a log's tail), opened by :func:`open_input`.

    A named pipe, a device or a directory is refused (``error``), never read
    or waited on, and a large file costs ``max_bytes`` of memory, not its size.

    Examples
    --------
    >>> import os, tempfile
    >>> log = os.path.join(tempfile.mkdtemp(), "server.log")
    >>> _ = open(log, "w").write("a" * 100 + "last line")
    >>> read_tail(log, 9)
    b'last line'
    """
    with open_input(path, error=error) as handle:
        size = os.fstat(handle.fileno()).st_size
        try:
            handle.seek(max(0, size - max_bytes))
            return handle.read(max_bytes)
        except OSError as exc:
            raise _error(error, exc.strerror or str(exc), path) from None


def read_text(path, *, max_bytes: int = 64 * 1024 * 1024, error=PathError, follow_links: bool = True) -> str:
    """The UTF-8 text of a regular file (see :func:`read_bytes`); bad bytes are an ``error`` naming the offset."""
    data = read_bytes(path, max_bytes=max_bytes, error=error, follow_links=follow_links)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise _error(error, f"not valid UTF-8: byte 0x{data[exc.start]:02x} at byte offset {exc.start}",
                     path) from None


#: What a write refused for lack of room says after the reason.
_NO_ROOM = (errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC), errno.EFBIG)


def write_failure(path, exc: OSError, *, error=PathError, kept: str = "the file was left as it was",
                  then: str = "run the command again") -> Exception:
    """The typed error for a write the file system refused (a full disk, a quota, an I/O error).

    Parameters
    ----------
    path : str or path-like
        The file being written (named first).
    exc : OSError
        The refusal (``exc.strerror`` is the reason).
    error : type, optional
        The error class (as :func:`check_output`).
    kept : str, optional
        What was kept of the file.
    then : str, optional
        What to do once there is room again.

    Examples
    --------
    >>> import errno
    >>> print(write_failure("a", OSError(errno.ENOSPC, "No space left on device"), kept="kept", then="retry"))
    a: cannot write: No space left on device; kept (free space, then retry)
    """
    reason = exc.strerror or str(exc)
    hint = f" (free space, then {then})" if exc.errno in _NO_ROOM else ""
    return _error(error, f"cannot write: {reason}; {kept}{hint}", path)


def append_whole(path: str | os.PathLike, data: bytes) -> None:
    """Append ``data`` to ``path`` (created when missing, never through a link) and sync it, or nothing.

    A write the file system refuses part way (a full disk) is cut back to the
    file's size before it, so the file never ends in a partial record.

    Raises
    ------
    OSError
        From opening or writing, for the caller to name (:func:`write_failure`).
    """
    flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(path, flags, 0o666)
    try:
        size = os.fstat(fd).st_size  # one writer (the caller's lock): the new bytes start here
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
            os.fsync(fd)
        except OSError:
            try:
                os.ftruncate(fd, size)
                os.fsync(fd)
            except OSError:
                pass  # a torn tail is still found (and reported) by the file's next reader
            raise
    finally:
        os.close(fd)


def write_atomic(path, data: bytes | str, *, error=PathError) -> Path:
    """Write ``data`` to ``path`` through a temporary file and a rename: a reader sees the old file or
    the new one; on failure the previous file is untouched.  Permissions are ``0o666`` minus the
    umask; a link's target is written; a directory, device, pipe or socket is refused.

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
        If the path may not be written (:func:`output_problem`), or the file
        system refused the write (a full disk: :func:`write_failure`, naming
        the path; the previous file is untouched).
    """
    if isinstance(data, str):
        data = data.encode("utf-8")
    target = check_output(path, error=error)
    directory = target.parent if str(target.parent) else Path(".")
    try:
        fd, tmp = tempfile.mkstemp(dir=directory, prefix=f".{target.name}.", suffix=".tmp")
    except OSError as exc:
        raise write_failure(path, exc, error=error) from None
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, target)
    except BaseException as exc:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        if isinstance(exc, OSError):
            raise write_failure(path, exc, error=error) from None
        raise
    return target
