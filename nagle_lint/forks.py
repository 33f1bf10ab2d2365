"""Work shared with forked copies of this process: no pool to start, nothing
to import in the workers, no threads here to wake for every result.

The chunks' numbers wait in a pipe; this process and the workers take them
one by one until none is left, so a worker stuck on a big file does not hold
up the others.  A worker sends each chunk's result back through a pipe of
its own as it goes (nothing is written to disk); a chunk whose result is
missing (a worker that died) is done here.  Where fork() is not available,
the caller uses a process pool instead."""

from __future__ import annotations

import heapq
import os
import pickle

_INDEX = 4  # bytes per chunk number in the pipe
_MOST = 15_000  # chunks: their numbers fit in a pipe's 64 kB before any reader exists
_LENGTH = 8  # bytes of a result's length, before its pickle
_ROOM = 4_000  # items a stream writes into its pipe at the end: they fit beside the few handed over before


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
    kids: list[_Kid] = []
    try:
        _fork(kids, min(jobs, len(chunks)) - 1, work, chunks.__getitem__, extra, tasks)
    except BaseException:
        _closed(kids, tasks)
        raise
    results = _served(kids, work, chunks.__getitem__, extra, tasks, range(len(chunks)))
    return [results[i] for i in range(len(chunks))]


class Stream:
    """Work on items handed over one by one while they are being found (the
    files a scan lets through, lowered while the scan goes on): the first
    `put` forks `jobs - 1` workers, which take the items' numbers from a
    pipe; `results` takes what is left here too, and gives each item's
    output.  `work` is called as fork_map calls it, with a chunk of one item.

    While items are put, the pipe holds two items a worker at most (so that
    handing one over never waits); the others wait here, and the heaviest is
    handed over first, so that no heavy item is left for last."""

    def __init__(self, work, items: list, extra: tuple, jobs: int):
        self.work, self.extra, self.jobs = work, extra, jobs
        self.chunk = lambda i: [items[i]]
        self.kids: list[_Kid] = []
        self.put_in: list[int] = []
        self.waiting: list[tuple[float, int]] = []  # a heap of (-weight, number)
        self.handed = 0
        self.tasks = self.feed = None

    def put(self, i: int, weight: float = 0) -> None:
        if self.feed is None:
            self.tasks, self.feed = os.pipe()
            try:
                _fork(self.kids, self.jobs - 1, self.work, self.chunk, self.extra, self.tasks, self.feed)
            except BaseException:
                os.close(self.feed)
                _closed(self.kids, self.tasks)
                raise
        heapq.heappush(self.waiting, (-weight, i))
        self.put_in.append(i)
        self.hand_over()

    def hand_over(self) -> None:
        """Hand items over to the workers, the heaviest first, while they
        have fewer than two each."""
        if self.feed is None:
            return
        _drain(self.kids, wait=False)
        room = 2 * len(self.kids) - (self.handed - sum(len(k.outputs) for k in self.kids))
        picked = [heapq.heappop(self.waiting)[1] for _ in range(min(room, len(self.waiting)))]
        if picked:
            _write_all(self.feed, b"".join(i.to_bytes(_INDEX, "little") for i in picked))
            self.handed += len(picked)

    def results(self) -> dict:
        """Item number -> its output (a list, as for a chunk), for every item
        put.  The items still waiting go into the pipe, the heaviest first,
        and this process takes them from it with the workers (none then waits
        for this one to hand over more); beyond what the pipe holds, this
        process takes the heaviest while the workers are handed theirs."""
        if self.feed is None:
            return {}
        here = {}
        while len(self.waiting) > _ROOM:
            self.hand_over()
            i = heapq.heappop(self.waiting)[1]
            here[i] = self.work((self.chunk(i), *self.extra))
        rest = [heapq.heappop(self.waiting)[1] for _ in range(len(self.waiting))]
        _write_all(self.feed, b"".join(i.to_bytes(_INDEX, "little") for i in rest))
        os.close(self.feed)
        self.feed = None
        results = _served(self.kids, self.work, self.chunk, self.extra, self.tasks,
                          [i for i in self.put_in if i not in here])
        results.update(here)
        return results

    def close(self) -> None:
        """Let the workers go without waiting for their results (an error
        meanwhile): they end once their pipes are closed."""
        if self.feed is not None:
            os.close(self.feed)
            self.feed = None
            _closed(self.kids, self.tasks)


