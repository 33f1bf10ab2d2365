"""A parallel map over forked copies of this process: no pool to start and
nothing to import in the workers, which inherit everything loaded here.

The chunks' numbers wait in a pipe; this process and the workers take them
one by one until none is left, so a worker stuck on a big chunk does not hold
up the others.  Each worker sends (number, output) records back through a
pipe of its own.  A chunk whose result is missing (its worker died) is done
here.  Where fork() is not available, the caller uses a process pool."""

from __future__ import annotations

import gc
import os
import pickle
import select

from .output import write_all

_INDEX = 4  # bytes per chunk number in the pipe
_MOST = 15_000  # chunks: their numbers fit in a pipe's 64 kB before any reader exists
_LENGTH = 8  # bytes of a result's length, before its pickle


def can_fork() -> bool:
    return hasattr(os, "fork")


def fork_map(work, items: list, extra: tuple, jobs: int, size: int) -> list:
    """The outputs of work((chunk, *extra)), a list for each chunk of `size`
    items, joined in order, computed by `jobs` processes (this one included)."""
    size = max(size, -(-len(items) // _MOST))
    chunks = [items[i:i + size] for i in range(0, len(items), size)]
    if jobs <= 1 or len(chunks) <= 1:
        return [out for chunk in chunks for out in work((chunk, *extra))]
    tasks, write_end = os.pipe()
    try:
        write_all(write_end, b"".join(i.to_bytes(_INDEX, "little") for i in range(len(chunks))))
    finally:
        os.close(write_end)  # the workers see the end of the pipe once it is empty
    kids: dict[int, tuple[int, bytearray]] = {}  # read end -> (pid, bytes received)
    results = {}
    try:
        for _ in range(min(jobs, len(chunks)) - 1):
            back, pid = _fork(work, chunks, extra, tasks)
            kids[back] = (pid, bytearray())
        for i in _taken(tasks):
            results[i] = work((chunks[i], *extra))
            _drain(kids, wait=False)  # a worker whose pipe is full waits for this
        _drain(kids, wait=True)
    finally:
        os.close(tasks)
        for back, (pid, _) in kids.items():
            os.close(back)
            os.waitpid(pid, 0)
    for _, got in kids.values():
        results.update(_records(got))
    for i in range(len(chunks)):
        if i not in results:  # its worker died
            results[i] = work((chunks[i], *extra))
    return [out for i in range(len(chunks)) for out in results[i]]


def _fork(work, chunks: list, extra: tuple, tasks: int) -> tuple[int, int]:
    """A worker taking chunk numbers from `tasks`: (the read end of its results, its pid)."""
    back, out = os.pipe()
    try:
        import fcntl

        fcntl.fcntl(out, getattr(fcntl, "F_SETPIPE_SZ", 1031), 1 << 20)  # a worker waits less for this process
    except (ImportError, OSError):
        pass
    # What the worker inherits is kept out of its collector's reach, which
    # then neither walks it nor copies the pages it would touch.
    gc.freeze()
    here = os.getpid()
    try:
        pid = os.fork()
    finally:
        if os.getpid() == here:
            gc.unfreeze()
    if pid == 0:  # the worker: never returns
        code = 1
        try:
            os.close(back)
            for i in _taken(tasks):
                data = pickle.dumps((i, work((chunks[i], *extra))), pickle.HIGHEST_PROTOCOL)
                write_all(out, len(data).to_bytes(_LENGTH, "little") + data)
            code = 0
        finally:
            os._exit(code)
    os.close(out)
    os.set_blocking(back, False)
    return back, pid


def _drain(kids: dict, wait: bool) -> None:
    """Read what the workers have sent; with `wait`, until every one is done."""
    open_ends = set(kids)
    while open_ends:
        ready, _, _ = select.select(list(open_ends), [], [], None if wait else 0)
        for back in ready:
            try:
                data = os.read(back, 1 << 20)
            except BlockingIOError:
                continue
            if data:
                kids[back][1].extend(data)
            else:  # the worker is done
                open_ends.discard(back)
        if not wait:
            return


def _records(got: bytearray):
    """The (number, output) records a worker sent, up to the first that is
    not whole (a worker that died while sending it)."""
    at = 0
    while at + _LENGTH <= len(got):
        size = int.from_bytes(got[at:at + _LENGTH], "little")
        if at + _LENGTH + size > len(got):
            return
        try:
            yield pickle.loads(got[at + _LENGTH:at + _LENGTH + size])
        except Exception:
            return
        at += _LENGTH + size


def _taken(fd: int):
    """The chunk numbers this process takes, until the pipe is empty.  A read
    of a few bytes from a pipe is whole: no two processes split a number."""
    while True:
        data = os.read(fd, _INDEX)
        if len(data) < _INDEX:
            return
        yield int.from_bytes(data, "little")
