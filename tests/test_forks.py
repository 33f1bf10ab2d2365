"""Work shared with forked workers gives what one process gives, in order,
even when a worker dies on the way."""

from __future__ import annotations

import os
import select

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
            if not done_by:  # meanwhile the worker takes a chunk of its own (whichever process took the first)
                assert select.select([dying], [], [], 60)[0], "the worker never took a chunk"
            done_by.extend(chunk)
        else:
            os.write(tell, chunk[0].to_bytes(1, "little"))
            os._exit(3)  # a worker dies (a crash in a parser, say) before it sends its first chunk
        return [n + 1 for n in chunk]

    try:
        assert forks.fork_map(fragile, list(range(60)), (), 2, 1) == [n + 1 for n in range(60)]
        died_on = int.from_bytes(os.read(dying, 1), "little")
    finally:
        os.close(dying)
        os.close(tell)
    # This process waited on its first chunk until the worker had taken one and
    # died on it, then took all the others; the one with no result it did last.
    assert sorted(done_by) == list(range(60)) and done_by[-1] == died_on


def test_more_chunks_than_a_pipe_holds_are_grouped():
    items = list(range(40_000))
    assert forks.fork_map(squares, items, (0,), 2, 1)[-1][0] == items[-1] ** 2


def test_workers_are_reaped_when_the_map_returns():
    """No worker is left behind: none to reap later, none left to the system."""
    took, tell = os.pipe()
    waited = []

    def a_worker_takes_some(args):
        if os.getpid() != PARENT:
            os.write(tell, b".")
        elif not waited:  # under load this process could take every chunk before a worker runs
            waited.append(True)
            assert select.select([took], [], [], 60)[0], "no worker took a chunk"
        return squares(args)

    try:
        pids = {pid for _, pid in forks.fork_map(a_worker_takes_some, list(range(60)), (0,), 3, 1)} - {PARENT}
    finally:
        os.close(took)
        os.close(tell)
    assert pids
    for pid in pids:
        with pytest.raises(ChildProcessError):
            os.waitpid(pid, os.WNOHANG)