def _fork(kids: list, n: int, work, chunk, extra: tuple, tasks: int, feed: int | None = None) -> None:
    """Fork `n` workers that take chunk numbers from `tasks` until its end
    (`feed`: the pipe's write end, which they close, so that the end comes),
    each sending back (number, output) records; `kids` gets each one."""
    import gc

    here = os.getpid()
    for _ in range(n):
        back, out = os.pipe()
        _widen(out)
        # What a worker inherits is put out of its collector's reach: its
        # collections then neither walk it nor copy the pages they touch
        # (1-2% of a run on curl, Twisted and the 10k corpus).
        gc.freeze()
        try:
            pid = os.fork()
        finally:
            if os.getpid() == here:
                gc.unfreeze()
        if pid == 0:  # the worker: never returns
            code = 1
            try:
                os.close(back)
                if feed is not None:
                    os.close(feed)
                for i in _taken(tasks):
                    data = pickle.dumps((i, work((chunk(i), *extra))), pickle.HIGHEST_PROTOCOL)
                    _write_all(out, len(data).to_bytes(_LENGTH, "little") + data)
                # Done, said now: the end of the pipe would otherwise come only
                # once the exit has freed this copy's memory (1-3 ms).
                os.close(out)
                code = 0
            finally:
                os._exit(code)
        os.close(out)
        os.set_blocking(back, False)
        kids.append(_Kid(pid, back))


class _Kid:
    """A worker: its pid, the read end of its results, the outputs it sent
    (chunk number -> output) and the bytes of the record coming."""

    __slots__ = ("pid", "back", "outputs", "got", "broken")

    def __init__(self, pid: int, back: int):
        self.pid, self.back, self.outputs, self.got, self.broken = pid, back, {}, bytearray(), False

    def take(self, data: bytes) -> None:
        """Each record whole now unpickled as it comes (while the others still
        work), not all at the end; a record that does not load (a worker that
        died while sending it) ends what is taken from this worker."""
        got = self.got
        got += data
        at = 0
        with memoryview(got) as view:
            while not self.broken and at + _LENGTH <= len(got):
                size = int.from_bytes(view[at:at + _LENGTH], "little")
                if at + _LENGTH + size > len(got):
                    break
                try:
                    i, output = pickle.loads(view[at + _LENGTH:at + _LENGTH + size])
                except Exception:
                    self.broken = True
                    break
                self.outputs[i] = output
                at += _LENGTH + size
        del got[:at]


def _served(kids: list, work, chunk, extra: tuple, tasks: int, expected) -> dict:
    """Take chunk numbers here too until the pipe's end, wait for the
    workers, and return number -> output for each of `expected` (one whose
    result is missing, from a worker that died, is done here)."""
    results = {}
    try:
        for i in _taken(tasks):
            results[i] = work((chunk(i), *extra))
            _drain(kids, wait=False)  # a worker whose pipe is full waits for this
        _drain(kids, wait=True)
    except BaseException:
        _closed(kids, tasks)
        raise
    _closed(kids, tasks, wait=False)  # each has sent its last result; its exit goes on without us
    for kid in kids:
        results.update(kid.outputs)
    for i in expected:
        if i not in results:
            results[i] = work((chunk(i), *extra))
    return results


def _closed(kids: list, tasks: int, wait: bool = True) -> None:
    """The pipes closed and the workers reaped once they are done; without
    `wait` (workers that said they are done), the ones still exiting are
    reaped by a later call."""
    os.close(tasks)
    for kid in kids:
        os.close(kid.back)
        if wait:
            _reap(kid.pid)
        else:
            _EXITING.append(kid.pid)
    global _exit_hook
    if _EXITING and _exit_hook is None:
        import atexit

        _exit_hook = atexit.register(_reap_exited, True)
    _reap_exited()


_EXITING: list[int] = []  # workers done but maybe still exiting, not reaped yet


def _reap_exited(wait: bool = False) -> None:
    """Reap the workers that have exited; with `wait`, all of them (done at
    exit: none is left to the system, and their time counts as this run's)."""
    for pid in list(_EXITING):
        try:
            done = os.waitpid(pid, 0 if wait else os.WNOHANG)[0]
        except ChildProcessError:  # reaped already
            done = pid
        if done:
            _EXITING.remove(pid)


_exit_hook = None  # set once a worker is left to be reaped


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

    open_ends = {kid.back: kid for kid in kids}
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
                open_ends[back].take(data)
            else:  # the worker is done
                del open_ends[back]
        if not wait:
            return


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
