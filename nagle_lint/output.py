"""Writing a report or a baseline where the user asked.  The path is often
inside the tree being linted (the Action writes `nagle-lint.sarif` into a
pull request's checkout), where a symbolic link of that name would make the
write land on any file the user can write: the last part of the path is
never followed as a link, unless it leads to a pipe, a terminal or a device
(`-o /dev/stdout`), where nothing is overwritten."""

from __future__ import annotations

import errno
import os
import stat

_CLOEXEC = getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)


def write_text(path: str, text: str) -> None:
    """Write `text` (UTF-8, as given) to `path`; OSError where it cannot be,
    including a link to a file or a folder."""
    data = text.encode("utf-8", "surrogateescape")
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0) | _CLOEXEC, 0o666)
    except OSError as e:
        if e.errno not in (errno.ELOOP, errno.EMLINK):  # EMLINK: FreeBSD's word for a link refused
            raise
        # A link: opened as it is, without creating or truncating anything,
        # and kept only where what it leads to is not a file.
        fd = os.open(path, os.O_WRONLY | _CLOEXEC)
        if stat.S_ISREG(os.fstat(fd).st_mode):
            os.close(fd)
            raise OSError(errno.ELOOP, "it is a symbolic link to a file; give the file's own path") from None
    try:
        write_all(fd, data)
    finally:
        os.close(fd)


def write_all(fd: int, data: bytes) -> None:
    """os.write until every byte is written (it may write fewer)."""
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]
