"""Work shared with forked copies of this process: no pool to start, nothing
to import in the workers, no threads here to wake for every result.

The chunks' numbers wait in a pipe; this process and the workers take them
one by one until none is left, so a worker stuck on a big file does not hold
up the others.  A worker sends each chunk's result back through a pipe of
its own as it goes (nothing is written to disk); a chunk whose result is
missing (a worker that died) is done here.  Where fork() is not available,
the caller uses a process pool instead."""

from __future__ import annotations

import os
import pickle

_INDEX = 4  # bytes per chunk number in the pipe
_MOST = 15_000  # chunks: their numbers fit in a pipe's 64 kB before any reader exists
_LENGTH = 8  # bytes of a result's length, before its pickle


def can_fork() -> bool:
    return hasattr(os, "fork")


def fork_map(work, items: list, extra: tuple, jobs: int, size: int) -> list:
    """The outputs of work((chunk, *extra)), a list for each chunk of `size`
    items, one after the other, computed by `jobs` processes (this one
    included)."""
    size = max(size, -(-len(items) // _MOST))
    chunks = [items[i:i + size] for i in range(0, len(items), size)]
    return [out for result in _map(work, chunks, extra, jobs) for out in result]


def _map(work, chunks: list, extra: tuple, jobs: int) -> list:
    if jobs <= 1 or len(chunks) <= 1:
        return [work((chunk, *extra)) for chunk in chunks]
    tasks, write_end = os.pipe()
    try:
        _write_all(write_end, b"".join(i.to_bytes(_INDEX, "little") for i in range(len(chunks))))
    finally:
        os.close(write_end)  # the workers see the end of the pipe once it is empty
    kids: list[tuple[int, int, bytearray]] = []  # (pid, read end of its results, what came so far)
    results = {}
    try:
        for _ in range(min(jobs, len(chunks)) - 1):
            back, out = os.pipe()
            _widen(out)
            pid = os.fork()
            if pid == 0:  # the worker: never returns
                code = 1
                try:
                    os.close(back)
                    for i in _taken(tasks):
                        data = pickle.dumps((i, work((chunks[i], *extra))), pickle.HIGHEST_PROTOCOL)
                        _write_all(out, len(data).to_bytes(_LENGTH, "little") + data)
                    code = 0
                finally:
                    os._exit(code)
            os.close(out)
            os.set_blocking(back, False)
            kids.append((pid, back, bytearray()))
        for i in _taken(tasks):
            results[i] = work((chunks[i], *extra))
            _drain(kids, wait=False)  # a worker whose pipe is full waits for this
        _drain(kids, wait=True)
    finally:
        os.close(tasks)
        for pid, back, _ in kids:
            os.close(back)
            _reap(pid)
    for _, _, got in kids:
        results.update(_unpacked(got))
    for i, chunk in enumerate(chunks):
        if i not in results:
            results[i] = work((chunk, *extra))
    return [results[i] for i in range(len(chunks))]


def _widen(fd: int) -> None:
    """A bigger pipe where Linux allows it: a worker waits less for this process to read."""
    try:
        import fcntl

        fcntl.fcntl(fd, getattr(fcntl, "F_SETPIPE_SZ", 1031), 1 << 20)
    except (ImportError, OSError):
        pass


def _drain(kids, wait: bool) -> None:
    """Read what the workers have sent; with `wait`, until every one is done."""
    import select

    open_ends = {back: got for _, back, got in kids}
    while open_ends:
        ready, _, _ = select.select(list(open_ends), [], [], None if wait else 0)
        if not ready:
            return
        for back in ready:
            try:
                data = os.read(back, 1 << 20)
            except BlockingIOError:
                continue
            if data:
                open_ends[back] += data
            else:  # the worker is done
                del open_ends[back]
        if not wait:
            return


def _unpacked(got: bytearray):
    """(chunk number, result) of each whole record; a record cut short (a
    worker that died while sending it) ends the list."""
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


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def _taken(fd: int):
    """The chunk numbers this process takes, until the pipe is empty.  A read
    of a few bytes from a pipe is whole: no two processes split a number."""
    while True:
        data = os.read(fd, _INDEX)
        if len(data) < _INDEX:
            return
        yield int.from_bytes(data, "little")


def _reap(pid: int) -> None:
    try:
        os.waitpid(pid, 0)
    except ChildProcessError:  # already reaped
        pass
