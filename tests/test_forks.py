"""Work shared with forked workers gives what one process gives, in order,
even when a worker dies on the way."""

from __future__ import annotations

import os
import select
import time

import pytest

from nagle_lint import forks

pytestmark = pytest.mark.skipif(not forks.can_fork(), reason="no fork() here")

PARENT = os.getpid()


def squares(args):
    chunk, offset = args
    return [(n * n + offset, os.getpid()) for n in chunk]


@pytest.mark.parametrize("jobs, size", [(1, 3), (2, 1), (2, 7), (3, 2), (4, 1000)])
def test_the_same_outputs_in_the_same_order(jobs, size):
    items = list(range(200))
    got = forks.fork_map(squares, items, (5,), jobs, size)
    assert [value for value, _ in got] == [n * n + 5 for n in items]


def test_the_workers_share_the_work():
    worker_took, worker_tells = os.pipe()
    parent_took, parent_tells = os.pipe()
    waited = []  # each process has its own copy once forked

    def both_take_some(args):
        chunk, offset = args
        if not waited:
            # Each process holds its first chunk until the other side has one,
            # so that none takes them all, however the processes are scheduled.
            waited.append(True)
            here = os.getpid() == PARENT
            os.write(parent_tells if here else worker_tells, b".")
            assert select.select([worker_took if here else parent_took], [], [], 60)[0], "the other side took no chunk"
        return squares(args)

    try:
        got = forks.fork_map(both_take_some, list(range(400)), (0,), 3, 1)
    finally:
        for fd in (worker_took, worker_tells, parent_took, parent_tells):
            os.close(fd)
    assert [value for value, _ in got] == [n * n for n in range(400)]
    assert PARENT in {pid for _, pid in got} and len({pid for _, pid in got}) > 1


def test_big_results_come_back_whole():
    def blobs(args):
        (chunk,) = args
        return [bytes([n % 256]) * 300_000 for n in chunk]  # more than a pipe holds, many times over

    got = forks.fork_map(blobs, list(range(40)), (), 2, 1)
    assert got == [bytes([n % 256]) * 300_000 for n in range(40)]


def test_a_chunk_whose_worker_died_is_done_here():
    done_by = []
    dying, tell = os.pipe()

    def fragile(args):
        (chunk,) = args
        if os.getpid() == PARENT:
            done_by.extend(chunk)
            if chunk == [0]:  # meanwhile the worker takes the other chunks, up to 13
                assert select.select([dying], [], [], 60)[0], "the worker never took chunk 13"
        elif 13 in chunk:
            os.write(tell, b".")
            os._exit(3)  # a worker dies (a crash in a parser, say) before it sends this chunk
        return [n + 1 for n in chunk]

    try:
        assert forks.fork_map(fragile, list(range(60)), (), 2, 1) == [n + 1 for n in range(60)]
    finally:
        os.close(dying)
        os.close(tell)
    # The worker took 1 to 13 while this process slept and died on 13; this
    # process took the rest, then did 13, which had no result, last of all.
    assert done_by.count(13) == 1 and done_by[-1] == 13


def test_more_chunks_than_a_pipe_holds_are_grouped():
    items = list(range(40_000))
    assert forks.fork_map(squares, items, (0,), 2, 1)[-1][0] == items[-1] ** 2


def weighed(args):
    """An item's output, and the process that worked it out (here, only
    while the parent is in `results`, when it takes the heaviest first)."""
    (chunk,) = args
    return [(n * 3, os.getpid()) for n in chunk]


@pytest.mark.parametrize("jobs", [2, 3])
def test_a_stream_gives_every_item_put_its_output(jobs):
    worker_took, worker_tells = os.pipe()
    parent_took, parent_tells = os.pipe()
    waited = []  # each process has its own copy once forked

    def shared_whatever_the_scheduling(args):
        # Each process holds its first item until the other side has one: this
        # one until a worker has taken an item, a worker until this one has.
        # However the processes are scheduled (a loaded machine once let one
        # side take every item), both then work.
        if not waited:
            waited.append(True)
            if os.getpid() == PARENT:
                assert select.select([worker_took], [], [], 60)[0], "no worker took an item"
                os.write(parent_tells, b"." * (jobs - 1))  # one for each worker, read at its first item
            else:
                os.write(worker_tells, b".")
                assert select.select([parent_took], [], [], 60)[0], "this process took no item"
                os.read(parent_took, 1)
        return weighed(args)

    items = list(range(500))
    stream = forks.Stream(shared_whatever_the_scheduling, items, (), jobs)
    order = [(i * 7) % 500 for i in range(500)]  # put in no particular order
    try:
        for i in order:
            stream.put(i, weight=i % 13)
        got = stream.results()
    finally:
        for fd in (worker_took, worker_tells, parent_took, parent_tells):
            os.close(fd)
    assert sorted(got) == items
    assert all(got[i] == [(i * 3, got[i][0][1])] for i in items)
    workers = {out[0][1] for out in got.values()} - {PARENT}
    assert workers and PARENT in {out[0][1] for out in got.values()}  # the work was shared


def test_a_stream_worked_here_takes_the_heaviest_first():
    taken_here = []

    def record(args):
        (chunk,) = args
        if os.getpid() == PARENT:
            taken_here.extend(chunk)
        else:
            time.sleep(0.001)  # so that this process takes its share
        return [n for n in chunk]

    weights = [(n * 37) % 101 for n in range(300)]
    stream = forks.Stream(record, list(range(300)), (), 2)
    for i in range(300):
        stream.put(i, weight=weights[i])
    assert sorted(stream.results()) == list(range(300))
    # This process works only from `results`, taking from the pipe with the
    # worker: first what was handed over before (two at most), then what
    # waited, the heaviest first (the worker takes some in between: the
    # order stays).
    here = [weights[i] for i in taken_here][2:]
    assert len(here) > 50 and here == sorted(here, reverse=True)


def test_an_item_whose_stream_worker_died_is_done_here():
    def fragile(args):
        (chunk,) = args
        if os.getpid() != PARENT:
            os._exit(3)  # the worker dies on the first item it takes, holding it and the next
        return [n + 1 for n in chunk]

    stream = forks.Stream(fragile, list(range(40)), (), 2)
    for i in range(40):
        stream.put(i)
    assert stream.results() == {i: [i + 1] for i in range(40)}


def test_a_stream_of_more_items_than_a_pipe_holds_never_waits():
    """The numbers of 40,000 items do not fit in a pipe: only a few are
    handed over at a time, so a worker that takes none for a while does not
    stop `put` (here the worker waits until every item is put)."""
    all_put, tell = os.pipe()

    def held(args):
        (chunk,) = args
        waited = os.getpid() == PARENT or bool(select.select([all_put], [], [], 30)[0])
        return [(n, waited) for n in chunk]

    items = list(range(40_000))
    stream = forks.Stream(held, items, (), 2)
    try:
        for i in items:
            stream.put(i)
        os.write(tell, b".")
        got = stream.results()
    finally:
        os.close(all_put)
        os.close(tell)
    assert sorted(got) == items
    assert all(waited for out in got.values() for _, waited in out)  # no worker gave up waiting


def test_a_stream_nothing_was_put_in_forks_nothing():
    stream = forks.Stream(weighed, [1, 2], (), 2)
    assert stream.results() == {} and stream.kids == []


def test_a_stream_closed_on_an_error_lets_its_workers_go():
    stream = forks.Stream(weighed, list(range(100)), (), 3)
    for i in range(100):
        stream.put(i)
    pids = [kid.pid for kid in stream.kids]
    stream.close()
    assert len(pids) == 2
    for pid in pids:  # ended and reaped: no process is left behind
        with pytest.raises(ChildProcessError):
            os.waitpid(pid, os.WNOHANG)
    stream.close()  # a second close does nothing


def test_workers_done_are_reaped_later_and_none_is_left_behind():
    """fork_map returns once every worker has sent its last result, without
    waiting for its exit; a later call reaps the ones that have exited."""
    pids = set()
    for _ in range(4):
        pids |= {pid for _, pid in forks.fork_map(squares, list(range(60)), (0,), 3, 1)} - {PARENT}
    assert pids
    deadline = time.monotonic() + 30
    while forks._EXITING and time.monotonic() < deadline:
        time.sleep(0.01)
        forks._reap_exited()
    assert forks._EXITING == []
    for pid in pids:
        with pytest.raises(ChildProcessError):
            os.waitpid(pid, os.WNOHANG)


def test_workers_left_exiting_are_waited_for_at_exit():
    """A process that ends right after fork_map reaps its workers first: none
    is left to the system, and their CPU time counts in the process's own
    (what a benchmark reads from wait4)."""
    import subprocess
    import sys

    script = (
        "import os, time\n"
        "from nagle_lint import forks\n"
        "parent, held = os.getpid(), []\n"
        "def busy(args):\n"
        "    start = time.process_time()\n"
        "    if os.getpid() != parent and not held:\n"
        "        held.append(b'x' * (300 << 20))  # freeing it makes the worker's exit take a while\n"
        "    while time.process_time() - start < 0.1:\n"
        "        pass\n"
        "    return [time.process_time() - start]\n"
        "print(sum(forks.fork_map(busy, list(range(6)), (), 3, 1)))\n"
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    proc = subprocess.Popen([sys.executable, "-c", script], env=env, stdout=subprocess.PIPE, text=True)
    _, status, usage = os.wait4(proc.pid, 0)
    burned = float(proc.stdout.read())
    proc.stdout.close()
    assert os.waitstatus_to_exitcode(status) == 0 and burned >= 0.6
    assert usage.ru_utime + usage.ru_stime >= 0.9 * burned  # the workers' share included
